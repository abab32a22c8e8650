// The console's prefilled values fit their schemas: a string with a `pattern` gets one the pattern matches (within
// its lengths), not the word "string" the service refuses.

import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { getSchemaExample } from '../../src/render/render-console.js';
import { startService, type Running } from '../runtime/helpers.js';
import { yaml } from '../check/helpers.js';

const PATTERNS = [
  '^[A-Z]{3}$',
  '^\\d{16}$',
  '^[a-z0-9-]{3,20}$',
  '^sk_[A-Za-z0-9]{8}$',
  '^(\\+\\d{1,3})?\\d{6,12}$',
  '^[A-Z]{2}\\d{2}[A-Z0-9]{4,30}$',
  '^v\\d+\\.\\d+\\.\\d+$',
];
const FORMATS = ['uuid', 'date-time', 'date', 'time', 'email', 'uri', 'uri-reference', 'hostname', 'ipv4', 'ipv6'];

describe('a prefilled string', () => {
  it('property: fits its pattern and lengths, or its format', () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats.default(ajv);
    const schema = fc.oneof(
      fc.record({ type: fc.constant('string'), pattern: fc.constantFrom(...PATTERNS) }),
      fc.constantFrom(...PATTERNS).chain((pattern) =>
        fc.record({
          type: fc.constant('string'),
          pattern: fc.constant(pattern),
          minLength: fc.integer({ min: 0, max: 3 }),
          maxLength: fc.integer({ min: 16, max: 40 }),
        }),
      ),
      fc.record({ type: fc.constant('string'), format: fc.constantFrom(...FORMATS) }),
      fc.record({ type: fc.constant('string'), minLength: fc.integer({ min: 0, max: 12 }), maxLength: fc.integer({ min: 12, max: 30 }) }),
    );
    fc.assert(
      fc.property(schema, (s) => {
        const { value } = getSchemaExample({}, s);
        expect(ajv.validate(s, value), `${JSON.stringify(value)} for ${JSON.stringify(s)}`).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('is the same on every render', () => {
    const s = { type: 'string', pattern: '^sk_[A-Za-z0-9]{8}$' };
    expect(getSchemaExample({}, s)).toEqual(getSchemaExample({}, s));
  });
});

describe('the prefilled create body of a spec with patterns', () => {
  const spec = yaml`
    servicespec: 1
    purpose: { name: Cards, summary: Payment cards }
    resources:
      Card:
        fields:
          id: { type: uuid, readOnly: true }
          number: { type: string, pattern: "^[0-9]{16}$" }
          currency: { type: string, pattern: "^[A-Z]{3}$" }
          label: { type: string, minLength: 10, maxLength: 12 }
    endpoints:
      operations:
        createCard: { method: POST, path: /cards, action: create, resource: Card, auth: none }
        getCard: { method: GET, path: "/cards/{id}", action: read, resource: Card, auth: none }
  `;
  let s: Running;
  beforeAll(async () => {
    const c = compileSpecText(spec);
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    s = await startService(c.model!, { allowGaps: true });
  });
  afterAll(async () => s?.close());

  it('is accepted by the service (201), and read back as sent', async () => {
    const doc = exportOpenApi(compileSpecText(spec).model!).document as Record<string, unknown>;
    const op = (doc.paths as Record<string, Record<string, { requestBody: { content: Record<string, { schema: unknown }> } }>>)['/cards']!.post!;
    const media = Object.values(op.requestBody.content)[0]!;
    const { value } = getSchemaExample(doc, media.schema as Record<string, unknown>);
    const created = await s.call('POST', '/cards', value);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const read = await s.call('GET', `/cards/${created.body.id}`);
    expect(read.body).toMatchObject(value as Record<string, unknown>);
  });
});
