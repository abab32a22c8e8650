// The table a fault sweep prints (each bench/tester-*-sweep.ts): every plantable fault of a hand-written server, one at a
// time, under a default tester run per seed (SWEEP_SEEDS, default 1; SWEEP_FAULTS narrows the faults), whether the run
// failed and which checks failed, then the unfaulted server's verdict per seed, then the count and the time.

import { loadavg } from 'node:os';
import type { TestOptions, TestReport } from '../../src/tester/tester-types.js';

export interface FaultSweep {
  load(): Promise<{ FAULTS: Record<string, string> }>;
  run(faults: readonly string[], options: Omit<TestOptions, 'baseUrl'>): Promise<TestReport>;
  failedChecks(report: TestReport): string[];
}

export async function printFaultSweep(sweep: FaultSweep): Promise<void> {
  const { FAULTS } = await sweep.load();
  const seeds = (process.env.SWEEP_SEEDS ?? '1').split(',').map(Number);
  const only = process.env.SWEEP_FAULTS?.split(',').filter(Boolean);
  const faults = Object.keys(FAULTS).filter((f) => !only || only.includes(f));
  const started = Date.now();
  let caught = 0;
  let runs = 0;
  const missed: string[] = [];
  console.log(`| fault | planted | ${seeds.map((s) => `seed ${s}`).join(' | ')} | failed checks |`);
  console.log(`|---|---|${seeds.map(() => '---').join('|')}|---|`);
  for (const f of faults) {
    const cells: string[] = [];
    const checks = new Set<string>();
    for (const seed of seeds) {
      const report = await sweep.run([f], { seed });
      runs++;
      for (const c of sweep.failedChecks(report)) checks.add(c);
      cells.push(report.verdict === 'failed' ? 'caught' : `**${report.verdict}**`);
      if (report.verdict === 'failed') caught++;
      else missed.push(`${f} (seed ${seed})`);
    }
    console.log(`| \`${f}\` | ${FAULTS[f]} | ${cells.join(' | ')} | ${[...checks].sort().join(', ')} |`);
  }
  for (const seed of seeds) {
    const report = await sweep.run([], { seed });
    console.log(`no fault, seed ${seed}: ${report.verdict} (${sweep.failedChecks(report).join(', ') || 'no failure'})`);
  }
  console.log(
    `${caught} of ${runs} fault runs caught; ${((Date.now() - started) / 1000).toFixed(0)} s, load average ${loadavg()[0]!.toFixed(1)}` +
      (missed.length > 0 ? `; missed: ${missed.join(', ')}` : ''),
  );
}
