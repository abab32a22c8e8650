// Unions through OpenAPI: exported as oneOf + discriminator (with its mapping, variants as components), imported from
// oneOf / anyOf / an allOf base with a discriminator, every subtype property kept at its place, nothing said lost.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { exportOpenApi, type OpenApiVersion } from '../../src/export/export-openapi.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { OPENAPI_FIXTURES } from '../export/helpers.js';
import { UNION_SPEC } from '../support/unions.js';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function at(root: Json, ref: string): unknown {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((n, t) => (isObj(n) ? n[t] : undefined), root);
}

/** A schema with references followed and allOf parts' properties merged: its property names. */
function props(root: Json, node: unknown, depth = 0): string[] {
  if (depth > 16 || !isObj(node)) return [];
  if (typeof node.$ref === 'string') return props(root, at(root, node.$ref), depth + 1);
  const own = isObj(node.properties) ? Object.keys(node.properties) : [];
  const inherited = Array.isArray(node.allOf) ? node.allOf.flatMap((p) => props(root, p, depth + 1)) : [];
  return [...new Set([...inherited, ...own])];
}

function deref(root: Json, node: unknown): { node: unknown; ref?: string } {
  let ref: string | undefined;
  for (let i = 0; i < 16 && isObj(node) && typeof node.$ref === 'string'; i++) {
    ref = node.$ref;
    node = at(root, node.$ref);
  }
  return { node, ref };
}

/**
 * Every union in the bodies of a document's operations, written independently of the importer: by the body's place
 * (path, method, request or status, its array items), the discriminator and, per variant (by tag, or by order when
 * untagged), its property names (the discriminator left out), sorted.
 */
function unionsOf(doc: Json): Map<string, { discriminator?: string; variants: Record<string, string[]> }> {
  const out = new Map<string, { discriminator?: string; variants: Record<string, string[]> }>();
  const visitBody = (place: string, schema: unknown, stack: readonly unknown[] = []) => {
    let { node, ref } = deref(doc, schema);
    if (isObj(node) && node.type === 'array' && node.items !== undefined) {
      place += '[]';
      ({ node, ref } = deref(doc, node.items));
    }
    if (!isObj(node) || stack.includes(node) || stack.length > 8) return;
    // A union nested in the body (adyen-session's policy.resources[]: items of an allOf base with a discriminator) is
    // held at its property's place, after the body's media type.
    for (const [name, p] of nestedProperties(doc, node)) visitBody(`${place}.${name}`, p, [...stack, node]);
    const d = isObj(node.discriminator) ? node.discriminator : undefined;
    const prop = d?.propertyName as string | undefined;
    const mapping = isObj(d?.mapping) ? (d.mapping as Record<string, string>) : {};
    let options: unknown[] | undefined = Array.isArray(node.oneOf) ? node.oneOf : Array.isArray(node.anyOf) ? node.anyOf : undefined;
    if (!options && d) {
      options =
        Object.keys(mapping).length > 0
          ? Object.values(mapping).map(($ref) => ({ $ref }))
          : Object.entries((doc.components as Json).schemas as Json)
              .filter(([, s]) => isObj(s) && Array.isArray(s.allOf) && s.allOf.some((p) => isObj(p) && p.$ref === ref))
              .map(([k]) => ({ $ref: `#/components/schemas/${k}` }));
    }
    if (!options) return;
    const variants: Record<string, string[]> = {};
    options.forEach((o, i) => {
      const r = deref(doc, o);
      const tagged =
        prop === undefined
          ? undefined
          : (Object.entries(mapping).find(([, v]) => v === r.ref)?.[0] ??
            (isObj(r.node) && isObj((r.node.properties as Json | undefined)?.[prop])
              ? (((r.node.properties as Json)[prop] as Json).enum as string[] | undefined)?.[0]
              : undefined) ??
            r.ref?.split('/').pop());
      variants[tagged ?? String(i)] = props(doc, o)
        .filter((p) => p !== prop)
        .sort();
    });
    out.set(place, prop !== undefined ? { discriminator: prop, variants } : { variants });
  };
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Json)) {
    if (!isObj(item)) continue;
    for (const [method, op] of Object.entries(item)) {
      if (!isObj(op) || !['get', 'put', 'post', 'delete', 'patch'].includes(method)) continue;
      const req = deref(doc, op.requestBody).node;
      if (isObj(req) && isObj(req.content))
        for (const [mt, m] of Object.entries(req.content)) if (isObj(m)) visitBody(`${method} ${path} request ${mt}`, m.schema);
      for (const [status, r] of Object.entries((op.responses ?? {}) as Json)) {
        const res = deref(doc, r).node;
        if (isObj(res) && isObj(res.content))
          for (const [mt, m] of Object.entries(res.content)) if (isObj(m)) visitBody(`${method} ${path} ${status} ${mt}`, m.schema);
      }
    }
  }
  return out;
}

