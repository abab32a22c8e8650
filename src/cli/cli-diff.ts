import { Option, type Command } from 'commander';
import type { Impact } from '../diff/diff-catalogue.js';
import { formatDiff, type DiffFormat } from '../diff/diff-format.js';
import { diffSpecs, readDiffInput } from '../diff/diff-run.js';
import { action, EXIT, io, paint, printDiagnostics, useColor, type ExitCode } from './cli-shared.js';

export type FailOn = 'breaking' | 'review' | 'any' | 'never';

interface DiffOptions {
  format?: DiffFormat;
  failOn?: FailOn;
  /** migrate (issue 28): a database of the old spec: the data impact of moving it to the new one. */
  db?: string;
}

const THRESHOLD: Readonly<Record<FailOn, readonly Impact[]>> = {
  breaking: ['breaking'],
  review: ['breaking', 'needs-review'],
  any: ['breaking', 'needs-review', 'non-breaking'],
  never: [],
};

const IMPACT_COLOR = { breaking: 'red', 'needs review': 'yellow', 'non-breaking': 'green' } as const;

/** Colours the text report's impact labels, part headings and summary counts (on a terminal; useColor). */
function colorDiffText(text: string): string {
  const lines = text.split('\n');
  return lines
    .map((line, i) => {
      const label = /^ {2}(breaking|needs review|non-breaking)( +)/.exec(line);
      if (label) return `  ${paint(label[1]!, IMPACT_COLOR[label[1] as keyof typeof IMPACT_COLOR])}${label[2]}${line.slice(label[0].length)}`;
      if (i === lines.length - 2) {
        return line
          .replace(/^(\d+) breaking/, (m, n: string) => paint(m, n === '0' ? 'green' : 'red'))
          .replace(/(\d+) needs review/, (m, n: string) => paint(m, n === '0' ? 'green' : 'yellow'))
          .replace(/^no changes/, (m) => paint(m, 'green'));
      }
      return line !== '' && !line.startsWith(' ') ? paint(line, 'bold') : line;
    })
    .join('\n');
}

/**
 * `servicespec diff OLD NEW`: every change between two specs, classified. Exit 1 when a change meets `--fail-on`,
 * 0 otherwise; 2 when either spec cannot be read or does not compile (its errors are printed on stderr).
 */
export async function runDiff(oldInput: string, newInput: string, options: DiffOptions): Promise<ExitCode> {
  const next = readDiffInput(newInput);
  const outcome = diffSpecs(readDiffInput(oldInput), next);
  if (!outcome.ok) {
    printDiagnostics(outcome.diagnostics, { format: 'text', to: 'err' });
    io.err(`servicespec diff: both specs must compile without errors\n`);
    return EXIT.usage;
  }
  const format = options.format ?? 'text';
  if (options.db === undefined) {
    const text = formatDiff(outcome.report, format);
    io.out(format === 'text' && useColor('out') ? colorDiffText(text) : text);
  } else {
    // The plan `migrate` would print for the new spec on that database (it changes nothing); loaded only here.
    const { formatPlanLines, lookAtMigration } = await import('./cli-migrate.js');
    const look = await lookAtMigration(next.model!, options.db);
    if (!look.ok) {
      io.err(`servicespec diff: ${look.line}\n`);
      return EXIT.errors;
    }
    if (format === 'json') io.out(`${JSON.stringify({ ...(JSON.parse(formatDiff(outcome.report, 'json')) as object), data: look.plan }, null, 2)}\n`);
    else {
      const heading = format === 'markdown' ? '\n## Data impact\n\n```\n' : '\nData impact on the database (servicespec migrate):\n';
      io.out(`${formatDiff(outcome.report, format)}${heading}${formatPlanLines(look.plan)}${format === 'markdown' ? '```\n' : ''}`);
    }
  }
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
    .option(
      '--db <url>',
      'a database of the old spec (sqlite:PATH or postgres://…): add the data impact of moving it to the new spec, as `migrate` plans it (nothing is changed)',
    )
    .addOption(
      new Option('--fail-on <impact>', 'exit 1 when a change of this impact (or worse) is found')
        .choices(['breaking', 'review', 'any', 'never'])
        .default('never'),
    )
    .addHelpText(
      'after',
      '\nEach change carries its part, a rule code (docs/diff.md lists them all), both locations and a reason.\n' +
        'In git:REV:path the path is relative to the repository root, or to the current directory when it starts with ./\n' +
        'Exit status: 1 when a change meets --fail-on, 0 otherwise; 2 on a usage error or when a spec does not compile.',
    )
    .action(action((oldInput: string, newInput: string, options: DiffOptions) => runDiff(oldInput, newInput, options)));
}
