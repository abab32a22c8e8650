// The three ways `servicespec diff` prints a report: text for a terminal, JSON for machines, Markdown for a
// pull-request comment.
import type { Change, ChangeLocation, Impact } from './diff-catalogue.js';
import type { DiffReport, DiffSummary } from './diff-run.js';

export type DiffFormat = 'text' | 'json' | 'markdown';

const LABEL: Readonly<Record<Impact, string>> = { breaking: 'breaking', 'needs-review': 'needs review', 'non-breaking': 'non-breaking' };

function at(loc: ChangeLocation | undefined): string | undefined {
  if (!loc) return undefined;
  return loc.line !== undefined ? `${loc.file}:${loc.line}` : `${loc.file}#${loc.pointer}`;
}

function where(c: Change): string {
  const o = at(c.old);
  const n = at(c.new);
  if (o && n) return `${o} → ${n}`;
  return o ? `${o} (removed)` : n ? `${n} (added)` : '';
}

/** One line: `2 breaking, 1 needs review, 4 non-breaking (old.yaml → new.yaml)`. */
export function formatSummary(report: DiffReport): string {
  const s: DiffSummary = report.summary;
  if (s.breaking + s.needsReview + s.nonBreaking === 0) return `no changes (${report.old} → ${report.new})`;
  return `${s.breaking} breaking, ${s.needsReview} needs review, ${s.nonBreaking} non-breaking (${report.old} → ${report.new})`;
}

function groups(report: DiffReport): [string, Change[]][] {
  const byPart = new Map<string, Change[]>();
  for (const c of report.changes) byPart.set(c.part, [...(byPart.get(c.part) ?? []), c]);
  return [...byPart];
}

function text(report: DiffReport): string {
  const lines: string[] = [];
  const width = Math.max(0, ...report.changes.map((c) => c.code.length));
  for (const [part, changes] of groups(report)) {
    lines.push(part);
    for (const c of changes) {
      lines.push(`  ${LABEL[c.impact].padEnd(12)}  ${c.code.padEnd(width)}  ${c.reason}`);
      lines.push(`  ${''.padEnd(12)}  ${''.padEnd(width)}  ${where(c)}`);
    }
  }
  lines.push(formatSummary(report));
  return `${lines.join('\n')}\n`;
}

function cell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function markdown(report: DiffReport): string {
  const s = report.summary;
  const icon = s.breaking > 0 ? '🔴' : s.needsReview > 0 ? '🟡' : '🟢';
  const out = [`### ${icon} servicespec diff: ${formatSummary(report)}`, ''];
  for (const [part, changes] of groups(report)) {
    out.push(`#### ${part}`, '', '| impact | rule | change | where |', '|---|---|---|---|');
    for (const c of changes)
      out.push(`| ${c.impact === 'breaking' ? '**breaking**' : LABEL[c.impact]} | \`${c.code}\` | ${cell(c.reason)} | ${cell(where(c))} |`);
    out.push('');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

export function formatDiff(report: DiffReport, format: DiffFormat = 'text'): string {
  if (format === 'json') return `${JSON.stringify(report, null, 2)}\n`;
  if (format === 'markdown') return markdown(report);
  return text(report);
}
