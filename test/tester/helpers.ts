// The server the tester is held against: the real runtime on examples/orders.yaml, over a real SQLite file, with
// API keys for two subjects and one lacking scopes, and payment-provider clients for both subjects.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { compileSpecFile, type CompiledSpec } from '../../src/program.js';
import type { CheckedModel } from '../../src/model/model-types.js';
import { createAuthenticator } from '../../src/runtime/auth/auth-authenticator.js';
import { createApiKey, createBasicUser, createClient } from '../../src/runtime/auth/auth-credentials.js';
import { createMemoryStore } from '../../src/runtime/limits/limits-store.js';
import type { CustomHandler } from '../../src/runtime/runtime-context.js';
import { createService } from '../../src/runtime/service/runtime-service.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import type { Clock } from '../../src/tester/tester-pacing.js';
import type { SubjectCredentials, TestOptions } from '../../src/tester/tester-types.js';

export const ORDERS = fileURLToPath(new URL('../../examples/orders.yaml', import.meta.url));

export function compileOrders(): CompiledSpec & { model: CheckedModel } {
  const c = compileSpecFile(ORDERS);
  if (!c.model) throw new Error('orders.yaml does not compile');
  return c as CompiledSpec & { model: CheckedModel };
}

export interface OrdersServer {
  url: string;
  app: FastifyInstance;
  model: CheckedModel;
  /** The tester's options for this server: credentials for main, other and limited subjects. */
  options: Omit<TestOptions, 'baseUrl'>;
  /** The same credentials as `servicespec test` flags. */
  flags: string[];
  /** The API keys: main subject, other subject, the one lacking scopes. */
  keys: { alice: string; bob: string; carol: string };
  /** Another API key (of the spec's first api_key scheme) for `subject` holding `scopes`. */
  createKey(subject: string, scopes: readonly string[]): Promise<string>;
  close(): Promise<void>;
}

/** Rate-limit windows run this many times faster than the clock: the declared 100/min budget refills in 3 s. */
export const LIMITER_SPEED = 20;

/** Waits this long or longer pass at once on the test clock (the tester's grace periods for events are 300 ms). */
const SKIPPED_WAIT_MS = 500;

/**
 * The clock a served spec and the tester share: the wall clock, except that a wait of half a second or more (a
 * Retry-After, a spent budget's refill) passes at once and moves the clock on for both; shorter waits (an event's
 * grace) are real, since the service must do something meanwhile.
 */
export function createTestClock(): Clock {
  let skipped = 0;
  return {
    now: () => Date.now() + skipped,
    sleep: (ms) =>
      ms >= SKIPPED_WAIT_MS
        ? new Promise((resolve) => {
            skipped += ms;
            setImmediate(resolve);
          })
        : new Promise((resolve) => setTimeout(resolve, ms)),
  };
}

export async function startOrders(): Promise<OrdersServer> {
  return startSpec(ORDERS, new URL('../../examples/orders-handlers.js', import.meta.url).href);
}

/**
 * Any spec served by the real runtime, with credentials for every scheme it declares (API keys, basic users,
 * OAuth2 clients; tokens from an identity provider are not made): alice and bob hold every scope but the owner
 * overrides, carol holds only the first scope.
 */
