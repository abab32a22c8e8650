import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { compileSpecFile } from '../../src/program.js';
import type { ServiceModel } from '../../src/model/model-types.js';
import { createService, type ServiceOptions } from '../../src/runtime/runtime-service.js';
import { createSqliteStorage, type SqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { callJson } from '../support/http.js';

export const TICKETS = new URL('./fixtures/tickets.yaml', import.meta.url).pathname;

export function loadModel(path: string): ServiceModel {
  const c = compileSpecFile(path);
  const errors = c.diagnostics.filter((d) => d.severity === 'error');
  if (!c.model || errors.length > 0) throw new Error(`${path}: ${errors.map((d) => `${d.code} ${d.message}`).join('; ')}`);
  return c.model;
}

export interface Running {
  url: string;
  app: FastifyInstance;
  storage: SqliteStorage;
  dbPath: string;
  close(): Promise<void>;
  /** A JSON request; returns status, headers and the parsed body (or text). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read response bodies of many shapes
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; body: any }>;
}

/** A real server on 127.0.0.1 with a real SQLite file in a fresh temporary folder. */
export async function startService(model: ServiceModel, options: Partial<ServiceOptions> = {}): Promise<Running> {
  const dir = mkdtempSync(join(tmpdir(), 'servicespec-test-'));
  const dbPath = join(dir, 'service.db');
  const storage = createSqliteStorage({ path: dbPath, synchronous: 'normal' });
  const app = await createService(model, { storage, allowGaps: true, ...options });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    app,
    storage,
    dbPath,
    async close() {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
    call: (method, path, body, headers = {}) => callJson(url, method, path, body, headers),
  };
}
