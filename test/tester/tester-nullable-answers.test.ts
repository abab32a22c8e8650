// `nullable: answers`: answers may hold null, requests may not send it (Stripe's `customer`). The tester never sends
// null for it as a valid value, sends it once as an invalid one, and takes null in answers. Before the key, the
// imported field was nullable in requests too, and the tester sent null to a faithful service as a valid value.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { codePoints, startHandServer, takeObject, type HandServer } from '../support/hand-server.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';

const SPEC = `servicespec: 1
resources:
  Payment:
    fields:
      id: { type: uuid, readOnly: true }
      amount: { type: integer, minimum: 1, maximum: 1000 }
      customer: { type: string, optional: true, nullable: answers, maxLength: 20 }
endpoints:
  operations:
    createPayment: { method: POST, path: /payments, action: create, resource: Payment, errors: [invalid] }
    getPayment: { method: GET, path: '/payments/{id}', action: read, resource: Payment }
authentication:
  default: none
${PLAIN_ERRORS}`;

/** Payments by hand, answering `customer: null` when none was given; `fault`: a create's null customer is taken. */
function start(fault: boolean): Promise<HandServer> {
  const store = new Map<string, Record<string, unknown>>();
  return startHandServer((req, reply) => {
    const one = /^\/payments\/([^/?]+)$/.exec(req.url);
    if (req.method === 'GET' && one) {
      const p = store.get(decodeURIComponent(one[1]!));
      return p ? reply.json(200, p) : reply.problem(404, 'not_found');
    }
    if (req.url !== '/payments') return reply.problem(404, 'not_found');
    if (req.method !== 'POST') return reply.problem(405, 'not_allowed');
    const b = takeObject(req, reply);
    if (!b) return;
    const { amount, customer, ...rest } = b;
    if (Object.keys(rest).length > 0) return reply.problem(422, 'invalid');
    if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 1 || amount > 1000) return reply.problem(422, 'invalid');
    const customerOk = customer === undefined || (typeof customer === 'string' && codePoints(customer) <= 20) || (fault && customer === null);
    if (!customerOk) return reply.problem(422, 'invalid');
    const p = { id: crypto.randomUUID(), amount, customer: customer ?? null };
    store.set(p.id, p);
    reply.json(201, p, 'application/json', { location: `/payments/${p.id}` });
  });
}

describe('a field nullable in answers only', () => {
  let faithful: HandServer;
  let faulty: HandServer;
  beforeAll(async () => {
    faithful = await start(false);
    faulty = await start(true);
  });
  afterAll(() => {
    faithful?.close();
    faulty?.close();
  });
  const run = (url: string) =>
    testService(checkedModel(SPEC), {
      baseUrl: url,
      seed: 1,
      only: ['endpoints.invalid-requests', 'endpoints.input-space', 'endpoints.create', 'endpoints.read'],
    });

  it('a faithful service passes: null is never sent as valid, and taken in answers', async () => {
    const r = await run(faithful.url);
    expect(r.results.filter((x) => x.outcome === 'failed').map((x) => [x.check, x.target, x.failure?.actual, JSON.stringify(x.failure)])).toEqual([]);
    expect(r.results.some((x) => x.outcome === 'passed' && x.target === 'createPayment: customer null (nullable in answers only)')).toBe(true);
  }, 120_000);

  it("a service taking a request's null fails the invalid request", async () => {
    const r = await run(faulty.url);
    expect(r.results.filter((x) => x.outcome === 'failed').map((x) => x.target)).toContain('createPayment: customer null (nullable in answers only)');
  }, 120_000);
});
