// The OpenAPI Header Objects of a success answer, from getResponseHeaders (the one derivation the runtime and the
// tester read too): the format's Location, Link and total header, then the spec's response_headers.

import { getResponseHeaders } from '../model/model-response-headers.js';
import type { OperationRoute } from '../model/model-routes.js';
import { getFieldSchema } from '../model/model-schemas.js';
import type { ParameterModel, ServiceModel } from '../model/model-types.js';
import type { JsonObject } from './export-shared.js';

export interface SuccessHeaderOptions {
  /** The schema in the target's dialect (OpenAPI 3.0 or 3.1). */
  schema: (s: unknown) => JsonObject;
  /** The shared Link header (a reference to a component). */
  link: () => JsonObject;
}

/** The headers of a route's success answer by name, in getResponseHeaders' order: the format's Location first, the rest after. */
export function getSuccessHeaderObjects(model: ServiceModel, route: OperationRoute, opts: SuccessHeaderOptions): { location: JsonObject; rest: JsonObject } {
  const out: [string, JsonObject][] = [];
  for (const h of getResponseHeaders(model, route)) {
    if (h.source === 'location')
      out.push([
        h.name,
        { description: `Where the created ${route.resource?.name ?? 'object'} is read: ${h.location!}.`, schema: { type: 'string', format: 'uri-reference' } },
      ]);
    else if (h.source === 'link') out.push([h.name, opts.link()]);
    else if (h.source === 'etag') out.push([h.name, getETagHeaderObject(route.resource?.name ?? 'object')]);
    else if (h.source === 'total')
      out.push([
        h.name,
        {
          description: 'The number of objects matching the query (filters and scope applied), on every page.',
          required: true,
          schema: { type: 'integer', minimum: 0 },
        },
      ]);
    else out.push([h.name, getHeaderObject(model, h.header!, h.required, opts.schema)]);
  }
  const first = getResponseHeaders(model, route)[0]?.source === 'location';
  return { location: Object.fromEntries(first ? out.slice(0, 1) : []), rest: Object.fromEntries(first ? out.slice(1) : out) };
}

/** The ETag of an answer of a resource with `etag: true` (docs/format.md, "Conditional requests"). */
export function getETagHeaderObject(resource: string): JsonObject {
  return {
    description: `The ${resource}'s entity tag (strong): send it in If-Match to change the ${resource} only as it is, in If-None-Match to read it only when it changed.`,
    required: true,
    schema: { type: 'string', pattern: '^"[\\x21\\x23-\\x7E]*"$' },
  };
}

/** One declared header as an OpenAPI Header Object (a success answer's, an error answer's). */
export function getHeaderObject(model: ServiceModel, p: ParameterModel, required: boolean, schema: (s: unknown) => JsonObject): JsonObject {
  const s = schema(getFieldSchema(model, { ...p, nullable: false }, undefined, {}));
  if (p.hasDefault) s.default = p.default;
  const o: JsonObject = {};
  if (p.description !== undefined) o.description = p.description;
  if (required) o.required = true;
  if (p.deprecated) o.deprecated = true;
  o.schema = s;
  if (p.hasExample) o.example = p.example;
  return o;
}

/** The declared headers of error answers as Header Objects, replacing any of `base` of the same name (without case). */
export function getErrorHeaderObjects(
  model: ServiceModel,
  base: JsonObject,
  headers: readonly ParameterModel[],
  schema: (s: unknown) => JsonObject,
): JsonObject {
  const names = new Set(headers.map((h) => h.name.toLowerCase()));
  const out: JsonObject = Object.fromEntries(Object.entries(base).filter(([k]) => !names.has(k.toLowerCase())));
  for (const h of headers) out[h.name] = getHeaderObject(model, h, !h.optional, schema);
  return out;
}
