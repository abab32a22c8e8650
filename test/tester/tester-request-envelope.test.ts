// request_envelope under the contract tester: every body it sends to a wrapped operation goes wrapped (valid ones,
// the invalid-request probes, the input edges), and it sends the inner body bare once, expecting validation. Against
// the real runtime: no failure. Against a hand-written Shopify-style service: faithful, no failure; one taking a
// bare body, or answering a create unwrapped, is caught.
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import type { TestReport } from '../../src/tester/tester-types.js';
import { startService, type Running } from '../runtime/helpers.js';
import { WRAPPED_SPEC } from '../support/request-envelope.js';
import { checkedModel } from '../support/specs.js';
import { SHOP_SPEC, startShop, type ShopFault } from '../support/shop-server.js';

const failures = (r: TestReport) => r.results.filter((x) => x.outcome === 'failed').map((x) => [x.check, x.target, x.failure?.actual]);

describe('the tester against the runtime serving request envelopes', () => {
  let s: Running;
  beforeAll(async () => {
    s = await startService(checkedModel(WRAPPED_SPEC));
  });
  afterAll(() => s?.close());

  it('passes every check, the unwrapped body probed on each wrapped operation', async () => {
    const r = await testService(checkedModel(WRAPPED_SPEC), { baseUrl: s.url, seed: 2, runs: 3 });
    expect(failures(r)).toEqual([]);
    const passed = r.results.filter((x) => x.outcome === 'passed').map((x) => x.target);
    // A transition's invalid requests are not probed (the states part walks transitions); its bodies go wrapped.
    for (const op of ['createProduct', 'updateProduct', 'patchProduct', 'replaceProduct']) expect(passed).toContain(`${op}: the body not wrapped in product`);
  }, 120_000);
});

describe('the tester against a hand-written Shopify-style service', () => {
  const servers: Server[] = [];
  afterAll(() => servers.forEach((s) => s.close()));
  const run = async (fault: ShopFault) => {
    const { url, server } = await startShop(fault);
    servers.push(server);
    // Node's own 431 (no body) is no concern of this service.
    return testService(checkedModel(SHOP_SPEC), { baseUrl: url, seed: 4, runs: 3, skip: ['limits.header-size', 'errors.declared-codes'] });
  };

  it('the faithful service passes, every body sent wrapped', async () => {
    const r = await run('none');
    expect(failures(r)).toEqual([]);
    const passed = r.results.filter((x) => x.outcome === 'passed').map((x) => x.target);
    expect(passed).toContain('createProduct: the body not wrapped in product');
    expect(passed).toContain('updateProduct: the body not wrapped in product');
    expect(passed).toContain('createProduct: title longer than maxLength 40');
  }, 120_000);

  it('a service taking an unwrapped body fails the probe of one', async () => {
    const r = await run('bare');
    expect(failures(r).map(([, target]) => target)).toEqual(
      expect.arrayContaining(['createProduct: the body not wrapped in product', 'updateProduct: the body not wrapped in product']),
    );
  }, 120_000);

  it('a service answering a create unwrapped fails', async () => {
    const r = await run('unwrapped');
    expect(failures(r).some(([check, target]) => check === 'endpoints.envelope' && target === 'createProduct')).toBe(true);
  }, 120_000);
});
