// A 415 response only some operations with a body list (a merge-patch PATCH) is theirs: the import no longer makes
// it the answer of every operation's unsupported media type. Before, a warehouse document's PATCH-only 415 became
// the spec-wide answer, so the export listed 415 on every POST and PUT, the served import answered them with the
// PATCH's title, and the contract tester failed a faithful service's 400 to a text/plain create (an outside sweep).
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';

const json = (schema: unknown) => ({ 'application/json': { schema } });
const error = { type: 'object', required: ['message'], properties: { message: { type: 'string' } } };
const thing = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' } } };
const bad = { description: 'bad', content: json({ $ref: '#/components/schemas/Error' }) };
const unsupported = { description: 'not merge-patch', content: json({ $ref: '#/components/schemas/Error' }) };

const doc = (createLists415: boolean) => ({
  openapi: '3.0.3',
  info: { title: 'things', version: '1' },
  paths: {
    '/things': {
      post: {
        operationId: 'createThing',
        requestBody: { required: true, content: json({ $ref: '#/components/schemas/Thing' }) },
        responses: {
          '201': { description: 'made', content: json({ $ref: '#/components/schemas/Thing' }) },
          '400': bad,
          ...(createLists415 ? { '415': unsupported } : {}),
        },
      },
    },
    '/things/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'getThing', responses: { '200': { description: 'ok', content: json({ $ref: '#/components/schemas/Thing' }) }, '404': bad } },
      patch: {
        operationId: 'updateThing',
        requestBody: { required: true, content: { 'application/merge-patch+json': { schema: { type: 'object', properties: { name: { type: 'string' } } } } } },
        responses: { '200': { description: 'ok', content: json({ $ref: '#/components/schemas/Thing' }) }, '400': bad, '404': bad, '415': unsupported },
      },
    },
  },
  components: { schemas: { Thing: thing, Error: error } },
});

const whenOf = async (createLists415: boolean) => {
  const r = await importOpenApiDocument(doc(createLists415), 'things.json');
  const codes = r.document!.errors!.codes!;
  return Object.fromEntries(Object.entries(codes).map(([name, c]) => [c.status, [name, c.when ?? []]]));
};

describe('an imported 415', () => {
  it('listed by one operation with a body of two declares no condition: the others answer as they list', async () => {
    const when = await whenOf(false);
    expect(when[415]![1]).not.toContain('unsupported_media_type');
  });
  it('listed by every operation with a body is the answer to an unsupported media type', async () => {
    const when = await whenOf(true);
    expect(when[415]![1]).toContain('unsupported_media_type');
  });
});

describe('imported problem bodies', () => {
  it('a 422 problem with a required errors[] differs from the 404 problem kept: said (import-errors-merged), not merged silently', async () => {
    const problem = (schema: unknown) => ({ 'application/problem+json': { schema } });
    const r = await importOpenApiDocument(
      {
        openapi: '3.1.0',
        info: { title: 'things', version: '1' },
        paths: {
          '/things': {
            post: {
              operationId: 'createThing',
              requestBody: { required: true, content: json({ $ref: '#/components/schemas/Thing' }) },
              responses: {
                '201': { description: 'made', content: json({ $ref: '#/components/schemas/Thing' }) },
                '422': { description: 'invalid', content: problem({ $ref: '#/components/schemas/ValidationProblem' }) },
              },
            },
          },
          '/things/{id}': {
            get: {
              operationId: 'getThing',
              parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
              responses: {
                '200': { description: 'ok', content: json({ $ref: '#/components/schemas/Thing' }) },
                '404': { description: 'missing', content: problem({ $ref: '#/components/schemas/Problem' }) },
              },
            },
          },
        },
        components: {
          schemas: {
            Thing: thing,
            Problem: {
              type: 'object',
              properties: { type: { type: 'string' }, title: { type: 'string' }, status: { type: 'integer' }, detail: { type: 'string' } },
            },
            ValidationProblem: {
              allOf: [
                { $ref: '#/components/schemas/Problem' },
                {
                  type: 'object',
                  required: ['errors'],
                  properties: { errors: { type: 'array', items: { type: 'object', properties: { pointer: { type: 'string' } } } } },
                },
              ],
            },
          },
        },
      },
      'things.json',
    );
    const merged = r.diagnostics.filter((d) => d.code === 'import-errors-merged');
    // The body kept is the first (the 422's); the 404's, which differs, is said at its pointer, naming the other.
    expect(merged).toHaveLength(1);
    expect(merged[0]!.pointer).toContain('/paths/~1things~1{id}/get/responses/404');
    expect(merged[0]!.message).toContain('/paths/~1things/post/responses/422');
  });
});
