// The union round-trip defects of issue 26 (spec → OpenAPI → import → spec), one case each; the property over
// newShapesSpec and the structural generator (import-roundtrip.test.ts) draws them too.
import { describe, expect, it } from 'vitest';
import { exportOpenApi, type OpenApiVersion } from '../../src/export/export-openapi.js';
import { serializeDocument } from '../../src/export/export-shared.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { compileSpecText } from '../../src/program.js';
import type { SpecDocument } from '../../src/spec/spec-types.js';

const VERSIONS: readonly OpenApiVersion[] = ['3.1', '3.0'];

async function roundTrip(spec: object, version: OpenApiVersion) {
  const compiled = compileSpecText(JSON.stringify(spec), 'unions.json');
  const first = exportOpenApi(compiled.model!, { openapi: version }).document;
  const imported = await importOpenApiDocument(JSON.parse(serializeDocument(first, 'json')) as unknown, 'unions.openapi.json');
  const second = imported.compiled?.model ? exportOpenApi(imported.compiled.model, { openapi: version }).document : undefined;
  return { compiled, first, imported, back: imported.document as unknown as SpecDocument, second };
}

const QUOTE_RESPONSE = {
  discriminator: 'type',
  variants: {
    Quote: { tag: 'quote', fields: { price: { type: 'integer' }, currency: { type: 'string', optional: true, default: 'EUR' } } },
    Refusal: { tag: 'refusal', fields: { reason: { type: 'string' }, retry: { type: 'boolean', default: false } } },
  },
};
const QUOTE_REQUEST = {
  variants: {
    by_weight: { fields: { grams: { type: 'integer' }, unit: { type: 'string', optional: true, default: 'g' } } },
    by_volume: { fields: { litres: { type: 'number' } } },
  },
};

function quoteSpec(extra: Record<string, unknown> = {}) {
  return {
    servicespec: 1,
    resources: {},
    endpoints: {
      operations: {
        quote: { method: 'POST', path: '/quotes', action: 'custom', handler: 'quote', request: QUOTE_REQUEST, response: QUOTE_RESPONSE, ...extra },
      },
    },
    authentication: { default: 'none' },
  };
}

describe('union round trip through OpenAPI (issue 26)', () => {
  for (const version of VERSIONS) {
    it(`under an empty resources part, union bodies' variants stay variants, not resources (OpenAPI ${version})`, async () => {
      const { back, second, first } = await roundTrip(quoteSpec(), version);
      expect(back.resources).toEqual({});
      expect(back.endpoints?.operations?.quote?.response).toEqual(QUOTE_RESPONSE);
      expect(second).toEqual(first);
    });

    it(`a variant's optional field with a default comes back optional, a required one with a default not optional (OpenAPI ${version})`, async () => {
      const union = {
        type: 'union',
        discriminator: 'kind',
        variants: {
          card: { fields: { number: { type: 'string' }, holder: { type: 'string', optional: true, default: 'anon' } } },
          bank: { fields: { iban: { type: 'string' }, country: { type: 'string', default: 'DE' } } },
        },
      };
      const spec = {
        ...quoteSpec(),
        resources: { Payment: { fields: { id: { type: 'uuid', readOnly: true }, method: union } } },
      };
      spec.endpoints.operations = {
        ...spec.endpoints.operations,
        createPayment: { method: 'POST', path: '/payments', action: 'create', resource: 'Payment' },
      } as never;
      const { back, compiled, imported } = await roundTrip(spec, version);
      expect(back.resources?.Payment?.fields?.method).toEqual(union);
      expect(back.endpoints?.operations?.quote?.request).toEqual(QUOTE_REQUEST);
      expect(back.endpoints?.operations?.quote?.response).toEqual(QUOTE_RESPONSE);
      const field = imported.compiled!.model!.resources[0]!.fields.find((f) => f.name === 'method')!;
      expect(field.union).toEqual(compiled.model!.resources[0]!.fields.find((f) => f.name === 'method')!.union);
    });

    it(`a nested object's optional field with a default comes back optional too (OpenAPI ${version})`, async () => {
      const address = {
        type: 'object',
        fields: { street: { type: 'string' }, country: { type: 'string', optional: true, default: 'DE' }, city: { type: 'string', default: 'Berlin' } },
      };
      const spec = { ...quoteSpec(), resources: { Payment: { fields: { id: { type: 'uuid', readOnly: true }, address } } } };
      spec.endpoints.operations = {
        ...spec.endpoints.operations,
        createPayment: { method: 'POST', path: '/payments', action: 'create', resource: 'Payment' },
      } as never;
      const { back } = await roundTrip(spec, version);
      expect(back.resources?.Payment?.fields?.address).toEqual(address);
    });

    it(`a discriminator with no variants (check's union-needs-variants) comes back as written (OpenAPI ${version})`, async () => {
      const spec = quoteSpec({ request: { discriminator: 'kind' } });
      const { compiled, back, second, first } = await roundTrip(spec, version);
      expect(compiled.diagnostics.map((d) => d.code)).toContain('union-needs-variants');
      expect(back.endpoints?.operations?.quote?.request).toEqual({ discriminator: 'kind' });
      expect(second).toEqual(first);
    });

    it(`an empty example map is no example: the model is the same after the round trip (OpenAPI ${version})`, async () => {
      for (const examples of [{}, { request: {} }, { response: {}, parameters: {} }]) {
        const { compiled, imported } = await roundTrip(quoteSpec({ examples }), version);
        expect(compiled.model!.endpoints!.operations[0]!.examples).toBeUndefined();
        expect(imported.compiled!.model!.endpoints!.operations[0]!.examples).toBeUndefined();
      }
    });
  }
});
