// Who may read what: the owner rule, owner-override scopes and requirement scopes, in one place. The read and list
// operations (runtime-actions.ts), the authenticator's scope check and event delivery (the stream and API-registered
// webhooks) all ask here, so an event is shown to exactly the callers who could read its object.

import type { AuthRequirement, EventKindModel, ResourceModel, ServiceModel } from '../model/model-types.js';
import { getResource } from '../model/model-lookup.js';
import type { Principal } from './runtime-context.js';
import type { CredentialRecord, Storage } from './storage/storage-types.js';

/** Whether `held` includes every scope of `needed`. */
export function holdsScopes(held: readonly string[], needed: readonly string[]): boolean {
  for (const s of needed) if (!held.includes(s)) return false;
  return true;
}

/**
 * The subject whose objects a principal may touch: undefined when the resource has no owner or the principal
 * holds one of its override scopes; null for a caller with no credential (whose objects have no owner).
 */
export function getOwnerScope(resource: ResourceModel, principal: Principal | undefined): string | null | undefined {
  if (resource.owner === undefined) return undefined;
  if (!principal) return null;
  return resource.ownerOverrideScopes.some((s) => principal.scopes.includes(s)) ? undefined : principal.subject;
}

/** The owner rule: whether the principal may see this object (its owner field as stored or presented). */
export function isOwnObject(resource: ResourceModel, object: Readonly<Record<string, unknown>>, principal: Principal | undefined): boolean {
  const owner = getOwnerScope(resource, principal);
  if (resource.owner === undefined || owner === undefined) return true;
  const value = object[resource.owner];
  return (value === undefined ? null : value) === owner;
}

/** Whether a requirement lets this principal in: one of its schemes, every one of its scopes. */
export function meetsRequirement(requirement: AuthRequirement | undefined, principal: Principal | undefined): boolean {
  if (requirement === undefined || requirement.kind === 'none') return true;
  if (!principal) return false;
  return requirement.schemes.includes(principal.scheme) && holdsScopes(principal.scopes, requirement.scopes);
}

/** The resources an event kind carries objects of: its payload's resource and the resources whose changes emit it. */
export function getEventResources(model: ServiceModel, kind: EventKindModel): ResourceModel[] {
  const names = new Set<string>();
  if (kind.payload?.resource !== undefined) names.add(kind.payload.resource);
  for (const t of kind.triggers) names.add(t.resource);
  // By name through the model's index (a scan of every resource per kind is quadratic in a large spec), in the model's order.
  const found = [...names].map((n) => getResource(model, n)).filter((r): r is ResourceModel => r !== undefined);
  return found.length < 2 ? found : found.sort((a, b) => model.resources.indexOf(a) - model.resources.indexOf(b));
}

/** Event visibility for one model (see `getEventAccess`). */
export interface EventAccess {
  /** Whether the principal may see this event. */
  sees(principal: Principal | undefined, type: string, data: unknown): boolean;
  /** Why the principal can see no event of this kind at all; undefined when it may see some. */
  whyNever(principal: Principal | undefined, type: string): string | undefined;
}

interface KindCheck {
  resource: ResourceModel;
  readers: (AuthRequirement | undefined)[];
  /** Whether the payload carries the owner field (absent from an object: the object has no owner). */
  ownerShown: boolean;
}

const accessByModel = new WeakMap<ServiceModel, EventAccess>();

/**
 * Event visibility, worked out once per model. A principal sees an event when, for every resource the kind
 * carries, one of the resource's read or list operations lets it in and the event's object passes the owner
 * rule. A kind that carries no resource, or whose resource has no read or list operation, is seen by nobody
 * (operator-registered webhooks get every event without asking here). An object without its owner field (a
 * payload of declared fields that leaves it out) passes the owner rule only for holders of an override scope.
 */
export function getEventAccess(model: ServiceModel): EventAccess {
  const known = accessByModel.get(model);
  if (known) return known;
  // Indexed once: a spec of a thousand resources and kinds would otherwise scan every operation per kind.
  const readersOf = new Map<string, (AuthRequirement | undefined)[]>();
  for (const o of model.endpoints?.operations ?? []) {
    if (o.resource === undefined || (o.action !== 'read' && o.action !== 'list')) continue;
    const list = readersOf.get(o.resource) ?? [];
    list.push(o.auth);
    readersOf.set(o.resource, list);
  }
  const plans = new Map<string, KindCheck[]>();
  for (const kind of model.events?.kinds ?? []) {
    plans.set(
      kind.name,
      getEventResources(model, kind).map((resource) => ({
        resource,
        readers: readersOf.get(resource.name) ?? [],
        ownerShown: kind.payload?.fields === undefined || kind.payload.fields.some((f) => f.name === resource.owner),
      })),
    );
  }
  const whyNever = (principal: Principal | undefined, type: string): string | undefined => {
    const plan = plans.get(type);
    if (!plan || plan.length === 0) return `${type} carries no object of a resource`;
    for (const { resource, readers } of plan) {
      if (readers.length === 0) return `no operation reads ${resource.name}, so no caller sees ${type}`;
      if (readers.some((r) => meetsRequirement(r, principal))) continue;
      const needs = readers.map((r) =>
        r?.kind === 'required' ? `${r.schemes.join(' or ')}${r.scopes.length > 0 ? ` with ${r.scopes.join(', ')}` : ''}` : 'no credential',
      );
      return `reading ${resource.name} needs ${[...new Set(needs)].join('; or ')}`;
    }
    return undefined;
  };
  const access: EventAccess = {
    whyNever,
    sees(principal, type, data) {
      if (whyNever(principal, type) !== undefined) return false;
      const object = (data as { object?: unknown } | null | undefined)?.object;
      for (const { resource, ownerShown } of plans.get(type)!) {
        if (getOwnerScope(resource, principal) === undefined) continue;
        if (!ownerShown || object === null || typeof object !== 'object') return false;
        if (!isOwnObject(resource, object as Record<string, unknown>, principal)) return false;
      }
      return true;
    },
  };
  accessByModel.set(model, access);
  return access;
}

/** The stored credential a principal was checked against (API keys and Basic users; tokens carry their own claims). */
export type CredentialRef = NonNullable<Principal['credential']>;

/** Whether the credential still exists and is not revoked; answered at once where the storage can. */
export function isCredentialCurrent(storage: Pick<Storage, 'findCredential' | 'findCredentialNow'>, ref: CredentialRef): boolean | Promise<boolean> {
  const ok = (r: CredentialRecord | undefined) => r !== undefined && r.revokedAt === undefined;
  if (storage.findCredentialNow) return ok(storage.findCredentialNow(ref.kind, ref.lookup));
  return storage.findCredential(ref.kind, ref.lookup).then(ok);
}
