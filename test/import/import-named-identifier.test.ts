// A one-parameter item path naming a field of a resource that has no identifier (docs/import.md, "Resource actions"):
// giphy's `GET /gifs/{gifId}`, an int32 parameter naming a Gif's optional string `id` (by the resource's name and
// `Id`), and `GET /users/{username}` naming a User's optional `username`. Before, both stayed custom operations the
// service answered 501; now each is a read bound to that field, the field declared unique and the parameter's other
// type said, and the served read finds the object by it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import type { ServiceModel } from '../../src/model/model-types.js';
import { startService, type Running } from '../runtime/helpers.js';

const DOC = {
  openapi: '3.0.3',
  info: { title: 'named identifiers', version: '1' },
  paths: {
    '/gifs': {
      get: {
        operationId: 'listGifs',
        responses: {
          '200': { description: 'Gifs.', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Gif' } } } } },
        },
      },
    },
    '/gifs/{gifId}': {
      get: {
        operationId: 'getGifById',
        parameters: [{ name: 'gifId', in: 'path', required: true, schema: { type: 'integer', format: 'int32' } }],
        responses: {
          '200': { description: 'The Gif.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Gif' } } } },
          '404': { description: 'None.' },
        },
      },
    },
    '/users/{username}': {
      get: {
        operationId: 'getUserByName',
        parameters: [{ name: 'username', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'The user.', content: { 'application/json': { schema: { $ref: '#/components/schemas/User' } } } } },
      },
    },
    '/pets/{ownerId}': {
      get: {
        operationId: 'getPetByOwner',
        parameters: [{ name: 'ownerId', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'A pet.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } },
      },
    },
  },
  components: {
    schemas: {
      Gif: { type: 'object', properties: { id: { type: 'string', description: "This GIF's unique ID" }, title: { type: 'string' } } },
      User: { type: 'object', properties: { username: { type: 'string' }, name: { type: 'string' } } },
      Pet: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } },
    },
  },
};

describe('a path parameter naming a field of a resource with no identifier', () => {
  let model: ServiceModel;
  let diagnostics: { code: string; message: string; pointer?: string }[];
  let s: Running;
  beforeAll(async () => {
    const r = await importOpenApiDocument(structuredClone(DOC), 'named.json');
    expect(r.compiled!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    model = r.compiled!.model!;
    diagnostics = r.diagnostics.map((d) => ({ code: d.code, message: d.message, pointer: d.pointer }));
    s = await startService(model);
  }, 60_000);
  afterAll(async () => s?.close());

  it('reads by it (the resource name and Id naming `id`, or the same name), the field declared unique', () => {
    const ops = Object.fromEntries(model.endpoints!.operations.map((o) => [o.id, [o.action, o.bindings?.map((b) => `${b.param}=${b.field}`).join(' ')]]));
    expect(ops).toEqual({
      listGifs: ['list', undefined],
      getGifById: ['read', 'gifId=id'],
      getUserByName: ['read', 'username=username'],
      // {ownerId} is no Pet's name and Id, and names no field of Pet: nothing is guessed
      getPetByOwner: ['custom', undefined],
    });
    const unique = (r: string) =>
      model.resources
        .find((x) => x.name === r)!
        .fields.filter((f) => f.unique)
        .map((f) => [f.name, f.optional]);
    expect([unique('Gif'), unique('User'), unique('Pet')]).toEqual([[['id', true]], [['username', true]], []]);
    expect(diagnostics.filter((d) => d.code === 'import-approximated')).toEqual([
      {
        code: 'import-approximated',
        message: 'resource Gif field `id` is imported as a unique field: GET /gifs/{gifId} addresses one Gif by it, and Gif has no identifier',
        pointer: '/paths/~1gifs~1{gifId}/get',
      },
      {
        code: 'import-approximated',
        message:
          "operation getGifById: path parameter {gifId} (integer) is imported as the Gif field `id` it names (string): a path parameter bound to a field takes that field's values, every integer written as text among them",
        pointer: '/paths/~1gifs~1{gifId}/get/parameters/0',
      },
      {
        code: 'import-approximated',
        message: 'resource User field `username` is imported as a unique field: GET /users/{username} addresses one User by it, and User has no identifier',
        pointer: '/paths/~1users~1{username}/get',
      },
    ]);
  });

  it('serves the read: the object holding the value, else 404 (an integer the document sends names none)', async () => {
    await s.storage.transaction((tx) => tx.insert('Gif', { id: 'YsTs5ltWtEhnq', title: 'a' }));
    const found = await s.call('GET', '/gifs/YsTs5ltWtEhnq');
    expect([found.status, found.body]).toEqual([200, { id: 'YsTs5ltWtEhnq', title: 'a' }]);
    expect((await s.call('GET', '/gifs/123')).status).toBe(404);
    expect((await s.call('GET', '/users/ada')).status).toBe(404);
  });
});
