// `servicespec db copy SPEC --from URL --to URL`: every table of a served database copied into an empty one,
// SQLite ↔ PostgreSQL, in one transaction on the target (storage-copy.ts does the work; this file checks the
// arguments, opens the two databases and prints).

import { existsSync, rmSync } from 'node:fs';
import type { Command } from 'commander';
import { createDiagnostic, type DiagnosticCode, type DiagnosticParams } from '../diagnostics/diagnostics-catalogue.js';
import { checkCopySource, copyStorage } from '../runtime/storage/storage-copy.js';
import type { Storage } from '../runtime/storage/storage-types.js';
import { openStorage, parseStorageUrl, redactStorageUrl, type StorageTarget } from './cli-db-url.js';
import { action, EXIT, formatOption, io, readSpec, type ActionResult, type ExitCode } from './cli-shared.js';

export interface DbCopyOptions {
  from: string;
  to: string;
  format?: 'text' | 'json';
}

const COMMAND = 'servicespec db copy';

function fail<C extends DiagnosticCode>(code: C, params: DiagnosticParams<C>): ExitCode {
  return failWith(code, createDiagnostic(code, params).message);
}

function failWith(code: DiagnosticCode, message: string): ExitCode {
  io.err(`${COMMAND}: ${code}: ${message}\n`);
  return EXIT.errors;
}

function firstLine(err: unknown): string {
  return String((err as Error)?.message ?? err).split('\n')[0]!;
}

/** The same database named twice: one SQLite file, or one PostgreSQL server, database and schema. */
function sameDatabase(a: StorageTarget, b: StorageTarget): boolean {
  if (a.kind === 'sqlite' && b.kind === 'sqlite') return a.path === b.path;
  if (a.kind !== 'postgres' || b.kind !== 'postgres') return false;
  const key = (url: string) => {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}?${u.searchParams.get('schema') ?? 'public'}`;
  };
  return key(a.url) === key(b.url);
}

/** Opens the database and reaches it (a PostgreSQL server answers), or says why not. */
async function reach(url: string): Promise<Storage | string> {
  let storage: Storage | undefined;
  try {
    storage = openStorage(url);
    await storage.lastOutboxSeq();
    return storage;
  } catch (err) {
    await storage?.close().catch(() => undefined);
    return firstLine(err);
  }
}

export async function runDbCopy(file: string, options: DbCopyOptions): Promise<ExitCode> {
  const compiled = readSpec(file);
  if (!compiled.model || compiled.diagnostics.some((d) => d.severity === 'error')) return fail('copy-spec-invalid', { file });
  const from = parseStorageUrl(options.from);
  const to = parseStorageUrl(options.to);
  for (const t of [from, to]) {
    if (t.kind === 'error') {
      io.err(`${COMMAND}: ${t.message}\n`);
      return EXIT.usage;
    }
  }
  const fromShown = redactStorageUrl(options.from);
  const toShown = redactStorageUrl(options.to);
  if ((from.kind === 'sqlite' && from.path === ':memory:') || (to.kind === 'sqlite' && to.path === ':memory:')) {
    io.err(`${COMMAND}: an in-memory database cannot be copied from or to (it lives only inside one process)\n`);
    return EXIT.usage;
  }
  if (sameDatabase(from, to)) return fail('copy-same-database', { url: toShown });
  if (from.kind === 'sqlite' && !existsSync(from.path)) return fail('copy-unreachable', { url: fromShown, reason: 'no such database file' });
  const source = await reach(options.from);
  if (typeof source === 'string') return fail('copy-unreachable', { url: fromShown, reason: source });
  const migrateCommand = `servicespec migrate ${file} --db ${fromShown} --apply`;
  const copyOptions = { model: compiled.model, from: fromShown, to: toShown, migrateCommand };
  try {
    const checked = await checkCopySource(source, copyOptions);
    if (!checked.ok) {
      await source.close().catch(() => undefined);
      return failWith(checked.code, checked.message);
    }
  } catch (err) {
    await source.close().catch(() => undefined);
    return fail('copy-unreachable', { url: fromShown, reason: firstLine(err) });
  }
  // A SQLite target that did not exist is created by the copy, and removed again when the copy does not happen.
  const created = to.kind === 'sqlite' && !existsSync(to.path) ? to.path : undefined;
  let target: Storage | string | undefined;
  let ok = false;
  try {
    target = await reach(options.to);
    if (typeof target === 'string') return fail('copy-unreachable', { url: toShown, reason: target });
    const started = performance.now();
    const outcome = await copyStorage(source, target, copyOptions);
    if (!outcome.ok) return failWith(outcome.code, outcome.message);
    ok = true;
    const seconds = (performance.now() - started) / 1000;
    if (options.format === 'json') {
      io.out(`${JSON.stringify({ from: fromShown, to: toShown, rows: outcome.rows, seconds: Number(seconds.toFixed(3)), tables: outcome.tables }, null, 2)}\n`);
    } else {
      io.out(
        `Copied ${outcome.rows} row${outcome.rows === 1 ? '' : 's'} from ${fromShown} to ${toShown} in one transaction (${seconds.toFixed(1)} s); counts checked:\n`,
      );
      for (const t of outcome.tables) io.out(`  ${t.name}: ${t.rows}\n`);
      io.out(`Serve it with: servicespec serve ${file} --db ${toShown}\n`);
    }
    return EXIT.ok;
  } finally {
    await source.close().catch(() => undefined);
    if (typeof target === 'object') await target.close().catch(() => undefined);
    if (!ok && created !== undefined) for (const suffix of ['', '-wal', '-shm']) rmSync(`${created}${suffix}`, { force: true });
  }
}

export function registerDbCommand(program: Command): void {
  const db = program.command('db').description('work on a served database as a whole (copy it between SQLite and PostgreSQL)');
  db.command('copy')
    .description('copy every row of a served database (resources, credentials, webhooks, events, settings) into an empty one')
    .argument('<file>', 'the spec file (YAML or JSON) the source is migrated to')
    .requiredOption('--from <url>', 'the database to copy: sqlite:PATH or postgres://user@host:port/db[?schema=NAME]')
    .requiredOption('--to <url>', 'an empty database to copy into (a SQLite file is created when missing)')
    .addOption(formatOption())
    .addHelpText(
      'after',
      '\nThe source is read on one snapshot and left as it is; the target is written in one transaction and its counts\nchecked: on any failure nothing is left in it. API keys, OAuth clients and users (hashed), webhook secrets,\nthe outbox, cursor and signing keys are copied as they are: the same keys work and the same cursors resume.\n',
    )
    .action(action((file: string, options: DbCopyOptions): ActionResult => runDbCopy(file, options)));
}
