import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isRawEvent } from '../model/model-defaults.js';
import { isSuccessAnswer, getRoutes, type WebhooksRoute } from '../model/model-routes.js';
import type { EventKindModel, ResourceModel } from '../model/model-types.js';
import type { TestRequest } from './tester-http.js';
import { describe, type TestContext } from './tester-context.js';

// --webhook-listen PORT: register an endpoint on this machine through the spec's registration path, make the
// service emit an event, and verify the delivery's Standard Webhooks signature with the endpoint's secret.

const DELIVERY_WAIT_MS = 10_000;
/** How long after the expected deliveries a leaked one may still arrive (on the run's clock, like every wait here). */
const LEAK_GRACE_MS = 300;

interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
}

/** Standard Webhooks' tolerance: a receiver refuses a webhook-timestamp further from its clock than this. */
const TIMESTAMP_TOLERANCE_S = 300;

/**
 * Why a delivery does not verify per Standard Webhooks, or undefined: the three headers, one `v1,` signature that is
 * the HMAC of `id.timestamp.body` under the secret, and a timestamp in whole seconds within the tolerance of `nowMs`
 * (a timestamp in milliseconds or as a date is refused by every verifying receiver, whatever it signs).
 */
export function verifyStandardWebhook(secret: string, headers: IncomingHttpHeaders, body: string, nowMs: number): string | undefined {
  const id = headers['webhook-id'];
  const ts = headers['webhook-timestamp'];
  const sigs = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof ts !== 'string' || typeof sigs !== 'string') return 'webhook-id, webhook-timestamp and webhook-signature headers';
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest();
  const ok = sigs.split(' ').some((s) => {
    const [v, b64] = s.split(',');
    const got = Buffer.from(b64 ?? '', 'base64');
    return v === 'v1' && got.length === expected.length && timingSafeEqual(got, expected);
  });
  if (!ok) return 'a v1 signature that verifies with the endpoint secret';
  if (!/^[0-9]+$/.test(ts) || Math.abs(Number(ts) - nowMs / 1000) > TIMESTAMP_TOLERANCE_S)
    return `a webhook-timestamp in whole seconds since the epoch, within ${TIMESTAMP_TOLERANCE_S} s of the delivery (Standard Webhooks)`;
  return undefined;
}

/**
 * Why a delivery's body is not the event as the spec says it is sent, or undefined: a raw kind's body is the payload
 * itself, the object (its id and time in the headers); an enveloped one names its kind, carries the object in
 * `data.object`, and its `id` is the delivery's webhook-id (docs/events.md, "Delivery").
 */
export function getDeliveryBodyProblem(
  kind: EventKindModel,
  resource: ResourceModel,
  objectId: unknown,
  d: Delivery,
): { expected: string; actual: string } | undefined {
  let body: (Record<string, unknown> & { type?: unknown; id?: unknown; data?: { object?: Record<string, unknown> } }) | undefined;
  try {
    body = JSON.parse(d.body) as typeof body;
  } catch {
    return { expected: `a JSON body (${kind.name})`, actual: d.body.slice(0, 200) };
  }
  const idName = resource.identifier ?? 'id';
  if (isRawEvent(kind)) {
    if (kind.payload?.resource === resource.name && body?.[idName] !== objectId)
      return { expected: `the ${resource.name} itself as the body (${kind.name}, body: raw)`, actual: d.body.slice(0, 200) };
    return undefined;
  }
  if (body?.type !== kind.name) return { expected: `a ${kind.name} webhook (its envelope's type)`, actual: `type ${String(body?.type)}` };
  if (kind.payload?.resource === resource.name && body.data?.object?.[idName] !== objectId)
    return { expected: `the ${resource.name} as data.object`, actual: d.body.slice(0, 200) };
  if (body.id !== d.headers['webhook-id'])
    return {
      expected: "webhook-id the event's id (the envelope's id), the same on every attempt",
      actual: `webhook-id ${String(d.headers['webhook-id'])}, id ${String(body.id)}`,
    };
  return undefined;
}

