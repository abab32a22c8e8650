import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { isRawEvent } from '../model/model-defaults.js';
import { isSuccessAnswer, getRoutes, type WebhooksRoute } from '../model/model-routes.js';
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

/** Whether one of the `v1,` signatures is the HMAC of `id.timestamp.body` under the secret. */
export function verifyStandardWebhook(secret: string, headers: IncomingHttpHeaders, body: string): string | undefined {
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
  return ok ? undefined : 'a v1 signature that verifies with the endpoint secret';
}

/** A receiver on 127.0.0.1:port keeping every delivery, by the path it was sent to. */
export async function listen(port: number): Promise<{ deliveries: (Delivery & { path: string })[]; close(): Promise<void> }> {
  const deliveries: (Delivery & { path: string })[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      deliveries.push({ path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
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
          body: { url: `http://127.0.0.1:${port}/servicespec-test-${who}`, kinds: names },
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
    const deliveries: Delivery[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        deliveries.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    let id: unknown;
    try {
      const reg: TestRequest = {
        method: 'POST',
        path: ctx.fillVersion(add.path),
        headers,
        body: { url: `http://127.0.0.1:${port}/servicespec-test`, kinds: [kind.name] },
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
      id = res.body.id;
      const secret = res.body.secret as string;
      const made = await ctx.createObject(resource);
      if (!made || made.res.status >= 300) return scope.skip(`cannot create a ${resource.name}`);
      const objectId = made.res.body[resource.identifier ?? 'id'];
      const mine = () => deliveries.find((d) => d.body.includes(JSON.stringify(objectId)));
      const end = ctx.client.clock.now() + DELIVERY_WAIT_MS;
      while (!mine() && ctx.client.clock.now() < end) await ctx.client.clock.sleep(50);
      const d = mine();
      if (!d)
        return scope.fail(
          ctx.failure(
            kind.name,
            `a ${kind.name} webhook to the registered endpoint within ${DELIVERY_WAIT_MS / 1000} s`,
            kind.pointer,
            made.req,
            `no delivery (${deliveries.length} others); ${describe(made.res).slice(0, 80)}`,
          ),
        );
      const why = verifyStandardWebhook(secret, d.headers, d.body);
      if (why !== undefined)
        return scope.fail(
          ctx.failure(kind.name, why, '/events/delivery/webhook/signing', made.req, `webhook-signature: ${String(d.headers['webhook-signature'])}`),
        );
      const body = JSON.parse(d.body) as Record<string, unknown> & { type?: string; data?: { object?: Record<string, unknown> } };
      // A raw kind's body is the payload itself (the object); an enveloped one names its kind and carries it in data.object.
      const payload = isRawEvent(kind) ? body : body.data?.object;
      if (!isRawEvent(kind) && body.type !== kind.name)
        scope.fail(ctx.failure(kind.name, `a ${kind.name} webhook`, kind.pointer, made.req, `type ${String(body.type)}`));
      else if (kind.payload?.resource === resource.name && payload?.[resource.identifier ?? 'id'] !== objectId)
        scope.fail(
          ctx.failure(
            kind.name,
            isRawEvent(kind) ? `the ${resource.name} itself as the body (body: raw)` : `the ${resource.name} as data.object`,
            kind.pointer,
            made.req,
            d.body.slice(0, 200),
          ),
        );
    } finally {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      if (remove && id !== undefined)
        await ctx
          .send(undefined, { method: 'DELETE', path: ctx.fillVersion(remove.path).replace(/\{[^{}]*\}$/, encodeURIComponent(String(id))), headers })
          .catch(() => undefined);
    }
  });
}
