import type { Command } from 'commander';
import { hasErrors, type Diagnostic } from '../diagnostics/diagnostics-catalogue.js';
import { DISABLEABLE_WARNINGS } from '../spec/spec-types.js';
import { reportCheck } from './cli-check-direct.js';
import {
  action,
  EXIT,
  STDIN,
  type ExitCode,
  formatOption,
  io,
  printDiagnostics,
  quietOption,
  readSpec,
  type ActionResult,
  type CommonOptions,
} from './cli-shared.js';

export interface CheckOptions extends CommonOptions {
  since?: string;
  watch?: boolean;
  /** Warnings not to report this run (as `check.disable` in the spec does for every run). */
  disable?: string[];
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
  const unknown = (options.disable ?? []).filter((c) => !(DISABLEABLE_WARNINGS as readonly string[]).includes(c));
  if (unknown.length > 0) {
    io.err(`servicespec check: --disable ${unknown.join(', ')}: only these warnings can be turned off: ${DISABLEABLE_WARNINGS.join(', ')}\n`);
    return EXIT.usage;
  }
  const compiled = readSpec(file);
  // --since needs the diff rules, loaded only then (a plain `check` starts faster without them).
  if (options.since === undefined) return report(file, compiled.diagnostics, options);
  return Promise.all([import('../diff/diff-since.js'), import('../diff/diff-run.js')]).then(([{ checkVersionsSince }, { readDiffInput }]) => {
    const since = readDiffInput(options.since!);
    if (hasErrors(since.diagnostics) || !since.model) {
      printDiagnostics(since.diagnostics, { format: 'text', quiet: true, to: 'err' });
      io.err(`servicespec check: --since ${options.since} must compile without errors\n`);
      return EXIT.usage;
    }
    return report(file, [...compiled.diagnostics, ...checkVersionsSince(since, compiled)], options);
  });
}

function report(file: string, all: readonly Diagnostic[], options: CheckOptions): ExitCode {
  const off = new Set(options.disable ?? []);
  return reportCheck(file, off.size > 0 ? all.filter((d) => !off.has(d.code)) : all, options);
}

export function registerCheckCommand(program: Command): void {
  program
    .command('check')
    .description('check a spec: its structure, its references and its contradictions')
    .argument('<file>', 'the spec file (YAML or JSON); - reads standard input')
    .addOption(formatOption())
    .addOption(quietOption())
    .option('--watch', 'check again each time the file changes, until Ctrl-C')
    .option(
      '--disable <code>',
      `a warning not to report, repeatable (${DISABLEABLE_WARNINGS.join(', ')}); a spec turns it off for good with check.disable`,
      (code: string, all: string[] = []) => [
        ...all,
        ...code
          .split(',')
          .map((c) => c.trim())
          .filter((c) => c !== ''),
      ],
    )
    .option('--since <old>', 'also compare with an earlier spec (a file, or git:REV:path): breaking changes need a new version that declares them')
    .addHelpText(
      'after',
      '\nPrints one line per problem (file:line:column: severity code: message) and a count of errors and warnings.\n' +
        'Exit status: 0 when there are no errors (warnings allowed), 1 when there are errors, 2 on a usage error.',
    )
    .action(action((file: string, options: CheckOptions) => (options.watch ? runCheckWatch(file, options) : runCheck(file, options))));
}
