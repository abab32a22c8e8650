#!/usr/bin/env node
// The `servicespec` command. Argument parsing and printing only: every command is a thin layer over the library.
//
// Exit status, for every command: 0 clean, 1 errors found, 2 usage error (unknown command or option, missing or
// bad argument). No input ever produces a stack trace: usage errors print one line, anything unexpected prints
// `servicespec: internal error: <message>` and exits 1.

import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { addExamples } from './cli-examples.js';
import { EXIT, io } from './cli-shared.js';

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
  keys: async () => (await import('./cli-keys.js')).registerKeysCommand,
  clients: async () => (await import('./cli-oauth-clients.js')).registerClientsCommand,
  users: async () => (await import('./cli-users.js')).registerUsersCommand,
  webhooks: async () => (await import('./cli-webhooks.js')).registerWebhooksCommand,
  export: async () => (await import('./cli-export.js')).registerExportCommand,
  import: async () => (await import('./cli-import.js')).registerImportCommand,
  client: async () => (await import('./cli-generate-client.js')).registerClientCommand,
  test: async () => (await import('./cli-test.js')).registerTestCommand,
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

async function createProgram(argv: readonly string[]): Promise<Command> {
  const program = new Command('servicespec')
    .description(
      'One file for the nine parts of a service interface specification: check it, report its gaps, render it, ' +
        'export it, serve it.',
    )
    .version(packageVersion(), '-V, --version', 'print the version')
    .helpOption('-h, --help', 'print help for the command')
    // The program's own options come before the command, so `export openapi --version 1` reaches `export`.
    .enablePositionalOptions();
  applyConventions(program);

  // The program's own options all start with `-`, so the first other argument names the command.
  const name = argv.slice(2).find((a) => !a.startsWith('-'));
  const names = name !== undefined && Object.hasOwn(COMMANDS, name) ? [name] : Object.keys(COMMANDS);
  for (const register of await Promise.all(names.map((n) => COMMANDS[n]!()))) register(program);

  applyConventions(program);
  program.addHelpText('after', '\nExit status: 0 clean, 1 errors found, 2 usage error.');
  addExamples(program);
  return program;
}

function internalError(err: unknown): void {
  const message = err instanceof Error ? err.message : String(err);
  io.err(`servicespec: internal error: ${message.split('\n')[0] ?? ''}\n`);
  process.exitCode = EXIT.errors;
}

async function main(argv: readonly string[] = process.argv): Promise<void> {
  try {
    await (await createProgram(argv)).parseAsync([...argv]);
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end with exit code 0; every other commander error is a usage error.
      process.exitCode = err.exitCode === 0 ? EXIT.ok : EXIT.usage;
      return;
    }
    internalError(err);
  }
}

// Last resorts: nothing reaches the user as a stack trace, and a closed pipe (`servicespec doc x | head`) is not an error.
process.on('uncaughtException', (err) => {
  internalError(err);
  process.exit();
});
process.on('unhandledRejection', (err) => {
  internalError(err);
  process.exit();
});
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit();
    internalError(err);
    process.exit();
  });
}

await main();
