import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { joinPointer } from '../util/util-json-pointer.js';
import type { ResourceModel } from '../model/model-types.js';
import { createModelAjv, typedDiscriminators } from '../model/model-ajv.js';
import { ServiceError, type InvalidField } from './runtime-errors.js';

export type Validator = (value: unknown) => void;

/** Makes validators; `compileNext` compiles one not yet used (false when none is left). */
export interface ValidatorFactory {
  (schema: Record<string, unknown>, resource?: ResourceModel): Validator;
  compileNext(): boolean;
}

/**
 * One Ajv instance for the service; every schema is compiled once per process. No coercion, no removal of
 * unknown properties, no defaults inserted: a body is accepted as sent or refused. Compiling is what start-up
 * spends most on (a few milliseconds a schema), so a validator compiles on its first use, or when
 * `compileNext` reaches it (the service compiles them one a turn right after it starts), whichever comes first.
 * `ownProperties`: a field named after a member of Object.prototype (`constructor`, `toString`) that a body
 * leaves out is absent, not the prototype's function.
 */
export function createValidatorFactory(): ValidatorFactory {
  let ajv: Ajv2020 | undefined;
  const pending = new Set<() => ValidateFunction>();
  const factory = (schema: Record<string, unknown>, resource?: ResourceModel): Validator => {
    let validate: ValidateFunction | undefined;
    const compile = () => {
      pending.delete(compile);
      validate ??= (ajv ??= createModelAjv({ allErrors: true })).compile(typedDiscriminators(schema) as Record<string, unknown>);
      return validate;
    };
    pending.add(compile);
    return (value) => {
      const v = validate ?? compile();
      if (v(value)) return;
      throw new ServiceError('validation', 'the request body is not valid', toInvalidFields(v.errors ?? [], resource));
    };
  };
  factory.compileNext = () => {
    const next = pending.values().next();
    if (next.done) return false;
    next.value();
    return true;
  };
  return factory;
}

function describe(e: ErrorObject, resource: ResourceModel | undefined): InvalidField {
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'additionalProperties') {
    const name = String(params.additionalProperty);
    const pointer = joinPointer(e.instancePath, name);
    const field = e.instancePath === '' ? resource?.fields.find((f) => f.name === name) : undefined;
    if (field) {
      const why =
        field.type === 'state'
          ? 'is set only by transitions'
          : field.name === resource?.identifier
            ? resource.identifierSource === 'client'
              ? 'is given by the create'
              : 'is assigned by the server'
            : field.name === resource?.owner
              ? 'is set from the credential'
              : field.readOnly
                ? 'is read-only'
                : field.writeOnce
                  ? 'can be set only when the object is created'
                  : field.ofVariants !== undefined
                    ? `is a field of ${field.ofVariants.length > 1 ? 'variants' : 'variant'} ${field.ofVariants.join(', ')} only`
                    : 'cannot be written here';
      return { pointer, message: `${name} ${why}` };
    }
    return { pointer, message: `unknown field ${name}` };
  }
  if (e.keyword === 'required') return { pointer: joinPointer(e.instancePath, String(params.missingProperty)), message: 'is required' };
  if (e.keyword === 'discriminator') {
    const pointer = joinPointer(e.instancePath, String(params.tag));
    return params.error === 'mapping'
      ? { pointer, message: `${JSON.stringify(params.tagValue)} names none of the variants` }
      : { pointer, message: 'is required and must be a string (it says which variant the object is)' };
  }
  if (e.keyword === 'oneOf') return { pointer: e.instancePath, message: 'must match exactly one of the variants' };
  if (e.keyword === 'not') return { pointer: e.instancePath, message: 'must not be null' }; // the only `not` the schemas use (json fields)
  return { pointer: e.instancePath, message: e.message ?? e.keyword };
}

export function toInvalidFields(errors: readonly ErrorObject[], resource?: ResourceModel): InvalidField[] {
  const seen = new Set<string>();
  const out: InvalidField[] = [];
  for (const e of errors) {
    const f = describe(e, resource);
    const key = `${f.pointer}|${f.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(f);
    }
  }
  return out;
}
