// Webhook endpoints: the library functions behind the built-in registration operations (`events.delivery.webhook
// .path`) and `servicespec webhooks add|list|remove|rotate|replay|enable`. An endpoint names a URL, the kinds it
// wants (all when none are named) and a `whsec_` secret, shown only when it is created or rotated. One registered
// through the API also keeps who registered it (`access`): it receives only what that caller may read.

import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WebhooksRoute } from '../../model/model-routes.js';
import type { ServiceModel } from '../../model/model-types.js';
import type { RouteHandler } from '../runtime-context.js';
import { ServiceError } from '../runtime-errors.js';
import type { Validator } from '../runtime-validation.js';
import { getEventAccess } from '../runtime-access.js';
import type { Principal } from '../runtime-context.js';
import {
  getEndpointAccess,
  type DeliveryFilter,
  type DeliveryRecord,
  type EventStorage,
  type WebhookAccess,
  type WebhookEndpointRecord,
  type WebhookSecret,
} from '../storage/storage-types.js';
import { EVENTS_BUILT_IN } from './events-options.js';
import { generateWebhookSecret, isWebhookSecret } from './events-signing.js';
import { checkTarget, type Lookup, type TargetPolicy } from './events-targets.js';

export const MAX_URL_LENGTH = 2048;
export const MAX_DESCRIPTION_LENGTH = 200;

/** An endpoint as it may be shown: never its secrets. */
export interface WebhookEndpointSummary {
  id: string;
  url: string;
  /** null: every kind. */
  kinds: readonly string[] | null;
  description?: string;
  createdAt: string;
  disabledAt?: string;
  disabledReason?: string;
}

export interface AddWebhookInput {
  url: string;
  kinds?: readonly string[];
  description?: string;
  /** A `whsec_` secret to use; one is generated when absent. */
  secret?: string;
}

/** What an endpoint registered by this caller may receive: its subject, scopes, scheme and stored credential now. */
export function getWebhookAccess(principal: Principal | undefined): WebhookAccess {
  if (!principal) return { scopes: [] };
  return {
    subject: principal.subject,
    scopes: [...principal.scopes],
    scheme: principal.scheme,
    ...(principal.credential ? { credential: { ...principal.credential } } : {}),
  };
}

/** The principal an API-registered endpoint receives events as (undefined: registered without a credential). */
export function getAccessPrincipal(access: WebhookAccess): Principal | undefined {
  if (access.subject === undefined) return undefined;
  return { subject: access.subject, scopes: access.scopes, scheme: access.scheme ?? '' };
}

export interface WebhookContext {
  storage: EventStorage;
  model: ServiceModel;
  policy: TargetPolicy;
  lookup?: Lookup;
  now?: () => Date;
  /** The caller: API callers see and manage only the endpoints they registered. */
  subject?: string;
  /** Set for a registration through the API: the endpoint receives only what this caller may read. */
  access?: WebhookAccess;
}

export function summarizeEndpoint(r: WebhookEndpointRecord): WebhookEndpointSummary {
  const out: WebhookEndpointSummary = { id: r.id, url: r.url, kinds: r.kinds === null ? null : [...r.kinds], createdAt: r.createdAt };
  if (r.description !== undefined) out.description = r.description;
  if (r.disabledAt !== undefined) out.disabledAt = r.disabledAt;
  if (r.disabledReason !== undefined) out.disabledReason = r.disabledReason;
  return out;
}

/** The endpoint in the HTTP API's field names. */
function presentEndpoint(s: WebhookEndpointSummary): Record<string, unknown> {
  const out: Record<string, unknown> = { id: s.id, url: s.url, kinds: s.kinds };
  if (s.description !== undefined) out.description = s.description;
  out.created_at = s.createdAt;
  if (s.disabledAt !== undefined) out.disabled_at = s.disabledAt;
  if (s.disabledReason !== undefined) out.disabled_reason = s.disabledReason;
  return out;
}

const invalid = (pointer: string, message: string) => new ServiceError('validation', 'the webhook endpoint is not valid', [{ pointer, message }]);

