// The one way a model's JSON Schemas are compiled: the runtime's validators and check's named examples read a body
// with the same Ajv options, so a value check takes is one the service takes.
import { createRequire } from 'node:module';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type * as Ajv2020Module from 'ajv/dist/2020.js';
import { MULTIPLE_OF_PRECISION } from './model-schemas.js';

const require = createRequire(import.meta.url);

/**
 * Ajv and its formats, loaded on first use (~50 ms of a service's start otherwise). No coercion, no removal, no
 * defaults: a body is taken as sent or refused. `allErrors: false` stops at the first mismatch (a message, not a list).
 */
/** `optimize: false` skips Ajv's code optimisation passes: for validators run a handful of times (examples). */
export function createModelAjv(opts: { allErrors: boolean; optimize?: boolean }): Ajv2020 {
  const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof Ajv2020Module;
  const addFormats = require('ajv-formats') as (ajv: Ajv2020) => Ajv2020;
  // `discriminator`: a tagged union's tag is read first, so a wrong tag is one clear error, not one per variant.
  const ajv = new Ajv({
    allErrors: opts.allErrors,
    strict: false,
    discriminator: true,
    coerceTypes: false,
    removeAdditional: false,
    useDefaults: false,
    ownProperties: true,
    multipleOfPrecision: MULTIPLE_OF_PRECISION,
    ...(opts.optimize === false ? { code: { optimize: false } } : {}),
  });
  addFormats(ajv);
  return ajv;
}

/**
 * A copy where each schema with a `discriminator` also says `type: object`: Ajv applies its `discriminator`
 * keyword to objects only and then skips the `oneOf`, so without it a tagged union accepted any non-object (a
 * number, a string) as valid.
 */
export function typedDiscriminators(node: unknown, parentKey?: string): unknown {
  if (Array.isArray(node)) return node.map((n) => typedDiscriminators(n));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = typedDiscriminators(v, k);
  if (parentKey !== 'properties' && typeof out.discriminator === 'object' && out.discriminator !== null && out.type === undefined) out.type = 'object';
  return out;
}
