// `servicespec migrate` (issue 28): the plan between the storage plan a database records and a spec's, with how
// many rows each step touches, and the steps `serve` does not run at start — drops, renames, backfills, type
// conversions — run through `MigrateOptions.prepare` in the storage's own migration transaction (PostgreSQL: under
// its advisory lock), before the additive steps storage-plan.ts diffs. Nothing here knows SQL beyond what both
// engines share; the session supplies each engine's column definition and value encoding.

import { createDiagnostic, type DiagnosticCode, type DiagnosticParams } from '../../diagnostics/diagnostics-catalogue.js';
import { createModelAjv, typedDiscriminators } from '../../model/model-ajv.js';
import { getField, getResource, getResourceRenames, getStateMachine } from '../../model/model-lookup.js';
import type { ServiceModel } from '../../model/model-types.js';
import { absentColumn, diffStoragePlans, getStoragePlan, withKeptColumns } from './storage-plan.js';
import { WEBHOOKS } from './storage-shared.js';
import type { ColumnPlan, MigrationSession, PreparedMigration, StoragePlan, TablePlan } from './storage-types.js';

/** The storage format this servicespec writes; a database recording a larger one was migrated by a newer version. */
export const STORAGE_FORMAT = 1;
const FORMAT_KEY = 'storage_format';
const META = '_servicespec_meta';
/** How many row identifiers a refusal names. */
const NAMED_IDS = 10;

export type DataEffect = 'keeps' | 'converts' | 'loses';

export interface MigratePlanStep {
  kind:
    | 'rename_table'
    | 'drop_table'
    | 'drop_column'
    | 'rename_column'
    | 'fill_column'
    | 'convert_column'
    | 'move_state'
    | 'create_table'
    | 'add_column'
    | 'rebuild_table';
  table: string;
  column?: string;
  /** The new name (rename_table: the table's; rename_column: the column's). */
  to?: string;
  data: DataEffect;
  /** Rows the step touches: rows dropped, values dropped or converted, rows filled, rows re-checked. */
  rows: number;
  description: string;
}

export interface MigrateRefusal {
  code: DiagnosticCode;
  message: string;
  table?: string;
  column?: string;
  /** Up to NAMED_IDS identifiers of the rows in the way. */
  ids?: unknown[];
}

export interface MigratePlan {
  steps: MigratePlanStep[];
  refusals: MigrateRefusal[];
  /** Whether a step loses data (needs --allow-data-loss). */
  losesData: boolean;
}

export interface MigrateRunOptions {
  /** Run the plan (else only look: everything is rolled back). */
  apply: boolean;
  allowDataLoss: boolean;
  /** Receives the plan, as computed inside the transaction. */
  onPlan: (plan: MigratePlan) => void;
}

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Positional parameters as the engine writes them. */
function params(session: MigrationSession): () => string {
  let n = 0;
  return () => (session.dialect === 'postgres' ? `$${++n}` : '?');
}

// The reads that plan take `from`, the relation read as SQL: a table (`"Task"`), or, while renames the plan makes are
// not yet run, the table as the plan names it and its columns (`(SELECT *, "note" AS "remark" FROM "Task") AS "Todo"`).

async function count(session: MigrationSession, from: string, where?: string, values: readonly unknown[] = []): Promise<number> {
  const rows = await session.query(`SELECT COUNT(*) AS n FROM ${from}${where ? ` WHERE ${where}` : ''}`, values);
  return Number(rows[0]?.n ?? 0);
}

async function ids(session: MigrationSession, from: string, key: string, where: string, values: readonly unknown[] = []): Promise<unknown[]> {
  const rows = await session.query(`SELECT ${q(key)} AS id FROM ${from} WHERE ${where} ORDER BY ${q(key)} LIMIT ${NAMED_IDS}`, values);
  return rows.map((r) => r.id);
}

/** `1 row`, `2 rows`. */
function rowsText(n: number): string {
  return `${n} row${n === 1 ? '' : 's'}`;
}

function namedIds(list: readonly unknown[], total: number): string {
  const shown = list.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
  return total > list.length ? `${shown} and ${total - list.length} more` : shown;
}

/**
 * The stored plan with table `from` named `to`, and every reference to it (another table's `ref` column) naming
 * `to`: what the database holds once `ALTER TABLE … RENAME TO` ran (SQLite rewrites the other tables' foreign keys
 * to name the new table; PostgreSQL's refer to the table itself, whatever its name).
 */
export function renameStoredTable(plan: StoragePlan, from: string, to: string): StoragePlan {
  const tables = plan.tables.map((t) => {
    const named = t.name === from ? { ...t, name: to } : t;
    if (!named.columns.some((c) => c.references?.table === from)) return named;
    return { ...named, columns: named.columns.map((c) => (c.references?.table === from ? { ...c, references: { ...c.references, table: to } } : c)) };
  });
  return { ...plan, tables };
}

/**
 * The declared resource renames (getResourceRenames) the stored plan is waiting for: the old name's table is stored,
 * the new name's is not, and the spec wants the new one (and no longer the old).
 */