/** Registers an endpoint after checking its URL's form and target and its kinds. Throws ServiceError('validation'). */
export async function addWebhookEndpoint(c: WebhookContext, input: AddWebhookInput): Promise<{ endpoint: WebhookEndpointSummary; secret: string }> {
  let url: URL;
  if (typeof input.url !== 'string' || input.url.length > MAX_URL_LENGTH) throw invalid('/url', `must be a URL of at most ${MAX_URL_LENGTH} characters`);
  try {
    url = new URL(input.url);
  } catch {
    throw invalid('/url', 'is not an absolute URL');
  }
  const why = await checkTarget(url, c.policy, c.lookup);
  if (why !== undefined) throw invalid('/url', why);
  const declared = new Set((c.model.events?.kinds ?? []).map((k) => k.name));
  let kinds: string[] | null = null;
  if (input.kinds !== undefined) {
    kinds = [...new Set(input.kinds)];
    if (kinds.length === 0) throw invalid('/kinds', 'must name at least one kind (leave it out for every kind)');
    const unknown = kinds.filter((k) => !declared.has(k));
    if (unknown.length > 0)
      throw invalid('/kinds', `${unknown.join(', ')} ${unknown.length === 1 ? 'is not an event kind' : 'are not event kinds'} of this service`);
    if (c.access !== undefined) {
      const events = getEventAccess(c.model);
      const principal = getAccessPrincipal(c.access);
      const never = kinds.flatMap((k) => events.whyNever(principal, k) ?? []);
      if (never.length > 0) throw invalid('/kinds', `this endpoint would receive none of these: ${never.join('; ')}`);
    }
  }
  if (input.description !== undefined && input.description.length > MAX_DESCRIPTION_LENGTH)
    throw invalid('/description', `must be at most ${MAX_DESCRIPTION_LENGTH} characters`);
  if (input.secret !== undefined && !isWebhookSecret(input.secret)) throw invalid('/secret', 'must be whsec_ followed by base64 of 24 to 64 bytes');
  const secret = input.secret ?? generateWebhookSecret();
  const createdAt = (c.now ?? (() => new Date()))().toISOString();
  const record: Omit<WebhookEndpointRecord, 'afterSeq'> = {
    id: `ep_${randomUUID().replace(/-/g, '')}`,
    url: url.href,
    kinds,
    secrets: [{ secret, createdAt }],
    createdAt,
  };
  if (input.description !== undefined) record.description = input.description;
  if (c.subject !== undefined) record.subject = c.subject;
  if (c.access !== undefined) record.access = c.access;
  const stored = await c.storage.insertWebhookEndpoint(record);
  return { endpoint: summarizeEndpoint(stored), secret };
}

/**
 * Whether a caller may see and manage an endpoint: the operator (`subject` undefined) every one; an API caller
 * (`subject` its credential's subject, or null without a credential) only those it registered.
 */
function visible(r: WebhookEndpointRecord | undefined, subject: string | null | undefined): r is WebhookEndpointRecord {
  if (r === undefined) return false;
  if (subject === undefined) return true;
  if (subject === null) return r.subject === undefined && getEndpointAccess(r) !== undefined;
  return r.subject === subject;
}

export async function listWebhookEndpoints(storage: EventStorage, subject?: string | null): Promise<WebhookEndpointSummary[]> {
  return (await storage.listWebhookEndpoints()).filter((r) => visible(r, subject)).map(summarizeEndpoint);
}

/** Removes the endpoint and its queue; false when there is no such endpoint (for this subject). */
export async function removeWebhookEndpoint(storage: EventStorage, id: string, subject?: string | null): Promise<boolean> {
  if (!visible(await storage.getWebhookEndpoint(id), subject)) return false;
  return storage.deleteWebhookEndpoint(id);
}

/**
 * Replaces the endpoint's secret. The previous one keeps signing (a second signature) until `graceMs` passes,
 * so receivers can switch without losing a delivery. Undefined when there is no such endpoint.
 */
export async function rotateWebhookSecret(
  storage: EventStorage,
  id: string,
  options: { secret?: string; graceMs?: number; now?: () => Date; subject?: string | null } = {},
): Promise<{ id: string; secret: string; previousSecretExpiresAt: string } | undefined> {
  const r = await storage.getWebhookEndpoint(id);
  if (!visible(r, options.subject)) return undefined;
  if (options.secret !== undefined && !isWebhookSecret(options.secret)) throw invalid('/secret', 'must be whsec_ followed by base64 of 24 to 64 bytes');
  const now = (options.now ?? (() => new Date()))();
  const expires = new Date(now.getTime() + (options.graceMs ?? EVENTS_BUILT_IN.rotationGraceMs)).toISOString();
  const current = r.secrets.find((s) => s.expiresAt === undefined || Date.parse(s.expiresAt) > now.getTime());
  const secret = options.secret ?? generateWebhookSecret();
  const secrets: WebhookSecret[] = [{ secret, createdAt: now.toISOString() }];
  if (current) secrets.push({ ...current, expiresAt: expires });
  await storage.setWebhookSecrets(id, secrets);
  return { id, secret, previousSecretExpiresAt: expires };
}

