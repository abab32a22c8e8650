// `servicespec migrate SPEC --db URL [--apply [--allow-data-loss]]`: the plan between what the database holds and
// the spec (each step, what it does to data, how many rows), and, with --apply, the plan run in one transaction.
// The planning and the steps are storage-migrate.ts; this file reads the options and prints.

import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { createDiagnostic, type DiagnosticCode, type DiagnosticParams } from '../diagnostics/diagnostics-catalogue.js';
import { getStoragePlan } from '../runtime/storage/storage-plan.js';
import { createMigratePrepare, type MigratePlan } from '../runtime/storage/storage-migrate.js';
import { loadSqliteDriver } from '../runtime/storage/storage-sqlite-driver.js';
import type { MigrationResult, Storage } from '../runtime/storage/storage-types.js';
import type { ServiceModel } from '../model/model-types.js';
import { openStorage, parseStorageUrl, redactStorageUrl } from './cli-db-url.js';
import { DB_HELP, defaultDbUrl } from './cli-keys.js';
import { action, EXIT, formatOption, io, readSpec, type ActionResult, type ExitCode } from './cli-shared.js';

export interface MigrateCommandOptions {
  db?: string;
  apply?: boolean;
  allowDataLoss?: boolean;
  format?: 'text' | 'json';
}

const COMMAND = 'servicespec migrate';

/** One line on stderr: the command, the code, the message. */
function fail<C extends DiagnosticCode>(code: C, params: DiagnosticParams<C>): ExitCode {
  io.err(`${COMMAND}: ${code}: ${createDiagnostic(code, params).message}\n`);
  return EXIT.errors;
}

function firstLine(err: unknown): string {
  return String((err as Error)?.message ?? err).split('\n')[0]!;
}

/** `migrate SPEC --db URL …`, as the user would type it again (the password hidden). */
function commandLine(file: string, url: string, extra: string): string {
  return `servicespec migrate ${file} --db ${redactStorageUrl(url)}${extra}`;
}

/** Runs the planner in the storage's migration transaction; rolled back unless `apply`. */
async function runPlanner(
  storage: Storage,
  model: ServiceModel,
  apply: boolean,
  allowDataLoss: boolean,
): Promise<{ plan: MigratePlan | undefined; result: MigrationResult }> {
  let plan: MigratePlan | undefined;
  const result = await storage.migrate(getStoragePlan(model), { prepare: createMigratePrepare(model, { apply, allowDataLoss, onPlan: (p) => (plan = p) }) });
  return { plan, result };
}

function printPlan(plan: MigratePlan, heading: string): void {
  io.out(`${heading}\n${formatPlanLines(plan)}`);
}

/** A copy of the SQLite database beside it, through SQLite's online backup (consistent while others write). */
async function backupSqlite(path: string): Promise<string> {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const target = `${path}.before-migrate-${stamp}`;
  const db = new (loadSqliteDriver())(path, { readonly: true });
  try {
    await db.backup(target);
  } finally {
    db.close();
  }
  return target;
}

/**
 * The plan for `model` on the database `url`, changing nothing (for `diff --db`), or the one line saying why there
 * is none (the database cannot be reached, or a newer servicespec migrated it).
 */
export async function lookAtMigration(model: ServiceModel, url: string): Promise<{ ok: true; plan: MigratePlan } | { ok: false; line: string }> {
  const target = parseStorageUrl(url);
  if (target.kind === 'error') return { ok: false, line: target.message };
  const shown = redactStorageUrl(url);
  if (target.kind === 'sqlite' && (target.path === ':memory:' || !existsSync(target.path))) {
    return { ok: false, line: `migrate-unreachable: ${createDiagnostic('migrate-unreachable', { url: shown, reason: 'no such database file' }).message}` };
  }
  let storage: Storage;
  try {
    storage = openStorage(url);
    await storage.lastOutboxSeq();
  } catch (err) {
    return { ok: false, line: `migrate-unreachable: ${createDiagnostic('migrate-unreachable', { url: shown, reason: firstLine(err) }).message}` };
  }
  try {
    const { plan } = await runPlanner(storage, model, false, false);
    const newer = plan?.refusals.find((r) => r.code === 'migrate-newer-database');
    if (!plan || newer) return { ok: false, line: `${newer?.code ?? 'migrate-newer-database'}: ${newer?.message ?? ''}` };
    return { ok: true, plan };
  } finally {
    await storage.close().catch(() => undefined);
  }
}

/** The plan's steps and refusals as lines (`diff --db` and `migrate` share them). */
export function formatPlanLines(plan: MigratePlan): string {
  if (plan.steps.length === 0 && plan.refusals.length === 0) return '  nothing to do: the database holds what the spec describes\n';
  return [...plan.steps.map((s, i) => `  ${i + 1}. [${s.data}] ${s.description}\n`), ...plan.refusals.map((r) => `  refused: ${r.code}: ${r.message}\n`)].join(
    '',
  );
}

