// `migrate --apply --allow-data-loss` over random spec evolutions applied to random rows (issue 28): every value the
// new spec keeps reads back unaltered (renamed ones under their new name, converted ones as converted, filled ones
// as the default), a plan is refused exactly when a row holds a value a narrowed enum no longer has, and the
// service then serves the new spec (it starts, and answers a read of each row).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { createService } from '../../src/runtime/service/runtime-service.js';
import { createMigratePrepare, type MigratePlan } from '../../src/runtime/storage/storage-migrate.js';
import { getStoragePlan } from '../../src/runtime/storage/storage-plan.js';
import { createPostgresStorage } from '../../src/runtime/storage/storage-postgres.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import type { Row, Storage } from '../../src/runtime/storage/storage-types.js';
import { dropTestSchema, getPostgresSkipReason, getTestSchemaUrl } from '../support/postgres.js';

const dir = mkdtempSync(join(tmpdir(), 'servicespec-migrate-prop-'));
const pgSkip = await getPostgresSkipReason();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Kind = 'string' | 'integer' | 'number' | 'boolean' | 'enum';
type Evolution = 'keep' | 'drop' | 'rename' | 'to_number' | 'to_string' | 'require' | 'narrow';

interface FieldGen {
  kind: Kind;
  optional: boolean;
  evolution: Evolution;
}

const DEFAULTS: Record<Kind, unknown> = { string: 'dflt', integer: 7, number: 1.5, boolean: true, enum: 'a' };

function fieldYaml(kind: Kind, optional: boolean, extra: Record<string, unknown> = {}, enumValues = ['a', 'b', 'c']): string {
  const parts = [`type: ${kind}`];
  if (kind === 'enum') parts.push(`values: [${enumValues.join(', ')}]`);
  if (optional) parts.push('optional: true');
  for (const [k, v] of Object.entries(extra)) parts.push(`${k}: ${JSON.stringify(v)}`);
  return `{ ${parts.join(', ')} }`;
}

function specText(fields: Record<string, string>, renames: [string, string][]): string {
  return `servicespec: 1
resources:
  Task:
    fields:
      id: { type: string, readOnly: true }
${Object.entries(fields)
  .map(([k, v]) => `      ${k}: ${v}`)
  .join('\n')}
endpoints:
  operations:
    getTask: { method: GET, path: "/tasks/{id}", action: read, resource: Task, auth: none, errors: [not_found] }
errors:
  codes:
    not_found: { status: 404 }
${
  renames.length === 0
    ? ''
    : `versioning:
  scheme: integer
  current: "2"
  placement: { header: Api-Version }
  supported:
    - version: "1"
      changes:
${renames.map(([from, to]) => `        - rename_field: { resource: Task, from: ${from}, to: ${to} }`).join('\n')}
`
}`;
}

/** The evolutions that make sense for a kind. */
function evolutions(kind: Kind, optional: boolean): Evolution[] {
  const out: Evolution[] = ['keep', 'drop', 'rename'];
  if (kind === 'integer') out.push('to_number', 'to_string');
  if (optional) out.push('require');
  if (kind === 'enum') out.push('narrow');
  return out;
}

const fieldGen: fc.Arbitrary<FieldGen> = fc
  .record({ kind: fc.constantFrom<Kind>('string', 'integer', 'number', 'boolean', 'enum'), optional: fc.boolean() })
  .chain(({ kind, optional }) => fc.constantFrom(...evolutions(kind, optional)).map((evolution) => ({ kind, optional, evolution })));

function valueGen(kind: Kind): fc.Arbitrary<unknown> {
  switch (kind) {
    case 'string':
      return fc.stringMatching(/^[a-zA-Z0-9 é]{0,10}$/);
    case 'integer':
      return fc.integer({ min: -100000, max: 100000 });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }).map((v) => (v === 0 ? 0 : v));
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom('a', 'b', 'c');
  }
}

/** A field the new spec adds; a bounded one has a check the plan must not read before the column exists. */
type NewField = 'none' | 'optional' | 'required_default' | 'required_default_bounded';

const caseGen = fc.array(fieldGen, { minLength: 1, maxLength: 5 }).chain((fields) =>
  fc.record({
    fields: fc.constant(fields),
    newField: fc.constantFrom<NewField>('none', 'optional', 'required_default', 'required_default_bounded'),
    rows: fc.array(fc.tuple(...fields.map((f) => (f.optional ? fc.option(valueGen(f.kind), { nil: undefined }) : valueGen(f.kind)))), { maxLength: 6 }),
  }),
);

type Case = { fields: FieldGen[]; newField: NewField; rows: unknown[][] };

