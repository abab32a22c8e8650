// The server the tester is held against: the real runtime on examples/orders.yaml, over a real SQLite file, with
// API keys for two subjects and one lacking scopes, and payment-provider clients for both subjects.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { compileSpecFile, type CompiledSpec } from '../../src/program.js';
import type { ServiceModel } from '../../src/model/model-types.js';
import { createAuthenticator } from '../../src/runtime/auth/auth-authenticator.js';
import { createApiKey, createClient } from '../../src/runtime/auth/auth-credentials.js';
import { createMemoryStore } from '../../src/runtime/limits/limits-store.js';
import type { CustomHandler } from '../../src/runtime/runtime-context.js';
import { createService } from '../../src/runtime/runtime-service.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import type { TestOptions } from '../../src/tester/tester-types.js';

export const ORDERS = fileURLToPath(new URL('../../examples/orders.yaml', import.meta.url));

export function compileOrders(): CompiledSpec & { model: ServiceModel } {
  const c = compileSpecFile(ORDERS);
  if (!c.model) throw new Error('orders.yaml does not compile');
  return c as CompiledSpec & { model: ServiceModel };
}

export interface OrdersServer {
  url: string;
  app: FastifyInstance;
  model: ServiceModel;
  /** The tester's options for this server: credentials for main, other and limited subjects. */
  options: Omit<TestOptions, 'baseUrl'>;
  /** The same credentials as `servicespec test` flags. */
  flags: string[];
  /** The API keys: main subject, other subject, the one lacking scopes. */
  keys: { alice: string; bob: string; carol: string };
  close(): Promise<void>;
}

/** Rate-limit windows run this many times faster than the clock: the declared 100/min budget refills in 3 s. */
export const LIMITER_SPEED = 20;

export async function startOrders(): Promise<OrdersServer> {
  const compiled = compileOrders();
  const model = compiled.model;
  const dir = mkdtempSync(join(tmpdir(), 'servicespec-tester-'));
  const storage = createSqliteStorage({ path: join(dir, 'service.db'), synchronous: 'normal' });
  const authenticator = await createAuthenticator(model, storage, { allowGaps: true });
  const handlersFile = new URL('../../examples/orders-handlers.js', import.meta.url).href;
  const { handlers } = (await import(handlersFile)) as { handlers: Record<string, CustomHandler> };
  const app = await createService(model, { storage, authenticator, allowGaps: true, handlers, rateLimitStore: createMemoryStore(() => Date.now() * LIMITER_SPEED) });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const scopes = ['orders:read', 'orders:write', 'customers:read', 'customers:write', 'webhooks:manage'];
  const alice = await createApiKey(storage, model, { subject: 'alice', scopes });
  const bob = await createApiKey(storage, model, { subject: 'bob', scopes });
  const limited = await createApiKey(storage, model, { subject: 'carol', scopes: ['customers:read'] });
  const alicePay = await createClient(storage, model, { subject: 'alice', scopes: ['orders:write'] });
  const bobPay = await createClient(storage, model, { subject: 'bob', scopes: ['orders:write'] });
  const carolPay = await createClient(storage, model, { subject: 'carol', scopes: ['customers:read'] });
  return {
    url,
    app,
    model,
    options: {
      credentials: { headers: { 'X-API-Key': alice.key }, clientId: alicePay.clientId, clientSecret: alicePay.clientSecret },
      other: { headers: { 'X-API-Key': bob.key }, clientId: bobPay.clientId, clientSecret: bobPay.clientSecret },
      limited: { headers: { 'X-API-Key': limited.key }, clientId: carolPay.clientId, clientSecret: carolPay.clientSecret },
      limitedScopes: ['customers:read'],
      sourceMap: compiled.sourceMap,
    },
    keys: { alice: alice.key, bob: bob.key, carol: limited.key },
    flags: [
      '--header', `X-API-Key: ${alice.key}`, '--client-id', alicePay.clientId, '--client-secret', alicePay.clientSecret,
      '--other-header', `X-API-Key: ${bob.key}`, '--other-client-id', bobPay.clientId, '--other-client-secret', bobPay.clientSecret,
      '--limited-header', `X-API-Key: ${limited.key}`, '--limited-client-id', carolPay.clientId, '--limited-client-secret', carolPay.clientSecret, '--limited-scopes', 'customers:read',
    ],
    async close() {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