/** Enables a disabled endpoint again (e.g. after a 410), or disables one; false when there is no such endpoint. */
export async function setWebhookEndpointEnabled(storage: EventStorage, id: string, enabled: boolean, now: () => Date = () => new Date()): Promise<boolean> {
  return storage.setWebhookDisabled(id, enabled ? undefined : { at: now().toISOString(), reason: 'disabled by the operator' });
}

/** Dead-lettered deliveries matching the filter are queued again from the first attempt; returns how many. */
export async function replayWebhookDeliveries(
  storage: EventStorage,
  filter: { endpointId?: string; eventId?: string } = {},
  now: () => Date = () => new Date(),
): Promise<number> {
  const t = now();
  return storage.replayDeliveries(filter, t.getTime(), t.toISOString());
}

export async function listWebhookDeliveries(storage: EventStorage, filter: DeliveryFilter): Promise<DeliveryRecord[]> {
  return storage.listDeliveries(filter);
}

// ---- the HTTP operations ----------------------------------------------------------------------------------------

export interface WebhookRouteDeps extends Omit<WebhookContext, 'subject'> {
  compile: (schema: Record<string, unknown>) => Validator;
  rotationGraceMs: number;
}

function requireObject(request: FastifyRequest, optional: boolean): Record<string, unknown> {
  const body = request.body;
  if (body === undefined) {
    if (optional) return {};
    throw new ServiceError('malformed_request', 'a JSON body is required');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new ServiceError('validation', 'the body must be a JSON object', [{ pointer: '', message: 'must be an object' }]);
  return body as Record<string, unknown>;
}

function endpointId(request: FastifyRequest): string {
  const id = (request.params as Record<string, string>).id ?? '';
  if (!/^ep_[0-9a-f]{32}$/.test(id)) throw new ServiceError('missing_resource', 'no webhook endpoint with that identifier');
  return id;
}

export function createWebhookHandler(route: WebhooksRoute, deps: WebhookRouteDeps): RouteHandler {
  const kinds = (deps.model.events?.kinds ?? []).map((k) => k.name);
  const secret = { type: 'string', maxLength: 200 };
  switch (route.action) {
    case 'add': {
      const validate = deps.compile({
        type: 'object',
        properties: {
          url: { type: 'string', minLength: 1, maxLength: MAX_URL_LENGTH },
          kinds: { type: 'array', items: kinds.length > 0 ? { type: 'string', enum: kinds } : { type: 'string' }, minItems: 1, uniqueItems: true },
          description: { type: 'string', maxLength: MAX_DESCRIPTION_LENGTH },
          secret,
        },
        required: ['url'],
        additionalProperties: false,
      });
      return async (request: FastifyRequest, reply: FastifyReply) => {
        const body = requireObject(request, false);
        validate(body);
        const subject = request.principal?.subject;
        const access = getWebhookAccess(request.principal);
        const { endpoint, secret: s } = await addWebhookEndpoint(
          { ...deps, ...(subject !== undefined ? { subject } : {}), access },
          body as unknown as AddWebhookInput,
        );
        return reply.code(route.successStatus).send({ ...presentEndpoint(endpoint), secret: s });
      };
    }
    case 'list':
      return async (request, reply) => {
        const list = await listWebhookEndpoints(deps.storage, request.principal?.subject ?? null);
        return reply.code(route.successStatus).send({ items: list.map(presentEndpoint) });
      };
    case 'remove':
      return async (request, reply) => {
        if (!(await removeWebhookEndpoint(deps.storage, endpointId(request), request.principal?.subject ?? null)))
          throw new ServiceError('missing_resource', 'no webhook endpoint with that identifier');
        return reply.code(route.successStatus).send();
      };
    case 'rotate': {
      const validate = deps.compile({ type: 'object', properties: { secret }, additionalProperties: false });
      return async (request, reply) => {
        const id = endpointId(request);
        const body = requireObject(request, true);
        validate(body);
        const out = await rotateWebhookSecret(deps.storage, id, {
          ...(typeof body.secret === 'string' ? { secret: body.secret } : {}),
          graceMs: deps.rotationGraceMs,
          ...(deps.now ? { now: deps.now } : {}),
          subject: request.principal?.subject ?? null,
        });
        if (!out) throw new ServiceError('missing_resource', 'no webhook endpoint with that identifier');
        return reply.code(route.successStatus).send({ id: out.id, secret: out.secret, previous_secret_expires_at: out.previousSecretExpiresAt });
      };
    }
  }
}
