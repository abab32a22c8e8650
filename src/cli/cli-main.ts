#!/usr/bin/env node
// The `servicespec` bin: `run` (cli-run.ts) with the process's arguments, streams and environment, plus the last
// resorts only a process has.

import module from 'node:module';

// Node 22.1+ keeps V8's compiled code of the modules between runs (its own cache in the OS temp folder; off with
// NODE_DISABLE_COMPILE_CACHE=1), as TypeScript's bin does; the CLI's modules load after it, hence the import().
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const { printInternalError, run } = await import('./cli-run.js');
// This process is the run's alone: no AsyncLocalStorage keeps it apart from others (cli-shared.ts, useProcessIo).
(await import('./cli-shared.js')).useProcessIo();

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
process.exitCode = await run(process.argv.slice(2));
