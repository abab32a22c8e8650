import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, describe, expect, it } from 'vitest';
import { generateClient } from '../../src/export/export-client.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { startService, type Running } from '../runtime/helpers.js';

// OpenAPI's `writeOnly: true` (a password) becomes the field's `writeOnly`: the imported service stores it and never
// answers it, and the export says `writeOnly` again, with answer schemas that leave it out.

type Json = Record<string, unknown>;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
let service: Running | undefined;
afterAll(async () => service?.close());

const ref = { $ref: '#/components/schemas/User' };
const jsonBody = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const openapi: Json = {
  openapi: '3.1.0',
  info: { title: 'Users', version: '1' },
  paths: {
    '/users': {
      get: {
        operationId: 'listUsers',
        parameters: [{ name: 'password', in: 'query', schema: { type: 'string' } }],
        responses: { '200': { description: 'ok', ...jsonBody({ type: 'object', required: ['items'], properties: { items: { type: 'array', items: ref } } }) } },
      },
      post: { operationId: 'createUser', requestBody: jsonBody(ref), responses: { '201': { description: 'made', ...jsonBody(ref) } } },
    },
    '/users/{id}': {
      get: {
        operationId: 'getUser',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
        responses: { '200': { description: 'ok', ...jsonBody(ref) } },
      },
    },
  },
  components: {
    schemas: {
      User: {
        type: 'object',
        required: ['id', 'name', 'password'],
        properties: {
          id: { type: 'string', format: 'uuid', readOnly: true },
          name: { type: 'string' },
          password: { type: 'string', writeOnly: true, minLength: 8 },
          profile: { type: 'object', properties: { pin: { type: 'string', writeOnly: true } } },
        },
      },
    },
  },
};

describe('an OpenAPI writeOnly property', () => {
  it('imports as a write-only field the service stores and never answers', async () => {
    const r = await importOpenApiDocument(openapi, 'users.json');
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const fields = r.document!.resources!.User!.fields!;
    expect(fields.password).toMatchObject({ type: 'string', writeOnly: true });
    // A nested property cannot be write-only in the format: said, not carried.
    expect(fields.profile!.fields!.pin!.writeOnly).toBeUndefined();
    const dropped = r.diagnostics.filter((d) => d.code === 'import-dropped').map((d) => d.message);
    expect(dropped.some((m) => m.includes('profile.pin: writeOnly'))).toBe(true);
    expect(dropped.some((m) => m.startsWith('resource User.password: writeOnly'))).toBe(false);
    // A query parameter named after the write-only field is no filter (it would tell the value apart).
    expect(r.document!.endpoints!.operations!.listUsers!.filter ?? []).not.toContain('password');

    service = await startService(r.compiled!.model!);
    const made = await service.call('POST', '/users', { name: 'ann', password: 'correct horse' });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({ id: made.body.id, name: 'ann' });
    expect((await service.call('GET', `/users/${String(made.body.id)}`)).body).toEqual(made.body);
    expect((await service.call('GET', '/users')).body.items).toEqual([made.body]);
    expect((await service.call('POST', '/users', { name: 'bo', password: 'short' })).status).toBe(422);
  });

  it('exports writeOnly on the request property; the answers without it validate against the answer schema', async () => {
    const r = await importOpenApiDocument(openapi, 'users.json');
    const doc = exportOpenApi(r.compiled!.model!).document as { components: { schemas: Record<string, Json & { properties: Record<string, Json> }> } };
    const schemas = doc.components.schemas;
    // The answer's component lists it as OpenAPI does: optional, writeOnly; the request's marks it writeOnly too.
    expect(schemas.User!.properties.password).toMatchObject({ type: 'string', writeOnly: true });
    expect(schemas.User!.required).not.toContain('password');
    const request = Object.entries(schemas).find(([k, s]) => k !== 'User' && s.properties?.password !== undefined)?.[1];
    expect(request?.properties.password).toMatchObject({ type: 'string', writeOnly: true });
    expect(request?.required).toContain('password');
    const ajv = addFormats(new Ajv2020({ strict: false }));
    const validate = ajv.compile(schemas.User!);
    expect(validate({ id: '7f1e8a52-2f7a-4c5e-9b43-0a1b2c3d4e5f', name: 'ann' })).toBe(true);
    // The typed client: the answer's type has no password, the create request's requires one.
    const code = generateClient(r.compiled!.model!).code;
    const block = (name: string) => new RegExp(`export interface ${name} \\{[^}]*\\}`).exec(code)?.[0] ?? '';
    expect(block('User')).toContain('name: string');
    expect(block('User')).not.toContain('password');
    expect(code).toMatch(/export interface \w+ \{[^}]*\n\s+password: string;[^}]*\}/);
    // And back: the exported document imports with the field write-only again.
    const again = await importOpenApiDocument(doc as unknown as Json, 'users-export.json');
    expect(again.document!.resources!.User!.fields!.password).toMatchObject({ writeOnly: true });
    // Still required: the answer never holds it, so the request bodies say (it came back optional before).
    expect(again.document!.resources!.User!.fields!.password!.optional).toBeUndefined();
    expect(again.document!.resources!.User!.fields!.password).toEqual(r.document!.resources!.User!.fields!.password);
  });

  // A document whose answer schema leaves the write-only property out of `required` (as OpenAPI 3.1's JSON Schema
  // needs: an answer never holds it) and whose request bodies require it.
  const split = (replaceRequires: boolean): Json => {
    const user = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string', format: 'uuid', readOnly: true }, name: { type: 'string' } } };
    const body = (required: string[]) => ({
      type: 'object',
      required,
      properties: { name: { type: 'string' }, password: { type: 'string', writeOnly: true } },
    });
    const answer = { $ref: '#/components/schemas/User' };
    const id = [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }];
    return {
      openapi: '3.1.0',
      info: { title: 'Users', version: '1' },
      paths: {
        '/users': {
          post: {
            operationId: 'createUser',
            requestBody: jsonBody(body(['name', 'password'])),
            responses: { '201': { description: 'made', ...jsonBody(answer) } },
          },
        },
        '/users/{id}': {
          get: { operationId: 'getUser', parameters: id, responses: { '200': { description: 'ok', ...jsonBody(answer) } } },
          put: {
            operationId: 'replaceUser',
            parameters: id,
            requestBody: jsonBody(body(replaceRequires ? ['name', 'password'] : ['name'])),
            responses: { '200': { description: 'ok', ...jsonBody(answer) } },
          },
        },
      },
      components: { schemas: { User: { ...user, properties: { ...user.properties, password: { type: 'string', writeOnly: true } } } } },
    };
  };

  it('is required where every create and replace body requires it', async () => {
    const r = await importOpenApiDocument(split(true), 'users.json');
    expect(r.document!.resources!.User!.fields!.password).toEqual({ type: 'string', writeOnly: true });
    expect(r.diagnostics.filter((d) => d.code === 'import-approximated' && d.message.includes('password'))).toEqual([]);
  });

  it('stays optional, said at the body that requires it, where a replace body may leave it out', async () => {
    const r = await importOpenApiDocument(split(false), 'users.json');
    expect(r.document!.resources!.User!.fields!.password).toEqual({ type: 'string', optional: true, writeOnly: true });
    const said = r.diagnostics.filter((d) => d.code === 'import-approximated' && d.message.includes('password'));
    expect(said.map((d) => d.message)).toEqual([expect.stringContaining('operation createUser: request property `password` (required)')]);
    expect(said[0]!.pointer).toMatch(/\/properties\/password$/);
  });
});
