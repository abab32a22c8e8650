import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { createDiagnostic } from '../diagnostics/diagnostics-catalogue.js';
import { formatGapReport } from '../check/check-gaps.js';
import type { OutputFormat } from '../diagnostics/diagnostics-format.js';
import { action, EXIT, formatOption, io, printDiagnostics, quietOption, writeFileAtomic, type ExitCode } from './cli-shared.js';

export interface ImportCliOptions {
  output?: string;
  format?: OutputFormat;
  quiet?: boolean;
}

/**
 * `servicespec import openapi FILE [-o spec.yaml]`: the spec goes to the file (or to standard output), and the gap
 * report of the result (which of the nine parts the OpenAPI document left not shown) to standard output when the spec
 * went to a file, else to standard error. The import's own diagnostics (names changed, things left out) and the
 * checker's diagnostics of the result go to standard error.
 */
export async function runImportOpenApi(file: string, options: ImportCliOptions): Promise<ExitCode> {
  if (options.output !== undefined && isSameFile(file, options.output)) {
    printDiagnostics([createDiagnostic('import-output-is-input', { output: options.output }, { file: options.output })], {
      format: options.format ?? 'text',
      to: 'err',
    });
    return EXIT.usage;
  }
  const { importOpenApiFile } = await import('../import/import-openapi.js');
  const result = await importOpenApiFile(file, options.output !== undefined ? { specFile: options.output } : {});
  if (result.text === undefined) {
    printDiagnostics(result.diagnostics, { format: options.format ?? 'text', to: 'err' });
    return EXIT.errors;
  }
  const checkErrors = (result.compiled?.diagnostics ?? []).filter((d) => d.severity === 'error');
  if (checkErrors.length > 0) {
    const refused = createDiagnostic('import-result-invalid', { count: checkErrors.length }, { file: options.output ?? file });
    printDiagnostics([...result.diagnostics, ...(result.compiled?.diagnostics ?? []), refused], { format: options.format ?? 'text', to: 'err' });
    return EXIT.errors;
  }
  const report = (text: string) => (options.output === undefined ? io.err(text) : io.out(text));
  if (options.output === undefined) io.out(result.text);
  else {
    const problem = writeFileAtomic(options.output, result.text);
    if (problem) {
      printDiagnostics([problem], { format: 'text', to: 'err' });
      return EXIT.errors;
    }
  }
  const checked = result.compiled?.diagnostics ?? [];
  if (options.format === 'json') {
    report(`${JSON.stringify({ gaps: result.gaps ?? null, diagnostics: [...result.diagnostics, ...checked] }, null, 2)}\n`);
  } else {
    // --quiet prints errors only: the gap report is a summary, left to `servicespec gaps`.
    if (result.gaps && !options.quiet) report(formatGapReport(result.gaps));
    printDiagnostics([...result.diagnostics, ...checked], { format: 'text', quiet: options.quiet, to: 'err' });
  }
  if (options.output !== undefined && !options.quiet) io.err(`wrote ${options.output}\n`);
  return EXIT.ok;
}

/** The same file by any path: resolved, through links, or the same inode when both exist. */
function isSameFile(a: string, b: string): boolean {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  if (real(a) === real(b)) return true;
  try {
    const [sa, sb] = [statSync(a), statSync(b)];
    return sa.dev === sb.dev && sa.ino === sb.ino;
  } catch {
    return false;
  }
}

export function registerImportCommand(program: Command): void {
  const imp = program.command('import').description('turn another format into a servicespec');
  imp
    .command('openapi')
    .description('import an OpenAPI 3.0 or 3.1 or a Swagger 2.0 document (YAML or JSON) and report which parts it leaves not shown')
    .argument('<file>', 'the OpenAPI document; $refs to other files are bundled in')
    .option('-o, --output <out>', 'write the spec to this file (atomically) instead of standard output')
    .addOption(formatOption())
    .addOption(quietOption())
    .addHelpText(
      'after',
      '\nResources come from component schemas, operations become actions where their shapes allow and custom\n' +
        'operations otherwise; x-servicespec-* extensions are read back. Nothing is invented: each name changed and\n' +
        'each thing left out or approximated is a diagnostic, and the gap report lists what stays not shown.\n' +
        'A Swagger 2.0 document is converted to OpenAPI 3.0 in memory first (import-from-swagger2 says so).\n' +
        'Exit status: 0 when a spec was written (its own diagnostics are printed), 1 when the input is not Swagger 2.0 or OpenAPI 3,\n' +
        'the result would not pass `check` (nothing is written) or the output cannot be written, 2 on a usage error\n' +
        '(-o naming the input file included).',
    )
    .action(action((file: string, options: ImportCliOptions) => runImportOpenApi(file, options)));
}