export async function runMigrate(file: string, options: MigrateCommandOptions): Promise<ExitCode> {
  const compiled = readSpec(file);
  if (!compiled.model || compiled.diagnostics.some((d) => d.severity === 'error')) return fail('migrate-spec-invalid', { file });
  const model = compiled.model;
  const url = options.db ?? defaultDbUrl(file);
  const target = parseStorageUrl(url);
  if (target.kind === 'error') {
    io.err(`${COMMAND}: ${target.message}\n`);
    return EXIT.usage;
  }
  if (target.kind === 'sqlite' && (target.path === ':memory:' || !existsSync(target.path))) {
    return fail('migrate-unreachable', {
      url: redactStorageUrl(url),
      reason: target.path === ':memory:' ? 'an in-memory database holds nothing to migrate' : 'no such database file',
    });
  }
  if (options.allowDataLoss && !options.apply) {
    io.err(`${COMMAND}: --allow-data-loss is given with --apply only (without it nothing is changed)\n`);
    return EXIT.usage;
  }
  let storage: Storage;
  try {
    storage = openStorage(url);
    await storage.lastOutboxSeq(); // reaches a database over the network
  } catch (err) {
    return fail('migrate-unreachable', { url: redactStorageUrl(url), reason: firstLine(err) });
  }
  const json = options.format === 'json';
  try {
    const plan = (await runPlanner(storage, model, false, false)).plan;
    if (!plan) throw new Error('the planner did not run');
    const newer = plan.refusals.find((r) => r.code === 'migrate-newer-database');
    if (newer) {
      io.err(`${COMMAND}: ${newer.code}: ${newer.message}\n`);
      return EXIT.errors;
    }
    const database = redactStorageUrl(url);
    if (!options.apply) {
      if (json) io.out(`${JSON.stringify({ database, applied: false, ...plan }, null, 2)}\n`);
      else {
        printPlan(plan, `Plan for ${database} (${plan.steps.length} step${plan.steps.length === 1 ? '' : 's'}; nothing changed):`);
        if (plan.refusals.length > 0) io.out('It cannot be applied until the refused rows are dealt with.\n');
        else if (plan.steps.length > 0) io.out(`Apply it with: ${commandLine(file, url, plan.losesData ? ' --apply --allow-data-loss' : ' --apply')}\n`);
      }
      return EXIT.ok;
    }
    if (plan.refusals.length > 0) {
      if (json) io.out(`${JSON.stringify({ database, applied: false, ...plan }, null, 2)}\n`);
      else printPlan(plan, `Plan for ${database}: refused, nothing changed:`);
      for (const r of plan.refusals) io.err(`${COMMAND}: ${r.code}: ${r.message}\n`);
      return EXIT.errors;
    }
    if (plan.losesData && !options.allowDataLoss) {
      const steps = plan.steps
        .filter((s) => s.data === 'loses')
        .map((s) => `${s.kind.replace('_', ' ')} ${s.table}${s.column !== undefined ? `.${s.column}` : ''}`);
      if (!json) printPlan(plan, `Plan for ${database}:`);
      return fail('migrate-data-loss', { steps: steps.join(', ') });
    }
    if (plan.steps.length === 0) {
      if (json) io.out(`${JSON.stringify({ database, applied: true, ...plan }, null, 2)}\n`);
      else io.out(`Nothing to do: ${database} holds what the spec describes\n`);
      return EXIT.ok;
    }
    let backup: string | undefined;
    if (target.kind === 'sqlite') {
      backup = await backupSqlite(target.path);
      if (!json) io.err(`backup of the database before migrating: ${backup}\n`);
    }
    const applied = await runPlanner(storage, model, true, options.allowDataLoss === true);
    if (!applied.result.ok) {
      // The database changed between the look and the run (another writer): the run's own plan was refused.
      const again = applied.plan;
      if (json) io.out(`${JSON.stringify({ database, applied: false, ...(again ?? plan), ...(backup !== undefined ? { backup } : {}) }, null, 2)}\n`);
      for (const r of again?.refusals.length
        ? again.refusals
        : applied.result.refusals.map((x) => ({ code: 'migrate-rows-invalid' as const, message: x.reason })))
        io.err(`${COMMAND}: ${r.code}: ${r.message}\n`);
      return EXIT.errors;
    }
    const done = applied.plan ?? plan;
    if (json) io.out(`${JSON.stringify({ database, applied: true, ...done, ...(backup !== undefined ? { backup } : {}) }, null, 2)}\n`);
    else printPlan(done, `Applied to ${database} in one transaction:`);
    return EXIT.ok;
  } finally {
    await storage.close().catch(() => undefined);
  }
}

export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('plan (and with --apply, run) the changes the database needs to hold what the spec describes')
    .argument('<file>', 'the spec file (YAML or JSON)')
    .option('--db <url>', DB_HELP)
    .option('--apply', 'run the plan, in one transaction (SQLite: after writing a backup copy beside the database)')
    .option('--allow-data-loss', 'with --apply: run steps that lose data (a dropped resource or field holding values)')
    .addOption(formatOption())
    .addHelpText(
      'after',
      '\nWithout --apply nothing is changed. Rows the new spec would refuse (a removed state, a new bound) are named and\nrefused even with --allow-data-loss. docs/migrations.md walks through each kind of change.\n',
    )
    .action(action((file: string, options: MigrateCommandOptions): ActionResult => runMigrate(file, options)));
}
