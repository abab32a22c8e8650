import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { compileSpecFile } from '../../src/program.js';
import type { CheckedModel, ServiceModel } from '../../src/model/model-types.js';
import { createService, type ServiceOptions } from '../../src/runtime/service/runtime-service.js';
import { createPostgresStorage } from '../../src/runtime/storage/storage-postgres.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import type { Storage } from '../../src/runtime/storage/storage-types.js';
import { callJson } from '../support/http.js';
import { dropTestSchema, getPostgresSkipReason, getTestSchemaUrl } from '../support/postgres.js';

export const TICKETS = new URL('./fixtures/tickets.yaml', import.meta.url).pathname;

export function loadModel(path: string): CheckedModel {
  const c = compileSpecFile(path);
  const errors = c.diagnostics.filter((d) => d.severity === 'error');
  if (!c.model || errors.length > 0) throw new Error(`${path}: ${errors.map((d) => `${d.code} ${d.message}`).join('; ')}`);
  return c.checked!;
}

export interface Running {
  url: string;
  app: FastifyInstance;
  storage: Storage;
  /** The SQLite file, or the PostgreSQL URL (SERVICESPEC_TEST_DB=postgres). */
  dbPath: string;
  close(): Promise<void>;
  /** A JSON request; returns status, headers and the parsed body (or text). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read response bodies of many shapes
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; body: any }>;
}

/**
 * A real server on 127.0.0.1 with a real SQLite file in a fresh temporary folder, or, with
 * SERVICESPEC_TEST_DB=postgres, in a fresh schema of the test PostgreSQL database (dropped on close).
 * `fastPaths` (default: SERVICESPEC_FAST_PATHS, as createService and createSqliteStorage read it) goes to both.
 */
// Models are passed as compiled; the runtime itself refuses one that is not checked (model-unchecked, model-has-errors).
export async function startService(model: ServiceModel, options: Partial<ServiceOptions> = {}): Promise<Running> {
  const dir = mkdtempSync(join(tmpdir(), 'servicespec-test-'));
  let dbPath = join(dir, 'service.db');
  let storage: Storage;
  if (process.env.SERVICESPEC_TEST_DB === 'postgres') {
    const reason = await getPostgresSkipReason();
    if (reason !== undefined) throw new Error(`SERVICESPEC_TEST_DB=postgres, but ${reason}`);
    dbPath = getTestSchemaUrl();
    storage = createPostgresStorage({ url: dbPath, poolSize: 4 });
  } else storage = createSqliteStorage({ path: dbPath, synchronous: 'normal', ...(options.fastPaths !== undefined ? { fastPaths: options.fastPaths } : {}) });
  const app = await createService(model as CheckedModel, { storage, allowGaps: true, ...options });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    app,
    storage,
    dbPath,
    async close() {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
      if (storage.dialect === 'postgres') await dropTestSchema(dbPath);
    },
    call: (method, path, body, headers = {}) => callJson(url, method, path, body, headers),
  };
}

/** The model served on an in-memory SQLite database (gaps allowed), listening on 127.0.0.1 at a port the OS picks. */
export async function serveInMemory(model: CheckedModel): Promise<{ url: string; close: () => Promise<void> }> {
  const app = await createService(model, { storage: createSqliteStorage({ path: ':memory:' }), allowGaps: true });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => app.close() };
}
