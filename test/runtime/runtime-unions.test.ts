// Unions served (docs/format.md, "Unions"): a union field stored as JSON and answered as sent, a wrong or missing tag
// refused with the validation answer naming the tag, an untagged union body told apart by its fields, a custom
// operation's union response validated — over real HTTP, on SQLite and on PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { createService } from '../../src/runtime/service/runtime-service.js';
import { createPostgresStorage } from '../../src/runtime/storage/storage-postgres.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import type { Storage } from '../../src/runtime/storage/storage-types.js';
import { callJson } from '../support/http.js';
import { dropTestSchema, getPostgresSkipReason, getTestSchemaUrl } from '../support/postgres.js';
import { UNION_SPEC } from '../support/unions.js';

const model = compileSpecText(UNION_SPEC).checked!;
const pgSkip = await getPostgresSkipReason();

for (const db of ['sqlite', 'postgres'] as const) {
  describe.skipIf(db === 'postgres' && pgSkip !== undefined)(`unions served on ${db}`, () => {
    let url = '';
    let close: () => Promise<void> = async () => undefined;
    const call = (method: string, path: string, body?: unknown) => callJson(url, method, path, body);

    beforeAll(async () => {
      const dir = mkdtempSync(join(tmpdir(), 'servicespec-unions-'));
      const dbUrl = db === 'postgres' ? getTestSchemaUrl() : join(dir, 'service.db');
      const storage: Storage = db === 'postgres' ? createPostgresStorage({ url: dbUrl, poolSize: 2 }) : createSqliteStorage({ path: dbUrl });
      const app = await createService(model, {
        storage,
        allowGaps: true,
        handlers: {
          // answers a quote for weights, refuses volumes; a broken answer for litres 0 (a tag no variant has)
          quote: ({ body }) => {
            const b = body as { grams?: number; litres?: number };
            if (b.grams !== undefined) return { type: 'quote', price: b.grams * 2 };
            return b.litres === 0 ? { type: 'gift', price: 0 } : { type: 'refusal', reason: 'volumes are not quoted' };
          },
        },
      });
      url = await app.listen({ port: 0, host: '127.0.0.1' });
      close = async () => {
        await app.close();
        rmSync(dir, { recursive: true, force: true });
        if (db === 'postgres') await dropTestSchema(dbUrl);
      };
    });
    afterAll(() => close());

    it('stores each variant of a union field and answers it as sent, in reads and lists', async () => {
      const card = await call('POST', '/payments', { amount: 10, method: { kind: 'card', number: '4111111111111111', holder: 'Ada' } });
      expect(card.status).toBe(201);
      expect(card.body.method).toEqual({ kind: 'card', number: '4111111111111111', holder: 'Ada' });
      const bank = await call('POST', '/payments', { amount: 20, method: { kind: 'bank', iban: 'DE89370400440532013000' } });
      expect(bank.status).toBe(201);
      const read = await call('GET', `/payments/${bank.body.id as string}`);
      expect(read.body.method).toEqual({ kind: 'bank', iban: 'DE89370400440532013000' });
      const list = await call('GET', '/payments');
      expect(list.status).toBe(200);
      const methods = (list.body.items as { method: unknown }[]).map((p) => p.method);
      expect(methods).toEqual(expect.arrayContaining([card.body.method, read.body.method]));
    });

    it("refuses a tag no variant has, a missing tag, and a variant with another variant's field, with the validation answer", async () => {
      const wrong = await call('POST', '/payments', { amount: 10, method: { kind: 'cash', number: '4111111111111111' } });
      expect(wrong.status).toBe(500); // the spec's one catch-all code declares validation
      expect(wrong.body.code).toBe('any_error');
      expect(wrong.body.errors).toEqual([{ pointer: '/method/kind', message: '"cash" names none of the variants' }]);
      const missing = await call('POST', '/payments', { amount: 10, method: { number: '4111111111111111' } });
      expect(missing.body.errors).toEqual([{ pointer: '/method/kind', message: 'is required and must be a string (it says which variant the object is)' }]);
      const mixed = await call('POST', '/payments', { amount: 10, method: { kind: 'card', iban: 'DE89370400440532013000', number: '4111111111111111' } });
      expect(mixed.body.errors).toEqual([{ pointer: '/method/iban', message: 'unknown field iban' }]);
      const short = await call('POST', '/payments', { amount: 10, method: { kind: 'bank', iban: 'DE' } });
      expect(short.body.errors).toEqual([{ pointer: '/method/iban', message: 'must NOT have fewer than 15 characters' }]);
      const list = await call('GET', '/payments');
      expect((list.body.items as unknown[]).length).toBe(2);
    });

    it("refuses a number, a string or an array where a tagged union field wants an object, with the validation answer and the field's pointer", async () => {
      for (const method of [12345, 'card', [{ kind: 'card' }]]) {
        const r = await call('POST', '/payments', { amount: 10, method });
        expect(r.status).toBe(500); // the spec's one catch-all code declares validation
        expect(r.body.code).toBe('any_error');
        expect((r.body.errors as { pointer: string }[]).map((e) => e.pointer)).toEqual(['/method']);
      }
    });

    it('tells an untagged union body apart by its fields, and validates a union response', async () => {
      const weight = await call('POST', '/quotes', { grams: 5 });
      expect(weight).toMatchObject({ status: 200, body: { type: 'quote', price: 10 } });
      const volume = await call('POST', '/quotes', { litres: 2.5 });
      expect(volume).toMatchObject({ status: 200, body: { type: 'refusal', reason: 'volumes are not quoted' } });
      const neither = await call('POST', '/quotes', { grams: 5, litres: 1 });
      expect(neither.body.code).toBe('any_error');
      expect(neither.body.errors).toEqual(expect.arrayContaining([{ pointer: '', message: 'must match exactly one of the variants' }]));
      // the handler's answer with a tag no variant has is the service's fault, not sent as if valid
      const broken = await call('POST', '/quotes', { litres: 0 });
      expect(broken.status).toBe(500);
      expect(broken.body.type).not.toBe('gift');
    });
  });
}
