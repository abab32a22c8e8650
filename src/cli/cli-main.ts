#!/usr/bin/env node
// The `servicespec` bin: `run` (cli-run.ts) with the process's arguments, streams and environment, plus the last
// resorts only a process has.

import module from 'node:module';
import { parseDirectCheck } from './cli-check-args.js';
import { loadCheckBundle } from './cli-bundle.js';
import { getFastPaths } from '../util/util-fast-paths.js';

// Node 22.1+ keeps V8's compiled code of the modules between runs (its own cache in the OS temp folder; off with
// NODE_DISABLE_COMPILE_CACHE=1), as TypeScript's bin does; the CLI's modules load after it, hence the import() (the
// three small modules above, which decide whether `check FILE` runs from its bundle, are the exception).
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const argv = process.argv.slice(2);
// `check FILE` from the one-file bundle when there is one (cli-bundle.ts); everything else through `run`.
const check = getFastPaths() ? parseDirectCheck(argv) : undefined;
let bundle;
try {
  bundle = check ? loadCheckBundle() : undefined;
} catch {
  // A bundle that does not load (damaged): `run` as without one.
  bundle = undefined;
}
const cli = bundle ?? (await import('./cli-run.js'));
const { printInternalError } = cli;
// This process is the run's alone: no AsyncLocalStorage keeps it apart from others (cli-shared.ts, useProcessIo;
// the bundle's own copy of cli-shared.ts has no run in progress, so it prints to the process as it is).
if (!bundle) (await import('./cli-shared.js')).useProcessIo();

// Last resorts: nothing reaches the user as a stack trace, and a closed pipe (`servicespec doc x | head`) is not an error.
process.on('uncaughtException', (err) => {
  process.exitCode = printInternalError(err);
  process.exit();
});
process.on('unhandledRejection', (err) => {
  process.exitCode = printInternalError(err);
  process.exit();
});
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit();
    process.exitCode = printInternalError(err);
    process.exit();
  });
}

// The process ends on its own once the command is done (no `process.exit`), so piped output is never cut short.
if ('run' in cli) process.exitCode = await cli.run(argv);
else {
  try {
    process.exitCode = cli.runDirectCheck(check!);
  } catch (err) {
    process.exitCode = printInternalError(err);
  }
}
