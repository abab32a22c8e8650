// `servicespec db copy` (issue 28): every table of one database — the resources', the credentials (hashed), webhook
// endpoints with their secrets, the outbox and the delivery queue, idempotency records, and the migration record
// with the settings (cursor and signing keys) — copied into an empty one, SQLite ↔ PostgreSQL. The tables are the
// source's catalogue (CopyReader.tables: every `_servicespec_…` table and each resource's of the recorded plan),
// never a list kept here, so a table added to a storage is copied too, and one the target lacks fails the copy.
// The source is read on one snapshot; the target is written in one transaction (its `migrate` to the source's
// plan, then the rows, then the counts checked): all or nothing.

import { createDiagnostic, type DiagnosticCode, type DiagnosticParams } from '../../diagnostics/diagnostics-catalogue.js';
import type { ServiceModel } from '../../model/model-types.js';
import { STORAGE_FORMAT } from './storage-migrate.js';
import { diffStoragePlans, getStoragePlan, withKeptColumns } from './storage-plan.js';
import type { CopyReader, CopyTable, Storage, StoragePlan } from './storage-types.js';

const OWN_PREFIX = '_servicespec_';
const META = `${OWN_PREFIX}meta`;
const PLAN_KEY = 'storage_plan';
const FORMAT_KEY = 'storage_format';
/** META keys an empty database may hold: what `migrate` records, with no row anywhere. */
const EMPTY_META = new Set([PLAN_KEY, FORMAT_KEY]);
const BATCH = 10_000;

export interface CopyOptions {
  /** The spec the source must be migrated to. */
  model: ServiceModel;
  /** How the databases are named in messages (their URLs, passwords hidden). */
  from: string;
  to: string;
  /** How to say which command migrates the source (in `copy-source-not-migrated`). */
  migrateCommand?: string;
  /** Rows a batch (default 10,000). */
  batchSize?: number;
}

export interface CopiedTable {
  name: string;
  rows: number;
}

export type CopyOutcome = { ok: true; tables: CopiedTable[]; rows: number } | { ok: false; code: DiagnosticCode; message: string };

/** A refusal, thrown out of a transaction so it rolls back, and answered as a code and a message. */
class CopyRefused<C extends DiagnosticCode = DiagnosticCode> extends Error {
  constructor(
    readonly code: C,
    params: DiagnosticParams<C>,
  ) {
    super(createDiagnostic(code, params).message);
  }
}

async function readMeta(reader: Pick<CopyReader, 'tables' | 'rows'>): Promise<Map<string, string>> {
  const meta = (await reader.tables()).find((t) => t.name === META);
  const out = new Map<string, string>();
  if (!meta) return out;
  const key = meta.columns.findIndex((c) => c.name === 'key');
  const value = meta.columns.findIndex((c) => c.name === 'value');
  for await (const batch of reader.rows(meta, BATCH)) for (const r of batch) out.set(String(r[key]), String(r[value]));
  return out;
}

function checkFormat(meta: Map<string, string>, url: string): void {
  const stored = Number(meta.get(FORMAT_KEY) ?? 1);
  if (stored > STORAGE_FORMAT) throw new CopyRefused('copy-newer-database', { url, stored, known: STORAGE_FORMAT });
}

/**
 * Whether servicespec keeps the table: its own (`_servicespec_…`) or a resource's of the recorded plan. Others (a
 * PostgreSQL schema shared with other tables) are neither copied nor counted.
 */
function isOwned(name: string, plans: readonly StoragePlan[]): boolean {
  return name.startsWith(OWN_PREFIX) || plans.some((p) => p.tables.some((t) => t.name === name));
}

function recordedPlan(meta: Map<string, string>): StoragePlan {
  return meta.has(PLAN_KEY) ? (JSON.parse(meta.get(PLAN_KEY)!) as StoragePlan) : { tables: [] };
}

/** What a database holds besides an empty migration record: `3 rows in Task, 1 in _servicespec_credentials`, or undefined. */
async function describeContents(db: Pick<CopyReader, 'tables' | 'count'>, meta: Map<string, string>): Promise<string | undefined> {
  const held: string[] = [];
  for (const t of await db.tables()) {
    if (!isOwned(t.name, [recordedPlan(meta)])) continue;
    if (t.name === META) {
      const keys = [...meta.keys()].filter((k) => !EMPTY_META.has(k));
      if (keys.length > 0) held.push(`${keys.length} key${keys.length === 1 ? '' : 's'} in ${META} (${keys.slice(0, 3).join(', ')})`);
      continue;
    }
    const n = await db.count(t.name);
    if (n > 0) held.push(`${n} row${n === 1 ? '' : 's'} in ${t.name}`);
  }
  return held.length > 0 ? held.join(', ') : undefined;
}

/** Why the target's table cannot take the source's rows, or undefined. */
function mismatch(source: CopyTable, target: CopyTable | undefined): string | undefined {
  if (!target) return `table ${source.name} has no counterpart in the target`;
  for (const c of source.columns) {
    const t = target.columns.find((x) => x.name === c.name);
    if (!t) return `column ${source.name}.${c.name} has no counterpart in the target`;
    if (t.type !== c.type) return `column ${source.name}.${c.name} is ${c.type} in the source and ${t.type} in the target`;
  }
  return undefined;
}

/** The source's plan, or why it cannot be copied (migrated by a newer servicespec, or not to the spec). */
function sourcePlan(meta: Map<string, string>, options: CopyOptions): StoragePlan {
  checkFormat(meta, options.from);
  const stored = recordedPlan(meta);
  const { steps, refusals } = diffStoragePlans(stored, withKeptColumns(stored, getStoragePlan(options.model)));
  const pending = [...steps.map((s) => s.description), ...refusals.map((r) => r.reason)];
  if (pending.length > 0) {
    throw new CopyRefused('copy-source-not-migrated', {
      url: options.from,
      count: pending.length,
      first: pending[0]!,
      command: options.migrateCommand ?? 'servicespec migrate SPEC --db URL --apply',
    });
  }
  return stored;
}

