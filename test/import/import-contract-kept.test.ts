// Import never changes the contract silently (issue 26, item 8): what the original requires of a request stays
// required when served, and what it lets a client send is accepted. Each case was a defect: the runtime, serving the
// imported spec, answered the original's valid requests differently from what the original says.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { importOpenApiDocument, importOpenApiFile } from '../../src/import/import-openapi.js';
import { OPENAPI_FIXTURES } from '../export/helpers.js';
import { startService } from '../runtime/helpers.js';

type Json = Record<string, unknown>;

/** A create whose body is the resource's own schema: `kind` is required and has a default; so is nested `size.unit`. */
const WITH_DEFAULTS = {
  openapi: '3.0.3',
  info: { title: 'Pets', version: '1' },
  paths: {
    '/pets': {
      post: {
        operationId: 'createPet',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
        responses: { '201': { description: 'made', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } },
      },
    },
    '/pets/{id}': {
      get: {
        operationId: 'readPet',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } },
      },
    },
  },
  components: {
    schemas: {
      Pet: {
        type: 'object',
        required: ['id', 'name', 'kind'],
        properties: {
          id: { type: 'string', format: 'uuid', readOnly: true },
          name: { type: 'string' },
          kind: { type: 'string', default: 'dog' },
          size: { type: 'object', required: ['unit'], properties: { unit: { type: 'string', default: 'cm' }, value: { type: 'number' } } },
        },
      },
    },
  },
};

