// What the two engines (storage-sqlite.ts, storage-postgres.ts) build alike: the runtime's own table names, quoting,
// the CHECKs a column's constraints ask for, a list's filters, sort and keyset page, an update's SET, the delivery
// filter and the fan-out's choice of endpoints. Where the SQL differs (placeholders, a datetime's key, JSON
// equality, booleans) each engine answers through its `SqlDialect`, one object made once per engine.
import { getInstantKey } from './storage-instant.js';
import type { FanOutEndpoint } from './storage-rows.js';
import type { ColumnPlan, DeliveryFilter, ListQuery, Row, TablePlan, WebhookAccess } from './storage-types.js';

export const META = '_servicespec_meta';
export const OUTBOX = '_servicespec_outbox';
export const CREDENTIALS = '_servicespec_credentials';
export const RECORDS = '_servicespec_records';
export const PLAN_KEY = 'storage_plan';
// events (issue 5): webhook endpoints, the delivery queue, and the fan-out cursor (a META key).
export const WEBHOOKS = '_servicespec_webhooks';
export const DELIVERIES = '_servicespec_deliveries';
export const FANOUT_KEY = 'events:fanout_seq';

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function literal(v: string | number): string {
  return typeof v === 'number' ? String(v) : `'${v.replace(/'/g, "''")}'`;
}

/** Adds the CHECKs of the column's declared constraints (values, bounds, lengths); `length` is the engine's character count. */
export function pushValueChecks(checks: string[], c: ColumnPlan, length: string): string[] {
  const q = quoteIdent(c.name);
  const k = c.check;
  if (k.values) checks.push(`${q} IN (${k.values.map(literal).join(', ')})`);
  if (k.minimum !== undefined) checks.push(`${q} >= ${k.minimum}`);
  if (k.maximum !== undefined) checks.push(`${q} <= ${k.maximum}`);
  if (k.exclusiveMinimum !== undefined) checks.push(`${q} > ${k.exclusiveMinimum}`);
  if (k.exclusiveMaximum !== undefined) checks.push(`${q} < ${k.exclusiveMaximum}`);
  if (k.minLength !== undefined) checks.push(`${length}(${q}) >= ${k.minLength}`);
  if (k.maxLength !== undefined) checks.push(`${length}(${q}) <= ${k.maxLength}`);
  return checks;
}

/** What an engine's SQL differs in, for the statements built here. */
export interface SqlDialect {
  /** Appends `v` to `params` and answers its placeholder. */
  param(params: unknown[], v: unknown): string;
  /** A field's value as the driver takes it for the column. */
  encode(c: ColumnPlan, v: unknown): unknown;
  /** What an absence column holds for a field never given. */
  readonly absent: unknown;
  /** The sort key of a datetime column's text (storage-instant.ts), as SQL. */
  instantKey(col: string): string;
  /** `col` equal to the placeholder `ph` (a column's own type, such as JSON, may compare otherwise). */
  equals(c: ColumnPlan, col: string, ph: string): string;
}

/** `where` with `cond` added (a WHERE clause, or '' for none). */
function and(where: string, cond: string): string {
  return where === '' ? ` WHERE ${cond}` : `${where} AND ${cond}`;
}

function getColumn(t: TablePlan, name: string): ColumnPlan {
  const c = t.columns.find((x) => x.name === name);
  if (!c) throw new Error(`no column ${name}`);
  return c;
}

/**
 * A list's statement: `select` (the engine's column list) with the filters, the sort (nulls last, the identifier
 * breaking ties), the keyset position and the page; with `q.count`, the count of the filtered rows. The values go
 * to `params`, in the order of their placeholders.
 */
export function listSql(t: TablePlan, table: string, q: ListQuery, d: SqlDialect, select: string, params: unknown[]): string {
  const pk = quoteIdent(t.primaryKey);
  let where = '';
  for (const name in q.equals) {
    if (!Object.hasOwn(q.equals, name)) continue;
    const value = q.equals[name];
    const c = getColumn(t, name);
    const col = quoteIdent(name);
    // Null: a null given, not a field never given (its absence column set).
    if (value === null) {
      const absent = t.columns.find((x) => x.absentOf === name);
      where = and(where, absent ? `(${col} IS NULL AND ${quoteIdent(absent.name)} IS NULL)` : `${col} IS NULL`);
    } else if (c.instant) where = and(where, `${d.instantKey(col)} = ${d.param(params, getInstantKey(value))}`);
    else where = and(where, d.equals(c, col, d.param(params, d.encode(c, value))));
  }
  let order: string;
  if (q.sort && q.sort.column !== t.primaryKey) {
    const c = getColumn(t, q.sort.column);
    const col = quoteIdent(c.name);
    // A datetime orders by the instant it names, by its key (the cursor's value keyed alike, in JS).
    const keyed = c.instant === true && c.canonical !== true;
    const key = keyed ? d.instantKey(col) : col;
    const dir = q.sort.descending ? 'DESC' : 'ASC';
    const cmp = q.sort.descending ? '<' : '>';
    order = `(${col} IS NULL) ASC, ${key} ${dir}, ${pk} ${dir}`;
    if (q.after) {
      if (q.after.value === null || q.after.value === undefined) where = and(where, `(${col} IS NULL AND ${pk} ${cmp} ${d.param(params, q.after.id)})`);
      else {
        const v = keyed ? getInstantKey(q.after.value) : d.encode(c, q.after.value);
        where = and(
          where,
          `((${col} IS NOT NULL AND (${key} ${cmp} ${d.param(params, v)} OR (${key} = ${d.param(params, v)} AND ${pk} ${cmp} ${d.param(params, q.after.id)}))) OR ${col} IS NULL)`,
        );
      }
    }
  } else {
    const descending = q.sort?.descending ?? false;
    order = `${pk} ${descending ? 'DESC' : 'ASC'}`;
    if (q.after) where = and(where, `${pk} ${descending ? '<' : '>'} ${d.param(params, q.after.id)}`);
  }
  if (q.count) return `SELECT count(*) AS n FROM ${quoteIdent(table)}${where}`;
  const sql = `${select} FROM ${quoteIdent(table)}${where} ORDER BY ${order} LIMIT ${d.param(params, q.limit)}`;
  return q.offset ? `${sql} OFFSET ${d.param(params, q.offset)}` : sql;
}