/** An object schema's properties, its allOf parts' merged in (a union's variants are not walked). */
function nestedProperties(root: Json, node: Json, depth = 0): [string, unknown][] {
  if (depth > 16) return [];
  const inherited = Array.isArray(node.allOf)
    ? node.allOf.flatMap((p) => {
        const { node: part } = deref(root, p);
        return isObj(part) ? nestedProperties(root, part, depth + 1) : [];
      })
    : [];
  return [...inherited, ...(isObj(node.properties) ? Object.entries(node.properties) : [])];
}

/** Every discriminator object in the document, wherever it is. */
function countDiscriminators(node: unknown): number {
  if (Array.isArray(node)) return node.reduce((n: number, x) => n + countDiscriminators(x), 0);
  if (!isObj(node)) return 0;
  return (isObj(node.discriminator) ? 1 : 0) + Object.values(node).reduce((n: number, x) => n + countDiscriminators(x), 0);
}

const PETS = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1' },
  paths: {
    '/pets': {
      post: {
        operationId: 'addPet',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPet' } } } },
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPet' } } } } },
      },
      get: {
        operationId: 'animals',
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Animal' } } } } },
        },
      },
    },
    '/shapes': {
      post: {
        operationId: 'shape',
        requestBody: {
          content: {
            'application/json': {
              schema: {
                anyOf: [
                  { type: 'object', properties: { radius: { type: 'number' } }, required: ['radius'] },
                  { type: 'object', properties: { side: { type: 'number' } }, required: ['side'] },
                ],
              },
            },
          },
        },
        responses: { '204': { description: 'done' } },
      },
    },
  },
  components: {
    schemas: {
      NewPet: {
        oneOf: [{ $ref: '#/components/schemas/Cat' }, { $ref: '#/components/schemas/Dog' }],
        discriminator: { propertyName: 'pet_type', mapping: { cat: '#/components/schemas/Cat', dog: '#/components/schemas/Dog' } },
      },
      Cat: {
        type: 'object',
        properties: { pet_type: { type: 'string' }, name: { type: 'string' }, hunts: { type: 'boolean' } },
        required: ['pet_type', 'name'],
      },
      Dog: {
        type: 'object',
        properties: { pet_type: { type: 'string' }, name: { type: 'string' }, bark: { type: 'boolean' }, breed: { type: 'string', enum: ['Dingo', 'Husky'] } },
        required: ['pet_type', 'name', 'bark'],
      },
      // allOf base with its own discriminator and no mapping: the subtypes that extend it, tagged by their names
      Animal: {
        type: 'object',
        properties: { kind: { type: 'string' }, legs: { type: 'integer' } },
        required: ['kind'],
        discriminator: { propertyName: 'kind' },
      },
      Bird: { allOf: [{ $ref: '#/components/schemas/Animal' }, { type: 'object', properties: { wingspan: { type: 'number' } } }] },
      Fish: {
        allOf: [{ $ref: '#/components/schemas/Animal' }, { type: 'object', properties: { fins: { type: 'integer' }, salt_water: { type: 'boolean' } } }],
      },
    },
  },
};

