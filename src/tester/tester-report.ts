import { PART_NAMES, type PartName } from '../spec/spec-types.js';
import type { CheckResult, PartSummary, TestReport } from './tester-types.js';

// The run's report as text (per part, then each failure with what to do about it), JSON, or JUnit XML.

export function summarizeParts(results: readonly CheckResult[]): PartSummary[] {
  return PART_NAMES.map((part: PartName) => {
    const mine = results.filter((r) => r.part === part);
    return { part, passed: mine.filter((r) => r.outcome === 'passed').length, failed: mine.filter((r) => r.outcome === 'failed').length, skipped: mine.filter((r) => r.outcome === 'skipped').length };
  });
}

export function formatReportText(report: TestReport, options: { verbose?: boolean } = {}): string {
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
    for (const r of report.results.filter((x) => x.outcome === 'skipped')) lines.push(`skip [${r.part}] ${r.check} — ${r.target}: ${r.reason ?? ''}`);
    lines.push('');
  }
  lines.push(`${'part'.padEnd(16)}${'passed'.padStart(8)}${'failed'.padStart(8)}${'skipped'.padStart(9)}`);
  for (const p of report.parts) lines.push(`${p.part.padEnd(16)}${String(p.passed).padStart(8)}${String(p.failed).padStart(8)}${String(p.skipped).padStart(9)}`);
  const skippedReasons = [...new Set(report.results.filter((r) => r.outcome === 'skipped').map((r) => `${r.check}: ${r.reason ?? ''}`))];
  if (skippedReasons.length > 0 && !options.verbose) {
    lines.push('', 'skipped, and why:');
    for (const s of skippedReasons.slice(0, 20)) lines.push(`  - ${s}`);
    if (skippedReasons.length > 20) lines.push(`  … ${skippedReasons.length - 20} more (--verbose lists every one)`);
  }
  lines.push('');
  const stop = report.stoppedBy ? `; stopped early by --${report.stoppedBy}` : '';
  const passed = report.results.filter((r) => r.outcome === 'passed').length;
  const verdict = failures.length > 0 ? 'FAILED' : report.stoppedBy ? 'INCOMPLETE' : passed === 0 ? 'NOTHING CHECKED' : 'PASSED';
  lines.push(`${verdict}: ${failures.length} failed, ${report.results.filter((r) => r.outcome === 'passed').length} passed, ${report.results.filter((r) => r.outcome === 'skipped').length} skipped; ${report.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s (${report.requestsPerSecond.toFixed(0)}/s); seed ${report.seed}${stop}`);
  if (report.waited) lines.push(formatWaits(report.waited));
  return `${lines.join('\n')}\n`;
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function formatReportJunit(report: TestReport): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const failed = report.results.filter((r) => r.outcome === 'failed').length;
  const skipped = report.results.filter((r) => r.outcome === 'skipped').length;
  out.push(`<testsuites name="servicespec test" tests="${report.results.length}" failures="${failed}" skipped="${skipped}" time="${(report.durationMs / 1000).toFixed(3)}">`);
  for (const p of report.parts) {
    const mine = report.results.filter((r) => r.part === p.part);
    out.push(`  <testsuite name="${xml(p.part)}" tests="${mine.length}" failures="${p.failed}" skipped="${p.skipped}">`);
    for (const r of mine) {
      out.push(`    <testcase classname="${xml(r.check)}" name="${xml(r.target)}">`);
      if (r.outcome === 'skipped') out.push(`      <skipped message="${xml(r.reason ?? '')}"/>`);
      if (r.outcome === 'failed') {
        const f = r.failure!;
        out.push(`      <failure message="${xml(`expected ${f.expected}`)}">${xml([`operation: ${f.operation}`, `expected: ${f.expected}${f.spec ? ` (${f.spec})` : ''}`, `actual: ${f.actual}`, f.curl ? `reproduce: ${f.curl}` : ''].join('\n'))}</failure>`);
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
