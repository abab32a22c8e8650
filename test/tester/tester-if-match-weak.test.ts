// endpoints.if-match sent a tag the service never gave, none, the current one and `*`: a service taking a weak tag in
// If-Match (RFC 9110 §13.1.1: a weak tag never matches) passed, and so did one whose change answered an ETag that is
// not the object's tag after it (the tag it replaced), which sends a client's next If-Match to a refusal. Now the
// current tag made weak must be refused as stale, and the tag a change answers must be the one a read right after
// answers (an outside sweep's lockers if-match-weak and etag-stale-after-patch).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { PLAIN_ERRORS } from '../support/specs.js';
import { startSpecText, type OrdersServer } from './helpers.js';
import { startProxy, type MutantHooks } from './mutant-proxy.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText(
    'contracts.yaml',
    `servicespec: 1
resources:
  Contract:
    etag: true
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string, minLength: 1, maxLength: 30 }
endpoints:
  operations:
    createContract: { method: POST, path: /contracts, action: create, resource: Contract }
    getContract: { method: GET, path: "/contracts/{id}", action: read, resource: Contract }
    editContract: { method: PATCH, path: "/contracts/{id}", action: update, resource: Contract }
authentication:
  default: none
${PLAIN_ERRORS}    stale: { status: 412, when: [precondition_failed] }
`,
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const ifMatch = async (hooks?: MutantHooks) => {
  const proxy = hooks ? await startProxy(s.url, hooks) : undefined;
  try {
    const run = await testService(s.model, { baseUrl: proxy?.url ?? s.url, ...s.options, seed: 1, only: ['endpoints.if-match'] });
    return run.results.filter((r) => r.check === 'endpoints.if-match' && r.target === 'editContract');
  } finally {
    await proxy?.close();
  }
};

it('passes serve', async () => {
  expect((await ifMatch()).map((r) => r.outcome)).toEqual(['passed']);
});

it('fails a service taking a weak tag in If-Match', async () => {
  const [r] = await ifMatch({
    request: (req) => (req.headers['if-match']?.startsWith('W/') ? { ...req, headers: { ...req.headers, 'if-match': req.headers['if-match'].slice(2) } } : req),
  });
  expect(r?.outcome).toBe('failed');
  expect(r?.failure?.expected).toMatch(/^stale \(412\) for If-Match: W\/".*": a weak tag never matches/);
});

it('fails a change answering an ETag that is not the object’s tag after it', async () => {
  const [r] = await ifMatch({
    response: (res, req) => (req.method === 'PATCH' && res.status === 200 ? { ...res, headers: { ...res.headers, etag: '"the-tag-it-replaced"' } } : res),
  });
  expect(r?.outcome).toBe('failed');
  expect(r?.failure?.expected).toMatch(
    /^the ETag the update answered \("the-tag-it-replaced"\) is the Contract's tag after it, as a read right after answers it$/,
  );
});
