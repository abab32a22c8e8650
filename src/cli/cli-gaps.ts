import type { Command } from 'commander';
import { formatGapReport, getGapReport } from '../check/check-gaps.js';
import { action, EXIT, formatOption, io, printDiagnostics, quietOption, readSpec, type CommonOptions, type ExitCode } from './cli-shared.js';

/**
 * `servicespec gaps FILE`: part by part, what the spec shows, shows partly, or does not show.
 * The report needs a model: a spec too broken to build one exits 1 with its errors on stderr.
 * Errors that still leave a model (a reference to an undeclared name, say) are printed on stderr after the report
 * (`check` is the command whose exit status reflects them).
 */
interface GapsOptions extends CommonOptions {
  /** Exit 1 when any part is not shown or only partly shown (for CI). */
  failOnGaps?: boolean;
  /** The handlers module `serve --handlers` would load: custom operations it leaves without a handler are named. */
  handlers?: string;
}

export async function runGaps(file: string, options: GapsOptions): Promise<ExitCode> {
  const compiled = readSpec(file);
  if (compiled.model === undefined) {
    printDiagnostics(compiled.diagnostics, { format: 'text', quiet: true, to: 'err' });
    return EXIT.errors;
  }
  let handlers: ReadonlySet<string> | undefined;
  if (options.handlers !== undefined) {
    // Loaded only with --handlers (a TypeScript file through tsx), as serve loads it.
    const { loadHandlers } = await import('./cli-handlers.js');
    const loaded = await loadHandlers(options.handlers);
    if (typeof loaded === 'string') {
      io.err(`servicespec gaps: ${loaded}\n`);
      return EXIT.errors;
    }
    handlers = new Set(Object.keys(loaded));
  }
  const report = getGapReport(compiled.model, handlers ? { handlers } : {});
  if (options.format === 'json') io.out(`${JSON.stringify(report, null, 2)}\n`);
  else io.out(formatGapReport(report));
  if (!options.quiet) printDiagnostics(compiled.diagnostics, { format: 'text', quiet: true, to: 'err' });
  if (options.failOnGaps) {
    const open = report.parts.filter((p) => p.status !== 'shown');
    if (open.length > 0) {
      io.err(
        `servicespec gaps: --fail-on-gaps: ${open.length} of ${report.parts.length} parts not fully shown (${open.map((p) => `${p.part}: ${p.status}`).join(', ')})\n`,
      );
      return EXIT.errors;
    }
  }
  return EXIT.ok;
}

export function registerGapsCommand(program: Command): void {
  program
    .command('gaps')
    .description('report, for each of the nine parts, what the spec shows and what it leaves "not shown"')
    .argument('<file>', 'the spec file (YAML or JSON); - reads standard input')
    .addOption(formatOption())
    .addOption(quietOption())
    .option('--fail-on-gaps', 'exit 1 when any part is "not shown" or "partly shown" (for CI)')
    .option('--handlers <file>', 'the module `serve --handlers` would load: name each custom operation it gives no handler')
    .addHelpText(
      'after',
      '\nA gap is never filled with an invented value: each one is reported as "not shown".\n' +
        'With --format json the output is the gap report object: { parts: [{ part, title, status, contents, missing, defaults }], shown }.\n' +
        'Exit status: 0 when the report was produced, 1 when the spec is too broken to report on (or, with --fail-on-gaps,\n' +
        'when any part is not fully shown), 2 on a usage error.',
    )
    .action(action((file: string, options: GapsOptions) => runGaps(file, options)));
}
