import type { FastifyRequest } from 'fastify';
import { getDeclaredParameters, type OperationRoute } from '../../model/model-routes.js';
import { getFieldSchema } from '../../model/model-schemas.js';
import type { FieldModel, ParameterModel, ServiceModel } from '../../model/model-types.js';
import type { FormBody } from '../runtime-body.js';
import { ServiceError, type InvalidField } from '../runtime-errors.js';
import type { Validator } from '../runtime-validation.js';
import { ownValue } from '../../util/util-own.js';

// The query parameters and headers an operation declares (operation.query, operation.headers): read from their
// text, checked against the same schema the export declares, and handed to a custom operation's handler typed (a
// built-in action only checks them).

/** The declared parameters of one request, typed: query (with the undeclared ones as sent) and headers. */
export interface ParameterValues {
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
}

export type ParameterReader = (request: FastifyRequest) => ParameterValues;

const INTEGER_TEXT = /^-?(0|[1-9][0-9]*)$/;
const NUMBER_TEXT = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

/**
 * Reads one value from its text (a query parameter, a header, a list filter); throws an Error whose message says
 * what the value must be. `type` is the field's unless a filter reads another (an array's items).
 */
export function parseText(f: Pick<FieldModel, 'type' | 'values'>, raw: string, type = f.type): unknown {
  switch (type) {
    case 'integer':
    case 'number': {
      // Decimal text as JSON writes a number (Number() would also take 0x10, 1e3 for an integer, " 5" and "+5").
      const n = Number(raw);
      if (!(type === 'integer' ? INTEGER_TEXT : NUMBER_TEXT).test(raw) || !Number.isFinite(n) || (type === 'integer' && !Number.isSafeInteger(n)))
        throw new Error(`must be ${type === 'integer' ? 'an integer' : 'a number'}`);
      return n;
    }
    case 'boolean':
      if (raw === 'true') return true;
      if (raw === 'false') return false;
      throw new Error('must be true or false');
    case 'enum': {
      const value = (f.values ?? []).find((v) => String(v) === raw);
      if (value === undefined) throw new Error(`must be one of ${(f.values ?? []).join(', ')}`);
      return value;
    }
    default:
      return raw;
  }
}

type Compile = (schema: Record<string, unknown>) => Validator;

/** A reader for a route's declared parameters, or undefined when it declares none. Validators compile once. */
export function createParameterReader(model: ServiceModel, route: OperationRoute, compile: Compile): ParameterReader | undefined {
  const params = getDeclaredParameters(route);
  if (params.length === 0) return undefined;
  const checks = new Map(params.map((p) => [p, compile(getFieldSchema(model, { ...p, nullable: false }, undefined, { safeIntegers: true }))] as const));
  return (request) => {
    const invalid: InvalidField[] = [];
    const rawQuery = request.query as Record<string, unknown>;
    const out: ParameterValues = { query: { ...rawQuery }, headers: {} };
    for (const p of params) {
      const sent = p.in === 'query' ? ownValue(rawQuery, p.name) : ownValue(request.headers, p.name.toLowerCase());
      const target = p.in === 'query' ? out.query : out.headers;
      if (sent === undefined) {
        if (p.hasDefault) target[p.name] = structuredClone(p.default);
        else if (!p.optional) invalid.push({ parameter: p.name, in: p.in, message: 'is required' });
        continue;
      }
      try {
        const value = read(p, sent);
        checks.get(p)!(value);
        target[p.name] = value;
      } catch (err) {
        invalid.push({
          parameter: p.name,
          in: p.in,
          message: err instanceof ServiceError ? (err.invalid?.[0]?.message ?? 'is not a valid value') : (err as Error).message,
        });
      }
    }
    if (invalid.length > 0) throw new ServiceError('validation', 'the parameters are not valid', invalid);
    return out;
  };
}

/** A query parameter repeated, or a header's comma-separated list (RFC 9110 §5.6.1), for an array; else one text. */
function read(p: ParameterModel, sent: unknown): unknown {
  const texts = typeof sent === 'string' ? [sent] : Array.isArray(sent) ? sent.map(String) : [String(sent)];
  if (p.type === 'array') {
    const items = p.in === 'header' ? texts.flatMap((t) => t.split(',').map((x) => x.trim())) : texts;
    return p.items ? items.map((t) => parseText(p.items!, t)) : items;
  }
  if (texts.length !== 1) throw new Error('must be given once');
  return parseText(p, texts[0]!);
}

/**
 * A form body (request.media_type `application/x-www-form-urlencoded`) read as the declared fields: each value from its
 * text as a query parameter is (`true`/`false`, decimal numbers, an enum's value), an `array` field from its name
 * repeated, a scalar given twice refused; names the shape does not declare are kept as text, for the shape's
 * validation to judge. Bad values are `validation`, each at its field's pointer.
 */
export function readFormBody(fields: readonly FieldModel[], form: FormBody | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const invalid: InvalidField[] = [];
  const byName = new Map(fields.map((f) => [f.name, f]));
  for (const [name, texts] of Object.entries(form?.values ?? {})) {
    const f = byName.get(name);
    const pointer = `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    try {
      if (f?.type === 'array') out[name] = f.items ? texts.map((t) => parseText(f.items!, t)) : texts;
      else if (texts.length !== 1) throw new Error('must be given once');
      else out[name] = f ? parseText(f, texts[0]!) : texts[0];
    } catch (err) {
      invalid.push({ pointer, message: (err as Error).message });
    }
  }
  if (invalid.length > 0) throw new ServiceError('validation', 'the form is not valid', invalid);
  return out;
}
