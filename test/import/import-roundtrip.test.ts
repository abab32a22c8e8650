import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getGapReport } from '../../src/check/check-gaps.js';
import { exportOpenApi, type OpenApiVersion } from '../../src/export/export-openapi.js';
import { serializeDocument } from '../../src/export/export-shared.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import type { ServiceModel } from '../../src/model/model-types.js';
import { compileSpecText } from '../../src/program.js';
import { newShapesSpec, specDocument } from '../check/spec-arbitrary.js';
import { EXAMPLE_NAMES, exampleModel, jsonDiff } from '../export/helpers.js';

// export → import → export gives the same OpenAPI document: for the examples, and as a property over generated
// specs (any structurally valid spec, semantic errors included), in OpenAPI 3.1 and 3.0.

const VERSIONS: readonly OpenApiVersion[] = ['3.1', '3.0'];

async function roundTrip(model: ServiceModel, version: OpenApiVersion) {
  const first = exportOpenApi(model, { openapi: version }).document;
  // through text, as a file would carry it
  const imported = await importOpenApiDocument(JSON.parse(serializeDocument(first, 'json')) as unknown, 'first.openapi.json');
  const model2 = imported.compiled?.model;
  if (!model2) throw new Error(`the import gave no model: ${JSON.stringify(imported.diagnostics.slice(0, 3))}`);
  const second = exportOpenApi(model2, { openapi: version }).document;
  return { first, second, imported, model2 };
}

/** The model without what depends on where it was read from (pointers, file) or how a default was reached. */
function comparable(m: ServiceModel): unknown {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.entries(v)
          .filter(([k]) => k !== 'pointer' && k !== 'file' && k !== 'statusDeclared')
          .map(([k, x]) => [k, strip(x)]),
      );
    return v;
  };
  const out = strip(m) as { endpoints?: { operations: { id: string }[] } };
  if (out.endpoints) out.endpoints.operations = [...out.endpoints.operations].sort((a, b) => a.id.localeCompare(b.id));
  return out;
}

