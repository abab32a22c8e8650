import type { Command } from 'commander';
import { hasErrors } from '../diagnostics/diagnostics-catalogue.js';
import { checkVersionsSince } from '../diff/diff-since.js';
import { readDiffInput } from '../diff/diff-run.js';
import { action, EXIT, exitFor, STDIN, type ExitCode, formatOption, io, printDiagnostics, quietOption, readSpec, type ActionResult, type CommonOptions } from './cli-shared.js';

interface CheckOptions extends CommonOptions {
  since?: string;
  watch?: boolean;
}

/** `check --watch`: check now, then again each time the file changes, until Ctrl-C. */
async function runCheckWatch(file: string, options: CheckOptions): Promise<ExitCode> {
  if (file === STDIN) {
    io.err('servicespec check: --watch needs a file, not standard input\n');
    return EXIT.usage;
  }
  const { getFileDigest, untilSignal, watchSpecFile } = await import('./cli-watch.js');
  const since = getFileDigest(file);
  await runCheck(file, options);
  io.err(`servicespec check: watching ${file} for changes (Ctrl-C to stop)\n`);
  const stop = watchSpecFile(file, since, async () => {
    io.err(`servicespec check: ${file} changed at ${new Date().toISOString()}\n`);
    await runCheck(file, options);
  });
  await untilSignal();
  stop();
  return EXIT.ok;
}

/** `servicespec check FILE`: print every diagnostic (warnings too); exit 1 only if there are errors. */
export function runCheck(file: string, options: CheckOptions): ActionResult {
  const compiled = readSpec(file);
  let diagnostics = compiled.diagnostics;
  if (options.since !== undefined) {
    const since = readDiffInput(options.since);
    if (hasErrors(since.diagnostics) || !since.model) {
      printDiagnostics(since.diagnostics, { format: 'text', quiet: true, to: 'err' });
      io.err(`servicespec check: --since ${options.since} must compile without errors\n`);
      return EXIT.usage;
    }
    diagnostics = [...diagnostics, ...checkVersionsSince(since, compiled)];
  }
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
    .option('--watch', 'check again each time the file changes, until Ctrl-C')
    .option('--since <old>', 'also compare with an earlier spec (a file, or git:REV:path): breaking changes need a new version that declares them')
    .addHelpText(
      'after',
      '\nPrints one line per problem (file:line:column: severity code: message) and a count of errors and warnings.\n' +
        'Exit status: 0 when there are no errors (warnings allowed), 1 when there are errors, 2 on a usage error.',
    )
    .action(action((file: string, options: CheckOptions) => (options.watch ? runCheckWatch(file, options) : runCheck(file, options))));
}
