import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel, startService, TICKETS, type Running } from './helpers.js';

// The reference model of the Ticket state machine in fixtures/tickets.yaml.
const MACHINE: Record<string, { from: string[]; to: string; body?: Record<string, unknown> }> = {
  start: { from: ['open'], to: 'in_progress' },
  stop: { from: ['in_progress'], to: 'open' },
  resolve: { from: ['open', 'in_progress'], to: 'resolved', body: { resolution: 'done' } },
  reject: { from: ['open', 'in_progress'], to: 'rejected' },
};

let s: Running;
let projectId: string;

beforeAll(async () => {
  s = await startService(loadModel(TICKETS), { handlers: { estimate: () => ({ points: 1 }) } });
  projectId = (await s.call('POST', '/projects', { slug: 'states', name: 'States' })).body.id;
});
afterAll(() => s.close());

describe('state machine', () => {
  it('always agrees with the reference model; illegal transitions always get the declared error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...Object.keys(MACHINE)), { minLength: 1, maxLength: 12 }), async (steps) => {
        const t = (await s.call('POST', '/tickets', { project: projectId, title: 'p', reporter: 'a@b.co' })).body;
        let state = 'open';
        for (const name of steps) {
          const tr = MACHINE[name]!;
          const r = await s.call('POST', `/tickets/${t.id}/${name}`, tr.body);
          if (tr.from.includes(state)) {
            expect(r.status).toBe(200);
            state = tr.to;
          } else {
            expect(r.status).toBe(409);
            expect(r.body.code).toBe('invalid_transition');
          }
          expect(r.status === 200 ? r.body.status : (await s.call('GET', `/tickets/${t.id}`)).body.status).toBe(state);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('of 100 concurrent conflicting transitions on one object, exactly one wins', async () => {
    const t = (await s.call('POST', '/tickets', { project: projectId, title: 'race', reporter: 'a@b.co' })).body;
    // Both lead to a terminal state, so after the first one wins none of the others is legal.
    const names = Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? 'resolve' : 'reject'));
    const results = await Promise.all(names.map((n) => s.call('POST', `/tickets/${t.id}/${n}`, MACHINE[n]!.body)));
    const wins = results.filter((r) => r.status === 200);
    expect(wins).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && r.body.code === 'invalid_transition')).toHaveLength(99);
    const final = (await s.call('GET', `/tickets/${t.id}`)).body.status;
    expect(final).toBe(wins[0]!.body.status);
  });
});
