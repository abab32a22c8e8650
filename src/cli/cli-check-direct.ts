// `servicespec check FILE` without commander: what `check`'s action runs, minus `--since`, `--watch` and
// `--disable` (cli-check-args.ts). The bin loads it as one bundled file (cli-bundle.ts), `run` as a module.

import type { Diagnostic } from '../diagnostics/diagnostics-catalogue.js';
import type { DirectCheck } from './cli-check-args.js';
import { exitFor, io, printDiagnostics, readSpec, type CommonOptions, type ExitCode } from './cli-shared.js';

export { printInternalError } from './cli-shared.js';
// The ahead-of-time validator's file name, beside the built spec-validate.js: the bin keeps V8's code cache of it too (cli-bundle.ts).
export { PRECOMPILED_VALIDATOR } from '../spec/spec-schema-build.js';

/** Prints a check's diagnostics (and a clean result's line) and returns the exit code: `check`'s output. */
export function reportCheck(file: string, diagnostics: readonly Diagnostic[], options: CommonOptions): ExitCode {
  const format = options.format ?? 'text';
  printDiagnostics(diagnostics, { format, quiet: options.quiet, to: 'out' });
  if (format === 'text' && diagnostics.length === 0 && !options.quiet) io.out(`${file}: no problems found\n`);
  return exitFor(diagnostics);
}

/** `check FILE` as the direct path reads it (parseDirectCheck). */
export function runDirectCheck({ file, options }: DirectCheck): ExitCode {
  return reportCheck(file, readSpec(file).diagnostics, options);
}
