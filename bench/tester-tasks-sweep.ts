// The fault sweep on the Projects and Tasks service (test/tester/fixtures/tasks.openapi.yaml, OpenAPI 3.1, imported
// as `servicespec import openapi` does, served by the hand-written test/tester/fixtures/tasks-server.mjs): every
// plantable fault, one at a time, under a default tester run (only the seed varies; the bearer token given as
// `servicespec test --bearer` gives it; nothing skipped).
//
// The faithful server fails checks of its own (false failures: see the report printed first), so a fault counts as
// caught on a seed when its run fails a check the faithful run on that seed does not (a failure is keyed by check,
// target and the answer's status). Each fault is run twice per seed: against the server as the document says it
// ("doc"), and with a `code` extension member in its problems ("+code", the imported code's name), which the
// document does not ask but the tester demands of every problem: without it nearly every error answer fails, which
// hides the faults that break error answers.
//
//   npx tsx bench/tester-tasks-sweep.ts                    # seeds 1, 2
//   SWEEP_SEEDS=1,2,3 SWEEP_FAULTS=has-more-wrong,cursor-repeat npx tsx bench/tester-tasks-sweep.ts

import { loadavg } from 'node:os';
import type { TestReport } from '../src/tester/tester-types.js';
import { failedChecks, loadTasks, runTasks } from '../test/tester/tasks-sweep.js';

/** Each failure as `check target status`, to tell a fault's failures from those the faithful server gets. */
const failures = (r: TestReport): Set<string> =>
  new Set(r.results.filter((x) => x.outcome === 'failed').map((x) => `${x.check} ${x.target} ${/\b[1-5]\d\d\b/.exec(String(x.failure?.actual))?.[0] ?? ''}`));

const MODES = [
  { name: 'doc', codes: false },
  { name: '+code', codes: true },
];

async function main(): Promise<void> {
  const { FAULTS } = await loadTasks();
  const seeds = (process.env.SWEEP_SEEDS ?? '1,2').split(',').map(Number);
  const only = process.env.SWEEP_FAULTS?.split(',').filter(Boolean);
  const faults = Object.keys(FAULTS).filter((f) => !only || only.includes(f));

  const started = Date.now();
  const baseline = new Map<string, Set<string>>();
  const times: number[] = [];
  for (const mode of MODES)
    for (const seed of seeds) {
      const t = Date.now();
      const report = await runTasks([], { seed }, { codes: mode.codes });
      times.push(Date.now() - t);
      baseline.set(`${mode.name} ${seed}`, failures(report));
      console.log(
        `no fault (${mode.name}), seed ${seed}: ${report.verdict}, ${failures(report).size} failures (${failedChecks(report).join(', ') || 'none'}); ` +
          `${report.requests} requests, ${((Date.now() - t) / 1000).toFixed(1)} s`,
      );
    }

  const caught = { doc: 0, '+code': 0 } as Record<string, number>;
  let runs = 0;
  const missed: string[] = [];
  const heads = MODES.flatMap((m) => seeds.map((s) => `seed ${s} ${m.name}`));
  console.log(`\n| fault | planted | ${heads.join(' | ')} | failed checks beyond the faithful run's |`);
  console.log(`|---|---|${heads.map(() => '---').join('|')}|---|`);
  for (const f of faults) {
    const cells: string[] = [];
    const checks = new Set<string>();
    for (const mode of MODES)
      for (const seed of seeds) {
        const t = Date.now();
        const report = await runTasks([f], { seed }, { codes: mode.codes });
        times.push(Date.now() - t);
        if (mode.codes) runs++;
        const base = baseline.get(`${mode.name} ${seed}`)!;
        const extra = [...failures(report)].filter((x) => !base.has(x));
        for (const x of extra) checks.add(x.split(' ')[0]!);
        if (extra.length > 0) {
          caught[mode.name]!++;
          cells.push('caught');
        } else {
          missed.push(`${f} (${mode.name}, seed ${seed})`);
          cells.push('**through**');
        }
      }
    console.log(`| \`${f}\` | ${FAULTS[f]} | ${cells.join(' | ')} | ${[...checks].sort().join(', ')} |`);
  }
  times.sort((a, b) => a - b);
  console.log(
    `\ncaught: ${caught.doc} of ${runs} fault runs (doc), ${caught['+code']} of ${runs} (+code); ${((Date.now() - started) / 1000).toFixed(0)} s in all, ` +
      `one run ${(times[Math.floor(times.length / 2)]! / 1000).toFixed(2)} s median, ${(times.at(-1)! / 1000).toFixed(2)} s max; load average ${loadavg()[0]!.toFixed(1)}`,
  );
  if (process.env.SWEEP_MISSED) console.log(`missed: ${missed.join(', ')}`);
}

await main();
