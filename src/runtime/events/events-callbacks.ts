// Callbacks (endpoints.operations.<id>.callbacks): a create whose request gives a URL in the callback's field
// subscribes that URL to the named kinds' events about the object it created. The subscription is a webhook
// endpoint like any other — same outbox, fan-out, queue, delivery worker, Standard Webhooks signing, retries and
// SSRF guard — whose `access` also names the object (`WebhookAccess.object`): fan-out and each attempt pass over
// events about other objects. It is signed with the service's callback secret (`webhooks.callbackSecret`), so a
// receiver verifies every callback with one key it was given out of band, as OpenAPI callbacks leave it.

import type { FastifyRequest } from 'fastify';
import type { OperationRoute } from '../../model/model-routes.js';
import type { CallbackModel, ResourceModel, ServiceModel } from '../../model/model-types.js';
import { getEventAccess } from '../runtime-access.js';
import { ServiceError } from '../runtime-errors.js';
import type { EventStorage, WebhookAccess } from '../storage/storage-types.js';
import { checkTarget, type Lookup, type TargetPolicy } from './events-targets.js';
import { addWebhookEndpoint, getAccessPrincipal, getWebhookAccess, MAX_URL_LENGTH } from './events-webhooks.js';

export interface CallbackHooks {
  /** Before the create: refuses (validation, at the URL's field) a callback URL the service would never send to. */
  check(request: FastifyRequest, body: Readonly<Record<string, unknown>>): Promise<void>;
  /** After the create has committed: subscribes each URL the request gave to the events about `created`. */
  subscribe(request: FastifyRequest, body: Readonly<Record<string, unknown>>, created: Readonly<Record<string, unknown>>): Promise<void>;
}

export interface CallbackDeps {
  storage: EventStorage;
  model: ServiceModel;
  policy: TargetPolicy;
  lookup?: Lookup;
  now: () => Date;
  /** The `whsec_` secret every callback delivery is signed with. */
  secret: string;
  log: { warn(o: object, msg: string): void };
}

/** The callbacks a request asks for: those whose URL field it carries. */
function asked(callbacks: readonly CallbackModel[], body: Readonly<Record<string, unknown>>): { c: CallbackModel; url: string }[] {
  return callbacks.flatMap((c) => (typeof body[c.url] === 'string' ? [{ c, url: body[c.url] as string }] : []));
}

/** The hooks of a create with callbacks; undefined for every other operation (no per-request work). */
export function createCallbackHooks(route: OperationRoute, d: CallbackDeps): CallbackHooks | undefined {
  const callbacks = route.operation.callbacks;
  const resource: ResourceModel | undefined = route.resource;
  if (!callbacks || callbacks.length === 0 || route.operation.action !== 'create' || resource?.identifier === undefined) return undefined;
  const idField = resource.identifier;
  const events = getEventAccess(d.model);
  const refuse = (field: string, message: string) =>
    new ServiceError('validation', 'the callback URL is not one the service sends to', [{ pointer: `/${field}`, message }]);
  return {
    async check(request, body) {
      for (const { c, url } of asked(callbacks, body)) {
        let parsed: URL;
        try {
          parsed = new URL(url);
        } catch {
          continue; // not a URL: the request's own validation says so
        }
        if (url.length > MAX_URL_LENGTH) throw refuse(c.url, `must be at most ${MAX_URL_LENGTH} characters`);
        const why = await checkTarget(parsed, d.policy, d.lookup);
        if (why !== undefined) throw refuse(c.url, why);
        const principal = getAccessPrincipal(getWebhookAccess(request.principal));
        const never = c.events.flatMap((k) => events.whyNever(principal, k) ?? []);
        if (never.length > 0) throw refuse(c.url, `it would receive none of the callback's events: ${never.join('; ')}`);
      }
    },
    async subscribe(request, body, created) {
      const id = created[idField];
      for (const { c, url } of asked(callbacks, body)) {
        const access: WebhookAccess = { ...getWebhookAccess(request.principal), object: { resource: resource.name, id } };
        const subject = request.principal?.subject;
        try {
          await addWebhookEndpoint(
            {
              storage: d.storage,
              model: d.model,
              policy: d.policy,
              ...(d.lookup ? { lookup: d.lookup } : {}),
              now: d.now,
              ...(subject !== undefined ? { subject } : {}),
              access,
            },
            { url, kinds: c.events, description: `callback ${c.name} of ${route.operation.id} for ${resource.name} ${String(id)}`, secret: d.secret },
          );
        } catch (err) {
          // Checked before the create; only a name that resolves elsewhere since then gets here. The object stays.
          d.log.warn({ err, operation: route.operation.id, callback: c.name }, 'the callback was not subscribed');
        }
      }
    },
  };
}

/** Whether an event is about the object a callback subscription names (its payload's identifier field). */
export function createObjectMatch(model: ServiceModel): (object: NonNullable<WebhookAccess['object']>, data: unknown) => boolean {
  const ids = new Map(model.resources.flatMap((r) => (r.identifier !== undefined ? [[r.name, r.identifier] as const] : [])));
  return (object, data) => {
    const field = ids.get(object.resource);
    const o = (data as { object?: Record<string, unknown> } | null | undefined)?.object;
    return field !== undefined && o !== null && typeof o === 'object' && o[field] === object.id;
  };
}
