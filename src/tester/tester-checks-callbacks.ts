// events.callback (with --webhook-listen): a create with callbacks is given a URL on this machine in the callback's
// field, an event the callback names is made to happen to the object (a transition from the initial state, or an
// update), and the delivery must arrive there, be about that object, and verify with the service's callback secret
// (--callback-secret's environment variable). A second object subscribed on another path must not get the first's.

import { isSuccessAnswer, type OperationRoute } from '../model/model-routes.js';
import type { TestRequest } from './tester-http.js';
import { getDeliveryBodyProblem, listen, verifyStandardWebhook } from './tester-checks-webhooks.js';
import type { TestContext } from './tester-context.js';

const DELIVERY_WAIT_MS = 10_000;
const LEAK_GRACE_MS = 300;

export async function checkCallbacks(ctx: TestContext): Promise<void> {
  const found = ctx.routes.flatMap((r) => (r.operation.action === 'create' && r.resource ? (r.operation.callbacks ?? []).map((c) => ({ r, c })) : []));
  if (found.length === 0) return;
  const port = ctx.options.webhookListen;
  const { r: create, c } = found[0]!;
  const resource = create.resource!;
  const target = `${create.operation.id} ${c.name}`;
  if (port === undefined) return ctx.skip('events', 'events.callback', target, 'not asked for: give --webhook-listen PORT to receive and verify callbacks');
  await ctx.check('events', 'events.callback', target, async (scope) => {
    const secret = ctx.options.callbackSecret;
    if (secret === undefined) return scope.skip("no callback secret: give the service's (SERVICESPEC_CALLBACK_SECRET) to verify callbacks", 'not-run');
    // What makes one of the callback's kinds happen: a transition from the initial state, or an update.
    const machine = ctx.model.stateMachines.find((m) => m.resource === resource.name);
    const kinds = new Set(c.events);
    const fire: OperationRoute | undefined =
      ctx.routes.find(
        (r) =>
          r.resource?.name === resource.name &&
          machine?.initial !== undefined &&
          r.transition?.from.includes(machine.initial) &&
          r.transition.emits !== undefined &&
          kinds.has(r.transition.emits),
      ) ??
      ctx.routes.find(
        (r) =>
          r.resource?.name === resource.name &&
          r.operation.action === 'update' &&
          (ctx.model.events?.kinds ?? []).some((k) => kinds.has(k.name) && k.triggers.some((t) => t.action === 'update' && t.resource === resource.name)),
      );
    if (!fire) return scope.skip(`no transition from the initial state or update of ${resource.name} emits ${c.events.join(', ')}`, 'not-applicable');
    const kind = (ctx.model.events?.kinds ?? []).find(
      (k) =>
        k.name ===
        (fire.transition?.emits ?? c.events.find((e) => ctx.model.events?.kinds.some((k) => k.name === e && k.triggers.some((t) => t.action === 'update')))),
    )!;
    const headers = await ctx.authFor(fire.operation.auth);
    if (!headers) return scope.skip(`no credential for ${fire.operation.id}`);
    const receiver = await listen(port);
    try {
      const subscribe = async (path: string) =>
        ctx.createObject(resource, { ...(await ctx.sampleCreateBody(resource)), [c.url]: `http://127.0.0.1:${receiver.port}${path}` });
      const made = await subscribe('/servicespec-callback');
      if (!made || !isSuccessAnswer(create, made.res.status))
        return scope.fail(
          ctx.failure(
            create.operation.id,
            `${create.successStatus}: the create takes a callback URL on this machine in ${c.url} (serve it with --allow-webhook-target 127.0.0.0/8)`,
            c.pointer,
            made?.req ?? { method: create.method, path: create.path, headers: {} },
            made?.res ?? 'no answer',
          ),
        );
      const id = made.res.body[resource.identifier ?? 'id'];
      await subscribe('/servicespec-callback-second');
      const req: TestRequest = { method: fire.method, path: ctx.pathOf(fire, id), headers, body: fire.transition ? await ctx.transitionBody(fire, id) : {} };
      const res = await ctx.send(fire, req);
      if (res.status >= 300) return scope.skip(`${fire.operation.id} answered ${res.status}: nothing to call back about`);
      const about = (d: { body: string }) => d.body.includes(JSON.stringify(id));
      const mine = () => receiver.deliveries.find((d) => d.path === '/servicespec-callback' && about(d));
      const end = ctx.client.clock.now() + DELIVERY_WAIT_MS;
      while (!mine() && ctx.client.clock.now() < end) await ctx.client.clock.sleep(50);
      const steps = [ctx.client.curl(made.req), ctx.client.curl(req)].join('\n');
      const d = mine();
      if (!d)
        return scope.fail({
          operation: target,
          expected: `a ${kind.name} callback to the URL the create gave, within ${DELIVERY_WAIT_MS / 1000} s`,
          ...(ctx.specRef(c.pointer) ? { spec: ctx.specRef(c.pointer)! } : {}),
          actual: `no delivery about ${String(id)} (${receiver.deliveries.length} others)`,
          curl: steps,
        });
      const why = verifyStandardWebhook(secret, d.headers, d.body, ctx.client.clock.now());
      if (why !== undefined)
        return scope.fail({
          operation: target,
          expected: `${why} (the callback secret)`,
          ...(ctx.specRef(c.pointer) ? { spec: ctx.specRef(c.pointer)! } : {}),
          actual: `webhook-signature: ${String(d.headers['webhook-signature'])}`,
          curl: steps,
        });
      // The body as the kind says: a raw kind's payload alone, an enveloped one's type and data.object.
      const wrong = getDeliveryBodyProblem(kind, resource, id, d);
      if (wrong)
        return scope.fail({
          operation: target,
          expected: `${wrong.expected} (a callback)`,
          ...(ctx.specRef(kind.pointer) ? { spec: ctx.specRef(kind.pointer)! } : {}),
          actual: wrong.actual,
          curl: steps,
        });
      await ctx.client.clock.sleep(LEAK_GRACE_MS);
      const leaked = receiver.deliveries.filter((x) => x.path === '/servicespec-callback-second' && about(x));
      if (leaked.length > 0)
        return scope.fail({
          operation: target,
          expected: `a callback carries events about its own ${resource.name} only`,
          actual: `an event about ${String(id)} went to another ${resource.name}'s callback URL`,
          curl: steps,
        });
    } finally {
      await receiver.close();
    }
  });
}