describe('import keeps what a request must send', () => {
  it('a required property with a default stays required in requests (requiredInRequests), served and exported so', async () => {
    const r = await importOpenApiDocument(structuredClone(WITH_DEFAULTS) as unknown, 'pets.json');
    const fields = r.document!.resources!.Pet!.fields!;
    expect(fields.kind).toMatchObject({ type: 'string', default: 'dog', requiredInRequests: true });
    expect(fields.kind!.optional).toBeUndefined();
    expect(fields.size!.fields!.unit).toMatchObject({ default: 'cm', requiredInRequests: true });
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);

    const s = await startService(r.compiled!.model!);
    try {
      const left = await s.call('POST', '/pets', { name: 'Rex' });
      expect(left.status, 'the original requires kind').toBe(422);
      expect(JSON.stringify(left.body)).toContain('kind');
      const nested = await s.call('POST', '/pets', { name: 'Rex', kind: 'cat', size: { value: 3 } });
      expect(nested.status, 'the original requires size.unit').toBe(422);
      const made = await s.call('POST', '/pets', { name: 'Rex', kind: 'cat', size: { unit: 'in', value: 3 } });
      expect(made.status).toBe(201);
      expect(made.body).toMatchObject({ name: 'Rex', kind: 'cat', size: { unit: 'in', value: 3 } });
    } finally {
      await s.close();
    }

    // exported: the create body requires kind and still documents its default; back through import, unchanged
    const doc = exportOpenApi(r.compiled!.model!).document as Json;
    // The imported create takes unknown members (the original's body is open): its component is the open view.
    const create = (doc.components as { schemas: Record<string, Json> }).schemas.PetCreateOpen!;
    expect(create.required).toEqual(['name', 'kind']);
    expect((create.properties as Record<string, Json>).kind).toMatchObject({ default: 'dog' });
    const again = await importOpenApiDocument(JSON.parse(JSON.stringify(doc)) as unknown, 'again.json');
    expect(again.document!.resources!.Pet!.fields!.kind).toMatchObject({ default: 'dog', requiredInRequests: true });
  });

  it('a default on a property the request body does not require still fills it in (no requiredInRequests)', async () => {
    const doc = structuredClone(WITH_DEFAULTS) as unknown as {
      paths: Record<string, { post?: { requestBody: unknown } }>;
      components: { schemas: Record<string, Json> };
    };
    doc.components.schemas.NewPet = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, kind: { type: 'string', default: 'dog' } } };
    doc.paths['/pets']!.post!.requestBody = { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPet' } } } };
    const r = await importOpenApiDocument(doc as unknown, 'pets.json');
    expect(r.document!.resources!.Pet!.fields!.kind).toEqual({ type: 'string', default: 'dog' });
    const s = await startService(r.compiled!.model!);
    try {
      const made = await s.call('POST', '/pets', { name: 'Rex' });
      expect(made.status).toBe(201);
      expect(made.body.kind).toBe('dog');
    } finally {
      await s.close();
    }
  });

  it('says where a request body and the answer disagree on whether a property must be sent, naming the pointer', async () => {
    const doc = structuredClone(WITH_DEFAULTS) as unknown as {
      paths: Record<string, { post?: { requestBody: unknown } }>;
      components: { schemas: Record<string, Json> };
    };
    // The request may leave `name` out, but the answer (Pet) always holds it; the request requires `nick`, which the answer may leave out.
    (doc.components.schemas.Pet!.properties as Json).nick = { type: 'string' };
    doc.components.schemas.NewPet = {
      type: 'object',
      required: ['kind', 'nick'],
      properties: { name: { type: 'string' }, kind: { type: 'string' }, nick: { type: 'string' } },
    };
    doc.paths['/pets']!.post!.requestBody = { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPet' } } } };
    const r = await importOpenApiDocument(doc as unknown, 'pets.json');
    const said = r.diagnostics.filter((d) => d.code === 'import-approximated' && d.message.includes('request property'));
    // `name`, which the request may leave out and the answer always holds, is optionalInRequests: nothing approximated.
    expect(said.map((d) => d.pointer).sort()).toEqual(['/components/schemas/NewPet/properties/nick']);
    expect(r.document!.resources!.Pet!.fields!.name).toMatchObject({ type: 'string', optionalInRequests: true });
    expect(JSON.stringify(r.gaps)).toContain('value of a field a request leaves out');
  });

  it("petstore's client-supplied `id`: POST /pets takes the original's valid body, GET /pets/{petId} reads it back", async () => {
    const r = await importOpenApiFile(join(OPENAPI_FIXTURES, 'oai-petstore.yaml'));
    expect(r.document!.resources!.Pet).toMatchObject({ identifier_source: 'client' });
    expect(r.document!.endpoints!.operations!.createPets).toMatchObject({ action: 'create', resource: 'Pet' });
    // The create's 201 declares no body; the format's create answers with the object: said, at the response.
    expect(r.diagnostics.find((d) => d.code === 'import-approximated' && d.pointer === '/paths/~1pets/post/responses/201')).toBeDefined();
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const s = await startService(r.compiled!.model!);
    try {
      const made = await s.call('POST', '/pets', { id: 7, name: 'Rex', tag: 'dog' });
      expect(made.status).toBe(201);
      expect(made.body).toEqual({ id: 7, name: 'Rex', tag: 'dog' });
      const read = await s.call('GET', '/pets/7');
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ id: 7, name: 'Rex', tag: 'dog' });
      // the original requires id: a body without one is refused, and an id taken twice is a conflict
      expect((await s.call('POST', '/pets', { name: 'Tom' })).status).toBe(422);
      expect((await s.call('POST', '/pets', { id: 7, name: 'Tom' })).status).toBe(409);
      // the original's int64 allows 0 and negative ids (the server's own count from 1): read back alike
      expect((await s.call('POST', '/pets', { id: -3, name: 'Neg' })).status).toBe(201);
      expect((await s.call('GET', '/pets/-3')).body).toEqual({ id: -3, name: 'Neg' });
      const list = await s.call('GET', '/pets');
      expect(list.body).toEqual([
        { id: -3, name: 'Neg' },
        { id: 7, name: 'Rex', tag: 'dog' },
      ]);
    } finally {
      await s.close();
    }
    // exported, the create body carries the id, and the resource says who gives it: back through import, unchanged
    const doc = exportOpenApi(r.compiled!.model!).document as Json;
    const schemas = (doc.components as { schemas: Record<string, Json> }).schemas;
    expect(schemas.PetCreateOpen!.required).toEqual(['id', 'name']);
    const again = await importOpenApiDocument(JSON.parse(JSON.stringify(doc)) as unknown, 'again.json');
    expect(again.document!.resources!.Pet).toMatchObject({ identifier_source: 'client' });
  });

  it("an identifier the create request may leave out stays the server's, said at the request property", async () => {
    const doc = structuredClone(WITH_DEFAULTS) as unknown as { components: { schemas: Record<string, Json> } };
    const pet = doc.components.schemas.Pet!;
    (pet.properties as Record<string, Json>).id = { type: 'integer' };
    doc.components.schemas.NewPet = {
      type: 'object',
      required: ['name', 'kind'],
      properties: { id: { type: 'integer' }, name: { type: 'string' }, kind: { type: 'string' } },
    };
    (doc as unknown as { paths: Record<string, { post?: { requestBody: unknown } }> }).paths['/pets']!.post!.requestBody = {
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPet' } } },
    };
    const r = await importOpenApiDocument(doc as unknown, 'pets.json');
    expect(r.document!.resources!.Pet!.identifier_source).toBeUndefined();
    expect(r.diagnostics.find((d) => d.code === 'import-approximated' && d.pointer === '/components/schemas/NewPet/properties/id')).toBeDefined();
  });
});

