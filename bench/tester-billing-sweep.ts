// The fault sweep on the Billing service (test/tester/fixtures/billing.yaml, round 7, served by the hand-written
// test/tester/fixtures/billing-server.mjs): every plantable fault, one at a time, under a default tester run with what a user gives
// it (three subjects' API keys; only the seed varies). Prints, per fault and
// seed, whether the run failed and which checks failed, then the unfaulted server's verdict per seed (about 2 s a run); tester-billing-faults.test.ts
// keeps what it found.
//
//   npx tsx bench/tester-billing-sweep.ts               # seed 1
//   SWEEP_SEEDS=1,2,3 SWEEP_FAULTS=sunset-date-wrong,idem-key-global npx tsx bench/tester-billing-sweep.ts

import { loadavg } from 'node:os';
import { failedChecks, loadBilling, runBilling } from '../test/tester/billing-sweep.js';

async function main(): Promise<void> {
  const { FAULTS } = await loadBilling();
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
      const report = await runBilling([f], { seed });
      runs++;
      const failed = failedChecks(report);
      for (const c of failed) checks.add(c);
      cells.push(report.verdict === 'failed' ? 'caught' : `**${report.verdict}**`);
      if (report.verdict === 'failed') caught++;
      else missed.push(`${f} (seed ${seed})`);
    }
    console.log(`| \`${f}\` | ${FAULTS[f]} | ${cells.join(' | ')} | ${[...checks].sort().join(', ')} |`);
  }
  for (const seed of seeds) {
    const report = await runBilling([], { seed });
    console.log(`no fault, seed ${seed}: ${report.verdict} (${failedChecks(report).join(', ') || 'no failure'})`);
  }
  console.log(
    `${caught} of ${runs} fault runs caught; ${((Date.now() - started) / 1000).toFixed(0)} s, load average ${loadavg()[0]!.toFixed(1)}` +
      (missed.length > 0 ? `; missed: ${missed.join(', ')}` : ''),
  );
}

await main();
