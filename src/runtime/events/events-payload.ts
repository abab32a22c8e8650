// Event payloads are checked against their declared shape before they enter the outbox. A payload that does not
// match fails the change that caused it (its transaction rolls back), so the outbox never holds an event that
// breaks the spec's contract, and a change never commits without its event.

import { isRawEvent } from '../../model/model-defaults.js';
import { getShapeSchema } from '../../model/model-schemas.js';
import type { EventKindModel, ServiceModel } from '../../model/model-types.js';
import { ServiceError } from '../runtime-errors.js';
import type { OutboxEntry } from '../storage/storage-types.js';
import { createValidatorFactory, type Validator, type ValidatorFactory } from '../runtime-validation.js';

/** A payload that does not match its kind's declared shape (a defect of the spec or a handler, answered as internal). */
export class EventPayloadError extends Error {
  constructor(
    readonly kind: string,
    readonly problems: readonly string[],
  ) {
    super(`the payload of event ${kind} does not match its declared shape: ${problems.join('; ')}`);
    this.name = 'EventPayloadError';
  }
}

/** One validator per kind with a declared payload, compiled once. */
export function createPayloadCheck(
  model: ServiceModel,
  compile: ValidatorFactory = createValidatorFactory(),
): (kind: EventKindModel, payload: unknown) => void {
  const validators = new Map<string, Validator>();
  for (const k of model.events?.kinds ?? []) {
    if (!k.payload) continue;
    validators.set(k.name, compile(getShapeSchema(model, { ...k.payload, list: false }, 'response', { serviceSetAbsent: true })));
  }
  return (kind, payload) => {
    const validate = validators.get(kind.name);
    if (!validate) return;
    try {
      validate(payload);
    } catch (err) {
      if (err instanceof ServiceError)
        throw new EventPayloadError(
          kind.name,
          (err.invalid ?? []).map((i) => `${i.pointer || '/'} ${i.message}`),
        );
      throw err;
    }
  };
}

/** The body every endpoint (and the stream's `data`) carries for an event: the outbox envelope, as JSON. */
export function envelopeJson(e: OutboxEntry): string {
  return JSON.stringify({ id: e.id, type: e.type, timestamp: e.timestamp, ...(e.version !== undefined ? { version: e.version } : {}), data: e.data });
}

/**
 * An event's delivered body by its kind (`events.kinds.<kind>.body`): the envelope, or for a `raw` kind the payload
 * itself (the outbox keeps `{ object, previous? }` for both, so access checks read one shape; a raw delivery carries
 * `object` alone, its id and time travel in the Standard Webhooks headers and the stream's `id:`). A spec with no raw
 * kind gets `envelopeJson` itself: no per-event lookup.
 */
export function createEventBody(model: ServiceModel): (e: OutboxEntry) => string {
  const raw = new Set((model.events?.kinds ?? []).filter(isRawEvent).map((k) => k.name));
  if (raw.size === 0) return envelopeJson;
  return (e) => (raw.has(e.type) ? JSON.stringify((e.data as { object?: unknown } | null)?.object ?? null) : envelopeJson(e));
}