describe('optionalInRequests from the request bodies', () => {
  it('optional in the create, required in the replace: `create`; optional in both: true', async () => {
    const pet = {
      type: 'object',
      required: ['id', 'name', 'note'],
      properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' }, note: { type: 'string' } },
    };
    const body = (required: string[]) => ({
      required: true,
      content: { 'application/json': { schema: { type: 'object', required, properties: { name: { type: 'string' }, note: { type: 'string' } } } } },
    });
    const ref = { $ref: '#/components/schemas/Pet' };
    const doc = (replaceRequires: string[]) => ({
      openapi: '3.0.3',
      components: { schemas: { Pet: pet } },
      info: { title: 'Pets', version: '1' },
      paths: {
        '/pets': {
          post: {
            operationId: 'createPet',
            requestBody: body(['name']),
            responses: { '201': { description: 'made', content: { 'application/json': { schema: ref } } } },
          },
        },
        '/pets/{id}': {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          get: { operationId: 'getPet', responses: { '200': { description: 'ok', content: { 'application/json': { schema: ref } } } } },
          put: {
            operationId: 'replacePet',
            requestBody: body(replaceRequires),
            responses: { '200': { description: 'ok', content: { 'application/json': { schema: ref } } } },
          },
        },
      },
    });
    const strict = await importOpenApiDocument(doc(['name', 'note']), 'pets.json');
    expect(strict.document!.endpoints!.operations!.replacePet!.action).toBe('replace');
    expect(strict.document!.resources!.Pet!.fields!.note).toMatchObject({ optionalInRequests: 'create' });
    const lax = await importOpenApiDocument(doc(['name']), 'pets.json');
    expect(lax.document!.resources!.Pet!.fields!.note).toMatchObject({ optionalInRequests: true });
  });
});

describe('optionalInRequests across two creates', () => {
  it('a create that requires the property holds every create to it, whichever is read first', async () => {
    const pet = {
      type: 'object',
      required: ['id', 'name', 'note'],
      properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' }, note: { type: 'string' } },
    };
    const ref = { $ref: '#/components/schemas/Pet' };
    const body = (required: string[]) => ({
      required: true,
      content: { 'application/json': { schema: { type: 'object', required, properties: { name: { type: 'string' }, note: { type: 'string' } } } } },
    });
    const create = (id: string, required: string[]) => ({
      post: { operationId: id, requestBody: body(required), responses: { '201': { description: 'made', content: { 'application/json': { schema: ref } } } } },
    });
    for (const [first, second] of [
      [['name'], ['name', 'note']],
      [['name', 'note'], ['name']],
    ] as const) {
      const doc = {
        openapi: '3.0.3',
        info: { title: 'Pets', version: '1' },
        components: { schemas: { Pet: pet } },
        paths: {
          '/pets': create('createPet', [...first]),
          '/v2/pets': create('admitPet', [...second]),
          '/pets/{id}': {
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
            get: { operationId: 'getPet', responses: { '200': { description: 'ok', content: { 'application/json': { schema: ref } } } } },
          },
        },
      };
      const r = await importOpenApiDocument(doc, 'pets.json');
      expect(r.document!.resources!.Pet!.fields!.note!.optionalInRequests).toBeUndefined();
    }
  });
});

