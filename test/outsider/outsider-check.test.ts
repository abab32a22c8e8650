// Outsider findings on the gap report and the OpenAPI import, pinned with `it.fails`.
import { describe, expect, it } from 'vitest';
import { formatGapReport, getGapReport } from '../../src/check/check-gaps.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { compileSpecText } from '../../src/program.js';

const VERSIONED = (placement: string) => `
servicespec: 1
versioning:
  scheme: semver
  current: 2.0.0
  placement: ${placement}
  supported:
    - version: 1.0.0
`;

describe('outsider: gaps', () => {
  it('control: a header placement with no default names the default version as not shown', () => {
    const m = compileSpecText(VERSIONED('{ header: Api-Version }')).model!;
    expect(formatGapReport(getGapReport(m))).toContain('default version selection: not shown');
  });

  // src/check/check-gaps.ts:187 reports `default version selection` whenever `supported` is non-empty, even with a
  // path placement. docs/format.md ("What the format never defaults"): a default version is "the version a request
  // that names none gets, unless the version is in the path" — with `/v{version}` every request names one.
  // Expected: no such gap for a path placement.
  it('a path placement has no default-version gap', () => {
    const m = compileSpecText(VERSIONED('{ path: "/v{version}" }')).model!;
    expect(formatGapReport(getGapReport(m))).not.toContain('default version selection');
  });
});

describe('outsider: import openapi', () => {
  // src/import/import-schema.ts:259-262 copies an array's constraints and only sets `items` when the OpenAPI schema
  // has them; OpenAPI 3.1 (JSON Schema 2020-12) allows an array with no `items` (or a tuple with `prefixItems`), so the
  // result gets `array-needs-items` and the import writes nothing (`import-result-invalid`), against docs/import.md
  // "The result always checks". Expected: the field is approximated (e.g. items of type json) with a diagnostic.
  it('a 3.1 array without items (a prefixItems tuple) imports to a spec that checks', async () => {
    const doc = {
      openapi: '3.1.0',
      info: { title: 'Things', version: '1' },
      paths: {
        '/things/{id}': {
          get: {
            operationId: 'getThing',
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
            responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } },
          },
        },
      },
      components: {
        schemas: {
          Thing: {
            type: 'object',
            required: ['id'],
            properties: {
              id: { type: 'string', format: 'uuid', readOnly: true },
              point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], minItems: 2, maxItems: 2 },
            },
          },
        },
      },
    };
    const r = await importOpenApiDocument(doc, 'things.yaml');
    expect(r.text).toBeDefined();
    // src/cli/cli-import.ts:32 refuses the result (import-result-invalid) when these hold an error.
    expect((r.compiled?.diagnostics ?? []).filter((d) => d.severity === 'error').map((d) => d.code)).toEqual([]);
  });
});

const FILTERS = `
servicespec: 1
resources:
  Box:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string, optional: true }
      data: { type: json, optional: true }
      tags: { type: array, items: { type: string }, optional: true }
      dims: { type: object, optional: true, fields: { w: { type: integer } } }
endpoints:
  operations:
    listBoxes: { method: GET, path: /boxes, action: list, resource: Box, filter: [FILTER], auth: none }
`;

describe('outsider: check', () => {
  const errorsOf = (text: string) =>
    compileSpecText(text)
      .diagnostics.filter((d) => d.severity === 'error')
      .map((d) => d.code);

  it('control: a filter on a string field checks', () => {
    expect(errorsOf(FILTERS.replace('FILTER', 'name'))).toEqual([]);
  });

  // src/check/check-rules.ts has no rule on the type of a `filter` field: a filter on an array, object or json field
  // checks clean, is served, and never matches (served: ?tags=x, ?dims={"w":1} and ?data=3 answer an empty page
  // although objects with tags ["x"], dims {"w":1} and data 3 exist; the value is compared with the stored text).
  // Expected: `check` refuses it with an error naming the field.
  it('a filter on an array, object or json field is an error', () => {
    for (const f of ['tags', 'dims', 'data']) expect(errorsOf(FILTERS.replace('FILTER', f)), f).not.toEqual([]);
  });

  // No rule compares `versioning.placement.header` with the headers the runtime reads itself (the `param-reserved`
  // list of docs/format.md, Parameters): `placement: { header: Authorization }` beside a bearer scheme checks clean,
  // and a request cannot carry both its token and its version. Expected: an error (as `param-reserved` for a custom
  // operation's header of that name).
  it('a version header named Authorization beside a bearer scheme is an error', () => {
    const spec = `
servicespec: 1
authentication:
  schemes:
    b: { type: bearer, token: jwt, algorithms: [RS256], issuer: "https://id.example", audience: x, lifetime: 1h }
versioning:
  scheme: integer
  current: 2
  placement: { header: Authorization }
  default: current
`;
    expect(errorsOf(spec)).not.toEqual([]);
  });
});

describe('outsider: check, names that collide on the wire', () => {
  const BASE = `
servicespec: 1
resources:
  Item:
    fields:
      id: { type: uuid, readOnly: true }
      limit: { type: integer }
      name: { type: string }
endpoints:
  IDEMPOTENCY
  operations:
    listItems: { method: GET, path: /items, action: list, resource: Item, filter: [FILTER] }
authentication:
  schemes:
    k: { type: api_key, in: KEY_IN, name: KEY_NAME }
  default: { scopes: [] }
versioning:
  scheme: integer
  current: 1
  placement: { query: version }
  default: current
`;
  const spec = (o: { filter?: string; keyIn?: string; keyName?: string; idempotency?: string }) =>
    BASE.replace('FILTER', o.filter ?? 'name')
      .replace('KEY_IN', o.keyIn ?? 'header')
      .replace('KEY_NAME', o.keyName ?? 'X-Key')
      .replace('IDEMPOTENCY', o.idempotency ?? '');
  const errorsOf = (text: string) =>
    compileSpecText(text)
      .diagnostics.filter((d) => d.severity === 'error')
      .map((d) => d.code);

  it('control: distinct names check', () => {
    expect(errorsOf(spec({}))).toEqual([]);
  });

  // No rule in src/check/check-rules.ts compares the names a list route reads (LIST_PARAMS: limit, cursor, sort;
  // src/model/model-routes.ts), the version's query parameter, an api_key scheme's query parameter or header and the
  // idempotency header with one another. Each pair below checks clean, yet one request parameter would mean two
  // things. Expected: an error for each (as `param-reserved` does for a custom operation's parameters).
  it('a filter named like a list parameter (limit) is an error', () => {
    expect(errorsOf(spec({ filter: 'limit' }))).not.toEqual([]);
  });
  it('an api_key query parameter named like the version query parameter is an error', () => {
    expect(errorsOf(spec({ keyIn: 'query', keyName: 'version' }))).not.toEqual([]);
  });
  it('an idempotency header named like the api_key header is an error', () => {
    expect(errorsOf(spec({ idempotency: 'idempotency: { header: X-Key }' }))).not.toEqual([]);
  });
});