/**
 * A receiver on 127.0.0.1:port (0: a free port the system picks, read back as `port`) keeping every delivery, by the
 * path it was sent to; `statusOf` says what to answer a delivery (204 unless it says otherwise).
 */
export async function listen(
  port: number,
  statusOf: (earlier: readonly Delivery[]) => number = () => 204,
): Promise<{ port: number; deliveries: (Delivery & { path: string; status: number })[]; close(): Promise<void> }> {
  const deliveries: (Delivery & { path: string; status: number })[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const status = statusOf(deliveries);
      deliveries.push({ path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    deliveries,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function checkWebhooks(ctx: TestContext): Promise<void> {
  const port = ctx.options.webhookListen;
  if (port === undefined) {
    ctx.skip('events', 'events.webhook', 'webhooks', 'not asked for: give --webhook-listen PORT to receive and verify signed webhooks');
    ctx.skip('events', 'events.ownership', 'webhooks registered by another subject', 'not asked for: give --webhook-listen PORT to receive webhooks');
    return;
  }
  await checkWebhookSignature(ctx, port);
  await checkWebhookOwnership(ctx, port);
}

/**
 * An endpoint the second subject registers gets none of the main subject's events — of a create and of a
 * transition from the initial state — while the main subject's own endpoint gets them; and the main subject's
 * endpoint gets none of the events of an object the second subject creates.
 */
async function checkWebhookOwnership(ctx: TestContext, port: number): Promise<void> {
  const add = getRoutes(ctx.model).find((r): r is WebhooksRoute => r.kind === 'webhooks' && r.action === 'add');
  const remove = getRoutes(ctx.model).find((r): r is WebhooksRoute => r.kind === 'webhooks' && r.action === 'remove');
  await ctx.check('events', 'events.ownership', 'webhooks registered by another subject', async (scope) => {
    if (!add) return scope.skip('the spec serves no webhook registration (events.delivery.webhook.path not shown)');
    const kinds = ctx.model.events?.kinds ?? [];
    const resource = ctx.model.resources.find(
      (r) => r.owner !== undefined && ctx.createRoute(r.name) && kinds.some((k) => k.triggers.some((t) => t.resource === r.name && t.action === 'create')),
    );
    if (!resource) return scope.skip('no event kind fires on a create of an owned resource the tester can make');
    const mainHeaders = await ctx.authFor(add.auth);
    const otherHeaders = await ctx.authFor(add.auth, ctx.other);
    if (!mainHeaders) return scope.skip('no credential for the webhook registration');
    if (!otherHeaders) return scope.skip('no second subject (give one with --other-header/--other-bearer/--other-basic/--other-client-id)');
    const names = kinds.filter((k) => k.triggers.some((t) => t.resource === resource.name)).map((k) => k.name);
    const receiver = await listen(port);
    const registered: { id: unknown; headers: Record<string, string> }[] = [];
    try {
      for (const [who, headers] of [
        ['main', mainHeaders],
        ['other', otherHeaders],
      ] as const) {
        const reg: TestRequest = {
          method: 'POST',
          path: ctx.fillVersion(add.path),
          headers,
          body: { url: `http://127.0.0.1:${receiver.port}/servicespec-test-${who}`, kinds: names },
        };
        const res = await ctx.send(undefined, reg);
        if (!isSuccessAnswer(add, res.status))
          return scope.fail(
            ctx.failure('webhook registration', `${add.successStatus}: the ${who} subject registers an endpoint`, '/events/delivery/webhook', reg, res),
          );
        registered.push({ id: res.body?.id, headers });
      }
      const made = await ctx.createObject(resource);
      if (!made || made.res.status >= 300) return scope.skip(`cannot create a ${resource.name}`);
      const id = made.res.body[resource.identifier ?? 'id'];
      const steps = [ctx.client.curl(made.req)];
      // A transition from the initial state too: its event is the owner's as much as the create's.
      const machine = ctx.model.stateMachines.find((m) => m.resource === resource.name);
      const first =
        machine?.initial !== undefined
          ? ctx.routes.find((r) => r.resource?.name === resource.name && r.transition?.from.includes(machine.initial!) && r.transition.emits !== undefined)
          : undefined;
      const firstHeaders = first ? await ctx.authFor(first.operation.auth) : undefined;
      let fired = 1;
      if (first && firstHeaders) {
        const req: TestRequest = { method: first.method, path: ctx.pathOf(first, id), headers: firstHeaders, body: await ctx.transitionBody(first, id) };
        const res = await ctx.send(first, req);
        if (res.status < 300) {
          fired++;
          steps.push(ctx.client.curl(req));
        }
      }
      const about = (d: { body: string }) => d.body.includes(JSON.stringify(id));
      const end = ctx.client.clock.now() + DELIVERY_WAIT_MS;
      while (receiver.deliveries.filter((d) => d.path.endsWith('-main') && about(d)).length < fired && ctx.client.clock.now() < end)
        await ctx.client.clock.sleep(50);
      await ctx.client.clock.sleep(LEAK_GRACE_MS);
      const leaked = receiver.deliveries.filter((d) => d.path.endsWith('-other') && about(d));
      if (leaked.length > 0) {
        const types = leaked.map((d) => String((JSON.parse(d.body) as { type?: string }).type));
        return scope.fail({
          operation: 'webhook delivery',
          expected: `an endpoint another subject registered gets none of the main subject's ${resource.name} events (owner: ${resource.owner})`,
          ...(ctx.specRef(resource.pointer) ? { spec: ctx.specRef(resource.pointer)! } : {}),
          actual: `${types.join(', ')} for ${String(id)} delivered to the other subject's endpoint`,
          curl: [`# with an endpoint registered by the other subject for ${names.join(', ')}:`, ...steps].join('\n'),
        });
      }
      if (!receiver.deliveries.some((d) => d.path.endsWith('-main') && about(d)))
        return scope.skip(`the main subject's own endpoint got no event about the ${resource.name} either (events.webhook judges delivery)`);
      // And the other way round: the second subject's object reaches its own endpoint, never the main subject's.
      const theirs = await ctx.createObject(resource, undefined, ctx.other);
      if (theirs && theirs.res.status < 300) {
        const otherId = theirs.res.body[resource.identifier ?? 'id'];
        const aboutTheirs = (d: { body: string }) => d.body.includes(JSON.stringify(otherId));
        const until = ctx.client.clock.now() + DELIVERY_WAIT_MS;
        while (!receiver.deliveries.some((d) => d.path.endsWith('-other') && aboutTheirs(d)) && ctx.client.clock.now() < until)
          await ctx.client.clock.sleep(50);
        await ctx.client.clock.sleep(LEAK_GRACE_MS);
        const crossed = receiver.deliveries.filter((d) => d.path.endsWith('-main') && aboutTheirs(d));
        if (crossed.length > 0) {
          const types = crossed.map((d) => (JSON.parse(d.body) as { type?: unknown }).type ?? 'a raw delivery').map(String);
          return scope.fail({
            operation: 'webhook delivery',
            expected: `the main subject's endpoint gets none of the second subject's ${resource.name} events (owner: ${resource.owner})`,
            ...(ctx.specRef(resource.pointer) ? { spec: ctx.specRef(resource.pointer)! } : {}),
            actual: `${types.join(', ')} for ${String(otherId)} delivered to the main subject's endpoint`,
            curl: [`# with an endpoint registered by each subject for ${names.join(', ')}; the second subject creates:`, ctx.client.curl(theirs.req)].join(
              '\n',
            ),
          });
        }
      }
    } finally {
      await receiver.close();
      if (remove)
        for (const r of registered)
          if (r.id !== undefined)
            await ctx
              .send(undefined, {
                method: 'DELETE',
                path: ctx.fillVersion(remove.path).replace(/\{[^{}]*\}$/, encodeURIComponent(String(r.id))),
                headers: r.headers,
              })
              .catch(() => undefined);
    }
  });
}

/** The first retry's delay the spec declares, where it is short enough to wait for (an attempt is failed on purpose). */
function getFirstRetryMs(ctx: TestContext): number | undefined {
  const first = ctx.model.events?.webhook?.retries?.[0];
  return first !== undefined && first.ms <= DELIVERY_WAIT_MS ? first.ms : undefined;
}

/**
 * events.webhook: an endpoint registered on --webhook-listen (a registration whose url is not http(s) refused first)
 * gets the create's event, signed per Standard Webhooks with the secret the registration returned, the body as the
 * kind says; the receiver answers the first attempt 500, and where the spec declares a retry short enough to wait
 * for, the retry must come with the same webhook-id. Nothing else arrives: no second copy under another id, and no
 * event committed before the endpoint registered.
 */
async function checkWebhookSignature(ctx: TestContext, port: number): Promise<void> {
  const add = getRoutes(ctx.model).find((r): r is WebhooksRoute => r.kind === 'webhooks' && r.action === 'add');
  const remove = getRoutes(ctx.model).find((r): r is WebhooksRoute => r.kind === 'webhooks' && r.action === 'remove');
  const kind = ctx.model.events?.kinds.find((k) => k.triggers.some((t) => t.action === 'create' && ctx.createRoute(t.resource)));
  await ctx.check('events', 'events.webhook', kind?.name ?? 'webhooks', async (scope) => {
    if (!add) return scope.skip('the spec serves no webhook registration (events.delivery.webhook.path not shown)');
    if (!kind) return scope.skip('no event kind fires on a create the tester can make');
    const resource = ctx.model.resources.find((r) => r.name === kind.triggers.find((t) => t.action === 'create')!.resource)!;
    const headers = await ctx.authFor(add.auth);
    if (!headers) return scope.skip('no credential for the webhook registration');
    const retryMs = getFirstRetryMs(ctx);
    // The first attempt fails, so a declared retry is seen (and its webhook-id compared).
    const receiver = await listen(port, (earlier) => (retryMs !== undefined && earlier.length === 0 ? 500 : 204));
    const deliveries = receiver.deliveries;
    const ids: unknown[] = [];
    try {
      // Only http and https URLs are taken (docs/events.md, "Unsafe targets"): another scheme is the validation refusal.
      const bad: TestRequest = {
        method: 'POST',
        path: ctx.fillVersion(add.path),
        headers,
        body: { url: `ftp://127.0.0.1:${receiver.port}/servicespec-test`, kinds: [kind.name] },
      };
      const refused = await ctx.send(undefined, bad);
      if (isSuccessAnswer(add, refused.status)) ids.push(refused.body?.id);
      const badWhy = ctx.declared('validation') ? ctx.expectCondition(refused, 'validation') : undefined;
      if (badWhy !== undefined)
        return scope.fail(
          ctx.failure(
            'webhook registration',
            'the validation refusal for a url that is not http or https',
            '/events/delivery/webhook',
            bad,
            `${badWhy}; ${describe(refused)}`,
          ),
        );
      const reg: TestRequest = {
        method: 'POST',
        path: ctx.fillVersion(add.path),
        headers,
        body: { url: `http://127.0.0.1:${receiver.port}/servicespec-test`, kinds: [kind.name] },
      };
      const res = await ctx.send(undefined, reg);
      if (!isSuccessAnswer(add, res.status) || typeof res.body?.secret !== 'string')
        return scope.fail(
          ctx.failure(
            'webhook registration',
            `${add.successStatus} with the endpoint's secret`,
            ctx.model.events?.webhook ? '/events/delivery/webhook' : undefined,
            reg,
            res,
          ),
        );
      ids.push(res.body.id);
      const secret = res.body.secret as string;
      const made = await ctx.createObject(resource);
      if (!made || made.res.status >= 300) return scope.skip(`cannot create a ${resource.name}`);
      const objectId = made.res.body[resource.identifier ?? 'id'];
      const about = (d: Delivery) => d.body.includes(JSON.stringify(objectId));
      // Delivered: an attempt the receiver took, the first about the object or a retry of it (its webhook-id).
      const delivered = () => {
        const first = deliveries.find(about);
        return deliveries.find((d) => about(d) && d.status < 300 && d.headers['webhook-id'] === first?.headers['webhook-id']);
      };
      const end = ctx.client.clock.now() + DELIVERY_WAIT_MS + (retryMs ?? 0) * 1.2;
      while (!delivered() && ctx.client.clock.now() < end) await ctx.client.clock.sleep(50);
      const first = deliveries.find(about);
      const d = delivered();
      if (!first)
        return scope.fail(
          ctx.failure(
            kind.name,
            `a ${kind.name} webhook to the registered endpoint within ${DELIVERY_WAIT_MS / 1000} s`,
            kind.pointer,
            made.req,
            `no delivery (${deliveries.length} others); ${describe(made.res).slice(0, 80)}`,
          ),
        );
      const why = verifyStandardWebhook(secret, first.headers, first.body, ctx.client.clock.now());
      if (why !== undefined)
        return scope.fail(
          ctx.failure(
            kind.name,
            why,
            '/events/delivery/webhook/signing',
            made.req,
            `webhook-id: ${String(first.headers['webhook-id'])}, webhook-timestamp: ${String(first.headers['webhook-timestamp'])}, webhook-signature: ${String(first.headers['webhook-signature'])}`,
          ),
        );
      const wrong = getDeliveryBodyProblem(kind, resource, objectId, first);
      if (wrong) return scope.fail(ctx.failure(kind.name, wrong.expected, kind.pointer, made.req, wrong.actual));
      if (first.status >= 300) {
        const retried = `a retry of the delivery the receiver answered ${first.status}, with its webhook-id (${String(first.headers['webhook-id'])}), after the ${ctx.model.events!.webhook!.retries![0]!.text} the spec declares`;
        if (!d) {
          const attempts = deliveries.filter((x) => about(x) && x !== first).map((x) => String(x.headers['webhook-id']));
          return scope.fail(
            ctx.failure(
              kind.name,
              retried,
              '/events/delivery/webhook/retries',
              made.req,
              attempts.length > 0 ? `attempts with webhook-id ${attempts.join(', ')}` : 'no retry',
            ),
          );
        }
        const again = verifyStandardWebhook(secret, d.headers, d.body, ctx.client.clock.now());
        if (again !== undefined)
          return scope.fail(ctx.failure(kind.name, `${again} (the retry)`, '/events/delivery/webhook/signing', made.req, d.body.slice(0, 200)));
      }
      await ctx.client.clock.sleep(LEAK_GRACE_MS);
      const copies = new Set(deliveries.filter(about).map((x) => String(x.headers['webhook-id'])));
      if (copies.size > 1)
        return scope.fail(
          ctx.failure(
            kind.name,
            `one ${kind.name} event for the ${resource.name}: every attempt and copy under its one webhook-id, which receivers drop duplicates by`,
            kind.pointer,
            made.req,
            `${copies.size} webhook-ids: ${[...copies].join(', ')}`,
          ),
        );
      const others = deliveries.filter((x) => !about(x));
      if (others.length > 0)
        return scope.fail(
          ctx.failure(
            kind.name,
            `only the ${kind.name} of the ${resource.name} made once the endpoint was registered (an endpoint gets only events committed after it registered)`,
            '/events/delivery/webhook',
            made.req,
            `${others.length} more: ${others[0]!.body.slice(0, 160)}`,
          ),
        );
    } finally {
      await receiver.close();
      if (remove)
        for (const id of ids.filter((x) => x !== undefined))
          await ctx
            .send(undefined, { method: 'DELETE', path: ctx.fillVersion(remove.path).replace(/\{[^{}]*\}$/, encodeURIComponent(String(id))), headers })
            .catch(() => undefined);
    }
  });
}