describe('import keeps a null the answer may hold and a request may not send', () => {
  const doc = (createNullable: boolean) => ({
    openapi: '3.0.3',
    info: { title: 'Tickets', version: '1' },
    paths: {
      '/tickets': {
        post: {
          operationId: 'createTicket',
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/TicketCreate' } } } },
          responses: { '201': { description: 'made', content: { 'application/json': { schema: { $ref: '#/components/schemas/Ticket' } } } } },
        },
      },
    },
    components: {
      schemas: {
        Ticket: {
          type: 'object',
          required: ['id', 'note'],
          properties: { id: { type: 'integer', readOnly: true }, note: { type: 'string', nullable: true } },
        },
        TicketCreate: { type: 'object', properties: { note: { type: 'string', nullable: createNullable } } },
      },
    },
  });

  it('a create property that is not nullable, of a field the answer may hold null in: `nullable: answers`, nothing approximated', async () => {
    const r = await importOpenApiDocument(doc(false), 'tickets.json');
    expect(r.document!.resources!.Ticket!.fields!.note!.nullable).toBe('answers');
    expect(r.diagnostics.filter((d) => d.code === 'import-approximated')).toEqual([]);
    const same = await importOpenApiDocument(doc(true), 'tickets.json');
    expect(same.document!.resources!.Ticket!.fields!.note!.nullable).toBe(true);
  });
});

describe('import says where alternatives asked different scopes', () => {
  const doc = (apiKeyScopes: string[]) => ({
    openapi: '3.1.0',
    info: { title: 'CMS', version: '1' },
    components: {
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/oauth/token', scopes: { 'content:read': 'read' } } } },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
      },
    },
    paths: {
      '/articles': {
        get: {
          operationId: 'listArticles',
          security: [{ oauth2: ['content:read'] }, { apiKey: apiKeyScopes }],
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { type: 'object' } } } } } },
        },
      },
    },
  });

  it('an API key asking no scope beside OAuth2 asking content:read: import-approximated at the requirement', async () => {
    const r = await importOpenApiDocument(doc([]), 'cms.json');
    const said = r.diagnostics.filter((d) => d.code === 'import-approximated' && d.message.includes('alternatives'));
    expect(said.map((d) => [d.pointer, d.message])).toEqual([
      [
        '/paths/~1articles/get/security',
        "the requirement with alternatives (oauth2: content:read; apiKey: no scopes) is imported as one requirement asking content:read of a credential of any of its schemes: a requirement's scopes are one list for all its schemes: a credential of a scheme that asked fewer must now carry them",
      ],
    ]);
    const same = await importOpenApiDocument(doc(['content:read']), 'cms.json');
    expect(same.diagnostics.filter((d) => d.message.includes('alternatives'))).toEqual([]);
  });
});

describe('a read-only field that can hold one value only', () => {
  it('(a const, an enum of one) takes it as its default, stays required, and every served answer carries it', async () => {
    const article = {
      type: 'object',
      required: ['id', 'title', 'schema_version', 'object'],
      properties: {
        id: { type: 'string', format: 'uuid', readOnly: true },
        title: { type: 'string' },
        schema_version: { const: 2, readOnly: true },
        object: { type: 'string', enum: ['article'], readOnly: true },
      },
    };
    const ok = (status: string) => ({ [status]: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Article' } } } } });
    const r = await importOpenApiDocument(
      {
        openapi: '3.1.0',
        info: { title: 'CMS', version: '1' },
        paths: {
          '/articles': {
            post: {
              operationId: 'createArticle',
              requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Article' } } } },
              responses: ok('201'),
            },
          },
          '/articles/{id}': {
            get: { operationId: 'getArticle', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: ok('200') },
          },
        },
        components: { schemas: { Article: article } },
      },
      'cms.json',
    );
    const fields = r.document!.resources!.Article!.fields!;
    expect(fields.schema_version).toMatchObject({ type: 'enum', values: [2], default: 2, readOnly: true });
    expect(fields.schema_version!.optional).toBeUndefined();
    expect(fields.object).toMatchObject({ type: 'enum', values: ['article'], default: 'article' });
    expect(r.diagnostics.filter((d) => d.message.includes('schema_version'))).toEqual([]);
    const s = await startService(r.compiled!.model!);
    try {
      const made = await s.call('POST', '/articles', { title: 'Hello' });
      expect(made.status).toBe(201);
      expect(made.body).toMatchObject({ title: 'Hello', schema_version: 2, object: 'article' });
    } finally {
      await s.close();
    }
  });
});
