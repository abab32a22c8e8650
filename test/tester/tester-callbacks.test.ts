// events.callback (--webhook-listen): the tester gives a create a callback URL on this machine, makes the object
// start, and verifies the delivery with the service's callback secret; a service signing with another secret fails.
import fc from 'fast-check';
import { afterEach, expect, it } from 'vitest';
import { objectArbitrary } from '../../src/tester/tester-arbitraries.js';
import { compileSpecText } from '../../src/program.js';
import { generateWebhookSecret } from '../../src/runtime/events/events-signing.js';
import { testService } from '../../src/tester/tester-run.js';
import { callbackSpecText } from '../support/callbacks.js';
import { startEventService } from '../events/helpers.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

async function serve(secret: string) {
  const model = compileSpecText(callbackSpecText(), 'events-callbacks.yaml').model!;
  const s = await startEventService({ model, webhooks: { allowTargets: ['127.0.0.0/8'], jitter: 0, pollIntervalMs: 100, callbackSecret: secret } });
  cleanup.push(() => s.close());
  return s;
}

it('a callback arrives at the URL the create gave, about that object only, and verifies with the callback secret', async () => {
  const secret = generateWebhookSecret();
  const s = await serve(secret);
  const report = await testService(s.model, { baseUrl: s.url, webhookListen: 0, callbackSecret: secret, only: ['events.callback'] });
  expect(report.results).toMatchObject([{ check: 'events.callback', target: 'createTicket progress', outcome: 'passed' }]);
}, 30_000);

it('mutant: the service signs callbacks with another secret', async () => {
  const s = await serve(generateWebhookSecret());
  const report = await testService(s.model, {
    baseUrl: s.url,
    webhookListen: 0,
    callbackSecret: generateWebhookSecret(),
    only: ['events.callback'],
  });
  expect(report.results).toMatchObject([
    { check: 'events.callback', outcome: 'failed', failure: { expected: 'a v1 signature that verifies with the endpoint secret (the callback secret)' } },
  ]);
}, 30_000);

it('without --webhook-listen the check is not asked for', async () => {
  const s = await serve(generateWebhookSecret());
  const report = await testService(s.model, { baseUrl: s.url, only: ['events.callback'] });
  expect(report.results).toMatchObject([{ check: 'events.callback', outcome: 'skipped' }]);
}, 30_000);

it('generated create bodies leave an optional callback URL out (the service would send events there), other bodies keep it', () => {
  const model = compileSpecText(callbackSpecText(), 'events-callbacks.yaml').model!;
  const ticket = model.resources.find((r) => r.name === 'Ticket')!;
  const bodies = fc.sample(objectArbitrary(model, ticket.fields, ticket, 'create', true), { numRuns: 20, seed: 1 });
  expect(bodies.filter((b) => 'callback_url' in b)).toEqual([]);
  expect(fc.sample(objectArbitrary(model, ticket.fields, ticket, 'update', true), { numRuns: 5, seed: 1 }).every((b) => 'callback_url' in b)).toBe(true);
  const plain = compileSpecText(callbackSpecText().replace(/, callbacks: \{ progress: .*\} \} \}/, ' }'), 'plain.yaml').model!;
  expect(plain.endpoints!.operations.find((o) => o.id === 'createTicket')!.callbacks).toBeUndefined();
  expect(
    fc
      .sample(
        objectArbitrary(
          plain,
          ticket.fields,
          plain.resources.find((r) => r.name === 'Ticket')!,
          'create',
          true,
        ),
        { numRuns: 5, seed: 1 },
      )
      .every((b) => 'callback_url' in b),
  ).toBe(true);
});