export function getTableRenames(model: ServiceModel, stored: StoragePlan, wanted: StoragePlan): [string, string][] {
  const found = getWaitingRenames(model, stored, wanted);
  // Two earlier names of one resource both stored: which table becomes it is not said (migrate refuses it).
  return found.filter(([, to]) => found.filter((x) => x[1] === to).length === 1);
}

/** Every declared resource rename the stored plan waits for, two of one resource included (getTableRenames' candidates). */
function getWaitingRenames(model: ServiceModel, stored: StoragePlan, wanted: StoragePlan): [string, string][] {
  const has = (plan: StoragePlan, name: string) => plan.tables.some((t) => t.name === name);
  return [...getResourceRenames(model)].filter(([from, to]) => has(stored, from) && !has(stored, to) && has(wanted, to) && !has(wanted, from));
}

/** Per resource, its earlier names (`renamedFrom`) the database holds a table of, where it holds more than one. */
function getRenameClashes(model: ServiceModel, stored: StoragePlan, wanted: StoragePlan): Map<string, string[]> {
  const held = new Map<string, string[]>();
  for (const [from, to] of getWaitingRenames(model, stored, wanted)) held.set(to, [...(held.get(to) ?? []), from]);
  return new Map([...held].filter(([, names]) => names.length > 1));
}

/**
 * Resources declared renamed (`renamedFrom`) whose table the database holds under none of the names given, nor
 * under the current one: said beside a dropped table, which may be an earlier name the spec does not list.
 */
function getUnmatchedRenames(model: ServiceModel, stored: StoragePlan): { resource: string; names: string[] }[] {
  const holds = (name: string) => stored.tables.some((t) => t.name === name);
  const out: { resource: string; names: string[] }[] = [];
  for (const r of model.resources) {
    const names = (r.renamedFrom ?? []).filter((n) => getResource(model, n) === undefined);
    if (names.length > 0 && !holds(r.name) && !names.some(holds)) out.push({ resource: r.name, names });
  }
  return out;
}

/**
 * Callback subscriptions (a webhook endpoint's `access.object`) name the resource of the object they follow: those
 * naming `from` must name `to` afterwards, or events about the renamed resource's objects would no longer reach
 * them. Read as JSON text here, the same on both engines: each one's id, and its access renamed.
 */
async function getRenamedSubscriptions(session: MigrationSession, from: string, to: string): Promise<{ id: unknown; access: string }[]> {
  const out: { id: unknown; access: string }[] = [];
  for (const row of await session.query(`SELECT id, access FROM ${WEBHOOKS} WHERE access IS NOT NULL`)) {
    const access = JSON.parse(String(row.access)) as { object?: { resource?: unknown } } | null;
    if (access?.object?.resource === from) out.push({ id: row.id, access: JSON.stringify({ ...access, object: { ...access.object, resource: to } }) });
  }
  return out;
}

/** Per resource, each field name a declared rename (`rename_field` chains, a field's `renamedFrom`) leads from, to the current name. */
export function getRenames(model: ServiceModel): Map<string, Map<string, string>> {
  const next = new Map<string, Map<string, string>>();
  for (const v of model.versioning?.supported ?? []) {
    for (const c of v.changes) {
      if (c.kind !== 'rename_field' || c.resource === undefined || c.from === undefined || c.to === undefined) continue;
      let m = next.get(c.resource);
      if (!m) next.set(c.resource, (m = new Map()));
      m.set(c.from, c.to);
    }
  }
  // A field's own `renamedFrom` is one more step of its chain (applied last: it names the current field).
  for (const r of model.resources) {
    for (const f of r.fields) {
      for (const from of f.renamedFrom ?? []) {
        if (from === f.name) continue;
        let m = next.get(r.name);
        if (!m) next.set(r.name, (m = new Map()));
        if (!m.has(from)) m.set(from, f.name);
      }
    }
  }
  const out = new Map<string, Map<string, string>>();
  for (const [resource, m] of next) {
    const finals = new Map<string, string>();
    for (const from of m.keys()) {
      let to = from;
      // A chain is at most as long as the renames declared; a cycle stops there.
      for (let i = 0; i <= m.size && m.has(to); i++) to = m.get(to)!;
      if (to !== from) finals.set(from, to);
    }
    out.set(resource, finals);
  }
  return out;
}

