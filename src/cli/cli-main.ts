#!/usr/bin/env node
// The `servicespec` command. Argument parsing and printing only: every command is a thin layer over the library.
//
// Exit status, for every command: 0 clean, 1 errors found, 2 usage error (unknown command or option, missing or
// bad argument). No input ever produces a stack trace: usage errors print one line, anything unexpected prints
// `servicespec: internal error: <message>` and exits 1.

import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { registerCheckCommand } from './cli-check.js';
import { registerDiffCommand } from './cli-diff.js';
import { registerDocCommand } from './cli-doc.js';
import { registerGapsCommand } from './cli-gaps.js';
import { registerInitCommand } from './cli-init.js';
import { registerServeCommand } from './cli-serve.js';
import { registerTestCommand } from './cli-test.js';
import { registerClientCommand } from './cli-client.js';
import { registerClientsCommand } from './cli-clients.js';
import { registerExportCommand } from './cli-export.js';
import { registerImportCommand } from './cli-import.js';
import { registerKeysCommand } from './cli-keys.js';
import { registerUsersCommand } from './cli-users.js';
import { registerWebhooksCommand } from './cli-webhooks.js';
import { addExamples } from './cli-examples.js';
import { EXIT, io } from './cli-shared.js';

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

function createProgram(): Command {
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

  registerCheckCommand(program);
  registerGapsCommand(program);
  registerDocCommand(program);
  registerDiffCommand(program);
  registerInitCommand(program);

  registerServeCommand(program);
  registerKeysCommand(program);
  registerClientsCommand(program);
  registerUsersCommand(program);
  registerWebhooksCommand(program);
  registerExportCommand(program);
  registerImportCommand(program);
  registerClientCommand(program);
  registerTestCommand(program);

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
    await createProgram().parseAsync([...argv]);
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
