// `servicespec keys create|list|revoke FILE`: API keys in the service's own database. The whole key is printed
// once, by `create`; the database keeps only its hash.

import { existsSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import type { Command } from 'commander';
import type { ServiceModel } from '../model/model-types.js';
import { createApiKey, CredentialError, listApiKeys, revokeApiKey, type CredentialSummary } from '../runtime/auth/auth-credentials.js';
import { parseStorageUrl, openStorage, redactStorageUrl } from './cli-db-url.js';
import type { Storage } from '../runtime/storage/storage-types.js';
import { action, EXIT, formatOption, io, printDiagnostics, readSpec, type ActionResult, type ExitCode } from './cli-shared.js';

export interface CredentialCommandOptions {
  db?: string;
  format?: 'text' | 'json';
  /** Start a new database when the one named does not exist (otherwise refused: it would not be the service's). */
  create?: boolean;
}

/**
 * The database `serve` uses for this spec when no --db is given: `data/<spec name>.db` beside the spec file, so
 * `serve` and `keys` agree whatever folder each is run from. Standard input has no folder: the current one.
 */
export function defaultDbUrl(file: string): string {
  if (file === '-') return 'sqlite:./data/stdin.db';
  return `sqlite:${join(dirname(file), 'data', `${basename(file, extname(file))}.db`)}`;
}

/**
 * Reads the spec, opens its database, runs `work`, closes the database. Bad input never becomes a stack trace:
 * a broken spec or unusable --db exits 1 or 2 with one line, a CredentialError (unknown scope, bad subject) exits 2.
 */
export async function withCredentialStore(
  command: string,
  file: string,
  options: CredentialCommandOptions,
  work: (model: ServiceModel, storage: Storage) => Promise<ExitCode>,
): Promise<ExitCode> {
  const compiled = readSpec(file);
  if (!compiled.model || compiled.diagnostics.some((d) => d.severity === 'error')) {
    printDiagnostics(compiled.diagnostics, { quiet: true });
    io.err(`${command}: ${file} has errors; fix them first (servicespec check ${file})\n`);
    return EXIT.errors;
  }
  const url = options.db ?? defaultDbUrl(file);
  const target = parseStorageUrl(url);
  if (target.kind === 'error') {
    io.err(`${command}: ${target.message}\n`);
    return EXIT.usage;
  }
  if (target.kind === 'sqlite' && target.path === ':memory:') {
    io.err(`${command}: an in-memory database forgets everything when this command ends; name the service's database with --db\n`);
    return EXIT.usage;
  }
  if (target.kind === 'sqlite' && !options.create && !existsSync(target.path)) {
    io.err(
      `${command}: no database at ${target.path}; these commands manage an existing service's database. ` +
        `Name it with --db (the one \`serve\` uses), or pass --create to start a new one\n`,
    );
    return EXIT.errors;
  }
  let storage: Storage;
  try {
    storage = await openStorage(url);
  } catch (err) {
    io.err(`${command}: cannot open ${redactStorageUrl(url)}: ${(err as Error).message.split('\n')[0]}\n`);
    return EXIT.errors;
  }
  try {
    await storage.lastOutboxSeq(); // reaches a database over the network
  } catch (err) {
    await storage.close().catch(() => undefined);
    io.err(`${command}: cannot open ${redactStorageUrl(url)}: ${(err as Error).message.split('\n')[0]}\n`);
    return EXIT.errors;
  }
  try {
    return await work(compiled.model, storage);
  } catch (err) {
    if (err instanceof CredentialError) {
      io.err(`${command}: ${err.message}\n`);
      return EXIT.usage;
    }
    throw err;
  } finally {
    await storage.close();
  }
}

/** `a,b , c` → [a, b, c]. */
export function parseScopes(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** A list of credentials as an aligned table (text) or a JSON array. */
export function printCredentials(list: readonly CredentialSummary[], format: 'text' | 'json' | undefined, idHeading: string, empty: string): void {
  if (format === 'json') {
    io.out(`${JSON.stringify(list, null, 2)}\n`);
    return;
  }
  if (list.length === 0) {
    io.out(`${empty}\n`);
    return;
  }
  const rows = [
    [idHeading, 'SUBJECT', 'SCOPES', 'CREATED', 'REVOKED'],
    ...list.map((c) => [c.lookup, c.subject, c.scopes.join(',') || '-', c.createdAt, c.revokedAt ?? '-']),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows) io.out(`${r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')}\n`);
}

interface CreateKeyOptions extends CredentialCommandOptions {
  subject: string;
  scopes?: string;
  scheme?: string;
}

export function runKeysCreate(file: string, options: CreateKeyOptions): Promise<ExitCode> {
  return withCredentialStore('servicespec keys create', file, options, async (model, storage) => {
    const issued = await createApiKey(storage, model, {
      subject: options.subject,
      scopes: parseScopes(options.scopes),
      ...(options.scheme !== undefined ? { scheme: options.scheme } : {}),
    });
    if (options.format === 'json') {
      io.out(
        `${JSON.stringify({ id: issued.id, key: issued.key, scheme: issued.scheme, subject: issued.subject, scopes: issued.scopes, createdAt: issued.createdAt }, null, 2)}\n`,
      );
    } else {
      // The key alone on stdout, so `KEY=$(servicespec keys create …)` works; the rest is for the person.
      io.err(`API key ${issued.id} for subject ${issued.subject} (scheme ${issued.scheme}; scopes: ${issued.scopes.join(', ') || 'none'})\n`);
      io.out(`${issued.key}\n`);
      io.err('Keep the key now: it is shown only this once, and only its hash is stored.\n');
    }
    return EXIT.ok;
  });
}

export function runKeysList(file: string, options: CredentialCommandOptions): Promise<ExitCode> {
  return withCredentialStore('servicespec keys list', file, options, async (_model, storage) => {
    printCredentials(await listApiKeys(storage), options.format, 'ID', 'no API keys');
    return EXIT.ok;
  });
}

export function runKeysRevoke(file: string, id: string, options: CredentialCommandOptions): Promise<ExitCode> {
  return withCredentialStore('servicespec keys revoke', file, options, async (_model, storage) => {
    if (!(await revokeApiKey(storage, id))) {
      io.err(`servicespec keys revoke: no API key with id ${id}\n`);
      return EXIT.errors;
    }
    io.out(`API key ${id} revoked; requests that present it are refused from now on\n`);
    return EXIT.ok;
  });
}

export const DB_HELP =
  "the service's database: sqlite:PATH or postgres://user@host:port/db (default: the one serve uses, data/<spec name>.db beside the spec file)";
export const CREATE_HELP = 'start a new database when --db names none (otherwise refused)';
export const HELP_DB = '\nThe database must exist (the one `serve` created); a missing one is refused unless --create is given.\n';

export function registerKeysCommand(program: Command): void {
  const keys = program.command('keys').description("manage API keys in the service's database");
  keys
    .command('create')
    .description('create an API key; the key is printed once and only its hash is stored')
    .argument('<file>', 'the spec file (YAML or JSON)')
    .requiredOption('--subject <subject>', 'who the key stands for (the owner of what it creates)')
    .option('--scopes <list>', 'comma-separated scopes the key holds, each declared in the spec')
    .option('--scheme <name>', 'the api_key scheme the key is for (needed when the spec declares several)')
    .option('--db <url>', DB_HELP)
    .option('--create', CREATE_HELP)
    .addOption(formatOption())
    .addHelpText('after', HELP_DB)
    .action(action((file: string, options: CreateKeyOptions): ActionResult => runKeysCreate(file, options)));
  keys
    .command('list')
    .description('list API keys (never their secrets)')
    .argument('<file>', 'the spec file (YAML or JSON)')
    .option('--db <url>', DB_HELP)
    .option('--create', CREATE_HELP)
    .addOption(formatOption())
    .addHelpText('after', HELP_DB)
    .action(action((file: string, options: CredentialCommandOptions): ActionResult => runKeysList(file, options)));
  keys
    .command('revoke')
    .description('revoke an API key: the next request that presents it is refused')
    .argument('<file>', 'the spec file (YAML or JSON)')
    .argument('<id>', 'the key id (as `keys list` shows it)')
    .option('--db <url>', DB_HELP)
    .addHelpText('after', HELP_DB)
    .action(action((file: string, id: string, options: CredentialCommandOptions): ActionResult => runKeysRevoke(file, id, options)));
  keys.addHelpText('after', '\nExit status: 0 done, 1 errors (spec, database, no such key), 2 usage error (unknown scope, bad option).');
}