/** SQL true for a stored value the narrowed column refuses (null is never refused here; NOT NULL is its own step). */
function violation(session: MigrationSession, c: ColumnPlan, next: () => string): { sql: string; values: unknown[]; why: string } | undefined {
  const col = q(c.name);
  const parts: string[] = [];
  const values: unknown[] = [];
  const why: string[] = [];
  const k = c.check;
  // Numbers from the spec are written inline (a parameter would take the column's type: 0.5 is no BIGINT).
  const lit = (v: string | number) => (typeof v === 'number' ? String(v) : (values.push(v), next()));
  if (k.values) {
    parts.push(`${col} NOT IN (${k.values.map(lit).join(', ')})`);
    why.push(`a value not in ${k.values.map((v) => JSON.stringify(v)).join(', ')}`);
  }
  const len = `${session.dialect === 'postgres' ? 'char_length' : 'length'}(${col})`;
  const bound = (expr: string, op: string, v: number | undefined, words: string) => {
    if (v === undefined) return;
    parts.push(`${expr} ${op} ${String(v)}`);
    why.push(`${words} ${v}`);
  };
  bound(col, '<', k.minimum, 'below the minimum');
  bound(col, '>', k.maximum, 'above the maximum');
  bound(col, '<=', k.exclusiveMinimum, 'not above');
  bound(col, '>=', k.exclusiveMaximum, 'not below');
  bound(len, '<', k.minLength, 'shorter than');
  bound(len, '>', k.maxLength, 'longer than');
  if (parts.length === 0) return undefined;
  return { sql: `${col} IS NOT NULL AND (${parts.join(' OR ')})`, values, why: why.join(', ') };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Which type changes convert, and the SQL true for a value that converts (`undefined`: every value does). */
function convertible(session: MigrationSession, from: ColumnPlan['type'], to: ColumnPlan['type'], col: string): { where: string | undefined } | undefined {
  if (from === 'integer' && (to === 'real' || to === 'text')) return { where: undefined };
  if (from === 'real' && to === 'text') return { where: undefined };
  if (from === 'real' && to === 'integer') return { where: `${col} = CAST(${col} AS ${session.dialect === 'postgres' ? 'BIGINT' : 'INTEGER'})` };
  if (from === 'text' && to === 'integer')
    return { where: session.dialect === 'postgres' ? `${col} ~ '^-?[0-9]{1,18}$'` : `${col} = CAST(CAST(${col} AS INTEGER) AS TEXT)` };
  if (from === 'text' && to === 'real') {
    return {
      where:
        session.dialect === 'postgres'
          ? `${col} ~ '^-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?$'`
          : `(${col} = CAST(CAST(${col} AS REAL) AS TEXT) OR ${col} = CAST(CAST(${col} AS INTEGER) AS TEXT))`,
    };
  }
  return undefined;
}

/** The PostgreSQL types a conversion ends in (storage-postgres.ts writes the same for these column types). */
const PG_CONVERTED: Partial<Record<ColumnPlan['type'], string>> = { text: 'TEXT COLLATE "C"', integer: 'BIGINT', real: 'DOUBLE PRECISION' };
const PG_CAST: Partial<Record<ColumnPlan['type'], string>> = { text: 'TEXT', integer: 'BIGINT', real: 'DOUBLE PRECISION' };

/** Reads the storage format the database records (1 when it records none: databases made before it was written). */
async function storedFormat(session: MigrationSession): Promise<number> {
  const p = params(session);
  const row = (await session.query(`SELECT value FROM ${META} WHERE key = ${p()}`, [FORMAT_KEY]))[0];
  return row ? Number(row.value) : 1;
}

/** The refusal of a database a newer servicespec migrated, or undefined. */
export async function checkStorageFormat(session: MigrationSession): Promise<MigrateRefusal | undefined> {
  const stored = await storedFormat(session);
  if (!(stored > STORAGE_FORMAT)) return undefined;
  return { code: 'migrate-newer-database', message: createDiagnostic('migrate-newer-database', { stored, known: STORAGE_FORMAT }).message };
}

/**
 * `serve`'s prepare for `wanted`: the refusal of a database a newer servicespec migrated, and of rows a changed shape
 * refuses (checkShape); nothing else (storage-plan.ts' diff decides what serve runs).
 */
export function createServePrepare(wanted: StoragePlan, model?: ServiceModel) {
  return async (session: MigrationSession, stored: StoragePlan): Promise<PreparedMigration> => {
    const newer = await checkStorageFormat(session);
    if (newer) return { ok: false, refusals: [{ table: '*', reason: newer.message }] };
    // A declared resource rename is migrate's, as a field's is: said as the rename it is, not as a removed resource.
    const renames = model ? getTableRenames(model, stored, wanted) : [];
    if (renames.length > 0)
      return {
        ok: false,
        refusals: renames.map(([from, to]) => ({
          table: from,
          reason: `resource ${from} is renamed to ${to} (renamedFrom); its table is renamed, keeping its objects`,
        })),
      };
    const refusals: { table: string; column: string; reason: string }[] = [];
    const storedByName = new Map(stored.tables.map((t) => [t.name, t]));
    for (const t of wanted.tables) {
      const old = storedByName.get(t.name);
      if (!old || old.primaryKey !== t.primaryKey) continue;
      for (const nc of t.columns) {
        const c = old.columns.find((x) => x.name === nc.name);
        if (!c || c.type !== nc.type) continue;
        const bad = stored.shapes === true ? await checkShape(session, q(old.name), old.primaryKey, c, nc, t.name) : undefined;
        if (bad) refusals.push({ table: t.name, column: nc.name, reason: bad.message });
      }
    }
    return refusals.length > 0 ? { ok: false, refusals } : { ok: true, stored };
  };
}

/**
 * The rows a changed shape (ColumnPlan.shape: what no SQL check says) refuses that the recorded one took, read in
 * pages by key and validated with the runtime's Ajv options; a column recorded without one had none to meet. (A plan
 * recorded before shapes, `StoragePlan.shapes` absent, has nothing to compare with: the callers take its values, and
 * the new shapes are recorded.) Rows the recorded shape refused too are not the change's doing, and are not held
 * against it.
 */
async function checkShape(
  session: MigrationSession,
  from: string,
  primaryKey: string,
  c: ColumnPlan,
  nc: ColumnPlan,
  resource: string,
): Promise<{ message: string; ids: unknown[] } | undefined> {
  if (c.primaryKey || nc.shape === undefined || same(c.shape, nc.shape)) return undefined;
  const ajv = createModelAjv({ allErrors: false });
  const before = ajv.compile(typedDiscriminators(c.shape ?? {}) as object);
  const after = ajv.compile(typedDiscriminators(nc.shape) as object);
  const key = q(primaryKey);
  const select = `SELECT ${key} AS k, ${q(c.name)} AS v FROM ${from} WHERE ${q(c.name)} IS NOT NULL`;
  const found: unknown[] = [];
  let bad = 0;
  let why = '';
  for (let last: unknown = undefined, more = true; more;) {
    const rows = await session.query(
      // Each page's statement has its one parameter ($1 on PostgreSQL).
      `${select}${last === undefined ? '' : ` AND ${key} > ${params(session)()}`} ORDER BY ${key} LIMIT 500`,
      last === undefined ? [] : [last],
    );
    more = rows.length === 500;
    for (const row of rows) {
      last = row.k;
      let v = row.v;
      if (c.type === 'json' && typeof v === 'string') v = JSON.parse(v);
      if (!before(v) || after(v)) continue;
      bad++;
      if (found.length < NAMED_IDS) found.push(row.k);
      if (why === '') {
        const e = after.errors?.[0];
        why = `a value the new shape refuses: ${e ? `${e.instancePath === '' ? '' : `at ${e.instancePath} `}${e.message ?? ''}` : 'invalid'}`;
      }
    }
  }
  if (bad === 0) return undefined;
  return {
    message: createDiagnostic('migrate-rows-invalid', { table: resource, column: c.name, rows: rowsText(bad), why, ids: namedIds(found, bad) }).message,
    ids: found,
  };
}

/**
 * The `prepare` of a `migrate` run: computes the plan (with row counts) inside the migration's transaction, hands
 * it to `onPlan`, and — when applying, with no refusal and the consent a loss needs — runs the steps the additive
 * diff cannot, returning the plan the database then holds.
 */
export function createMigratePrepare(model: ServiceModel, options: MigrateRunOptions) {
  return async (session: MigrationSession, storedPlan: StoragePlan): Promise<PreparedMigration> => {
    const refusals: MigrateRefusal[] = [];
    const steps: MigratePlanStep[] = [];
    const actions: (() => Promise<void>)[] = [];
    const newer = await checkStorageFormat(session);
    if (newer) {
      options.onPlan({ steps, refusals: [newer], losesData: false });
      return { ok: false, refusals: [{ table: '*', reason: newer.message }] };
    }
    const wanted = getStoragePlan(model);
    const wantedByName = new Map(wanted.tables.map((t) => [t.name, t]));
    const renames = getRenames(model);
    const pg = session.dialect === 'postgres';
    const rebuild = new Set<string>();
    const filled = new Set<string>();
    const tables: TablePlan[] = [];
    const refuse = <C extends DiagnosticCode>(code: C, p: DiagnosticParams<C>, extra: Partial<MigrateRefusal> = {}) =>
      refusals.push({ code, message: createDiagnostic(code, p).message, ...extra });

    // Resources renamed (renamedFrom): planned first and run first (the actions run in order), so the steps below
    // plan each table, and change it, under its new name. Until the actions run the table is read under its old name
    // (`at`): a plan only looked at runs none, and takes no lock a rename would (PostgreSQL's ACCESS EXCLUSIVE).
    // Its rows, keys, indexes and the identifier sequence are the table's own and move with it.
    for (const [to, names] of getRenameClashes(model, storedPlan, wanted))
      refuse('migrate-renamed-from-many', { target: `resource ${to}`, names: names.join(', ') }, { table: to });
    const unmatched = getUnmatchedRenames(model, storedPlan);
    const unmatchedNote = (table: string) =>
      unmatched
        .map(
          (u) =>
            `; resource ${u.resource} is renamedFrom ${u.names.join(', ')}, which this database does not hold: if ${table} is an earlier name of ${u.resource}, add it to ${u.resource}'s renamedFrom`,
        )
        .join('');
    let stored = storedPlan;
    const physical = new Map<string, string>();
    const at = (table: string) => physical.get(table) ?? table;
    for (const [from, to] of getTableRenames(model, storedPlan, wanted)) {
      const rows = await count(session, q(from));
      const subscriptions = await getRenamedSubscriptions(session, from, to);
      actions.push(async () => {
        if (!pg && from.toLowerCase() === to.toLowerCase()) {
          // SQLite's table names are case-insensitive: a change of case alone goes through another name.
          await session.query(`ALTER TABLE ${q(from)} RENAME TO ${q(`${to}__rename`)}`);
          await session.query(`ALTER TABLE ${q(`${to}__rename`)} RENAME TO ${q(to)}`);
        } else await session.query(`ALTER TABLE ${q(from)} RENAME TO ${q(to)}`);
        for (const sub of subscriptions) {
          const p = params(session);
          await session.query(`UPDATE ${WEBHOOKS} SET access = ${p()} WHERE id = ${p()}`, [sub.access, sub.id]);
        }
      });
      physical.set(to, from);
      const n = subscriptions.length;
      const also = n > 0 ? `, and ${n} callback subscription${n === 1 ? '' : 's'} follow${n === 1 ? 's' : ''} it` : '';
      steps.push({
        kind: 'rename_table',
        table: from,
        to,
        data: 'keeps',
        rows,
        description: `rename resource ${from} to ${to}: ${rowsText(rows)} move${rows === 1 ? 's' : ''} with it${also}`,
      });
      stored = renameStoredTable(stored, from, to);
    }

    for (const old of stored.tables) {
      const t = wantedByName.get(old.name);
      // The table as the database names it until the actions run (renamed: its old name), read for the plan as the
      // plan names it and its columns (`relation`, aliased): the renames below run only with the other actions.
      const table = at(old.name);
      const renamedColumns: [string, string][] = [];
      const relation = (alias: string) =>
        renamedColumns.length === 0
          ? `${q(table)} AS ${q(alias)}`
          : `(SELECT *, ${renamedColumns.map(([a, b]) => `${q(a)} AS ${q(b)}`).join(', ')} FROM ${q(table)}) AS ${q(alias)}`;
      const rel = () => relation(old.name);
      if (!t) {
        const rows = await count(session, q(old.name));
        steps.push({
          kind: 'drop_table',
          table: old.name,
          data: rows > 0 ? 'loses' : 'keeps',
          rows,
          description: `drop table ${old.name} (resource ${old.name} was removed): ${rowsText(rows)}${unmatchedNote(old.name)}`,
        });
        actions.push(async () => void (await session.query(`DROP TABLE ${q(old.name)}${pg ? ' CASCADE' : ''}`)));
        continue;
      }
      if (old.primaryKey !== t.primaryKey) {
        refuse('migrate-identifier-changed', { table: t.name, from: old.primaryKey, to: t.primaryKey }, { table: t.name });
        tables.push(old);
        continue;
      }
      const total = await count(session, rel());
      let columns = [...old.columns];
      const has = (name: string) => columns.some((c) => c.name === name);
      const wants = (name: string) => t.columns.some((c) => c.name === name);
      // Renames first: the data moves with the column (never a drop and an add).
      const columnRenames = [...(renames.get(t.name) ?? [])].filter(([from, to]) => has(from) && !has(to) && !wants(from) && wants(to));
      for (const to of new Set(columnRenames.map(([, x]) => x))) {
        const names = columnRenames.filter(([, x]) => x === to).map(([from]) => from);
        if (names.length > 1) refuse('migrate-renamed-from-many', { target: `field ${t.name}.${to}`, names: names.join(', ') }, { table: t.name, column: to });
      }
      for (const [from, to] of columnRenames) {
        if (has(to)) continue;
        const rows = await count(session, rel(), `${q(from)} IS NOT NULL`);
        const how = getField(getResource(model, t.name)!, to)?.renamedFrom?.includes(from) ? 'renamedFrom' : 'rename_field';
        steps.push({
          kind: 'rename_column',
          table: t.name,
          column: from,
          to,
          data: 'keeps',
          rows,
          description: `rename field ${t.name}.${from} to ${to} (declared ${how}): the values of ${rowsText(rows)} move with it`,
        });
        const absent = columns.find((c) => c.absentOf === from);
        columns = columns.map((c) => (c.name === from ? { ...c, name: to } : c.absentOf === from ? absentColumn(to) : c));
        renamedColumns.push([from, to]);
        if (absent) renamedColumns.push([absent.name, `${to}$absent`]);
        actions.push(async () => {
          await session.query(`ALTER TABLE ${q(t.name)} RENAME COLUMN ${q(from)} TO ${q(to)}`);
          if (absent) await session.query(`ALTER TABLE ${q(t.name)} RENAME COLUMN ${q(absent.name)} TO ${q(`${to}$absent`)}`);
        });
      }
      // PostgreSQL keeps a renamed table's or column's constraints under their old names (`Task__title__key`), which
      // tell a violation's column: they are renamed in place once the renames ran (no row is read or copied).
      if (pg && (physical.has(t.name) || renamedColumns.length > 0)) actions.push(async () => session.nameConstraints!(t.name));
      // Fields removed.
      for (const c of [...columns]) {
        if (c.absentOf !== undefined || wants(c.name)) continue;
        const rows = await count(session, rel(), `${q(c.name)} IS NOT NULL`);
        steps.push({
          kind: 'drop_column',
          table: t.name,
          column: c.name,
          data: rows > 0 ? 'loses' : 'keeps',
          rows,
          description:
            rows > 0 ? `drop field ${t.name}.${c.name}: its value is lost in ${rowsText(rows)}` : `drop field ${t.name}.${c.name} (no row holds a value)`,
        });
        const absent = columns.find((x) => x.absentOf === c.name);
        columns = columns.filter((x) => x !== c && x !== absent);
        if (pg) {
          actions.push(async () => {
            await session.query(`ALTER TABLE ${q(t.name)} DROP COLUMN ${q(c.name)} CASCADE`);
            if (absent) await session.query(`ALTER TABLE ${q(t.name)} DROP COLUMN ${q(absent.name)}`);
          });
        } else rebuild.add(t.name); // SQLite drops a column by copying the table without it (its constraints allow no ALTER)
      }
      const converted = new Set<string>();
      // Columns this plan adds: not in the database until its actions run, so nothing can be read from them yet (they
      // hold the default, the initial state, or nothing).
      const added = new Set<string>();
      // Fields whose type changed: converted where every engine can, values that cannot convert dropped (or refused).
      for (const [i, c] of columns.entries()) {
        const nc = t.columns.find((x) => x.name === c.name);
        if (!nc || nc.type === c.type) continue;
        const conv = convertible(session, c.type, nc.type, q(c.name));
        if (!conv) {
          refuse('migrate-type-unsupported', { table: t.name, column: c.name, from: c.type, to: nc.type }, { table: t.name, column: c.name });
          continue;
        }
        const values = await count(session, rel(), `${q(c.name)} IS NOT NULL`);
        const bad = conv.where === undefined ? 0 : await count(session, rel(), `${q(c.name)} IS NOT NULL AND NOT (${conv.where})`);
        if (bad > 0 && nc.notNull) {
          const list = await ids(session, rel(), t.primaryKey, `${q(c.name)} IS NOT NULL AND NOT (${conv.where!})`);
          refuse(
            'migrate-rows-invalid',
            { table: t.name, column: c.name, rows: rowsText(bad), why: `a ${c.type} value that is no ${nc.type}`, ids: namedIds(list, bad) },
            { table: t.name, column: c.name, ids: list },
          );
          continue;
        }
        steps.push({
          kind: 'convert_column',
          table: t.name,
          column: c.name,
          data: bad > 0 ? 'loses' : 'converts',
          rows: values,
          description: `convert field ${t.name}.${c.name} from ${c.type} to ${nc.type}: the values of ${rowsText(values - bad)} convert${bad > 0 ? `, those of ${rowsText(bad)} are no ${nc.type} and are lost (null)` : ''}`,
        });
        columns[i] = { ...c, type: nc.type, check: {} };
        converted.add(c.name);
        rebuild.add(t.name);
        const where = conv.where;
        actions.push(async () => {
          if (where !== undefined && bad > 0) await session.query(`UPDATE ${q(t.name)} SET ${q(c.name)} = NULL WHERE NOT (${where})`);
          if (pg) {
            // Its checks name the old type: dropped here, the rebuild adds the plan's.
            const own = await session.query(`SELECT conname FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'c'`, [q(t.name)]);
            for (const r of own) await session.query(`ALTER TABLE ${q(t.name)} DROP CONSTRAINT ${q(String(r.conname))}`);
            await session.query(
              `ALTER TABLE ${q(t.name)} ALTER COLUMN ${q(c.name)} TYPE ${PG_CONVERTED[nc.type]!} USING CAST(${q(c.name)} AS ${PG_CAST[nc.type]!})`,
            );
          }
        });
      }
      // Required fields: new ones, and ones that were optional. Rows without a value get the `default`, or are refused.
      for (const nc of t.columns) {
        if (!nc.notNull || nc.primaryKey) continue;
        const c = columns.find((x) => x.name === nc.name);
        if (c && c.notNull) continue;
        const field = getField(getResource(model, t.name)!, nc.name);
        const empty = c ? await count(session, rel(), `${q(nc.name)} IS NULL`) : total;
        const key = `${t.name}.${nc.name}`;
        if (!c) {
          const column: ColumnPlan = { ...nc, notNull: false, unique: false, references: undefined, check: {} };
          delete column.references;
          columns.push(column);
          added.add(nc.name);
          actions.push(async () => void (await session.query(`ALTER TABLE ${q(t.name)} ADD COLUMN ${session.columnSql(column)}`)));
          if (empty === 0) {
            steps.push({
              kind: 'add_column',
              table: t.name,
              column: nc.name,
              data: 'keeps',
              rows: 0,
              description: `add required field ${t.name}.${nc.name} (the table is empty)`,
            });
            filled.add(key);
            continue;
          }
        }
        if (empty === 0) {
          filled.add(key);
          continue;
        }
        // A state field's rows without a state start in the machine's initial state, as a new object does.
        const machine = getStateMachine(model, t.name);
        const initial = field?.type === 'state' && machine?.field === nc.name ? machine.initial : undefined;
        if (field?.hasDefault || initial !== undefined) {
          const value = session.encode(nc, field?.hasDefault ? field.default : initial);
          const what = field?.hasDefault ? `its default ${JSON.stringify(field.default)}` : `the machine's initial state ${JSON.stringify(initial)}`;
          steps.push({
            kind: 'fill_column',
            table: t.name,
            column: nc.name,
            data: 'converts',
            rows: empty,
            description: `${c ? 'fill' : 'add required field'} ${t.name}.${nc.name}${c ? '' : ','} with ${what} in ${rowsText(empty)}${c ? ' without a value' : ''}`,
          });
          actions.push(
            async () => void (await session.query(`UPDATE ${q(t.name)} SET ${q(nc.name)} = ${params(session)()} WHERE ${q(nc.name)} IS NULL`, [value])),
          );
          filled.add(key);
          continue;
        }
        const list = c
          ? await ids(session, rel(), t.primaryKey, `${q(nc.name)} IS NULL`)
          : (await session.query(`SELECT ${q(t.primaryKey)} AS id FROM ${rel()} ORDER BY ${q(t.primaryKey)} LIMIT ${NAMED_IDS}`)).map((r) => r.id);
        refuse(
          'migrate-no-value',
          { table: t.name, column: nc.name, rows: rowsText(empty), ids: namedIds(list, empty) },
          { table: t.name, column: nc.name, ids: list },
        );
      }
      // Narrowed constraints: rows the new checks, uniqueness or reference refuse are named, never dropped.
      for (const nc of t.columns) {
        const c = columns.find((x) => x.name === nc.name);
        if (!c || c.primaryKey || added.has(c.name)) continue;
        // A converted column's values are checked by the rebuild (its old type cannot be compared with the new bounds).
        const changedCheck = !same(c.check, nc.check) && !converted.has(c.name);
        if (changedCheck) {
          const v = violation(session, nc, params(session));
          if (v) {
            const bad = await count(session, rel(), v.sql, v.values);
            if (bad > 0) {
              const list = await ids(session, rel(), t.primaryKey, v.sql, v.values);
              const machine = getStateMachine(model, t.name);
              const states = machine && machine.field === nc.name ? await stateCounts(session, rel(), nc.name, v.sql, v.values) : '';
              refuse(
                'migrate-rows-invalid',
                { table: t.name, column: nc.name, rows: rowsText(bad), why: states || v.why, ids: namedIds(list, bad) },
                { table: t.name, column: nc.name, ids: list },
              );
            }
          }
        }
        // A changed shape (an object's members, an array's items, a pattern): rows it refuses are named, never changed.
        if (stored.shapes === true && !converted.has(c.name) && c.type === nc.type) {
          const bad = await checkShape(session, rel(), t.primaryKey, c, nc, t.name);
          if (bad) refusals.push({ code: 'migrate-rows-invalid', message: bad.message, table: t.name, column: nc.name, ids: bad.ids });
        }
        // A state field's column has no check (the machine owns its values): rows in a state the machine no longer
        // has are found by reading them, whatever the stored plan says.
        const machine = getStateMachine(model, t.name);
        if (machine?.field === nc.name && nc.check.values === undefined && machine.states.length > 0 && !converted.has(c.name)) {
          // Rows in a removed state the spec maps (`removed_states`) move to its state, and are not in the way.
          const moved: string[] = [];
          for (const [gone, to] of Object.entries(machine.removedStates ?? {})) {
            const n = await count(session, rel(), `${q(nc.name)} = ${params(session)()}`, [gone]);
            if (n === 0) continue;
            moved.push(gone);
            steps.push({
              kind: 'move_state',
              table: t.name,
              column: nc.name,
              to,
              data: 'converts',
              rows: n,
              description: `move ${rowsText(n)} of ${t.name} from removed state ${JSON.stringify(gone)} to ${JSON.stringify(to)} (declared in removed_states)`,
            });
            const p = params(session);
            const sql = `UPDATE ${q(t.name)} SET ${q(nc.name)} = ${p()} WHERE ${q(nc.name)} = ${p()}`;
            actions.push(async () => void (await session.query(sql, [to, gone])));
          }
          const v = violation(session, { ...nc, check: { values: [...machine.states.map((x) => x.name), ...moved] } }, params(session))!;
          const bad = await count(session, rel(), v.sql, v.values);
          if (bad > 0) {
            const list = await ids(session, rel(), t.primaryKey, v.sql, v.values);
            const states = await stateCounts(session, rel(), nc.name, v.sql, v.values);
            refuse(
              'migrate-rows-invalid',
              { table: t.name, column: nc.name, rows: rowsText(bad), why: states, ids: namedIds(list, bad) },
              { table: t.name, column: nc.name, ids: list },
            );
          }
        }
        if (nc.unique && !c.unique) {
          const dup = `${q(nc.name)} IN (SELECT ${q(nc.name)} FROM ${relation('d')} WHERE ${q(nc.name)} IS NOT NULL GROUP BY ${q(nc.name)} HAVING COUNT(*) > 1)`;
          const bad = await count(session, rel(), dup);
          if (bad > 0) {
            const list = await ids(session, rel(), t.primaryKey, dup);
            refuse(
              'migrate-rows-invalid',
              {
                table: t.name,
                column: nc.name,
                rows: rowsText(bad),
                why: 'a value another row also holds, and the field is now unique',
                ids: namedIds(list, bad),
              },
              { table: t.name, column: nc.name, ids: list },
            );
          }
        }
        if (nc.references && !same(nc.references, c.references) && stored.tables.some((x) => x.name === nc.references!.table)) {
          const r = nc.references;
          const dangling = `${q(nc.name)} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${q(at(r.table))} x WHERE x.${q(r.column)} = ${q(old.name)}.${q(nc.name)})`;
          const bad = await count(session, rel(), dangling);
          if (bad > 0) {
            const list = await ids(session, rel(), t.primaryKey, dangling);
            refuse(
              'migrate-rows-invalid',
              { table: t.name, column: nc.name, rows: rowsText(bad), why: `a reference to no ${r.table}`, ids: namedIds(list, bad) },
              { table: t.name, column: nc.name, ids: list },
            );
          }
        }
      }
      // Keys unique together that are new: rows holding a set of values another row holds are named (a NULL in the
      // key makes a row distinct, in SQLite and PostgreSQL alike).
      for (const key of t.uniqueKeys ?? []) {
        if ((old.uniqueKeys ?? []).some((k) => same(k, key)) || !key.every((k) => has(k) && !added.has(k))) continue;
        const dup = `${key.map((k) => `${q(k)} IS NOT NULL`).join(' AND ')} AND EXISTS (SELECT 1 FROM ${relation('o')} WHERE ${key
          .map((k) => `o.${q(k)} = ${q(old.name)}.${q(k)}`)
          .join(' AND ')} AND o.${q(t.primaryKey)} <> ${q(old.name)}.${q(t.primaryKey)})`;
        const bad = await count(session, rel(), dup);
        if (bad === 0) continue;
        const list = await ids(session, rel(), t.primaryKey, dup);
        const column = key.join(', ');
        refuse(
          'migrate-rows-invalid',
          { table: t.name, column, rows: rowsText(bad), why: `values another row also holds, and ${column} are now unique together`, ids: namedIds(list, bad) },
          { table: t.name, column, ids: list },
        );
      }
      tables.push({ ...old, columns });
    }

    // What is left is what `serve` runs too: new tables, optional columns, rebuilt constraints.
    const prepared: StoragePlan = { tables };
    const rest = diffStoragePlans(prepared, withKeptColumns(prepared, wanted), { rebuild, filled });
    for (const s of rest.steps) {
      const rows = s.kind === 'create_table' ? 0 : await count(session, q(at(s.table)));
      const description =
        s.kind === 'rebuild_table'
          ? `rebuild table ${s.table} with the new spec's constraints: ${rowsText(rows)} copied unaltered`
          : s.kind === 'add_column'
            ? `${s.description}: ${rowsText(rows)} read it as absent`
            : s.description;
      if (s.kind === 'add_column' && steps.some((x) => x.table === s.table && x.column === s.column)) continue;
      steps.push({ kind: s.kind, table: s.table, ...(s.column !== undefined ? { column: s.column } : {}), data: 'keeps', rows, description });
    }
    for (const r of rest.refusals) {
      // Each is one this planner has already refused in its own words, or a case it has no step for.
      if (!refusals.some((x) => x.table === r.table && (r.column === undefined || x.column === r.column)))
        refusals.push({ code: 'migrate-rows-invalid', message: r.reason, table: r.table, ...(r.column !== undefined ? { column: r.column } : {}) });
    }
    const plan: MigratePlan = { steps, refusals, losesData: steps.some((s) => s.data === 'loses') };
    options.onPlan(plan);
    if (!options.apply) return { ok: false, refusals: [] };
    if (refusals.length > 0)
      return {
        ok: false,
        refusals: refusals.map((r) => ({ table: r.table ?? '*', ...(r.column !== undefined ? { column: r.column } : {}), reason: r.message })),
      };
    if (plan.losesData && !options.allowDataLoss) {
      const losing = steps
        .filter((s) => s.data === 'loses')
        .map((s) => `${s.kind.replace('_', ' ')} ${s.table}${s.column !== undefined ? `.${s.column}` : ''}`);
      const message = createDiagnostic('migrate-data-loss', { steps: losing.join(', ') }).message;
      plan.refusals.push({ code: 'migrate-data-loss', message });
      return { ok: false, refusals: [{ table: '*', reason: message }] };
    }
    for (const a of actions) await a();
    const p = params(session);
    await session.query(`INSERT INTO ${META} (key, value) VALUES (${p()}, ${p()}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [
      FORMAT_KEY,
      String(STORAGE_FORMAT),
    ]);
    return { ok: true, stored: prepared, rebuild, filled };
  };
}

/** `3 rows in state "archived", 1 in "lost"`: the rows of a removed state, by state. */
async function stateCounts(session: MigrationSession, from: string, column: string, where: string, values: readonly unknown[]): Promise<string> {
  const rows = await session.query(`SELECT ${q(column)} AS s, COUNT(*) AS n FROM ${from} WHERE ${where} GROUP BY ${q(column)} ORDER BY ${q(column)}`, values);
  return rows.map((r) => `${rowsText(Number(r.n))} in state ${JSON.stringify(r.s)}, which the spec no longer has`).join('; ');
}
