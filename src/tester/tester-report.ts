import { PART_NAMES, type PartName } from '../spec/spec-types.js';
import type { CheckResult, PartSummary, TestReport } from './tester-types.js';

// The run's report as text (per part, then each failure with what to do about it), JSON, or JUnit XML.

export function summarizeParts(results: readonly CheckResult[]): PartSummary[] {
  return PART_NAMES.map((part: PartName) => {
    const mine = results.filter((r) => r.part === part);
    return {
      part,
      passed: mine.filter((r) => r.outcome === 'passed').length,
      failed: mine.filter((r) => r.outcome === 'failed').length,
      skipped: mine.filter((r) => r.outcome === 'skipped').length,
    };
  });
}

export function formatReportText(report: TestReport, options: { verbose?: boolean } = {}): string {
  if (report.unreachable !== undefined) return `${report.unreachable}\n`;
  const lines: string[] = [];
  const failures = report.results.filter((r) => r.outcome === 'failed');
  failures.forEach((r, i) => {
    const f = r.failure!;
    lines.push(`FAIL ${i + 1}) [${r.part}] ${r.check} — ${r.target}`);
    lines.push(`  operation: ${f.operation}`);
    lines.push(`  expected:  ${f.expected}${f.spec !== undefined ? `  (${f.spec})` : ''}`);
    lines.push(`  actual:    ${f.actual}`);
    if (f.curl !== undefined) lines.push(`  reproduce: ${f.curl.replace(/\n/g, '\n             ')}`);
    lines.push('');
  });
  if (options.verbose) {
    for (const r of report.results.filter((x) => x.outcome === 'skipped'))
      lines.push(`${r.notRun ? 'not checked' : 'skip'} [${r.part}] ${r.check} — ${r.target}: ${r.reason ?? ''}`);
    lines.push('');
  }
  lines.push(`${'part'.padEnd(16)}${'passed'.padStart(8)}${'failed'.padStart(8)}${'skipped'.padStart(9)}`);
  for (const p of report.parts)
    lines.push(`${p.part.padEnd(16)}${String(p.passed).padStart(8)}${String(p.failed).padStart(8)}${String(p.skipped).padStart(9)}`);
  const notRun = report.results.filter((r) => r.outcome === 'skipped' && r.notRun);
  const skippedReasons = [...new Set(report.results.filter((r) => r.outcome === 'skipped' && !r.notRun).map((r) => `${r.check}: ${r.reason ?? ''}`))];
  if (skippedReasons.length > 0 && !options.verbose) {
    lines.push('', 'not applicable (the spec gives nothing to check, or not asked for):');
    for (const s of skippedReasons.slice(0, 20)) lines.push(`  - ${s}`);
    if (skippedReasons.length > 20) lines.push(`  … ${skippedReasons.length - 20} more (--verbose lists every one)`);
  }
  if (notRun.length > 0) {
    // What a green verdict would have hidden: each check that applies and was not run, grouped by why.
    const byReason = new Map<string, string[]>();
    for (const r of notRun) byReason.set(`${r.check}: ${r.reason ?? ''}`, [...(byReason.get(`${r.check}: ${r.reason ?? ''}`) ?? []), r.target]);
    lines.push('', `not checked (${notRun.length}):`);
    const entries = [...byReason];
    for (const [why, targets] of options.verbose ? entries : entries.slice(0, 20))
      lines.push(`  - ${why} (${targets.length > 4 ? `${targets.slice(0, 4).join(', ')} and ${targets.length - 4} more` : targets.join(', ')})`);
    if (!options.verbose && entries.length > 20) lines.push(`  … ${entries.length - 20} more reasons (--verbose lists every one)`);
  }
  if (report.statePairs.total > 0)
    lines.push(
      '',
      `state pairs tried ${report.statePairs.tried}/${report.statePairs.total} (${Math.floor((100 * report.statePairs.tried) / report.statePairs.total)} %)`,
    );
  for (const w of report.warnings) lines.push('', `warning: ${w}`);
  lines.push('');
  const stop = report.stoppedBy ? `; stopped early by --${report.stoppedBy}` : '';
  const passed = report.results.filter((r) => r.outcome === 'passed').length;
  const verdict =
    report.verdict === 'failed'
      ? 'FAILED'
      : report.verdict === 'passed'
        ? 'PASSED'
        : passed === 0 && notRun.length === 0 && !report.stoppedBy
          ? 'NOTHING CHECKED'
          : 'INCOMPLETE';
  const tail = notRun.length > 0 ? `; ${notRun.length} not checked` : '';
  lines.push(
    `${verdict}: ${failures.length} failed, ${passed} passed, ${report.results.filter((r) => r.outcome === 'skipped').length} skipped${tail}; ${report.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s (${report.requestsPerSecond.toFixed(0)}/s); seed ${report.seed}${stop}`,
  );
  if (report.waited) lines.push(formatWaits(report.waited));
  return `${lines.join('\n')}\n`;
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function formatReportJunit(report: TestReport): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const failed = report.results.filter((r) => r.outcome === 'failed').length;
  const skipped = report.results.filter((r) => r.outcome === 'skipped').length;
  out.push(
    `<testsuites name="servicespec test" tests="${report.results.length}" failures="${failed}" skipped="${skipped}" time="${(report.durationMs / 1000).toFixed(3)}">`,
  );
  for (const p of report.parts) {
    const mine = report.results.filter((r) => r.part === p.part);
    out.push(`  <testsuite name="${xml(p.part)}" tests="${mine.length}" failures="${p.failed}" skipped="${p.skipped}">`);
    for (const r of mine) {
      out.push(`    <testcase classname="${xml(r.check)}" name="${xml(r.target)}">`);
      if (r.outcome === 'skipped') out.push(`      <skipped message="${xml(`${r.notRun ? 'not checked: ' : ''}${r.reason ?? ''}`)}"/>`);
      if (r.outcome === 'failed') {
        const f = r.failure!;
        out.push(
          `      <failure message="${xml(`expected ${f.expected}`)}">${xml([`operation: ${f.operation}`, `expected: ${f.expected}${f.spec ? ` (${f.spec})` : ''}`, `actual: ${f.actual}`, f.curl ? `reproduce: ${f.curl}` : ''].join('\n'))}</failure>`,
        );
      }
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}

/** The summary's line on waiting for the service's rate budget: how long, and why. */
export function formatWaits(w: NonNullable<TestReport['waited']>): string {
  const reasons = Object.entries(w.byReason).map(([why, r]) => `${(r.ms / 1000).toFixed(1)} s in ${r.count} wait${r.count === 1 ? '' : 's'}: ${why}`);
  return `waited ${(w.ms / 1000).toFixed(1)} s for the service's rate budget${reasons.length > 0 ? ` (${reasons.join('; ')})` : ''}${w.defaults !== undefined ? `; ${w.defaults}` : ''}`;
}
