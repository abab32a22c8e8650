// The `servicespec` command as a function: `run(argv, io)` parses the arguments, runs the command with the given
// io and resolves with its exit code. cli-main.ts is the bin around it; tests and embedders call it in-process.
//
// Exit status, for every command: 0 clean, 1 errors found, 2 usage error (unknown command or option, missing or
// bad argument). No input ever produces a stack trace: usage errors print one line, anything unexpected prints
// `servicespec: internal error: <message>` and exits 1.

import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { parseDirectCheck } from './cli-check-args.js';
import { EXIT, io, printInternalError, processIo, withIo, type CliIo, type ExitCode } from './cli-shared.js';
import { getFastPaths } from '../util/util-fast-paths.js';

export type { CliIo, ExitCode } from './cli-shared.js';
export { printInternalError } from './cli-shared.js';

/**
 * Each command's module, loaded only when that command runs (`check` never loads the server); in help order.
 * Help, `--version` and an unknown command load them all.
 */
const COMMANDS: Record<string, () => Promise<(program: Command) => void>> = {
  check: async () => (await import('./cli-check.js')).registerCheckCommand,
  gaps: async () => (await import('./cli-gaps.js')).registerGapsCommand,
  doc: async () => (await import('./cli-doc.js')).registerDocCommand,
  diff: async () => (await import('./cli-diff.js')).registerDiffCommand,
  init: async () => (await import('./cli-init.js')).registerInitCommand,
  serve: async () => (await import('./cli-serve.js')).registerServeCommand,
  migrate: async () => (await import('./cli-migrate.js')).registerMigrateCommand,
  db: async () => (await import('./cli-db.js')).registerDbCommand,
  keys: async () => (await import('./cli-keys.js')).registerKeysCommand,
  clients: async () => (await import('./cli-oauth-clients.js')).registerClientsCommand,
  users: async () => (await import('./cli-users.js')).registerUsersCommand,
  webhooks: async () => (await import('./cli-webhooks.js')).registerWebhooksCommand,
  export: async () => (await import('./cli-export.js')).registerExportCommand,
  import: async () => (await import('./cli-import.js')).registerImportCommand,
  client: async () => (await import('./cli-generate-client.js')).registerClientCommand,
  'handlers-type': async () => (await import('./cli-handlers-type.js')).registerHandlersTypeCommand,
  test: async () => (await import('./cli-test.js')).registerTestCommand,
  lsp: async () => (await import('./cli-lsp.js')).registerLspCommand,
};

function packageVersion(): string {
  // src/cli/ and dist/cli/ are both two levels below the package root.
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Usage errors in one line: commander's `error: ...` and its did-you-mean, prefixed with the command. */
function oneLine(message: string, command: Command): string {
  const text = message
    .trim()
    .replace(/^error:\s*/, '')
    .replace(/\s*\n\s*/g, ' ');
  const path = commandPath(command);
  return `${path}: ${text} (see \`${path} --help\`)\n`;
}

/** The same conventions on every command, including ones added later with `addCommand`. */
function applyConventions(command: Command): void {
  command
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (s) => io.out(s),
      writeErr: (s) => io.err(s),
      outputError: (s, write) => write(oneLine(s, command)),
    });
  for (const sub of command.commands) applyConventions(sub);
}

async function createProgram(args: readonly string[]): Promise<Command> {
  const { Command } = await import('commander');
  const { addExamples } = await import('./cli-examples.js');
  const program = new Command('servicespec')
    .description('One file for the nine parts of a service interface specification: check it, report its gaps, render it, ' + 'export it, serve it.')
    .version(packageVersion(), '-V, --version', 'print the version')
    .helpOption('-h, --help', 'print help for the command')
    // The program's own options come before the command, so `export openapi --version 1` reaches `export`.
    .enablePositionalOptions();
  applyConventions(program);

  // The program's own options all start with `-`, so the first other argument names the command.
  const name = args.find((a) => !a.startsWith('-'));
  const names = name !== undefined && Object.hasOwn(COMMANDS, name) ? [name] : Object.keys(COMMANDS);
  for (const register of await Promise.all(names.map((n) => COMMANDS[n]!()))) register(program);

  applyConventions(program);
  program.addHelpText('after', '\nExit status: 0 clean, 1 errors found, 2 usage error.');
  addExamples(program);
  return program;
}

/**
 * Runs go at once, except one that names another working directory: it waits for the others and they for it
 * (the working directory belongs to the process).
 */
const turns = { sharing: 0, alone: false, queue: [] as { alone: boolean; go: () => void }[] };

function canGo(alone: boolean): boolean {
  return !turns.alone && (!alone || turns.sharing === 0);
}

async function takeTurn(alone: boolean): Promise<void> {
  if (turns.queue.length === 0 && canGo(alone)) {
    if (alone) turns.alone = true;
    else turns.sharing++;
    return;
  }
  await new Promise<void>((go) => turns.queue.push({ alone, go }));
}

function endTurn(alone: boolean): void {
  if (alone) turns.alone = false;
  else turns.sharing--;
  while (turns.queue.length > 0 && canGo(turns.queue[0]!.alone)) {
    const next = turns.queue.shift()!;
    if (next.alone) turns.alone = true;
    else turns.sharing++;
    next.go();
  }
}

/**
 * Runs `servicespec` with the arguments after the program name (`['check', 'spec.yaml']`) and resolves with the exit
 * code. What `io` leaves out is the process's own; a `cwd` other than the process's is the process's working
 * directory for the run, so relative paths read as they would from a shell there.
 */
export async function run(argv: readonly string[], given: Partial<CliIo> & { cwd?: string } = {}): Promise<ExitCode> {
  const { cwd, ...rest } = given;
  const runIo: CliIo = {
    out: rest.out ?? processIo.out,
    err: rest.err ?? processIo.err,
    env: rest.env ?? processIo.env,
    stdin: rest.stdin ?? processIo.stdin,
    isTTY: rest.isTTY ?? processIo.isTTY,
    ...(rest.columns !== undefined ? { columns: rest.columns } : {}),
  };
  const alone = cwd !== undefined && cwd !== process.cwd();
  await takeTurn(alone);
  const before = process.cwd();
  try {
    if (alone) process.chdir(cwd);
    // The direct path: `check FILE` without commander (cli-check-args.ts); off, commander reads every call.
    const check = getFastPaths() ? parseDirectCheck(argv) : undefined;
    return await withIo(runIo, async () => {
      try {
        if (check) return (await import('./cli-check-direct.js')).runDirectCheck(check);
        await (await createProgram(argv)).parseAsync([...argv], { from: 'user' });
        return undefined;
      } catch (err) {
        // --help and --version end with exit code 0; every other commander error is a usage error.
        const { CommanderError } = await import('commander');
        if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
        return printInternalError(err, runIo);
      }
    });
  } finally {
    if (alone) process.chdir(before);
    endTurn(alone);
  }
}
