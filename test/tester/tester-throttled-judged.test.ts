// A 429 a default run meets is waited out (its Retry-After, else 1 s) and the request sent again: a rate limit paces
// the tester, it is not the answer under test. Where the spec declares Retry-After on a 429, the 429 is judged as
// every error answer is, so a service answering it without the Retry-After its spec declares fails a default run
// (the `retry-after-missing` fault); where it declares none, a 429 only paces the run.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { declaresRetryAfter, testService } from '../../src/tester/tester-run.js';
import type { TestReport } from '../../src/tester/tester-types.js';
import { importRecipes, loadRecipes } from './recipes-sweep.js';

/** The faithful Recipes server, but for the third request, answered 429 with `headers` (slowapi's body). */
async function throttledOnce(headers: Record<string, string>): Promise<{ url: string; close: () => Promise<void> }> {
  const m = await loadRecipes();
  const inner = (m as unknown as { createRecipesServer(o: object): Server }).createRecipesServer({});
  let n = 0;
  const server = createServer((req, res) => {
    if (++n === 3) {
      req.resume();
      res.writeHead(429, { 'content-type': 'application/json', ...headers });
      return res.end('{"detail":"Rate limit exceeded: 2 per 1 second"}');
    }
    inner.emit('request', req, res);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((ok) => server.close(() => ok())),
  };
}

async function run(headers: Record<string, string>): Promise<TestReport> {
  const m = (await loadRecipes()) as unknown as { RECIPES_TOKEN: string };
  const { model } = await importRecipes();
  const s = await throttledOnce(headers);
  try {
    return await testService(model, { baseUrl: s.url, seed: 1, credentials: { bearer: m.RECIPES_TOKEN }, only: ['list_recipes_recipes_get'], runs: 2 });
  } finally {
    await s.close();
  }
}

describe('a 429 the run waits out', () => {
  it('is judged where the spec declares Retry-After on it: one without it fails errors.answer-headers and limits.answer-headers', async () => {
    expect(declaresRetryAfter((await importRecipes()).model)).toBe(true);
    const report = await run({});
    const failed = report.results.filter((r) => r.outcome === 'failed');
    expect(failed.map((r) => r.check).sort()).toEqual(['errors.answer-headers', 'limits.answer-headers']);
    expect(failed.map((r) => r.failure?.actual ?? '').join('\n')).toMatch(/no Retry-After header/);
  }, 30_000);

  it('one with the declared Retry-After passes, and the request sent again is judged as before', async () => {
    const report = await run({ 'retry-after': '1' });
    expect(report.results.filter((r) => r.outcome === 'failed')).toEqual([]);
    expect(report.results.filter((r) => r.check === 'limits.answer-headers').map((r) => r.outcome)).toEqual(['passed']);
  }, 30_000);

  it('a spec declaring no Retry-After on a 429 does not have its 429s judged', () => {
    const model = { errors: { headers: [], codes: [{ name: 'busy', status: 429, headers: [], when: ['rate_limited'] }] }, limits: { rate: [] } };
    expect(declaresRetryAfter(model as never)).toBe(false);
  });
});