describe('unions through OpenAPI', () => {
  for (const version of ['3.1', '3.0'] as OpenApiVersion[]) {
    it(`exports a union as oneOf of components with a discriminator mapping, and imports it back unchanged (OpenAPI ${version})`, async () => {
      const c = compileSpecText(UNION_SPEC);
      const doc = exportOpenApi(c.model!, { openapi: version }).document as Json;
      const schemas = (doc.components as Json).schemas as Json;
      expect(((schemas.Payment as Json).properties as Json).method).toEqual({
        type: 'object',
        oneOf: [{ $ref: '#/components/schemas/card' }, { $ref: '#/components/schemas/bank_transfer' }],
        discriminator: { propertyName: 'kind', mapping: { card: '#/components/schemas/card', bank: '#/components/schemas/bank_transfer' } },
      });
      // method in Payment and in PaymentCreate, and quote's response
      expect(countDiscriminators(doc.paths) + countDiscriminators(schemas)).toBe(3);
      const r = await importOpenApiDocument(JSON.parse(JSON.stringify(doc)) as unknown, 'unions.json');
      const original = parseYaml(UNION_SPEC) as Json;
      const back = r.document as unknown as Json;
      expect(((back.resources as Json).Payment as Json).fields).toEqual(((original.resources as Json).Payment as Json).fields);
      const ops = (back.endpoints as Json).operations as Record<string, Json>;
      const originalOps = (original.endpoints as Json).operations as Record<string, Json>;
      expect(ops.quote!.request).toEqual(originalOps.quote!.request);
      expect(ops.quote!.response).toEqual(originalOps.quote!.response);
      expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    });
  }

  it('imports oneOf + discriminator mapping, an allOf base with a discriminator, and an untagged anyOf as unions, and exports every one back with every subtype property', async () => {
    const r = await importOpenApiDocument(structuredClone(PETS) as unknown, 'pets.json');
    expect(r.diagnostics.filter((d) => /discriminator|one of \d+ shapes|choice of schemas/.test(d.message))).toEqual([]);
    const ops = r.document!.endpoints!.operations!;
    expect(ops.addPet!.request).toEqual({
      discriminator: 'pet_type',
      variants: {
        Cat: { tag: 'cat', fields: { name: { type: 'string' }, hunts: { type: 'boolean', optional: true } } },
        Dog: {
          tag: 'dog',
          fields: { name: { type: 'string' }, bark: { type: 'boolean' }, breed: { type: 'enum', optional: true, values: ['Dingo', 'Husky'] } },
        },
      },
    });
    expect(ops.animals!.response).toMatchObject({
      discriminator: 'kind',
      list: true,
      variants: {
        Bird: { fields: { legs: { type: 'integer', optional: true }, wingspan: { type: 'number', optional: true } } },
        Fish: { fields: { legs: {}, fins: {}, salt_water: {} } },
      },
    });
    expect(ops.shape!.request).toEqual({
      variants: { variant_1: { fields: { radius: { type: 'number' } } }, variant_2: { fields: { side: { type: 'number' } } } },
    });
    expect(r.compiled!.diagnostics.filter((d) => d.code.startsWith('union-'))).toEqual([]);

    const exported = exportOpenApi(r.compiled!.model!).document as Json;
    const before = unionsOf(PETS as unknown as Json);
    const after = unionsOf(exported);
    // 3 discriminators in the original (NewPet, Animal… and NewPet used twice): each body's union comes back at its place
    expect(countDiscriminators(PETS)).toBe(2);
    expect([...before.keys()].sort()).toEqual([
      'get /pets 200 application/json[]',
      'post /pets 200 application/json',
      'post /pets request application/json',
      'post /shapes request application/json',
    ]);
    for (const [place, u] of before) expect(after.get(place), place).toEqual(u);
    const subtypeProps = [...before.values()].reduce((n, u) => n + Object.values(u.variants).reduce((m, p) => m + p.length, 0), 0);
    expect(subtypeProps).toBe(5 + 5 + 5 + 2); // request and response pets, animals, shapes
  });

  it('says a discriminator property the subtypes do not require is imported as a tag every value holds (adyen-session: Resource.type)', async () => {
    // adyen-session's shape: an allOf base whose discriminator property is optional, a mapping, subtypes requiring
    // only their own field. OpenAPI leaves the subtype of a value without `type` undefined; the union requires it.
    const doc = structuredClone(PETS) as Json;
    const schemas = (doc.components as Json).schemas as Json;
    (schemas.Animal as Json).required = [];
    (schemas.Animal as Json).discriminator = { propertyName: 'kind', mapping: { bird: '#/components/schemas/Bird', fish: '#/components/schemas/Fish' } };
    (schemas.Fish as Json).required = ['kind'];
    const r = await importOpenApiDocument(doc as unknown, 'pets.json');
    expect(r.document!.endpoints!.operations!.animals!.response).toMatchObject({
      discriminator: 'kind',
      variants: { Bird: { tag: 'bird' }, Fish: { tag: 'fish' } },
    });
    const said = r.diagnostics.filter((d) => d.code === 'import-approximated' && /discriminator/.test(d.message));
    expect(said.map((d) => [d.pointer, d.message])).toEqual([
      [expect.stringMatching(/^#?\/components\/schemas\/Animal\/discriminator$/), expect.stringContaining('a tag every value holds: Bird does not require it')],
    ]);
    // Required where every subtype requires it (NewPet's Cat and Dog): nothing said.
    expect(said[0]!.message).not.toMatch(/Fish/);
  });

  it('imports a discriminator two variants share a value of as an untagged union, each keeping the property, and says so (openai-openapi: RealtimeConversationItem)', async () => {
    // OpenAI's shape: an anyOf with `discriminator: { propertyName: type }` and no mapping, whose system and user
    // messages both hold `type: message` (told apart by `role`). The tag cannot say which variant a value is: the
    // import was refused whole (union-tag-duplicate).
    const message = (role: string) => ({
      type: 'object',
      required: ['type', 'role', 'content'],
      properties: { type: { type: 'string', enum: ['message'] }, role: { type: 'string', enum: [role] }, content: { type: 'string' } },
    });
    const doc = {
      openapi: '3.0.3',
      info: { title: 'items', version: '1' },
      paths: {
        '/items': {
          post: {
            operationId: 'addItem',
            requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } },
            responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } } },
          },
        },
      },
      components: {
        schemas: {
          Item: {
            anyOf: [
              { $ref: '#/components/schemas/SystemMessage' },
              { $ref: '#/components/schemas/UserMessage' },
              { $ref: '#/components/schemas/FunctionCall' },
            ],
            discriminator: { propertyName: 'type' },
          },
          SystemMessage: message('system'),
          UserMessage: message('user'),
          FunctionCall: {
            type: 'object',
            required: ['type', 'name'],
            properties: { type: { type: 'string', enum: ['function_call'] }, name: { type: 'string' } },
          },
        },
      },
    };
    const r = await importOpenApiDocument(doc as unknown, 'items.json');
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const shapes = r.document!.shapes as Record<string, { discriminator?: string; variants: Record<string, { tag?: string; fields: Json }> }>;
    const item = shapes.Item!;
    expect(item.discriminator).toBeUndefined();
    expect(Object.keys(item.variants)).toEqual(['SystemMessage', 'UserMessage', 'FunctionCall']);
    expect(item.variants.UserMessage!.fields.type).toEqual({ type: 'enum', values: ['message'] });
    expect(item.variants.UserMessage!.fields.role).toEqual({ type: 'enum', values: ['user'] });
    expect(item.variants.FunctionCall!.fields.type).toEqual({ type: 'enum', values: ['function_call'] });
    const said = r.diagnostics.filter((d) => d.code === 'import-approximated' && /discriminator/.test(d.message));
    // Said once, though the union is both the request and the response.
    expect(said.map((d) => [d.pointer, d.message])).toEqual([
      [expect.stringMatching(/^#?\/components\/schemas\/Item\/discriminator$/), expect.stringContaining('have the same tag `message`')],
    ]);
  });

  it('keeps a oneOf of things other than objects as json, and says so', async () => {
    const doc = structuredClone(PETS) as Json;
    (((doc.components as Json).schemas as Json).Cat as Json).properties = {
      pet_type: { type: 'string' },
      id: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
    };
    const r = await importOpenApiDocument(doc as unknown, 'pets.json');
    const cat = (r.document!.endpoints!.operations!.addPet!.request as { variants: Record<string, { fields: Json }> }).variants.Cat!;
    expect(cat.fields.id).toEqual({ type: 'json', optional: true });
    expect(r.diagnostics.filter((d) => d.code === 'import-approximated' && d.message.includes('choice of schemas (oneOf)')).map((d) => d.pointer)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^#?\/components\/schemas\/Cat\/properties\/id$/)]),
    );
  });

  it('keeps every discriminator of the public corpus documents through import → export', async () => {
    // The corpus as the repository holds it (test/fixtures/openapi: the same files as ../shared/openapi-corpus).
    const dir = OPENAPI_FIXTURES;
    let total = 0;
    const discriminated: string[] = [];
    for (const file of readdirSync(dir).filter((f) => /\.(ya?ml|json)$/.test(f))) {
      const text = readFileSync(join(dir, file), 'utf8');
      const doc = (file.endsWith('.json') ? JSON.parse(text) : parseYaml(text)) as Json;
      const before = unionsOf(doc);
      total += before.size;
      for (const [place, u] of before) if (u.discriminator !== undefined) discriminated.push(`${file} ${place} by ${u.discriminator}`);
      if (before.size === 0) continue;
      const r = await importOpenApiDocument(doc as unknown, file);
      const after = unionsOf(exportOpenApi(r.compiled!.model!).document as Json);
      // What the import says it reads as another shape (a oneOf of arrays: ably's GET /channels) is said, not kept;
      // a `2XX` range comes back as the status it is served with (import-approximated at the range).
      const said = r.diagnostics.filter((d) => d.code === 'import-approximated').map((d) => d.pointer ?? '');
      for (const [place, u] of before) {
        const [method, path, status, media] = place.split(' ') as [string, string, string, string];
        if (!/^application\/(.+\+)?json(\[\])?(\..*)?$/.test(media)) continue; // only JSON bodies are part of the format
        const at = `/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}/${status === 'request' ? 'requestBody' : `responses/${status}`}`;
        if (said.some((p) => p.startsWith(`${at}/content/`) && /\/(oneOf|anyOf)$/.test(p))) continue;
        const served = /XX$/.test(status) && said.includes(at) ? `${status[0]}00` : status;
        expect(after.get([method, path, served, media].join(' ')), `${file} ${place}`).toEqual(u);
      }
    }
    // Bodies that are a choice: ably-platform's six, over its JSON and msgpack bodies (e.g. its channel subscription's
    // oneOf of two objects, kept as a union, and GET /channels' oneOf of two arrays, said), vonage-dispatch's untagged
    // oneOf in `workflow[]`, and adyen-session's allOf base `Resource` with a discriminator and a mapping of three
    // subtypes in `policy.resources[]` (kubernetes names the word in descriptions only). The counts fail when a
    // document with one is added.
    expect(total).toBe(8);
    expect(discriminated).toEqual(['adyen-session-authentication-v1.yaml post /sessions request application/json.policy.resources[] by type']);
  });
});
