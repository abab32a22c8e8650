import type { Command } from 'commander';
import { action, exitFor, formatOption, io, printDiagnostics, quietOption, readSpec, type ActionResult, type CommonOptions } from './cli-shared.js';

/** `servicespec check FILE`: print every diagnostic (warnings too); exit 1 only if there are errors. */
export function runCheck(file: string, options: CommonOptions): ActionResult {
  const { diagnostics } = readSpec(file);
  const format = options.format ?? 'text';
  printDiagnostics(diagnostics, { format, quiet: options.quiet, to: 'out' });
  if (format === 'text' && diagnostics.length === 0 && !options.quiet) io.out(`${file}: no problems found\n`);
  return exitFor(diagnostics);
}

export function registerCheckCommand(program: Command): void {
  program
    .command('check')
    .description('check a spec: its structure, its references and its contradictions')
    .argument('<file>', 'the spec file (YAML or JSON); - reads standard input')
    .addOption(formatOption())
    .addOption(quietOption())
    .addHelpText(
      'after',
      '\nPrints one line per problem (file:line:column: severity code: message) and a count of errors and warnings.\n' +
        'Exit status: 0 when there are no errors (warnings allowed), 1 when there are errors, 2 on a usage error.',
    )
    .action(action((file: string, options: CommonOptions) => runCheck(file, options)));
}