describe('round trip: export → import → export', () => {
  for (const name of EXAMPLE_NAMES) {
    for (const version of VERSIONS) {
      it(`${name}, OpenAPI ${version}: the same document, the same model, the same gap report`, async () => {
        const model = exampleModel(name);
        const { first, second, imported, model2 } = await roundTrip(model, version);
        expect(jsonDiff(first, second)).toEqual([]);
        expect(jsonDiff(comparable(model), comparable(model2))).toEqual([]);
        expect(imported.gaps).toEqual(getGapReport(model));
        expect(imported.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
        expect(imported.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      });
    }
  }

  const withParams = `servicespec: 1
resources:
  io.example.v1.Thing:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string }
endpoints:
  operations:
    find things by label:
      method: GET
      path: /things/search
      action: custom
      handler: findThingsByLabel
      query:
        labelSelector: { type: string, optional: true, description: Only things whose labels match. }
        limit: { type: integer, minimum: 1, maximum: 50, optional: true, default: 10 }
        tag: { type: array, items: { type: enum, values: [a, b] } }
      headers:
        X-Request-Id: { type: uuid, optional: true }
      response_headers:
        X-Total: { type: integer, minimum: 0, description: Every match. }
        X-Tags: { type: array, items: { type: enum, values: [a, b] }, optional: true, deprecated: true }
        Location: { type: uri, optional: true, example: 'https://example.com/things/search?page=2' }
      response: { resource: io.example.v1.Thing, list: true }
    post-createThing:
      method: POST
      path: /things
      action: create
      resource: io.example.v1.Thing
      response_headers:
        Cache-Control: { type: string, default: no-store }
        X-Seldom: { type: boolean, optional: true }
    readThing:
      method: GET
      path: /things/{id}
      action: read
      resource: io.example.v1.Thing
`;
  for (const version of VERSIONS) {
    it(`query and header parameters, response headers, operation ids and dotted resource names, OpenAPI ${version}: the same document and model`, async () => {
      const compiled = compileSpecText(withParams, 'params.yaml');
      expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      const { first, second, imported, model2 } = await roundTrip(compiled.model!, version);
      expect(jsonDiff(first, second)).toEqual([]);
      expect(jsonDiff(comparable(compiled.model!), comparable(model2))).toEqual([]);
      expect(imported.diagnostics.filter((d) => d.code === 'import-renamed' || d.code === 'import-dropped')).toEqual([]);
    });
  }

  it("operations of one path keep the document's method order (PATCH before GET), so shared responses keep their names", async () => {
    // fast-check seed 596774061: imported GET-first, the export then named the two 429 responses the other way round
    const doc = {
      servicespec: 1,
      endpoints: {
        operations: {
          createOrder: { method: 'PATCH', path: '/events', action: 'create' },
          deleteOrder: { method: 'GET', path: '/events', action: 'create', auth: {} },
        },
      },
      errors: { codes: { invalid: { status: 429, when: ['validation'] } } },
    };
    const compiled = compileSpecText(JSON.stringify(doc), 'generated.json');
    for (const version of VERSIONS) {
      const { first, second, model2 } = await roundTrip(compiled.model!, version);
      expect(jsonDiff(first, second)).toEqual([]);
      expect(model2.endpoints!.operations.map((o) => o.id)).toEqual(['createOrder', 'deleteOrder']);
    }
  });

  it("operations on one path listed apart in the spec are named in the document's order, so shared responses keep their names", async () => {
    // fast-check seed -1453377898: GET / and PATCH / with GET /orders between them; the import reads them path by path
    const doc = {
      servicespec: 1,
      endpoints: {
        operations: {
          createOrder: { method: 'GET', path: '/', action: 'create' },
          ping: { method: 'GET', path: '/orders', action: 'create', errors: ['conflict'] },
          updateOrder: { method: 'PATCH', path: '/', action: 'create', auth: 'none', errors: ['conflict'] },
        },
      },
      authentication: { default: {} },
      errors: { codes: { conflict: { status: 429 } } },
    };
    const compiled = compileSpecText(JSON.stringify(doc), 'generated.json');
    for (const version of VERSIONS) {
      const { first, second } = await roundTrip(compiled.model!, version);
      expect(jsonDiff(first, second)).toEqual([]);
    }
  });

  it('a ref to a resource whose identifier is nullable (an error check reports) exports the identifier without null, so its import exports the same', async () => {
    const doc = {
      servicespec: 1,
      resources: {
        Order: { fields: { id: { type: 'union', variants: { card: { fields: { number: { type: 'ref', to: 'Item' } } } } } } },
        Item: { identifier: 'id', fields: { id: { type: 'string', nullable: true } } },
      },
    };
    const compiled = compileSpecText(JSON.stringify(doc), 'generated.json');
    for (const version of VERSIONS) {
      const { first, second } = await roundTrip(compiled.model!, version);
      expect(jsonDiff(first, second)).toEqual([]);
    }
  });

  it('a union without variants (union-needs-variants) exports as json does, so its import (json) exports the same (fast-check seed 900134454)', async () => {
    const doc = {
      servicespec: 1,
      resources: { Order: { fields: { id: { type: 'array', items: { type: 'union' } }, note: { type: 'union', nullable: true } } } },
    };
    const compiled = compileSpecText(JSON.stringify(doc), 'generated.json');
    expect(compiled.diagnostics.map((d) => d.code)).toContain('union-needs-variants');
    for (const version of VERSIONS) {
      const { first, second } = await roundTrip(compiled.model!, version);
      expect(jsonDiff(first, second)).toEqual([]);
    }
  });

  it('a request_media_type check refuses (text/plain) keeps its named examples: the import reads the type the export states (fast-check seed -2108619908)', async () => {
    const doc = {
      servicespec: 1,
      endpoints: {
        operations: {
          createOrder: {
            method: 'GET',
            path: '/orders',
            action: 'create',
            request_media_type: 'text/plain',
            request: {},
            examples: { request: { one: { value: '' } } },
          },
        },
      },
    };
    const compiled = compileSpecText(JSON.stringify(doc), 'generated.json');
    for (const version of VERSIONS) {
      const { first, second } = await roundTrip(compiled.model!, version);
      expect(jsonDiff(first, second)).toEqual([]);
    }
  });

  for (const version of VERSIONS) {
    it(`any structurally valid spec, OpenAPI ${version} (property)`, async () => {
      await fc.assert(
        fc.asyncProperty(specDocument, async (doc) => {
          const compiled = compileSpecText(JSON.stringify(doc), 'generated.json');
          if (!compiled.model) return;
          // An error code with a non-error status (check's error-status-not-error) can share the success status's
          // response, and an operation on an OAuth token path (route-conflict; fast-check seed -1777310751: a create
          // at /oauth/token) shares the token endpoint's; export and serve refuse such a spec, so its round trip is
          // not promised.
          if (compiled.diagnostics.some((d) => d.code === 'error-status-not-error' || d.code === 'route-conflict')) return;
          const { first, second } = await roundTrip(compiled.model, version);
          expect(jsonDiff(first, second)).toEqual([]);
        }),
        { numRuns: Number(process.env.ROUNDTRIP_RUNS ?? 100) },
      );
    }, 120_000);
  }
});

describe('round trip of the shapes of issue 26: spec → export → import → the same spec', () => {
  it("a list's own envelope whose next cursor is left out of the last page says nothing (a counterexample fast-check found)", async () => {
    const doc = {
      servicespec: 1,
      resources: { Item: { plural: 'items', fields: { id: { type: 'uuid', readOnly: true }, name: { type: 'string', maxLength: 40 } } } },
      endpoints: {
        operations: {
          createItem: { method: 'POST', path: '/items', action: 'create', resource: 'Item' },
          listItems: {
            method: 'GET',
            path: '/items',
            action: 'list',
            resource: 'Item',
            paging: { body: 'array', link: true },
            envelope: { data: 'result', fields: { continue: { type: 'string', optional: true } }, next: 'continue' },
          },
        },
      },
      authentication: { default: 'none' },
      errors: { body: 'problem', codes: { invalid: { status: 400, when: ['validation', 'malformed_request', 'unsupported_media_type'] } } },
    };
    const compiled = compileSpecText(JSON.stringify(doc), 'generated.json');
    for (const version of VERSIONS) {
      const { imported } = await roundTrip(compiled.model!, version);
      expect(imported.diagnostics.filter((d) => d.code === 'import-dropped' || d.code === 'import-approximated')).toEqual([]);
    }
  });

  for (const version of VERSIONS) {
    it(`unions, resources of several shapes, list shapes (renamed paging parameters), declared error bodies (nested roles), a list's own envelope (an optional next), raw event payloads, named examples and response headers, OpenAPI ${version} (property)`, async () => {
      await fc.assert(
        fc.asyncProperty(newShapesSpec, async (doc) => {
          const compiled = compileSpecText(JSON.stringify(doc), 'generated.json');
          expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
          const { first, second, imported, model2 } = await roundTrip(compiled.model!, version);
          expect(jsonDiff(comparable(compiled.model!), comparable(model2))).toEqual([]);
          expect(jsonDiff(first, second)).toEqual([]);
          expect(imported.diagnostics.filter((d) => d.code === 'import-dropped' || d.code === 'import-approximated')).toEqual([]);
        }),
        { numRuns: Number(process.env.ROUNDTRIP_RUNS ?? 60) },
      );
    }, 120_000);
  }
});