async function runCase(c: Case, open: () => Promise<{ storage: () => Storage; done: () => Promise<void> }>): Promise<void> {
  const v1: Record<string, string> = {};
  const v2: Record<string, string> = {};
  const renames: [string, string][] = [];
  c.fields.forEach((f, i) => {
    const name = `f${i}`;
    v1[name] = fieldYaml(f.kind, f.optional);
    switch (f.evolution) {
      case 'keep':
        v2[name] = v1[name];
        break;
      case 'drop':
        break;
      case 'rename':
        v2[`r${i}`] = v1[name];
        renames.push([name, `r${i}`]);
        break;
      case 'to_number':
        v2[name] = fieldYaml('number', f.optional);
        break;
      case 'to_string':
        v2[name] = fieldYaml('string', f.optional);
        break;
      case 'require':
        v2[name] = fieldYaml(f.kind, false, { default: DEFAULTS[f.kind] });
        break;
      case 'narrow':
        v2[name] = fieldYaml('enum', f.optional, {}, ['a', 'b']);
        break;
    }
  });
  if (c.newField === 'optional') v2.added = fieldYaml('string', true);
  if (c.newField === 'required_default') v2.added = fieldYaml('integer', false, { default: 42 });
  if (c.newField === 'required_default_bounded') v2.added = fieldYaml('integer', false, { default: 42, minimum: 0, maximum: 100 });
  const m1 = compileSpecText(specText(v1, [])).checked!;
  const m2 = compileSpecText(specText(v2, renames)).checked!;
  expect(m1, specText(v1, [])).toBeDefined();
  expect(m2, specText(v2, renames)).toBeDefined();
  const rows: Row[] = c.rows.map((values, r) => {
    const row: Row = { id: `row${r}` };
    values.forEach((v, i) => {
      if (v !== undefined) row[`f${i}`] = v;
    });
    return row;
  });
  const db = await open();
  try {
    const s1 = db.storage();
    try {
      expect((await s1.migrate(getStoragePlan(m1))).ok).toBe(true);
      await s1.transaction(async (tx) => {
        for (const row of rows) await tx.insert('Task', row);
      });
    } finally {
      await s1.close();
    }
    const s2 = db.storage();
    let plan: MigratePlan | undefined;
    try {
      const result = await s2.migrate(getStoragePlan(m2), {
        prepare: createMigratePrepare(m2, { apply: true, allowDataLoss: true, onPlan: (p) => (plan = p) }),
      });
      const blocked = c.fields.some((f, i) => f.evolution === 'narrow' && rows.some((r) => r[`f${i}`] === 'c'));
      if (blocked) {
        expect(result.ok).toBe(false);
        expect(plan!.refusals.map((r) => r.code)).toEqual(
          c.fields.filter((f, i) => f.evolution === 'narrow' && rows.some((r) => r[`f${i}`] === 'c')).map(() => 'migrate-rows-invalid'),
        );
        return;
      }
      expect(plan!.refusals).toEqual([]);
      expect(result).toMatchObject({ ok: true });
    } finally {
      await s2.close();
    }
    // The service serves the new spec on it: it starts (nothing left to refuse) and reads each row back.
    const s3 = db.storage();
    const app = await createService(m2, { storage: s3, allowGaps: true });
    try {
      for (const row of rows) {
        const res = await app.inject({ method: 'GET', url: `/tasks/${row.id as string}` });
        expect(res.statusCode).toBe(200);
        const body = res.json<Record<string, unknown>>();
        const expected: Record<string, unknown> = { id: row.id };
        c.fields.forEach((f, i) => {
          const v = row[`f${i}`];
          switch (f.evolution) {
            case 'keep':
            case 'narrow':
              if (v !== undefined) expected[`f${i}`] = v;
              break;
            case 'rename':
              if (v !== undefined) expected[`r${i}`] = v;
              break;
            case 'to_number':
              if (v !== undefined) expected[`f${i}`] = v;
              break;
            case 'to_string':
              if (v !== undefined) expected[`f${i}`] = String(v);
              break;
            case 'require':
              expected[`f${i}`] = v ?? DEFAULTS[f.kind];
              break;
            case 'drop':
              break;
          }
        });
        if (c.newField === 'required_default' || c.newField === 'required_default_bounded') expected.added = 42;
        expect(body).toEqual(expected);
      }
    } finally {
      await app.close();
    }
  } finally {
    await db.done();
  }
}

let n = 0;
describe('migrate --apply --allow-data-loss over random evolutions', () => {
  it('on SQLite: kept values read back unaltered and the service serves the new spec', async () => {
    await fc.assert(
      fc.asyncProperty(caseGen, async (c) => {
        const path = join(dir, `p${n++}.db`);
        await runCase(c, async () => ({ storage: () => createSqliteStorage({ path }), done: async () => undefined }));
      }),
      { numRuns: 60 },
    );
  }, 120_000);

  it.skipIf(pgSkip !== undefined)(
    'on PostgreSQL: the same',
    async () => {
      await fc.assert(
        fc.asyncProperty(caseGen, async (c) => {
          const url = getTestSchemaUrl();
          await runCase(c, async () => ({ storage: () => createPostgresStorage({ url }), done: () => dropTestSchema(url) }));
        }),
        { numRuns: 15 },
      );
    },
    120_000,
  );
});