/**
 * The refusals that depend on the source alone (a newer servicespec's database, one not migrated to the spec), found
 * before the target is opened at all (opening a PostgreSQL target creates servicespec's tables in it).
 */
export async function checkCopySource(source: Storage, options: CopyOptions): Promise<{ ok: true } | { ok: false; code: DiagnosticCode; message: string }> {
  if (!source.readForCopy) return { ok: true };
  try {
    await source.readForCopy(async (reader) => sourcePlan(await readMeta(reader), options));
    return { ok: true };
  } catch (err) {
    if (err instanceof CopyRefused) return { ok: false, code: err.code, message: err.message };
    throw err;
  }
}

/**
 * Copies every table of `source` into `target`, which must be empty. Refusals (each a code): a source or target
 * migrated by a newer servicespec, a source not migrated to the spec, a target that holds rows; a copy that fails
 * midway or whose counts disagree at the end is rolled back (`copy-failed`). Both storages stay open (the caller's).
 */
export async function copyStorage(source: Storage, target: Storage, options: CopyOptions): Promise<CopyOutcome> {
  if (!source.readForCopy || !target.readForCopy)
    return { ok: false, code: 'copy-failed', message: createDiagnostic('copy-failed', { url: options.to, reason: 'this storage cannot be copied' }).message };
  const size = options.batchSize ?? BATCH;
  try {
    // The target first, outside any transaction: a refusal here costs the source nothing.
    await target.readForCopy(async (reader) => {
      const meta = await readMeta(reader);
      checkFormat(meta, options.to);
      const held = await describeContents(reader, meta);
      if (held !== undefined) throw new CopyRefused('copy-target-not-empty', { url: options.to, held });
    });
    return await source.readForCopy(async (reader): Promise<CopyOutcome> => {
      const stored = sourcePlan(await readMeta(reader), options);
      const tables = (await reader.tables()).filter((t) => isOwned(t.name, [stored]));
      let targetPlan: StoragePlan = { tables: [] };
      const expected = new Map<string, number>();
      for (const t of tables) expected.set(t.name, await reader.count(t.name));
      const copied: CopiedTable[] = [];
      const result = await target.migrate(stored, {
        // Again inside the transaction (PostgreSQL: under the migration lock): nothing was written meanwhile.
        prepare: async (session, targetStored) => {
          const targetMeta = new Map((await session.query(`SELECT key, value FROM ${META}`)).map((r) => [String(r.key), String(r.value)]));
          checkFormat(targetMeta, options.to);
          const keys = [...targetMeta.keys()].filter((k) => !EMPTY_META.has(k));
          if (keys.length > 0)
            throw new CopyRefused('copy-target-not-empty', {
              url: options.to,
              held: `${keys.length} key${keys.length === 1 ? '' : 's'} in ${META} (${keys.slice(0, 3).join(', ')})`,
            });
          targetPlan = targetStored;
          return { ok: true, stored: targetStored };
        },
        load: async (writer) => {
          // From the start on each run (PostgreSQL runs a transaction again after a fault that applied nothing).
          copied.length = 0;
          const targetTables = new Map((await writer.tables()).map((t) => [t.name, t]));
          for (const [name] of targetTables) {
            if (name === META || !isOwned(name, [stored, targetPlan])) continue;
            const n = await writer.count(name);
            if (n > 0) throw new CopyRefused('copy-target-not-empty', { url: options.to, held: `${n} row${n === 1 ? '' : 's'} in ${name}` });
          }
          for (const t of tables) {
            const why = mismatch(t, targetTables.get(t.name));
            if (why !== undefined) throw new CopyRefused('copy-failed', { url: options.to, reason: why });
          }
          // The migration record, the settings and the cursors are the source's (the plan recorded is the same).
          await writer.clear(META);
          for (const t of tables) {
            // One batch read ahead: the next is read (or fetched) while the target writes this one.
            let rows = 0;
            const batches = reader.rows(t, size)[Symbol.asyncIterator]();
            for (let got = await batches.next(); got.done !== true;) {
              const next = batches.next();
              next.catch(() => undefined);
              await writer.insert(t, got.value);
              rows += got.value.length;
              got = await next;
            }
            copied.push({ name: t.name, rows });
          }
          // Keys deleted in the source are not issued again by the target.
          for (const [name, last] of await reader.lastKeys()) if (tables.some((t) => t.name === name)) await writer.continueKeys(name, last);
          for (const t of tables) {
            const want = expected.get(t.name)!;
            const read = copied.find((c) => c.name === t.name)!.rows;
            const got = await writer.count(t.name);
            if (read !== want || got !== want)
              throw new CopyRefused('copy-failed', {
                url: options.to,
                reason: `${t.name}: the source holds ${want} rows, ${read} were read and the target holds ${got}`,
              });
          }
        },
      });
      if (!result.ok) throw new CopyRefused('copy-failed', { url: options.to, reason: result.refusals.map((r) => r.reason).join('; ') });
      return { ok: true, tables: copied, rows: copied.reduce((n, t) => n + t.rows, 0) };
    });
  } catch (err) {
    if (err instanceof CopyRefused) return { ok: false, code: err.code, message: err.message };
    const reason = String((err as Error)?.message ?? err).split('\n')[0]!;
    return { ok: false, code: 'copy-failed', message: createDiagnostic('copy-failed', { url: options.to, reason }).message };
  }
}
