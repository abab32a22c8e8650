// `run(argv, io)`: the command in-process — each run's output goes to its own io, and a run in another working
// directory reads relative paths from there and leaves the process's as it was.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/cli-run.js';
import { ROOT } from './cli-helpers.js';

function capture(): { out: string[]; err: string[]; io: { out: (s: string) => void; err: (s: string) => void } } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (s) => void out.push(s), err: (s) => void err.push(s) } };
}

describe('run(argv, io)', () => {
  it('keeps concurrent runs apart: each gets its own output and exit code', async () => {
    const a = capture();
    const b = capture();
    const [codeA, codeB] = await Promise.all([
      run(['check', '-', '--format', 'json'], { ...a.io, stdin: () => Buffer.from('servicespec: 1\npurpse: {}\n') }),
      run(['gaps', join(ROOT, 'examples', 'orders.yaml')], b.io),
    ]);
    expect(codeA).toBe(1);
    expect(a.out.join('')).toContain('"pointer": "/purpse"');
    expect(a.out.join('')).not.toContain('Orders');
    expect(codeB).toBe(0);
    expect(b.out.join('')).not.toContain('purpse');
  });

  it('reads relative paths from the given cwd and gives the process its own back', async () => {
    const before = process.cwd();
    const c = capture();
    expect(await run(['check', 'orders.yaml', '--quiet'], { ...c.io, cwd: join(ROOT, 'examples') })).toBe(0);
    expect(c.err.join('') + c.out.join('')).toBe('');
    expect(process.cwd()).toBe(before);
    expect(await run(['check', 'no-such.yaml'], { ...c.io, cwd: join(ROOT, 'examples') })).toBe(1);
  });

  it('answers usage errors with 2 and --version with 0, without ending the process', async () => {
    const c = capture();
    expect(await run(['nope'], c.io)).toBe(2);
    expect(await run(['--version'], c.io)).toBe(0);
    expect(c.out.join('')).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});
