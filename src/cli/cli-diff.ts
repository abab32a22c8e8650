import { Option, type Command } from 'commander';
import type { Impact } from '../diff/diff-catalogue.js';
import { formatDiff, type DiffFormat } from '../diff/diff-format.js';
import { diffSpecs, readDiffInput } from '../diff/diff-run.js';
import { action, EXIT, io, printDiagnostics, type ActionResult } from './cli-shared.js';

export type FailOn = 'breaking' | 'review' | 'any' | 'never';

interface DiffOptions {
  format?: DiffFormat;
  failOn?: FailOn;
}

const THRESHOLD: Readonly<Record<FailOn, readonly Impact[]>> = {
  breaking: ['breaking'],
  review: ['breaking', 'needs-review'],
  any: ['breaking', 'needs-review', 'non-breaking'],
  never: [],
};

/**
 * `servicespec diff OLD NEW`: every change between two specs, classified. Exit 1 when a change meets `--fail-on`,
 * 0 otherwise; 2 when either spec cannot be read or does not compile (its errors are printed on stderr).
 */
export function runDiff(oldInput: string, newInput: string, options: DiffOptions): ActionResult {
  const outcome = diffSpecs(readDiffInput(oldInput), readDiffInput(newInput));
  if (!outcome.ok) {
    printDiagnostics(outcome.diagnostics, { format: 'text', to: 'err' });
    io.err(`servicespec diff: both specs must compile without errors\n`);
    return EXIT.usage;
  }
  io.out(formatDiff(outcome.report, options.format ?? 'text'));
  const fails = THRESHOLD[options.failOn ?? 'never'];
  return outcome.report.changes.some((c) => fails.includes(c.impact)) ? EXIT.errors : EXIT.ok;
}

export function registerDiffCommand(program: Command): void {
  program
    .command('diff')
    .description('classify every change between two specs as breaking, needs review or non-breaking')
    .argument('<old>', 'the old spec: a file, or git:REV:path (read through `git show`)')
    .argument('<new>', 'the new spec: a file, or git:REV:path')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json', 'markdown']).default('text'))
    .addOption(new Option('--fail-on <impact>', 'exit 1 when a change of this impact (or worse) is found').choices(['breaking', 'review', 'any', 'never']).default('never'))
    .addHelpText(
      'after',
      '\nEach change carries its part, a rule code (docs/diff.md lists them all), both locations and a reason.\n' +
        'In git:REV:path the path is relative to the repository root, or to the current directory when it starts with ./\n' +
        'Exit status: 1 when a change meets --fail-on, 0 otherwise; 2 on a usage error or when a spec does not compile.',
    )
    .action(action((oldInput: string, newInput: string, options: DiffOptions) => runDiff(oldInput, newInput, options)));
}
