// Everyday friction (issue 17): gaps for CI, examples in every --help, one meaning per option name, quiet exports.

import { describe, expect, it } from 'vitest';
import { EXAMPLES, runCli } from './cli-helpers.js';

const [EMPTY, , ORDERS] = EXAMPLES as [string, string, string];

describe('gaps --fail-on-gaps', { timeout: 120_000 }, () => {
  it('exits 1 and names the parts when any part is not fully shown; 0 when all are shown', async () => {
    const open = await runCli(['gaps', EMPTY, '--fail-on-gaps']);
    expect(open.code).toBe(1);
    expect(open.stdout).toContain('not shown');
    expect(open.stderr).toMatch(/^servicespec gaps: --fail-on-gaps: 9 of 9 parts not fully shown \(purpose: not shown, /m);
    const plain = await runCli(['gaps', EMPTY]);
    expect(plain.code).toBe(0);
    const shown = await runCli(['gaps', ORDERS, '--fail-on-gaps', '--format', 'json']);
    expect(shown.code).toBe(0);
    expect((JSON.parse(shown.stdout) as { shown: number }).shown).toBe(9);
  });
});
