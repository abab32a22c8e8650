// endpoints.idempotency sends a custom POST twice with one Idempotency-Key (tester-checks-idempotency.ts), as it does a
// create, a change and a transition; this holds it to that: a service replaying the first answer passes, one that
// ignores the key on its custom action (each call drawing the next number) fails. And the key reused with another
// body must get the declared idempotency_conflict, as a create's does: a service replaying the first answer to it
// (the key compared, the body not) failed no check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { isObject, readJson, startHandServer, type HandServer } from '../support/hand-server.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';

const SPEC = `servicespec: 1
endpoints:
  idempotency: { header: Idempotency-Key, retention: 1h }
  operations:
    drawNumber:
      method: POST
      path: /numbers
      action: custom
      handler: draw
      request: { fields: { series: { type: string, minLength: 1, maxLength: 8 } } }
      response: { fields: { series: { type: string }, value: { type: integer, minimum: 1 } } }
authentication:
  default: none
${PLAIN_ERRORS}    conflict: { status: 409, when: [idempotency_conflict] }
`;

type Keys = 'honoured' | 'ignored' | 'body-unchecked';

function start(keys: Keys): Promise<HandServer> {
  let next = 1;
  const seen = new Map<string, { text: string; answer: unknown }>();
  return startHandServer((req, reply) => {
    if (req.url !== '/numbers') return reply.problem(404, 'not_found');
    if (req.method !== 'POST') return reply.notAllowed('POST');
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return reply.problem(415, 'not_json');
    const b = readJson(req);
    if (!isObject(b)) return reply.problem(typeof b === 'symbol' ? 400 : 422, typeof b === 'symbol' ? 'bad_body' : 'invalid');
    const series = b.series;
    if (Object.keys(b).some((k) => k !== 'series') || typeof series !== 'string' || [...series].length < 1 || [...series].length > 8)
      return reply.problem(422, 'invalid');
    const key = req.headers['idempotency-key'];
    const prior = typeof key === 'string' && keys !== 'ignored' ? seen.get(key) : undefined;
    if (prior) return prior.text === req.text || keys === 'body-unchecked' ? reply.json(200, prior.answer) : reply.problem(409, 'conflict');
    const answer = { series, value: next++ };
    if (typeof key === 'string') seen.set(key, { text: req.text, answer });
    reply.json(200, answer);
  });
}

describe('a custom POST sent twice with one Idempotency-Key', () => {
  const servers: HandServer[] = [];
  beforeAll(async () => {
    servers.push(await start('honoured'), await start('ignored'), await start('body-unchecked'));
  });
  afterAll(() => {
    for (const s of servers) s.close();
  });

  const idempotency = async (i: number) =>
    (await testService(checkedModel(SPEC), { baseUrl: servers[i]!.url, seed: 1, only: ['endpoints.idempotency'] })).results.filter(
      (r) => r.check === 'endpoints.idempotency',
    );

  it('passes a service replaying the first answer', async () => {
    expect((await idempotency(0)).map((r) => [r.target, r.outcome])).toEqual([['drawNumber', 'passed']]);
  });

  it('fails a service that draws again', async () => {
    const [r] = await idempotency(1);
    expect([r?.target, r?.outcome]).toEqual(['drawNumber', 'failed']);
    expect(r?.failure?.expected).toMatch(
      /^the same answer to the same action with Idempotency-Key: .* \(the first answer replayed, the action applied once\)$/,
    );
    expect(r?.failure?.actual).toMatch(/"value":1.*then.*"value":2/);
  });

  it('fails a service replaying the first answer to the key reused with another body', async () => {
    const [r] = await idempotency(2);
    expect([r?.target, r?.outcome]).toEqual(['drawNumber', 'failed']);
    expect(r?.failure?.expected).toMatch(/^conflict \(409\) for Idempotency-Key: .* reused with another body$/);
  });
});
