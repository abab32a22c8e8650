// Imported webhooks are raw event payloads (issue 26, item 4): import → export openapi gives every webhook its
// payload back with each property at its original position (not one level deeper, inside the event envelope's
// `data.object`), for every corpus document and for a payload with nested objects and arrays.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { importOpenApiDocument, importOpenApiFile } from '../../src/import/import-openapi.js';
import { OPENAPI_FIXTURES } from '../export/helpers.js';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function deref(root: Json, n: unknown): unknown {
  for (let i = 0; i < 16 && isObj(n) && typeof n.$ref === 'string'; i++)
    n = n.$ref
      .slice(2)
      .split('/')
      .reduce<unknown>((x, t) => (isObj(x) ? x[t.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), root);
  return n;
}

/** Every property position of a schema: `a`, `a.b`, `a[].c` (allOf, oneOf and anyOf read as one object). */
function positions(root: Json, schema: unknown, prefix = '', depth = 0, out = new Set<string>()): Set<string> {
  const s = deref(root, schema);
  if (!isObj(s) || depth > 8) return out;
  for (const k of ['allOf', 'oneOf', 'anyOf']) if (Array.isArray(s[k])) for (const x of s[k] as unknown[]) positions(root, x, prefix, depth + 1, out);
  if (s.items !== undefined) positions(root, s.items, `${prefix}[]`, depth + 1, out);
  if (isObj(s.properties)) {
    for (const [name, p] of Object.entries(s.properties)) {
      const at = prefix === '' ? name : `${prefix}.${name}`;
      out.add(at);
      positions(root, p, at, depth + 1, out);
    }
  }
  return out;
}

/** Per webhook: the property positions of its JSON request body. */
function webhookPositions(doc: Json): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [key, raw] of Object.entries(isObj(doc.webhooks) ? doc.webhooks : {})) {
    const item = deref(doc, raw);
    if (!isObj(item)) continue;
    const op = Object.values(item).find(isObj) as Json | undefined;
    const body = deref(doc, op?.requestBody);
    const content = isObj(body) && isObj(body.content) ? body.content : {};
    const media = Object.entries(content).find(([m]) => m === 'application/json' || m.endsWith('+json'))?.[1];
    out.set(key, [...positions(doc, isObj(media) ? media.schema : undefined)].sort());
  }
  return out;
}

const files = readdirSync(OPENAPI_FIXTURES).filter((f) => /\.(ya?ml|json)$/.test(f));

describe('import → export openapi keeps webhook payloads where they were', () => {
  for (const file of files) {
    it(`${file}: every webhook payload property at its original position`, async () => {
      const path = join(OPENAPI_FIXTURES, file);
      const text = readFileSync(path, 'utf8');
      const source = webhookPositions((file.endsWith('.json') ? JSON.parse(text) : parseYaml(text)) as Json);
      const r = await importOpenApiFile(path);
      const back = webhookPositions(exportOpenApi(r.compiled!.model!).document as Json);
      expect([...back.keys()].sort()).toEqual([...source.keys()].sort());
      for (const [key, props] of source) expect(back.get(key), key).toEqual(props);
    });
  }

  it('a payload with nested objects and arrays: every position kept, the kind raw, nothing reported about it', async () => {
    const doc = {
      openapi: '3.1.0',
      info: { title: 'Shipments', version: '1' },
      paths: {},
      webhooks: {
        'shipment.updated': {
          post: {
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['shipmentId', 'status'],
                    properties: {
                      shipmentId: { type: 'string' },
                      status: { type: 'string', enum: ['packed', 'sent'] },
                      carrier: { type: 'object', properties: { name: { type: 'string' }, tracking: { type: 'string' } } },
                      parcels: { type: 'array', items: { type: 'object', properties: { weightGrams: { type: 'integer' }, label: { type: 'string' } } } },
                    },
                  },
                },
              },
            },
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    };
    const r = await importOpenApiDocument(JSON.parse(JSON.stringify(doc)) as unknown, 'shipments.json');
    expect(r.document!.events!.kinds!['shipment.updated']).toMatchObject({ body: 'raw' });
    expect(r.diagnostics.filter((d) => d.pointer?.startsWith('/webhooks') && d.severity !== 'info')).toEqual([]);
    const back = webhookPositions(exportOpenApi(r.compiled!.model!).document as Json);
    expect(back.get('shipment.updated')).toEqual([
      'carrier',
      'carrier.name',
      'carrier.tracking',
      'parcels',
      'parcels[].label',
      'parcels[].weightGrams',
      'shipmentId',
      'status',
    ]);
    // and once more through a servicespec export: the raw body survives its own x-servicespec-events
    const again = await importOpenApiDocument(JSON.parse(JSON.stringify(exportOpenApi(r.compiled!.model!).document)) as unknown, 'again.json');
    expect(again.document!.events!.kinds!['shipment.updated']).toMatchObject({ body: 'raw' });
  });
});
