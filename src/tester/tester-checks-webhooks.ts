import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { getRoutes, type WebhooksRoute } from '../model/model-routes.js';
import type { TestRequest } from './tester-http.js';
import { describe, type TestContext } from './tester-context.js';

// --webhook-listen PORT: register an endpoint on this machine through the spec's registration path, make the
// service emit an event, and verify the delivery's Standard Webhooks signature with the endpoint's secret.

const DELIVERY_WAIT_MS = 10_000;

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

export async function checkWebhooks(ctx: TestContext): Promise<void> {
  const port = ctx.options.webhookListen;
  if (port === undefined) {
    ctx.skip('events', 'events.webhook', 'webhooks', 'not asked for: give --webhook-listen PORT to receive and verify signed webhooks');
    return;
  }
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
      const reg: TestRequest = { method: 'POST', path: ctx.fillVersion(add.path), headers, body: { url: `http://127.0.0.1:${port}/servicespec-test`, kinds: [kind.name] } };
      const res = await ctx.send(undefined, reg);
      if (res.status !== add.successStatus || typeof res.body?.secret !== 'string') return scope.fail(ctx.failure('webhook registration', `${add.successStatus} with the endpoint's secret`, ctx.model.events?.webhook ? '/events/delivery/webhook' : undefined, reg, res));
      id = res.body.id;
      const secret = res.body.secret as string;
      const made = await ctx.createObject(resource);
      if (!made || made.res.status >= 300) return scope.skip(`cannot create a ${resource.name}`);
      const objectId = made.res.body[resource.identifier ?? 'id'];
      const mine = () => deliveries.find((d) => d.body.includes(JSON.stringify(objectId)));
      const end = Date.now() + DELIVERY_WAIT_MS;
      while (!mine() && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      const d = mine();
      if (!d) return scope.fail(ctx.failure(kind.name, `a ${kind.name} webhook to the registered endpoint within ${DELIVERY_WAIT_MS / 1000} s`, kind.pointer, made.req, `no delivery (${deliveries.length} others); ${describe(made.res).slice(0, 80)}`));
      const why = verifyStandardWebhook(secret, d.headers, d.body);
      if (why !== undefined) return scope.fail(ctx.failure(kind.name, why, '/events/delivery/webhook/signing', made.req, `webhook-signature: ${String(d.headers['webhook-signature'])}`));
      const type = (JSON.parse(d.body) as { type?: string }).type;
      if (type !== kind.name) scope.fail(ctx.failure(kind.name, `a ${kind.name} webhook`, kind.pointer, made.req, `type ${String(type)}`));
    } finally {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      if (remove && id !== undefined) await ctx.send(undefined, { method: 'DELETE', path: ctx.fillVersion(remove.path).replace(/\{[^{}]*\}$/, encodeURIComponent(String(id))), headers }).catch(() => undefined);
    }
  });
}