/**
 * An update's statement, without RETURNING: the columns `changes` names (a field's absence column with it), a
 * compare-and-set on `expect`; undefined when it names none. The values go to `params`.
 */
export function updateSql(
  t: TablePlan,
  table: string,
  id: unknown,
  changes: Row,
  expect: { column: string; value: unknown } | undefined,
  d: SqlDialect,
  params: unknown[],
): string | undefined {
  let set = '';
  for (const c of t.columns) {
    if (c.primaryKey || !(Object.hasOwn(changes, c.name) || (c.absentOf !== undefined && Object.hasOwn(changes, c.absentOf)))) continue;
    const v = c.absentOf !== undefined ? (changes[c.absentOf] === undefined ? d.absent : null) : d.encode(c, changes[c.name]);
    set += `${set === '' ? '' : ', '}${quoteIdent(c.name)} = ${d.param(params, v)}`;
  }
  if (set === '') return undefined;
  const sql = `UPDATE ${quoteIdent(table)} SET ${set} WHERE ${quoteIdent(t.primaryKey)} = ${d.param(params, id)}`;
  if (!expect) return sql;
  return `${sql} AND ${quoteIdent(expect.column)} = ${d.param(params, d.encode(getColumn(t, expect.column), expect.value))}`;
}

/** The delivery filter as a WHERE clause ('' for none); the values go to `params`. */
export function deliveryWhere(f: DeliveryFilter, d: SqlDialect, params: unknown[]): string {
  const where: string[] = [];
  if (f.endpointId !== undefined) where.push(`endpoint = ${d.param(params, f.endpointId)}`);
  if (f.eventId !== undefined) where.push(`event_id = ${d.param(params, f.eventId)}`);
  if (f.status !== undefined) where.push(`status = ${d.param(params, f.status)}`);
  return where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '';
}

/** The claimed deliveries' join: each with its event and endpoint (`ClaimRow`). */
export const CLAIM_JOIN = `SELECT d.*, o.timestamp AS o_timestamp, o.version AS o_version, o.data AS o_data, w.id AS w_id, w.url AS w_url, w.kinds AS w_kinds, w.description AS w_description, w.subject AS w_subject, w.access AS w_access, w.secrets AS w_secrets, w.created_at AS w_created_at, w.after_seq AS w_after_seq
           FROM ${DELIVERIES} d JOIN ${WEBHOOKS} w ON w.id = d.endpoint JOIN ${OUTBOX} o ON o.seq = d.seq`;

/** Where the fan-out starts: past the stored cursor, and past what every enabled endpoint was registered after. */
export function getFanOutCursor(stored: string | undefined, endpoints: readonly FanOutEndpoint[]): number {
  return Math.max(stored !== undefined ? Number(stored) : 0, Math.min(...endpoints.map((e) => e.afterSeq)));
}

/** The outbox columns the fan-out reads: the payloads only when an endpoint registered through the API has to be asked about them. */
export function getFanOutColumns(endpoints: readonly FanOutEndpoint[], visible: unknown): string {
  return visible && endpoints.some((e) => e.access !== undefined) ? 'seq, id, type, data' : 'seq, id, type';
}

/** The deliveries to queue for these outbox entries: one per entry and endpoint that wants it (and may see it). */
export interface FanOutTargets {
  seqs: number[];
  endpoints: string[];
  eventIds: string[];
  types: string[];
}

export function getFanOutTargets(
  rows: readonly { seq: number; id: string; type: string; data?: string }[],
  endpoints: readonly FanOutEndpoint[],
  visible: ((access: WebhookAccess, type: string, data: unknown) => boolean) | undefined,
): FanOutTargets {
  const out: FanOutTargets = { seqs: [], endpoints: [], eventIds: [], types: [] };
  for (const row of rows) {
    let data: unknown;
    for (const e of endpoints) {
      if (row.seq <= e.afterSeq || (e.kinds !== null && !e.kinds.has(row.type))) continue;
      if (e.access !== undefined) {
        if (!visible) continue;
        data ??= JSON.parse(row.data!);
        if (!visible(e.access, row.type, data)) continue;
      }
      out.seqs.push(row.seq);
      out.endpoints.push(e.id);
      out.eventIds.push(row.id);
      out.types.push(row.type);
    }
  }
  return out;
}
