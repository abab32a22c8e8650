// A real service for the console tests: an example spec on a real SQLite file, with its authenticator, the
// example's handlers and the docs routes on unless asked otherwise.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { createAuthenticator } from '../../src/runtime/auth/auth-authenticator.js';
import type { CustomHandler } from '../../src/runtime/runtime-context.js';
import { createService, type ServiceOptions } from '../../src/runtime/service/runtime-service.js';
import { createSqliteStorage, type SqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import type { CheckedModel, ServiceModel } from '../../src/model/model-types.js';
import { callJson, type JsonAnswer } from '../support/http.js';
import { loadModel, makeRsaKey, writeJwks } from '../auth/helpers.js';

export const EXAMPLE = (name: string): string => fileURLToPath(new URL(`../../examples/${name}`, import.meta.url));

export interface ConsoleServer {
  url: string;
  app: FastifyInstance;
  storage: SqliteStorage;
  model: ServiceModel;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<JsonAnswer>;
  close(): Promise<void>;
}

export async function startExample(spec: string, options: Partial<ServiceOptions> = {}): Promise<ConsoleServer> {
  const mod = (await import(EXAMPLE(spec.replace(/\.yaml$/, '-handlers.js')))) as { handlers: Record<string, CustomHandler> };
  return startModel(loadModel(EXAMPLE(spec)), { handlers: mod.handlers, ...options });
}

/** A model served on SQLite with the docs routes on (no handlers unless given). */
export async function startModel(model: ServiceModel, options: Partial<ServiceOptions> = {}): Promise<ConsoleServer> {
  const dir = mkdtempSync(join(tmpdir(), 'servicespec-console-'));
  const storage = createSqliteStorage({ path: join(dir, 'service.db'), synchronous: 'normal' });
  const jwks = writeJwks([await makeRsaKey('idp-1')]);
  const authenticator = model.authentication
    ? await createAuthenticator(model as CheckedModel, storage, { allowGaps: true, jwt: { jwksFile: jwks.path } })
    : undefined;
  const app = await createService(model as CheckedModel, { storage, allowGaps: true, docs: true, ...(authenticator ? { authenticator } : {}), ...options });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    app,
    storage,
    model,
    call: (method, path, body, headers = {}) => callJson(url, method, path, body, headers),
    async close() {
      await app.close();
      jwks.remove();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
