// The defaults the format itself defines (docs/format.md lists them): the one place each is written.

import type { Action } from '../spec/spec-types.js';
import type { SchemeModel, ServiceModel } from './model-types.js';

/** The success status the format defines for each action when an operation does not declare one. */
export const DEFAULT_SUCCESS_STATUS: Readonly<Record<Action, number>> = {
  create: 201,
  read: 200,
  update: 200,
  replace: 200,
  delete: 204,
  list: 200,
  transition: 200,
  custom: 200,
};

/** The format's rule for the identifier when a resource names none: a field called `id` (of an identifier type, required, not nullable). */
export const DEFAULT_IDENTIFIER_FIELD = 'id';

/** The field types an identifier may have. */
export const IDENTIFIER_TYPES: readonly string[] = ['uuid', 'integer', 'string'];

/** Whether a field is the one the format takes as the identifier when a resource names none. */
export function isDefaultIdentifier(f: { name?: string; type?: string; optional?: boolean; nullable?: boolean }, name = f.name): boolean {
  return name === DEFAULT_IDENTIFIER_FIELD && IDENTIFIER_TYPES.includes(f.type ?? '') && f.optional !== true && f.nullable !== true;
}

/** What every reader (renderers, exporters, the gap report) writes where the spec leaves a value out: never a guess. */
export const NOT_SHOWN = 'not shown' as const;

/** The request header that carries an idempotency key when `endpoints.idempotency.header` names none. */
export const DEFAULT_IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** The header that carries an idempotency key: the one the spec names, else the format's default. */
export function getIdempotencyHeader(model: ServiceModel): string {
  return model.endpoints?.idempotency?.header ?? DEFAULT_IDEMPOTENCY_HEADER;
}

/** Where an api_key scheme's key is sent when the spec does not say (`in`). */
export const DEFAULT_API_KEY_IN = 'header';

/** Where an api_key scheme's key is sent: the spec's `in`, else the format's default. */
export function getApiKeyPlacement(scheme: Pick<SchemeModel, 'in'>): 'header' | 'query' {
  return scheme.in ?? DEFAULT_API_KEY_IN;
}

/** Each webhook retry delay is spread at random within ± this fraction, so receivers are not hit in lockstep. */
export const DEFAULT_RETRY_JITTER = 0.2;
