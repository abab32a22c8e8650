// Answers written from the stored text (SyncReader.getStored / listStored, writePresentedRow) are the bytes
// JSON.stringify makes of the presented object read the usual way: every field type, optional and nullable,
// JSON values of any shape (whatever the runtime stores is JSON.stringify's text).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { getResource } from '../../src/model/model-lookup.js';
import { compileSpecText } from '../../src/program.js';
import { presentRow, writePresentedRow, writeStoredValue } from '../../src/runtime/service/runtime-actions.js';
import { getStoragePlan } from '../../src/runtime/storage/storage-plan.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { StoredJson } from '../../src/runtime/storage/storage-types.js';

const SPEC = `
servicespec: 1
resources:
  Record:
    fields:
      id: { type: uuid, readOnly: true }
      flag: { type: boolean, optional: true }
      text: { type: string, optional: true }
      maybe: { type: string, optional: true, nullable: true }
      data: { type: json, optional: true }
      amount: { type: number, optional: true }
      meta: { type: object, fields: { note: { type: string, optional: true } }, optional: true }
      count: { type: integer, optional: true }
      tags: { type: array, items: { type: string }, optional: true }
      created_at: { type: datetime, readOnly: true, generated: create_time }
endpoints:
  operations:
    getRecord: { method: GET, path: "/records/{id}", action: read, resource: Record, auth: none }
`;

/** Any UTF-16 code unit: quotes, backslashes, control characters and lone surrogates among them. */
const CODE_UNIT = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));

const dir = mkdtempSync(join(tmpdir(), 'servicespec-stored-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('rows read with their JSON as stored text', () => {
  it('write the same answer as the parsed rows presented and serialised', async () => {
    const model = compileSpecText(SPEC).model!;
    const resource = getResource(model, 'Record')!;
    const storage = createSqliteStorage({ path: join(dir, 'records.db') });
    expect((await storage.migrate(getStoragePlan(model))).ok).toBe(true);
    const optional = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
    const item = fc.record({
      text: optional(fc.oneof(fc.string({ unit: 'grapheme' }), fc.string({ unit: CODE_UNIT }))),
      maybe: fc.option(fc.string(), { nil: undefined }).chain((v) => fc.constantFrom(v, null)),
      amount: optional(fc.double({ noNaN: true, noDefaultInfinity: true })),
      count: optional(fc.integer()),
      flag: optional(fc.boolean()),
      data: optional(fc.jsonValue()),
      tags: optional(fc.array(fc.string({ unit: 'binary' }))),
      meta: optional(fc.record({ note: optional(fc.string()) }, { requiredKeys: [] })),
    });
    let n = 0;
    await fc.assert(
      fc.asyncProperty(item, async (fields) => {
        const id = `00000000-0000-4000-8000-${String(n++).padStart(12, '0')}`;
        await storage.transaction(async (tx) => void (await tx.insert('Record', { ...fields, id, created_at: new Date().toISOString() })));
        const reader = storage.readNow()!;
        const stored = reader.getStored!('Record', id)!;
        expect(writePresentedRow(resource, stored)).toBe(JSON.stringify(presentRow(resource, reader.get('Record', id)!)));
        for (const name of ['data', 'tags', 'meta'])
          if (fields[name as 'data'] !== undefined && fields[name as 'data'] !== null) expect(stored[name]).toBeInstanceOf(StoredJson);
      }),
      { numRuns: 300 },
    );
    const reader = storage.readNow()!;
    const page = reader.listStored!('Record', { equals: {}, limit: 1000 });
    expect(page).toHaveLength(n);
    expect(`[${page.map((r) => writePresentedRow(resource, r)).join(',')}]`).toBe(
      JSON.stringify(reader.list('Record', { equals: {}, limit: 1000 }).map((r) => presentRow(resource, r))),
    );
    await storage.close();
  });
});

describe('a stored value written as JSON', () => {
  it('is the text JSON.stringify writes of it', () => {
    const value = fc.oneof(
      fc.string({ unit: CODE_UNIT }),
      fc.string({ unit: 'grapheme' }),
      fc.constantFrom('"', '\\', '\u0000', '\u001f', '\u007f', '\ud800', '\udfff', '\ud83d\ude00', 'é', '\u2028'),
      fc.double(),
      fc.integer(),
      fc.constantFrom(0, -0, NaN, Infinity, -Infinity, Number.MAX_SAFE_INTEGER, 2 ** 64, 5e-324, 1e21),
      fc.boolean(),
    );
    fc.assert(
      fc.property(value, (v) => {
        expect(writeStoredValue(v)).toBe(JSON.stringify(v));
      }),
      { numRuns: 2000 },
    );
    expect(writeStoredValue(new StoredJson('{"a":[1]}'))).toBe('{"a":[1]}');
  });
});
