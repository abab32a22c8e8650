// A nullable tagged union field: null is a value of it for every validator, not only for Ajv's discriminator (which
// lets null through where `type: [object, null]` beside a oneOf of objects refuses it for a plain JSON Schema
// validator of the exported document) — served over real HTTP on SQLite and PostgreSQL, and checked against the
// OpenAPI 3.1 export with a standard 2020-12 validator.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { createService } from '../../src/runtime/service/runtime-service.js';
import { createPostgresStorage } from '../../src/runtime/storage/storage-postgres.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import type { Storage } from '../../src/runtime/storage/storage-types.js';
import { callJson } from '../support/http.js';
import { dropTestSchema, getPostgresSkipReason, getTestSchemaUrl } from '../support/postgres.js';
import { UNIONS_EVERYWHERE } from '../support/unions-everywhere.js';

const model = compileSpecText(UNIONS_EVERYWHERE, 'unions.yaml').checked!;
const pgSkip = await getPostgresSkipReason();
const CARD = { kind: 'card', number: '4111' };

describe('a nullable tagged union in the OpenAPI 3.1 export', () => {
  it('takes null and each variant, and refuses an unknown tag, for a plain JSON Schema validator', () => {
    const doc = exportOpenApi(model, { openapi: '3.1' }).document as { components: { schemas: Record<string, unknown> } };
    const ajv = new Ajv2020({ strict: false });
    for (const [name, s] of Object.entries(doc.components.schemas)) ajv.addSchema(s as object, `#/components/schemas/${name}`);
    const backup = (doc.components.schemas.Payment as { properties: Record<string, unknown> }).properties.backup as object;
    const validate = ajv.compile({ $defs: {}, ...backup });
    expect(validate(null)).toBe(true);
    expect(validate({ kind: 'cash', note: 'x' })).toBe(true);
    expect(validate({ kind: 'cheque', note: 'x' })).toBe(false);
  });
});

for (const db of ['sqlite', 'postgres'] as const) {
  describe.skipIf(db === 'postgres' && pgSkip !== undefined)(`a nullable tagged union served on ${db}`, () => {
    let url = '';
    let close: () => Promise<void> = async () => undefined;
    const call = (method: string, path: string, body?: unknown) => callJson(url, method, path, body);

    beforeAll(async () => {
      const dir = mkdtempSync(join(tmpdir(), 'servicespec-union-null-'));
      const dbUrl = db === 'postgres' ? getTestSchemaUrl() : join(dir, 'service.db');
      const storage: Storage = db === 'postgres' ? createPostgresStorage({ url: dbUrl, poolSize: 2 }) : createSqliteStorage({ path: dbUrl });
      const app = await createService(model, { storage, allowGaps: true });
      url = await app.listen({ port: 0, host: '127.0.0.1' });
      close = async () => {
        await app.close();
        rmSync(dir, { recursive: true, force: true });
        if (db === 'postgres') await dropTestSchema(dbUrl);
      };
    });
    afterAll(() => close());

    it('stores null and a variant, refuses a tag no variant has and a value that is no object', async () => {
      const none = await call('POST', '/payments', { amount: 1, method: CARD, backup: null });
      expect(none.status).toBe(201);
      const cash = await call('POST', '/payments', { amount: 2, method: CARD, backup: { kind: 'cash', note: 'tin' } });
      expect(cash.status).toBe(201);
      expect((await call('GET', `/payments/${cash.body.id as string}`)).body.backup).toEqual({ kind: 'cash', note: 'tin' });
      const bad = await call('POST', '/payments', { amount: 3, method: CARD, backup: { kind: 'cheque', note: 'x' } });
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toContain('/backup');
      expect((await call('POST', '/payments', { amount: 4, method: CARD, backup: 12345 })).status).toBe(400);
    });
  });
}