/** `limiter`: how much faster than the wall clock rate-limit windows run, or the limiter's own clock. */
export async function startSpec(
  spec: string,
  handlersUrl?: string,
  limiter: number | (() => number) = LIMITER_SPEED,
  webhooks: { callbackSecret?: string } = {},
): Promise<OrdersServer> {
  const c = compileSpecFile(spec);
  if (!c.model || !c.checked) throw new Error(`${spec} does not check: ${c.diagnostics.map((d) => d.code).join(', ')}`);
  const compiled = c as CompiledSpec & { model: CheckedModel };
  const model = c.checked;
  const dir = mkdtempSync(join(tmpdir(), 'servicespec-tester-'));
  const storage = createSqliteStorage({ path: join(dir, 'service.db'), synchronous: 'normal' });
  // The failed-credential bound and the limiter on the tester's clock, so that the tester's waits for them pass at once.
  const clock = createTestClock();
  const authenticator = await createAuthenticator(model, storage, { allowGaps: true, now: () => new Date(clock.now()) });
  const handlers = handlersUrl ? ((await import(handlersUrl)) as { handlers: Record<string, CustomHandler> }).handlers : {};
  const app = await createService(model, {
    storage,
    authenticator,
    allowGaps: true,
    handlers,
    rateLimitStore: createMemoryStore(typeof limiter === 'function' ? limiter : () => clock.now() * limiter),
    webhooks: { allowTargets: ['127.0.0.0/8'], ...webhooks },
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const overrides = new Set(model.resources.flatMap((r) => r.ownerOverrideScopes));
  const all = (model.authentication?.scopes ?? []).map((x) => x.name).filter((x) => !overrides.has(x));
  const limitedScopes = all.slice(0, 1);
  const schemes = model.authentication?.schemes ?? [];
  const keys: Record<string, string> = {};
  const make = async (subject: string, scopes: readonly string[]): Promise<{ creds: SubjectCredentials; flags: string[] }> => {
    const creds: SubjectCredentials = {};
    const flags: string[] = [];
    const prefix = subject === 'alice' ? '' : subject === 'bob' ? 'other-' : 'limited-';
    for (const scheme of schemes) {
      if (scheme.type === 'api_key' && scheme.credentialName !== undefined) {
        const k = await createApiKey(storage, model, { subject, scopes, scheme: scheme.name });
        keys[subject] = k.key;
        creds.headers = { ...creds.headers, [scheme.credentialName]: k.key };
        flags.push(`--${prefix}header`, `${scheme.credentialName}: ${k.key}`);
      } else if (scheme.type === 'basic') {
        const u = await createBasicUser(storage, model, { username: `${subject}-user`, password: `${subject}-password-0123456789`, subject, scopes });
        creds.basic = { user: u.username, password: `${subject}-password-0123456789` };
        flags.push(`--${prefix}basic`, `${u.username}:${subject}-password-0123456789`);
      } else if (scheme.type === 'oauth2_client_credentials') {
        const cl = await createClient(storage, model, { subject, scopes });
        creds.clientId = cl.clientId;
        creds.clientSecret = cl.clientSecret;
        flags.push(`--${prefix}client-id`, cl.clientId, `--${prefix}client-secret`, cl.clientSecret);
      }
    }
    return { creds, flags };
  };
  const alice = await make('alice', all);
  const bob = await make('bob', all);
  const carol = await make('carol', limitedScopes);
  return {
    url,
    app,
    model,
    options: {
      credentials: alice.creds,
      other: bob.creds,
      limited: carol.creds,
      limitedScopes,
      sourceMap: compiled.sourceMap,
      specText: readFileSync(spec, 'utf8'),
      // A test with a limiter clock of its own gives the tester that clock.
      ...(typeof limiter === 'function' ? {} : { clock }),
    },
    keys: { alice: keys.alice ?? '', bob: keys.bob ?? '', carol: keys.carol ?? '' },
    flags: [...alice.flags, ...bob.flags, ...carol.flags, '--limited-scopes', limitedScopes.join(',')],
    async createKey(subject, scopes) {
      const scheme = schemes.find((x) => x.type === 'api_key');
      return (await createApiKey(storage, model, { subject, scopes, ...(scheme ? { scheme: scheme.name } : {}) })).key;
    },
    async close() {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `startSpec` of a spec given as text (written to a folder of its own, removed on close). */
export async function startSpecText(name: string, text: string, webhooks: { callbackSecret?: string } = {}): Promise<OrdersServer> {
  const dir = mkdtempSync(join(tmpdir(), 'servicespec-tester-spec-'));
  const spec = join(dir, name);
  writeFileSync(spec, text);
  const s = await startSpec(spec, undefined, LIMITER_SPEED, webhooks);
  return {
    ...s,
    async close() {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
