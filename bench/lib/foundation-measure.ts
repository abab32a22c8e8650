// Small measuring helpers for bench/foundation-bench.ts.
import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export interface Runs {
  /** Wall-clock time of each run, in milliseconds. */
  wall: number[];
  /** CPU time (user + system) of each run, in milliseconds: less disturbed than wall time on a busy machine. */
  cpu: number[];
}

/** Runs `fn` `runs` times (after one warm-up run) and returns each run's wall and CPU time in milliseconds. */
export function timeRuns(runs: number, fn: () => void): Runs {
  fn();
  const out: Runs = { wall: [], cpu: [] };
  for (let i = 0; i < runs; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    fn();
    out.wall.push(performance.now() - t);
    const d = process.cpuUsage(c);
    out.cpu.push((d.user + d.system) / 1000);
  }
  return out;
}

/**
 * Runs this same script in a fresh Node process with `args` and returns what the child printed as JSON
 * on its last line. The child runs the measured part once and reports process.resourceUsage().maxRSS.
 */
export function runChild(script: string, args: readonly string[]): Record<string, unknown> {
  const r = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`child ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  const last = r.stdout.trim().split('\n').at(-1) ?? '{}';
  return JSON.parse(last) as Record<string, unknown>;
}

export function machine(): { nproc: number; cpu: string; node: string; platform: string } {
  const c = cpus();
  return { nproc: c.length, cpu: c[0]?.model ?? 'unknown', node: process.version, platform: `${process.platform} ${process.arch}` };
}

export const fmtMs = (ms: number) => `${ms.toFixed(ms < 10 ? 1 : 0)} ms`;
export const fmtMB = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
