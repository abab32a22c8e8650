import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatGapReport } from '../../src/check/check-gaps.js';
import { importOpenApiFile } from '../../src/import/import-openapi.js';
import { parse as parseYaml } from 'yaml';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { OPENAPI_FIXTURES } from '../export/helpers.js';

// Real public OpenAPI documents (test/fixtures/openapi/README.md has their provenance): each imports without a
// crash, the result is a spec the format's loader reads back, and its gap report is compared with a golden file.
// UPDATE_GOLDEN=1 rewrites the golden files.

const GOLDEN = join(OPENAPI_FIXTURES, 'golden');
const top = readdirSync(OPENAPI_FIXTURES).filter((f) => /\.(ya?ml|json)$/.test(f));
// Documents held to this file's assertions only (golden files, the round trip): each fails another per-document
// suite for a reason its README names (test/fixtures/openapi/README.md, "partial/"), so they are not at the top.
const PARTIAL = join(OPENAPI_FIXTURES, 'partial');
const partial = readdirSync(PARTIAL).filter((f) => /\.(ya?ml|json)$/.test(f));
const files = [...top, ...partial];
const pathOf = (file: string) => join(partial.includes(file) ? PARTIAL : OPENAPI_FIXTURES, file);

function golden(name: string, actual: string): void {
  const path = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN) {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(path, actual);
  }
  if (!existsSync(path)) throw new Error(`no golden file ${path}: run UPDATE_GOLDEN=1 npx vitest run test/import`);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

/** What the import said, grouped: which codes, how often (the messages themselves are in the spec golden). */
function summary(codes: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const c of codes) counts.set(c, (counts.get(c) ?? 0) + 1);
  return [...counts]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([c, n]) => `${c}: ${n}`)
    .join('\n');
}

describe('import of the public OpenAPI corpus', () => {
  it('has the documents the README lists', () => {
    expect(partial).toEqual(['spring-petclinic-rest.yml']);
    expect(top.sort()).toEqual([
      'ably-platform-v1.yaml',
      'adyen-dispute-v30.json',
      'adyen-session-authentication-v1.yaml',
      'giphy-v1.yaml',
      'kubernetes-coordination-v1.json',
      'oai-callback-example.yaml',
      'oai-link-example.yaml',
      'oai-petstore-expanded.yaml',
      'oai-petstore.yaml',
      'oai-uspto.yaml',
      'oai-webhook-example.yaml',
      'realworld-conduit.yml',
      'redocly-museum.yaml',
      'twilio-bulkexports-v1.yaml',
      'vonage-dispatch.yml',
    ]);
  });

  for (const file of files) {
    it(`${file}: imports, reads back as a spec, and reports its gaps as before`, async () => {
      const r = await importOpenApiFile(pathOf(file), { specFile: `${file}.servicespec.yaml` });
      expect(r.diagnostics.filter((d) => d.code === 'import-not-openapi' || d.code === 'import-invalid-openapi')).toEqual([]);
      expect(r.text).toBeDefined();
      expect(r.compiled?.model).toBeDefined();
      // structurally valid: only semantic findings (an optional `id`, conditions no code declares) may remain
      const again = compileSpecText(r.text!, 'again.yaml');
      expect(
        again.diagnostics.filter(
          (d) => d.severity === 'error' && ['unknown-key', 'missing-key', 'wrong-type', 'invalid-value', 'yaml-syntax'].includes(d.code),
        ),
      ).toEqual([]);
      golden(`${file}.gaps.txt`, formatGapReport(r.gaps!));
      golden(`${file}.diagnostics.txt`, `${summary(r.diagnostics.map((d) => d.code))}\n`);
      golden(`${file}.servicespec.yaml`, r.text!);
    });
  }

  it('maps the petstore-expanded shapes to actions, its bare array to a list, and says which parameter the list only validates', async () => {
    const r = await importOpenApiFile(join(OPENAPI_FIXTURES, 'oai-petstore-expanded.yaml'));
    const ops = r.document!.endpoints!.operations!;
    expect(ops.addPet).toMatchObject({ method: 'POST', path: '/pets', action: 'create', resource: 'Pet', status: 200 });
    expect(ops['find pet by id']).toMatchObject({ action: 'read', resource: 'Pet' });
    expect(ops.deletePet).toMatchObject({ action: 'delete', resource: 'Pet' });
    // A bare array of Pets, `limit` alone: a list answering the first page (before: a custom operation, served 501).
    expect(ops.findPets).toEqual({
      method: 'GET',
      path: '/pets',
      action: 'list',
      resource: 'Pet',
      description: expect.any(String),
      paging: { style: 'limit', body: 'array' },
      // `tags` names no field of Pet (it has `tag`): the list declares it, validates it and does not filter by it.
      query: { tags: { type: 'array', items: { type: 'string' }, optional: true, description: 'tags to filter by' } },
    });
    expect(r.diagnostics.filter((d) => d.code === 'import-renamed')).toEqual([]);
    expect(r.diagnostics.filter((d) => d.code === 'import-custom-operation')).toEqual([]);
    expect(r.diagnostics.find((d) => d.message.includes('query parameter `tags`'))).toMatchObject({
      code: 'import-approximated',
      pointer: '/paths/~1pets/get/parameters/0',
    });
    // allOf [NewPet, {id}] merged into one resource
    expect(Object.keys(r.document!.resources!.Pet!.fields!)).toEqual(['name', 'tag', 'id']);
  });

  it('turns a 3.1 webhook into an event kind and leaves callbacks and links out, reporting each', async () => {
    const hooks = await importOpenApiFile(join(OPENAPI_FIXTURES, 'oai-webhook-example.yaml'));
    expect(hooks.document!.events).toEqual({ delivery: { webhook: {} }, kinds: { newPet: { payload: { resource: 'Pet' }, body: 'raw' } } });
    const cb = await importOpenApiFile(join(OPENAPI_FIXTURES, 'oai-callback-example.yaml'));
    expect(cb.diagnostics.some((d) => d.code === 'import-dropped' && d.message.includes('callback'))).toBe(true);
    const links = await importOpenApiFile(join(OPENAPI_FIXTURES, 'oai-link-example.yaml'));
    expect(links.diagnostics.some((d) => d.code === 'import-dropped' && d.message.includes('links'))).toBe(true);
  });

  it('reads the largest document (kubernetes) keeping its camelCase fields, with path-level parameters', async () => {
    const r = await importOpenApiFile(join(OPENAPI_FIXTURES, 'kubernetes-coordination-v1.json'));
    const lease = r.document!.resources!['io.k8s.api.coordination.v1.Lease']!;
    expect(Object.keys(lease.fields!)).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
    expect(r.diagnostics.filter((d) => d.code === 'import-renamed')).toEqual([]);
    expect(r.document!.endpoints!.base_url).toBeUndefined();
  });
});

