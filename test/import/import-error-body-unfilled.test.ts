// A declared error body's required field the service knows no value for (HubSpot's CRM objects API, HubSpot/HubSpot-
// public-api-spec-collection, PublicApiSpecs/CRM/Tasks/Rollouts/424/2026-09/tasks.json: its `Error` requires
// `category` and `correlationId` beside `message`) is left out of every error answer: Prism, built from that document,
// flags each served 401 ("Response body must have required property 'category'", and 'correlationId'). `check` warned
// at the spec (error-body-field-unfilled); the import said nothing at the document. Now import-approximated at the
// schema's `required`; a body whose required fields the service fills says nothing.
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { startService } from '../runtime/helpers.js';

type Json = Record<string, unknown>;

function doc(required: string[]): Json {
  const json = (schema: unknown) => ({ 'application/json': { schema } });
  return {
    openapi: '3.0.1',
    info: { title: 'Tasks', version: '2026-09' },
    paths: {
      '/tasks/{taskId}': {
        get: {
          operationId: 'getTask',
          parameters: [{ name: 'taskId', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            '200': { description: 'ok', content: json({ $ref: '#/components/schemas/Task' }) },
            default: { $ref: '#/components/responses/Error' },
          },
        },
      },
    },
    components: {
      schemas: {
        Task: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, subject: { type: 'string' } } },
        Error: {
          type: 'object',
          required,
          properties: {
            category: { type: 'string', description: 'The error category' },
            correlationId: { type: 'string', format: 'uuid' },
            message: { type: 'string' },
            subCategory: { type: 'string' },
          },
        },
      },
      responses: { Error: { description: 'An error occurred.', content: json({ $ref: '#/components/schemas/Error' }) } },
    },
  };
}

const said = (r: Awaited<ReturnType<typeof importOpenApiDocument>>) =>
  r.diagnostics.filter((d) => d.message.includes("the error body's `required`")).map((d) => [d.code, d.pointer, d.message]);

describe("an error body's required fields the service cannot fill", () => {
  it('are said at the schema, and served as said: the error answer lacks them', async () => {
    const r = await importOpenApiDocument(doc(['category', 'correlationId', 'message']), 'tasks.json');
    const found = said(r);
    expect(found.map(([code, pointer]) => [code, pointer])).toEqual([['import-approximated', '/components/schemas/Error/required']]);
    expect(found[0]![2]).toContain('(`category`, `correlationId`)');
    const s = await startService(r.compiled!.model!);
    try {
      const res = await s.call('GET', '/tasks/nothing');
      expect(res.status).toBe(404);
      expect(res.body).toHaveProperty('message');
      expect(res.body).not.toHaveProperty('category');
      expect(res.body).not.toHaveProperty('correlationId');
    } finally {
      await s.close();
    }
  });

  it('says nothing where the service fills every required field (the message)', async () => {
    expect(said(await importOpenApiDocument(doc(['message']), 'tasks.json'))).toEqual([]);
  });

  it("fills a message that may be text or a list (NestJS's HttpException body): the message field is json, and holds the text", async () => {
    // NestJS answers `{ statusCode, message, error }`, `message` a string or, from its ValidationPipe, a list of them.
    const nest = doc(['statusCode', 'message']);
    const schemas = (nest.components as { schemas: Json }).schemas;
    schemas.Error = {
      type: 'object',
      required: ['statusCode', 'message'],
      properties: {
        statusCode: { type: 'integer' },
        message: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
        error: { type: 'string' },
      },
    };
    const r = await importOpenApiDocument(nest, 'tasks.json');
    expect(said(r)).toEqual([]);
    expect(r.compiled!.diagnostics.filter((d) => d.code === 'error-body-field-unfilled' || d.code === 'error-body-field-type')).toEqual([]);
    expect(r.document?.errors?.body).toMatchObject({ fields: { message: { type: 'json' } } });
    const s = await startService(r.compiled!.model!);
    try {
      const res = await s.call('GET', '/tasks/nothing');
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ statusCode: 404, message: expect.any(String) as unknown });
    } finally {
      await s.close();
    }
  });

  it("takes a json member as the message by the format's own names only: a json `errors` is not the message", async () => {
    const other = doc(['code']);
    (other.components as { schemas: Json }).schemas.Error = { type: 'object', required: ['code'], properties: { code: { type: 'string' }, errors: {} } };
    const r = await importOpenApiDocument(other, 'tasks.json');
    expect(r.document?.errors?.body).toMatchObject({ fields: { errors: { type: 'json' } } });
    expect((r.document?.errors?.body as { message?: string }).message).toBeUndefined();
  });
});
