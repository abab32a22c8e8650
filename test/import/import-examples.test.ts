// Named examples (issue 26, item 6): an operation's request body, success answer and parameter examples are kept
// through import and export — counted per corpus document, by place (operation, where, name), before and after.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { importOpenApiDocument, importOpenApiFile } from '../../src/import/import-openapi.js';
import { OPENAPI_FIXTURES } from '../export/helpers.js';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function deref(root: Json, n: unknown): unknown {
  for (let i = 0; i < 16 && isObj(n) && typeof n.$ref === 'string'; i++)
    n = n.$ref
      .slice(2)
      .split('/')
      .reduce<unknown>((x, t) => (isObj(x) ? x[t.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), root);
  return n;
}

/** Every named example of the document's operations with its value: `METHOD path request|response STATUS|param NAME: example`. */
function examples(doc: Json): Map<string, string> {
  const out = new Map<string, string>();
  const add = (where: string, holder: unknown) => {
    const h = deref(doc, holder);
    if (!isObj(h) || !isObj(h.examples)) return;
    for (const [name, e] of Object.entries(h.examples)) out.set(`${where} ${name}`, JSON.stringify((deref(doc, e) as Json | undefined)?.value));
  };
  const media = (holder: unknown) => {
    const h = deref(doc, holder);
    return isObj(h) && isObj(h.content) ? Object.entries(h.content).find(([t]) => /json|^application\/x-www-form-urlencoded$/.test(t))?.[1] : undefined;
  };
  for (const [path, rawItem] of Object.entries(isObj(doc.paths) ? doc.paths : {})) {
    const item = deref(doc, rawItem) as Json;
    for (const m of METHODS) {
      const op = item[m];
      if (!isObj(op)) continue;
      const at = `${m.toUpperCase()} ${path}`;
      add(`${at} request`, media(op.requestBody));
      const success = Object.keys(isObj(op.responses) ? op.responses : {})
        .filter((k) => /^2\d\d$/.test(k))
        .sort()[0];
      if (success) add(`${at} response ${success}`, media((op.responses as Json)[success]));
      for (const p of [...(Array.isArray(item.parameters) ? item.parameters : []), ...(Array.isArray(op.parameters) ? op.parameters : [])]) {
        const param = deref(doc, p) as Json;
        add(`${at} param ${String(param.name)}`, param);
      }
    }
  }
  return out;
}

const files = readdirSync(OPENAPI_FIXTURES).filter((f) => /\.(ya?ml|json)$/.test(f));

describe('named examples through import → export openapi', () => {
  for (const file of files) {
    it(`${file}: every named example of an operation comes back, same name, same value`, async () => {
      const path = join(OPENAPI_FIXTURES, file);
      const text = readFileSync(path, 'utf8');
      const before = examples((file.endsWith('.json') ? JSON.parse(text) : parseYaml(text)) as Json);
      const r = await importOpenApiFile(path);
      const after = examples(exportOpenApi(r.compiled!.model!).document as Json);
      expect(after.size, `${before.size} before`).toBe(before.size);
      expect(Object.fromEntries(after)).toEqual(Object.fromEntries(before));
    });
  }

  it('adyen-dispute: its 12 named examples (6 requests, 6 answers) are kept', async () => {
    const r = await importOpenApiFile(join(OPENAPI_FIXTURES, 'adyen-dispute-v30.json'));
    expect(examples(exportOpenApi(r.compiled!.model!).document as Json).size).toBe(12);
    expect(r.diagnostics.filter((d) => d.message.includes('named examples'))).toEqual([]);
  });

  // Twilio's form requests (twilio-oai, spec/yaml/twilio_bulkexports_v1.yaml: UpdateExportConfiguration's `update`,
  // CreateExportCustomJob's `create`) carry named examples on their application/x-www-form-urlencoded body: before,
  // they were import-dropped ("the format keeps named examples on an operation's request body…", which this is).
  it("a form request body's named examples are kept and exported back on the form", async () => {
    const doc = {
      openapi: '3.0.1',
      info: { title: 'Exports', version: '1' },
      paths: {
        '/v1/Exports/{ResourceType}/Configuration': {
          post: {
            operationId: 'UpdateExportConfiguration',
            parameters: [{ name: 'ResourceType', in: 'path', required: true, schema: { type: 'string' } }],
            requestBody: {
              content: {
                'application/x-www-form-urlencoded': {
                  schema: { type: 'object', properties: { Enabled: { type: 'boolean' }, WebhookUrl: { type: 'string', format: 'uri' } } },
                  examples: { update: { value: { Enabled: true } } },
                },
              },
            },
            responses: {
              '200': {
                description: 'OK',
                content: {
                  'application/json': {
                    schema: { type: 'object', properties: { enabled: { type: 'boolean' } } },
                    examples: { update: { value: { enabled: true } } },
                  },
                },
              },
            },
          },
        },
      },
    };
    const r = await importOpenApiDocument(JSON.parse(JSON.stringify(doc)) as unknown, 'exports.json');
    expect(r.document!.endpoints!.operations!.UpdateExportConfiguration!.examples).toEqual({
      request: { update: { value: { Enabled: true } } },
      response: { update: { value: { enabled: true } } },
    });
    expect(r.diagnostics.filter((d) => d.message.includes('named examples'))).toEqual([]);
    expect(r.compiled!.diagnostics.filter((d) => d.code === 'example-invalid')).toEqual([]);
    const out = exportOpenApi(r.compiled!.model!).document as Json;
    const body = deref(out, ((out.paths as Json)['/v1/Exports/{ResourceType}/Configuration'] as Json as { post: Json }).post.requestBody) as Json;
    expect((body.content as Json)['application/x-www-form-urlencoded']).toMatchObject({ examples: { update: { value: { Enabled: true } } } });
  });

  it('parameter examples are kept; an externalValue example and one on an error answer are said to be left out', async () => {
    const doc = {
      openapi: '3.1.0',
      info: { title: 'Probe', version: '1' },
      paths: {
        '/probe': {
          get: {
            operationId: 'probe',
            parameters: [
              {
                name: 'depth',
                in: 'query',
                schema: { type: 'integer' },
                examples: { shallow: { summary: 'One level', value: 1 }, far: { externalValue: 'https://example.com/far.json' } },
              },
            ],
            responses: {
              '200': {
                description: 'ok',
                content: {
                  'application/json': { schema: { type: 'object', properties: { ok: { type: 'boolean' } } }, examples: { fine: { value: { ok: true } } } },
                },
              },
              '404': { description: 'no', content: { 'application/json': { schema: { type: 'object' }, examples: { gone: { value: {} } } } } },
            },
          },
        },
      },
    };
    const r = await importOpenApiDocument(JSON.parse(JSON.stringify(doc)) as unknown, 'probe.json');
    expect(r.document!.endpoints!.operations!.probe!.examples).toEqual({
      response: { fine: { value: { ok: true } } },
      parameters: { depth: { shallow: { summary: 'One level', value: 1 } } },
    });
    expect(r.diagnostics.filter((d) => d.pointer === '/paths/~1probe/get/parameters/0/examples/far').map((d) => d.code)).toEqual(['import-dropped']);
    expect(r.diagnostics.filter((d) => d.pointer === '/paths/~1probe/get/responses/404/content/application~1json/examples').map((d) => d.code)).toEqual([
      'import-dropped',
    ]);
    const back = examples(exportOpenApi(r.compiled!.model!).document as Json);
    expect([...back.keys()].sort()).toEqual(['GET /probe param depth shallow', 'GET /probe response 200 fine']);
  });
});
