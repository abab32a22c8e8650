import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { joinPointer } from '../spec/spec-loader.js';
import type { ResourceModel } from '../model/model-types.js';
import { ServiceError, type InvalidField } from './runtime-errors.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export type Validator = (value: unknown) => void;

/**
 * One Ajv instance for the service; every schema is compiled once at startup. No coercion, no
 * removal of unknown properties, no defaults inserted: a body is accepted as sent or refused.
 */
export function createValidatorFactory(): (schema: Record<string, unknown>, resource?: ResourceModel) => Validator {
  const ajv = new Ajv2020({ allErrors: true, strict: false, coerceTypes: false, removeAdditional: false, useDefaults: false });
  addFormats(ajv);
  return (schema, resource) => {
    const validate: ValidateFunction = ajv.compile(schema);
    return (value) => {
      if (validate(value)) return;
      throw new ServiceError('validation', 'the request body is not valid', toInvalidFields(validate.errors ?? [], resource));
    };
  };
}

function describe(e: ErrorObject, resource: ResourceModel | undefined): InvalidField {
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'additionalProperties') {
    const name = String(params.additionalProperty);
    const pointer = joinPointer(e.instancePath, name);
    const field = e.instancePath === '' ? resource?.fields.find((f) => f.name === name) : undefined;
    if (field) {
      const why = field.type === 'state' ? 'is set only by transitions' : field.name === resource?.identifier ? 'is assigned by the server' : field.name === resource?.owner ? 'is set from the credential' : field.readOnly ? 'is read-only' : field.writeOnce ? 'can be set only when the object is created' : 'cannot be written here';
      return { pointer, message: `${name} ${why}` };
    }
    return { pointer, message: `unknown field ${name}` };
  }
  if (e.keyword === 'required') return { pointer: joinPointer(e.instancePath, String(params.missingProperty)), message: 'is required' };
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
