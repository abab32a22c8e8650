// Who may read what: the owner rule, owner-override scopes and requirement scopes, in one place. The read and list
// operations (runtime-actions.ts), the authenticator's scope check and event delivery (the stream and API-registered
// webhooks) all ask here, so an event is shown to exactly the callers who could read its object.

import type { AuthRequirement, EventKindModel, ResourceModel, ServiceModel } from '../model/model-types.js';
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
  return model.resources.filter((r) => names.has(r.name));
}

/** Decides whether a principal may see an event: `(type, data) => boolean`. */
export type EventAccess = (principal: Principal | undefined, type: string, data: unknown) => boolean;

/**
 * Event visibility, worked out once per model. A principal sees an event when, for every resource the kind
 * carries, one of the resource's read or list operations lets it in and the event's object passes the owner
 * rule. A kind that carries no resource, or whose resource has no read or list operation, is seen by nobody
 * (operator-registered webhooks get every event without asking here). An object without its owner field (a
 * payload of declared fields that leaves it out) passes the owner rule only for holders of an override scope.
 */
export function createEventAccess(model: ServiceModel): EventAccess {
  const ops = model.endpoints?.operations ?? [];
  interface Check {
    resource: ResourceModel;
    readers: (AuthRequirement | undefined)[];
    /** Whether the payload carries the owner field (absent from an object: the object has no owner). */
    ownerShown: boolean;
  }
  const plans = new Map<string, Check[] | undefined>();
  for (const kind of model.events?.kinds ?? []) {
    const plan = getEventResources(model, kind).map((resource) => ({
      resource,
      readers: ops.filter((o) => o.resource === resource.name && (o.action === 'read' || o.action === 'list')).map((o) => o.auth),
      ownerShown: kind.payload?.fields === undefined || kind.payload.fields.some((f) => f.name === resource.owner),
    }));
    plans.set(kind.name, plan.length > 0 && plan.every((p) => p.readers.length > 0) ? plan : undefined);
  }
  return (principal, type, data) => {
    const plan = plans.get(type);
    if (!plan) return false;
    const object = (data as { object?: unknown } | null | undefined)?.object;
    for (const { resource, readers, ownerShown } of plan) {
      if (!readers.some((r) => meetsRequirement(r, principal))) return false;
      if (getOwnerScope(resource, principal) === undefined) continue;
      if (!ownerShown || object === null || typeof object !== 'object') return false;
      if (!isOwnObject(resource, object as Record<string, unknown>, principal)) return false;
    }
    return true;
  };
}

/** The stored credential a principal was checked against (API keys and Basic users; tokens carry their own claims). */
export type CredentialRef = NonNullable<Principal['credential']>;

/** Whether the credential still exists and is not revoked; answered at once where the storage can. */
export function isCredentialCurrent(storage: Pick<Storage, 'findCredential' | 'findCredentialNow'>, ref: CredentialRef): boolean | Promise<boolean> {
  const ok = (r: CredentialRecord | undefined) => r !== undefined && r.revokedAt === undefined;
  if (storage.findCredentialNow) return ok(storage.findCredentialNow(ref.kind, ref.lookup));
  return storage.findCredential(ref.kind, ref.lookup).then(ok);
}