// The wire contract through import and export: (method, path, parameter names) come back exactly for every corpus
// document, no name is renamed, and each status code that does not come back is one import-dropped names (a range,
// `2XX` or `4XX`, comes back as the range: docs/import.md, "Status ranges").
describe('import → export openapi round trip of the corpus', () => {
  const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
  type Json = Record<string, unknown>;
  const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
  const deref = (root: Json, n: unknown): unknown => {
    for (let i = 0; i < 16 && isObj(n) && typeof n.$ref === 'string'; i++)
      n = n.$ref
        .slice(2)
        .split('/')
        .reduce<unknown>((x, t) => (isObj(x) ? x[t.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), root);
    return n;
  };
  const wire = (doc: Json) => {
    const out = new Map<string, { params: string[]; statuses: string[]; id?: string }>();
    for (const [path, raw] of Object.entries(isObj(doc.paths) ? doc.paths : {})) {
      const item = deref(doc, raw) as Json;
      for (const m of METHODS) {
        const op = item[m];
        if (!isObj(op)) continue;
        const params = [...(Array.isArray(item.parameters) ? item.parameters : []), ...(Array.isArray(op.parameters) ? op.parameters : [])]
          .map((p) => deref(doc, p) as Json)
          .map((p) => `${String(p.in)}:${p.in === 'header' ? String(p.name).toLowerCase() : String(p.name)}`);
        out.set(`${m.toUpperCase()} ${path}`, {
          params: [...new Set(params)].sort(),
          statuses: Object.keys(isObj(op.responses) ? op.responses : {}).sort(),
          ...(typeof op.operationId === 'string' ? { id: op.operationId } : {}),
        });
      }
    }
    return out;
  };

  const opPointer = (key: string) =>
    `/paths/${key
      .slice(key.indexOf(' ') + 1)
      .replace(/~/g, '~0')
      .replace(/\//g, '~1')}/${key.slice(0, key.indexOf(' ')).toLowerCase()}`;

  for (const file of files) {
    it(`${file}: methods, paths and parameter names come back exactly; each missing status is reported`, async () => {
      const path = pathOf(file);
      const source = wire((file.endsWith('.json') ? JSON.parse(readFileSync(path, 'utf8')) : parseYaml(readFileSync(path, 'utf8'))) as Json);
      const r = await importOpenApiFile(path);
      expect(r.diagnostics.filter((d) => d.code === 'import-renamed')).toEqual([]);
      const back = wire(exportOpenApi(r.compiled!.model!).document as Json);
      expect([...back.keys()].sort()).toEqual([...source.keys()].sort());
      for (const [key, op] of source) {
        // A parameter an action cannot read is left out, and said (docs/import.md, "Lists"), as is a cookie parameter:
        // said of this operation (a parameter shared by several is dropped only where it cannot be kept).
        const kept = op.params.filter(
          (p) =>
            !r.diagnostics.some(
              (d) =>
                d.code === 'import-dropped' &&
                (op.id === undefined || d.message.startsWith(`operation ${op.id}:`)) &&
                d.message.includes(`${p.slice(0, p.indexOf(':'))} parameter \`${p.slice(p.indexOf(':') + 1)}\` has no place`),
            ),
        );
        // A conditional header the format honours on an action of a resource with etag: true comes back declared
        // where the document leaves it out (Spring petclinic's reads answering 304, its replaces and deletes): said at
        // the operation (import-approximated, "honours If-Match", "honours If-None-Match").
        const added = (p: string) =>
          (p === 'header:if-match' || p === 'header:if-none-match') &&
          !op.params.includes(p) &&
          r.diagnostics.some(
            (d) =>
              d.code === 'import-approximated' &&
              d.pointer === opPointer(key) &&
              d.message.includes(`honours ${p === 'header:if-match' ? 'If-Match' : 'If-None-Match'}`),
          );
        expect(
          back.get(key)!.params.filter((p) => !added(p)),
          key,
        ).toEqual(kept);
        for (const status of op.statuses.filter((s) => !back.get(key)!.statuses.includes(s))) {
          const pointer = `/paths/${key
            .slice(key.indexOf(' ') + 1)
            .replace(/~/g, '~0')
            .replace(/\//g, '~1')}/${key.slice(0, key.indexOf(' ')).toLowerCase()}/responses/${status}`;
          // Only a status said dropped may be missing: a range (`2XX`, `4XX`) comes back as the range.
          expect(
            r.diagnostics.some((d) => d.code === 'import-dropped' && d.pointer === pointer),
            `${key} ${status}`,
          ).toBe(true);
        }
      }
    });
  }
});
