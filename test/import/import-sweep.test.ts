// Defects a sweep over public OpenAPI documents outside the corpus showed (import refused the whole document), each
// on a small excerpt of the document's shape.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument, importOpenApiFile } from '../../src/import/import-openapi.js';

type Json = Record<string, unknown>;
const errorsOf = (r: Awaited<ReturnType<typeof importOpenApiDocument>>) =>
  [...r.diagnostics, ...(r.compiled?.diagnostics ?? [])].filter((d) => d.severity === 'error').map((d) => `${d.code}: ${d.message}`);

const jsonBody = (schema: unknown) => ({ content: { 'application/json': { schema } } });

describe('import of shapes public documents have', () => {
  it("renames the second of a resource's properties differing only in case (meshery's Grafana Panel: xAxis and xaxis), and says so", async () => {
    const doc = {
      openapi: '3.0.0',
      info: { title: 'panels', version: '1' },
      paths: {
        '/panels': {
          post: {
            operationId: 'addPanel',
            requestBody: jsonBody({ $ref: '#/components/schemas/Panel' }),
            responses: { '201': { description: 'made', ...jsonBody({ $ref: '#/components/schemas/Panel' }) } },
          },
        },
      },
      components: {
        schemas: {
          Panel: {
            type: 'object',
            required: ['id'],
            properties: {
              id: { type: 'string' },
              xAxis: { type: 'object', properties: { show: { type: 'boolean' } } },
              xaxis: { type: 'object', properties: { mode: { type: 'string' } } },
            },
          },
        },
      },
    };
    const r = await importOpenApiDocument(doc as unknown, 'panels.json');
    expect(errorsOf(r)).toEqual([]);
    const fields = (r.document!.resources as Record<string, { fields: Json }>).Panel!.fields;
    expect(Object.keys(fields)).toEqual(['id', 'xAxis', 'xaxis_2']);
    const said = r.diagnostics.filter((d) => d.code === 'import-renamed');
    expect(said.map((d) => [d.pointer, d.message])).toEqual([
      [expect.stringMatching(/^#?\/components\/schemas\/Panel\/properties\/xaxis$/), expect.stringContaining('one differing only in case')],
    ]);
  });

  it('leaves out a security requirement naming a scheme the document never declares (readme oas-examples: response-http-behavior), and says so', async () => {
    const doc = {
      openapi: '3.0.0',
      info: { title: 'http', version: '1' },
      paths: {
        '/cache': { get: { operationId: 'cached', security: [{ api_key: [] }], responses: { default: { description: 'ok' } } } },
        '/anything': {
          get: {
            operationId: 'either',
            security: [{ api_key: [] }, { key: [] }],
            responses: { '200': { description: 'ok', ...jsonBody({ type: 'object', properties: { a: { type: 'string' } } }) } },
          },
        },
      },
      components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } } },
    };
    const r = await importOpenApiDocument(doc as unknown, 'http.json');
    expect(errorsOf(r)).toEqual([]);
    const ops = r.document!.endpoints!.operations!;
    expect(ops.cached!.auth).toBeUndefined();
    expect(ops.either!.auth).toEqual({ schemes: ['key'], scopes: [] });
    const said = r.diagnostics.filter((d) => d.code === 'import-dropped' && d.message.includes('api_key'));
    expect(said.map((d) => d.pointer)).toEqual([
      expect.stringMatching(/^#?\/paths\/~1cache\/get\/security\/0\/api_key$/),
      expect.stringMatching(/^#?\/paths\/~1anything\/get\/security\/0\/api_key$/),
    ]);
  });

  it('leaves out the operations of a path key holding a query (openai-openapi: /responses?beta=true), and says so', async () => {
    const obj = jsonBody({ type: 'object', properties: { id: { type: 'string' } } });
    const doc = {
      openapi: '3.0.0',
      info: { title: 'responses', version: '1' },
      paths: {
        '/responses/{response_id}': {
          get: {
            operationId: 'getResponse',
            parameters: [{ name: 'response_id', in: 'path', required: true, schema: { type: 'string' } }],
            responses: { '200': { description: 'ok', ...obj } },
          },
        },
        '/responses/{response_id}?beta=true': {
          get: {
            operationId: 'getBetaResponse',
            parameters: [{ name: 'response_id', in: 'path', required: true, schema: { type: 'string' } }],
            responses: { '200': { description: 'ok', ...obj } },
          },
          delete: {
            operationId: 'deleteBetaResponse',
            parameters: [{ name: 'response_id', in: 'path', required: true, schema: { type: 'string' } }],
            responses: { '204': { description: 'gone' } },
          },
        },
      },
    };
    const r = await importOpenApiDocument(doc as unknown, 'responses.json');
    expect(errorsOf(r)).toEqual([]);
    expect(Object.keys(r.document!.endpoints!.operations!)).toEqual(['getResponse']);
    const said = r.diagnostics.filter((d) => d.code === 'import-dropped' && d.message.includes('beta=true'));
    expect(said.map((d) => [d.pointer, d.message])).toEqual([
      [
        expect.stringMatching(/^#?\/paths\/~1responses~1\{response_id\}\?beta=true$/),
        expect.stringContaining('GET, DELETE /responses/{response_id}?beta=true'),
      ],
    ]);
  });

  it("leaves out a GET's request body (meshery: GET /api/perf/profile taking its test configuration), and says so", async () => {
    const config = { type: 'object', properties: { name: { type: 'string' }, duration: { type: 'string' } } };
    const doc = {
      openapi: '3.0.0',
      info: { title: 'perf', version: '1' },
      paths: {
        '/api/perf/profile': {
          get: {
            operationId: 'idRunPerfTest',
            requestBody: jsonBody(config),
            responses: { '200': { description: 'ok', ...jsonBody({ type: 'object', properties: { ok: { type: 'boolean' } } }) } },
          },
          post: {
            operationId: 'idSavePerfProfile',
            requestBody: jsonBody(config),
            responses: { '200': { description: 'ok', ...jsonBody({ type: 'object', properties: { ok: { type: 'boolean' } } }) } },
          },
        },
      },
    };
    const r = await importOpenApiDocument(doc as unknown, 'perf.json');
    expect(errorsOf(r)).toEqual([]);
    const ops = r.document!.endpoints!.operations!;
    expect(ops.idRunPerfTest!.request).toBeUndefined();
    expect(ops.idSavePerfProfile!.request).toBeDefined();
    const said = r.diagnostics.filter((d) => d.code === 'import-dropped' && d.message.includes('GET'));
    expect(said.map((d) => d.pointer)).toEqual([expect.stringMatching(/^#?\/paths\/~1api~1perf~1profile\/get\/requestBody$/)]);
  });
});

describe('import of shapes public documents have: the second sweep', () => {
  it("leaves out an operation documented at a client-credentials scheme's tokenUrl (sakari.io's POST /oauth2/token), and says so", async () => {
    const doc = {
      openapi: '3.0.0',
      info: { title: 'sakari', version: '1' },
      security: [{ sakari_auth: [] }],
      paths: {
        '/oauth2/token': {
          post: {
            operationId: 'auth.token',
            security: [],
            requestBody: jsonBody({
              type: 'object',
              properties: { grant_type: { type: 'string' }, client_id: { type: 'string' }, client_secret: { type: 'string' } },
            }),
            responses: { '200': { description: 'ok', ...jsonBody({ type: 'object', properties: { access_token: { type: 'string' } } }) } },
          },
        },
        '/accounts/{accountId}/contacts': {
          get: {
            operationId: 'contacts.fetchAll',
            parameters: [{ name: 'accountId', in: 'path', required: true, schema: { type: 'string' } }],
            responses: { '200': { description: 'ok', ...jsonBody({ type: 'object', properties: { success: { type: 'boolean' } } }) } },
          },
        },
      },
      components: {
        securitySchemes: {
          sakari_auth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/oauth2/token', scopes: { 'messages:send': 'Send messages' } } } },
        },
      },
    };
    const r = await importOpenApiDocument(doc as unknown, 'sakari.json');
    expect(errorsOf(r)).toEqual([]);
    expect(Object.keys(r.document!.endpoints!.operations!)).toEqual(['contacts.fetchAll']);
    expect((r.document!.authentication!.schemes as unknown as Record<string, Json>).sakari_auth!.token_path).toBe('/oauth2/token');
    const said = r.diagnostics.filter((d) => d.code === 'import-dropped' && d.message.includes('token endpoint'));
    expect(said.map((d) => [d.pointer, d.message])).toEqual([
      [expect.stringMatching(/^#?\/paths\/~1oauth2~1token\/post$/), expect.stringContaining('security scheme sakari_auth')],
    ]);
  });
  it("says a required error body member made optional with its type (svix's HttpErrorOut `detail` string beside FastAPI's HTTPValidationError `detail` array)", async () => {
    const doc = {
      openapi: '3.0.2',
      info: { title: 'svix', version: '1' },
      paths: {
        '/api/v1/app/': {
          get: {
            operationId: 'list_applications',
            responses: {
              '200': { description: 'ok', ...jsonBody({ type: 'object', properties: { done: { type: 'boolean' } } }) },
              '401': { description: 'Unauthorized', ...jsonBody({ $ref: '#/components/schemas/HttpErrorOut' }) },
              '422': { description: 'Validation Error', ...jsonBody({ $ref: '#/components/schemas/HTTPValidationError' }) },
            },
          },
        },
      },
      components: {
        schemas: {
          HttpErrorOut: {
            type: 'object',
            required: ['code', 'detail'],
            properties: { code: { type: 'string' }, detail: { type: 'string' } },
          },
          HTTPValidationError: {
            type: 'object',
            properties: { detail: { type: 'array', items: { type: 'object', properties: { msg: { type: 'string' } } } } },
          },
        },
      },
    };
    const r = await importOpenApiDocument(doc as unknown, 'svix.json');
    expect(errorsOf(r)).toEqual([]);
    const body = (r.document!.errors as unknown as { body: { fields: Record<string, Json> } }).body.fields;
    expect(body.detail).toMatchObject({ type: 'json', optional: true });
    const said = r.diagnostics.filter((d) => d.code === 'import-approximated' && d.message.includes('`detail`'));
    expect(said.map((d) => d.message)).toEqual([
      expect.stringMatching(
        /`detail` \(string, required; array, optional, at \/paths\/~1api~1v1~1app~1\/get\/responses\/422\) is imported as an optional field of type json/,
      ),
    ]);
  });
  it("reads a required answer field no request writes as the service's (apicurio's GroupMetaData.createdOn beside CreateGroupMetaData), and says so", async () => {
    const doc = {
      openapi: '3.0.2',
      info: { title: 'registry', version: '1' },
      paths: {
        '/groups': {
          post: {
            operationId: 'createGroup',
            requestBody: { required: true, ...jsonBody({ $ref: '#/components/schemas/CreateGroupMetaData' }) },
            responses: { '200': { description: 'made', ...jsonBody({ $ref: '#/components/schemas/GroupMetaData' }) } },
          },
        },
        '/groups/{groupId}': {
          get: {
            operationId: 'getGroupById',
            parameters: [{ name: 'groupId', in: 'path', required: true, schema: { type: 'string' } }],
            responses: { '200': { description: 'ok', ...jsonBody({ $ref: '#/components/schemas/GroupMetaData' }) } },
          },
        },
      },
      components: {
        schemas: {
          CreateGroupMetaData: {
            type: 'object',
            required: ['id'],
            properties: { id: { type: 'string' }, description: { type: 'string' } },
          },
          GroupMetaData: {
            type: 'object',
            required: ['id', 'description', 'createdOn', 'createdBy'],
            properties: {
              id: { type: 'string' },
              description: { type: 'string' },
              createdOn: { type: 'string', format: 'date-time' },
              createdBy: { type: 'string' },
            },
          },
        },
      },
    };
    const r = await importOpenApiDocument(doc as unknown, 'registry.json');
    expect(errorsOf(r)).toEqual([]);
    const fields = (r.document!.resources as Record<string, { fields: Json }>).GroupMetaData!.fields;
    expect(fields.createdOn).toMatchObject({ type: 'datetime', readOnly: true, source: 'service' });
    expect(fields.createdBy).toMatchObject({ type: 'string', readOnly: true, source: 'service' });
    expect(fields.description).not.toHaveProperty('readOnly');
    const said = r.diagnostics.filter((d) => d.code === 'import-approximated' && d.message.includes('no request writes it'));
    expect(said.map((d) => d.message)).toEqual([
      expect.stringContaining('field createdOn (required, not read-only) is imported as a read-only field'),
      expect.stringContaining('field createdBy (required, not read-only) is imported as a read-only field'),
    ]);
    // The create is served: no gap left saying it answers not_implemented.
    expect(r.diagnostics.filter((d) => d.message.includes('answers not_implemented'))).toEqual([]);
  });
  it("leaves out a string constraint of the wrong kind (api.video's `pattern: 0` on timecode), and says so", async () => {
    const payload = {
      type: 'object',
      required: ['timecode'],
      properties: { timecode: { type: 'string', pattern: 0 }, label: { type: 'string', maxLength: 'ten' } },
    };
    const doc = {
      openapi: '3.0.0',
      info: { title: 'video', version: '1' },
      paths: {
        '/videos/{videoId}/thumbnail': {
          patch: {
            operationId: 'pickThumbnail',
            parameters: [{ name: 'videoId', in: 'path', required: true, schema: { type: 'string' } }],
            requestBody: jsonBody(payload),
            responses: { '200': { description: 'ok', ...jsonBody({ type: 'object', properties: { videoId: { type: 'string' } } }) } },
          },
        },
      },
    };
    const r = await importOpenApiDocument(doc as unknown, 'video.json');
    expect(errorsOf(r)).toEqual([]);
    const said = r.diagnostics.filter((d) => d.code === 'import-dropped' && /pattern 0|maxLength "ten"/.test(d.message));
    expect(said.map((d) => d.pointer)).toEqual([
      expect.stringMatching(/\/properties\/timecode\/pattern$/),
      expect.stringMatching(/\/properties\/label\/maxLength$/),
    ]);
  });
});

describe('import of shapes public documents have: the third sweep', () => {
  it("leaves out the second of two paths differing only in their parameters' names (trello.com: /boards/{idBoard}/cards/{filter} and …/{idCard}), and says so", async () => {
    const card = jsonBody({ type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } });
    const param = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });
    const doc = {
      openapi: '3.0.0',
      info: { title: 'trello', version: '1' },
      paths: {
        '/boards/{idBoard}/cards/{filter}': {
          get: {
            operationId: 'getBoardsCardsByIdBoardByFilter',
            parameters: [param('idBoard'), param('filter')],
            responses: { '200': { description: 'ok', ...card } },
          },
        },
        '/boards/{idBoard}/cards/{idCard}': {
          get: {
            operationId: 'getBoardsCardsByIdBoardByIdCard',
            parameters: [param('idBoard'), param('idCard')],
            responses: { '200': { description: 'ok', ...card } },
          },
        },
      },
    };
    const r = await importOpenApiDocument(doc as unknown, 'trello.json');
    expect(errorsOf(r)).toEqual([]);
    expect(Object.keys(r.document!.endpoints!.operations!)).toEqual(['getBoardsCardsByIdBoardByFilter']);
    const said = r.diagnostics.filter((d) => d.code === 'import-dropped' && d.message.includes('getBoardsCardsByIdBoardByIdCard'));
    expect(said.map((d) => [d.pointer, d.message])).toEqual([
      [
        expect.stringMatching(/^#?\/paths\/~1boards~1\{idBoard\}~1cards~1\{idCard\}\/get$/),
        expect.stringContaining('GET /boards/{idBoard}/cards/{filter} (operation getBoardsCardsByIdBoardByFilter) is the same route'),
      ],
    ]);
  });
});

describe('import of shapes public documents have: the third sweep, lists', () => {
  it("leaves out a list's `sort` whose values name no field, though the resource has a field `sort` (vimeo.com: GET /me/albums), and says so", async () => {
    const album = {
      type: 'object',
      properties: { uri: { type: 'string' }, name: { type: 'string' }, sort: { type: 'string', enum: ['added_first', 'alphabetical'] } },
    };
    const doc = {
      openapi: '3.0.0',
      info: { title: 'vimeo', version: '1' },
      paths: {
        '/me/albums': {
          get: {
            operationId: 'get_albums',
            parameters: [{ name: 'sort', in: 'query', required: false, schema: { type: 'string', enum: ['alphabetical', 'date', 'duration'] } }],
            responses: { '200': { description: 'ok', ...jsonBody({ type: 'array', items: { $ref: '#/components/schemas/album' } }) } },
          },
        },
      },
      components: { schemas: { album } },
    };
    const r = await importOpenApiDocument(doc as unknown, 'vimeo.json');
    expect(errorsOf(r)).toEqual([]);
    const op = r.document!.endpoints!.operations!.get_albums! as unknown as Json;
    expect([op.action, op.filter, op.sort]).toEqual(['list', undefined, undefined]);
    const said = r.diagnostics.filter((d) => d.code === 'import-dropped' && d.message.includes('`sort`') && d.message.includes('get_albums'));
    expect(said.map((d) => [d.pointer, d.message])).toEqual([
      [
        expect.stringMatching(/\/parameters\/0$/),
        expect.stringContaining("a list's `sort` takes the names of its resource's fields, and its values name none"),
      ],
    ]);
  });
});

describe('import of shapes public documents have: the third sweep, creates', () => {
  it("reads a POST under an object's own key (box.com: POST /file_requests/{file_request_id}/copy, FileRequest's `id` optional) as no create binding that key, and says so", async () => {
    const fileRequest = {
      type: 'object',
      properties: { id: { type: 'string', readOnly: true }, title: { type: 'string' }, description: { type: 'string' } },
    };
    const ref = { $ref: '#/components/schemas/FileRequest' };
    const param = { name: 'file_request_id', in: 'path', required: true, schema: { type: 'string' } };
    const doc = {
      openapi: '3.0.0',
      info: { title: 'box', version: '1' },
      paths: {
        '/file_requests/{file_request_id}': {
          get: { operationId: 'get_file_requests_id', parameters: [param], responses: { '200': { description: 'ok', ...jsonBody(ref) } } },
        },
        '/file_requests/{file_request_id}/copy': {
          post: {
            operationId: 'post_file_requests_id_copy',
            parameters: [param],
            requestBody: { required: true, ...jsonBody({ type: 'object', properties: { title: { type: 'string' } } }) },
            responses: { '200': { description: 'copied', ...jsonBody(ref) } },
          },
        },
      },
      components: { schemas: { FileRequest: fileRequest } },
    };
    const r = await importOpenApiDocument(doc as unknown, 'box.json');
    expect(errorsOf(r)).toEqual([]);
    const ops = r.document!.endpoints!.operations! as unknown as Record<string, Json>;
    // The optional read-only `id` its read addresses is the identifier, the service's (import-read-only-identifier.test.ts);
    // before 2026-11-29 the read was bound to it as a unique field nothing gave a value.
    expect([ops.get_file_requests_id!.action, ops.get_file_requests_id!.bind]).toEqual(['read', undefined]);
    expect(r.document!.resources!.FileRequest!.fields!.id).toEqual({ type: 'string', readOnly: true });
    // Before, a create binding file_request_id to `id`: every copy made an object with its source's key (409 from serve).
    expect([ops.post_file_requests_id_copy!.action, ops.post_file_requests_id_copy!.bind]).toEqual(['custom', undefined]);
    expect(r.diagnostics.some((d) => d.code === 'import-custom-operation' && d.message.includes('post_file_requests_id_copy'))).toBe(true);
  });

  it("leaves out a path naming one parameter twice (@readme/oas-examples parameters-common's /anything/{id}/{action}/{id}), and says so", async () => {
    const doc = {
      openapi: '3.0.3',
      info: { title: 'parameters-common', version: '1' },
      paths: {
        '/anything/{id}': {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'number' } }],
          get: { operationId: 'getAnythingId', responses: { '200': { description: 'ok' } } },
        },
        '/anything/{id}/{action}/{id}': {
          parameters: [
            { name: 'id', in: 'path', required: true, schema: { type: 'number' } },
            { name: 'action', in: 'path', required: true, schema: { type: 'string' } },
          ],
          get: { operationId: 'getAnythingIdActionId', responses: { '200': { description: 'ok' } } },
        },
      },
    };
    const r = await importOpenApiDocument(doc as unknown, 'parameters-common.json');
    expect(errorsOf(r)).toEqual([]);
    expect(Object.keys((r.document!.endpoints as Json).operations as Json)).toEqual(['getAnythingId']);
    const said = r.diagnostics.filter((d) => d.code === 'import-dropped' && d.message.includes('names parameter `id` twice'));
    expect(said.map((d) => d.pointer)).toEqual([expect.stringMatching(/^#?\/paths\/~1anything~1\{id\}~1\{action\}~1\{id\}$/)]);
  });
});

describe('import of shapes public documents have: the fourth sweep', () => {
  it("binds no field to two path parameters (PagerDuty's /users/{id}/notification_rules/{notification_rule_id}, both the rule's id)", async () => {
    const rule = {
      type: 'object',
      properties: { id: { type: 'string', readOnly: true }, summary: { type: 'string' }, start_delay_in_minutes: { type: 'integer' } },
    };
    const ref = { $ref: '#/components/schemas/NotificationRule' };
    const id = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });
    const doc = {
      openapi: '3.0.2',
      info: { title: 'pagerduty', version: '2' },
      paths: {
        '/users/{id}/notification_rules': {
          post: {
            operationId: 'createUserNotificationRule',
            parameters: [id('id')],
            requestBody: jsonBody(ref),
            responses: { '201': { description: 'made', ...jsonBody(ref) } },
          },
        },
        '/users/{id}/notification_rules/{notification_rule_id}': {
          get: {
            operationId: 'getUserNotificationRule',
            parameters: [id('id'), id('notification_rule_id')],
            responses: { '200': { description: 'ok', ...jsonBody(ref) } },
          },
          delete: {
            operationId: 'deleteUserNotificationRule',
            parameters: [id('id'), id('notification_rule_id')],
            responses: { '204': { description: 'gone' } },
          },
        },
      },
      components: { schemas: { NotificationRule: rule } },
    };
    const r = await importOpenApiDocument(doc as unknown, 'pagerduty.json');
    // Before, both bound to id: unique_keys [[id, id]], which check refuses (invalid-value), and nothing was written.
    expect(errorsOf(r)).toEqual([]);
    const ops = r.document!.endpoints!.operations! as unknown as Record<string, Json>;
    for (const o of ['getUserNotificationRule', 'deleteUserNotificationRule']) {
      const bound = Object.values((ops[o]!.bind as Record<string, string> | undefined) ?? {});
      expect(new Set(bound).size).toBe(bound.length);
    }
    expect((r.document!.resources as Record<string, Json>).NotificationRule!.unique_keys).toBeUndefined();
  });

  it("imports a property whose enum holds null alone (Lob's tracking event details) as a nullable json field, and says so", async () => {
    const event = {
      type: 'object',
      required: ['id', 'type'],
      properties: {
        id: { type: 'string' },
        type: { type: 'string', enum: ['normal'] },
        details: { description: 'Will be `null` for `type=normal` events', type: 'object', enum: [null], nullable: true },
      },
    };
    const ref = { $ref: '#/components/schemas/tracking_event' };
    const doc = {
      openapi: '3.0.3',
      info: { title: 'lob', version: '1' },
      paths: { '/tracking_events/{id}': { get: { operationId: 'getEvent', responses: { '200': { description: 'ok', ...jsonBody(ref) } } } } },
      components: { schemas: { tracking_event: event } },
    };
    const r = await importOpenApiDocument(doc as unknown, 'lob.json');
    // Before, type enum with no values: check's enum-needs-values refused the whole import.
    expect(errorsOf(r)).toEqual([]);
    const fields = (r.document!.resources as unknown as Record<string, { fields: Record<string, Json> }>).tracking_event!.fields;
    expect(fields.details).toMatchObject({ type: 'json', nullable: true });
    const said = r.diagnostics.filter((d) => d.code === 'import-approximated' && d.message.includes('null alone'));
    expect(said.map((d) => d.pointer)).toEqual([expect.stringMatching(/\/components\/schemas\/tracking_event\/properties\/details$/)]);
  });

  it("reads a $ref member inside an example as data, not a reference to follow (Square's event examples citing its CDN)", async () => {
    const cited = { $ref: 'https://cdn.example.com/schemas/v1/common.json#squareup.common.String' };
    const doc = {
      openapi: '3.0.0',
      info: { title: 'square', version: '1' },
      paths: {
        '/definitions/{id}': {
          get: {
            operationId: 'getDefinition',
            responses: {
              '200': {
                description: 'ok',
                content: {
                  'application/json': {
                    schema: { $ref: '#/components/schemas/Definition' },
                    examples: { one: { value: { id: 'a', schema: cited } } },
                  },
                },
              },
            },
          },
        },
      },
      components: {
        schemas: {
          Definition: {
            type: 'object',
            properties: { id: { type: 'string' }, schema: { type: 'object' }, example: { type: 'string' } },
            example: { id: 'a', schema: cited },
          },
        },
      },
    };
    const r = await importOpenApiDocument(doc as unknown, 'square.json');
    // Before, import-unresolved-ref for each ("a reference over the network is not followed"), and nothing imported.
    expect(errorsOf(r)).toEqual([]);
    expect(Object.keys((r.document!.resources as Json).Definition as Json)).toContain('fields');
  });

  it("imports a Swagger 2.0 document citing one file twice (OAI's petstore-separate: Pet.yaml in two responses) as a resource", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'servicespec-petstore-separate-'));
    try {
      const petRef = { $ref: 'Pet.yaml' };
      writeFileSync(
        join(dir, 'Pet.yaml'),
        JSON.stringify({ type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: { type: 'string' } } }),
      );
      const doc = {
        swagger: '2.0',
        info: { title: 'petstore-separate', version: '1' },
        produces: ['application/json'],
        paths: {
          '/pets': { get: { operationId: 'findPets', responses: { '200': { description: 'pets', schema: { type: 'array', items: petRef } } } } },
          '/pets/{id}': {
            get: {
              operationId: 'findPetById',
              parameters: [{ name: 'id', in: 'path', required: true, type: 'integer' }],
              responses: { '200': { description: 'pet', schema: petRef } },
            },
          },
        },
      };
      writeFileSync(join(dir, 'swagger.json'), JSON.stringify(doc));
      const r = await importOpenApiFile(join(dir, 'swagger.json'));
      expect(errorsOf(r)).toEqual([]);
      // Before, the second use pointed at the first's place in the operation (…/responses/200/schema), which the
      // conversion moved: import-invalid-openapi, and both operations custom with no resource.
      expect(r.diagnostics.filter((d) => d.code === 'import-invalid-openapi')).toEqual([]);
      const ops = r.document!.endpoints!.operations! as unknown as Record<string, Json>;
      expect([ops.findPets!.action, ops.findPetById!.action, ops.findPetById!.resource]).toEqual(['list', 'read', 'Pet']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('import of shapes public documents have: the fifth sweep', () => {
  it("reads a recursive union's variants once each, saying each json field once per place (InfluxDB's Flux AST Expression)", async () => {
    // Expression: oneOf of six object variants, each holding an Expression (InfluxDB OSS's 23 in contracts/oss.json).
    const names = ['ArrayExpression', 'BinaryExpression', 'CallExpression', 'PipeExpression', 'UnaryExpression', 'ParenExpression'];
    const expression = { $ref: '#/components/schemas/Expression' };
    const schemas: Json = { Expression: { oneOf: names.map((n) => ({ $ref: `#/components/schemas/${n}` })) } };
    for (const n of names) schemas[n] = { type: 'object', properties: { type: { type: 'string' }, [`${n}_argument`]: expression } };
    schemas.Query = { type: 'object', required: ['id'], properties: { id: { type: 'string', readOnly: true }, extern: expression } };
    const query = { $ref: '#/components/schemas/Query' };
    const doc = {
      openapi: '3.0.0',
      info: { title: 'influx', version: '1' },
      paths: {
        '/query': { post: { operationId: 'postQuery', requestBody: jsonBody(query), responses: { '201': { description: 'made', ...jsonBody(query) } } } },
      },
      components: { schemas },
    };
    const r = await importOpenApiDocument(doc as unknown, 'influx-oss.json');
    expect(errorsOf(r)).toEqual([]);
    const extern = (r.document!.resources as unknown as Record<string, { fields: Record<string, Json> }>).Query!.fields.extern!;
    expect(Object.keys(extern.variants as Json)).toEqual(names);
    // Each variant's Expression closes the cycle (json), said once per place it is read: as the variant's own
    // resource and as a variant of Query.extern. Before, each variant read before the one on the stack was read down
    // to the depth limit, its words kept though the reading was thrown away: 126 warnings here, 348,975 in InfluxDB's.
    const said = r.diagnostics.filter((d) => d.code === 'import-approximated' && d.pointer === '/components/schemas/Expression');
    expect(said.length).toBe(2 * names.length);
  });
});

describe('import of shapes public documents have: the fifth sweep, enums', () => {
  // Discord's API (discord-api-spec, specs/openapi.json, OpenAPI 3.1): every enum is a oneOf of titled constants.
  const status = { type: 'string', oneOf: ['STARTED', 'SUBMITTED', 'REJECTED', 'APPROVED'].map((v) => ({ title: v, const: v })) };
  const id = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });
  const doc = (action: Json) => ({
    openapi: '3.1.0',
    info: { title: 'discord', version: '10' },
    paths: {
      '/guilds/{guild_id}/requests/{request_id}': {
        patch: {
          operationId: 'action_guild_join_request',
          parameters: [id('guild_id'), id('request_id')],
          requestBody: { required: true, ...jsonBody({ type: 'object', properties: { action } }) },
          responses: { '200': { description: 'ok', ...jsonBody({ type: 'object', properties: { status: { $ref: '#/components/schemas/Status' } } }) } },
        },
      },
    },
    components: { schemas: { Status: status } },
  });
  const fieldsOf = (r: Awaited<ReturnType<typeof importOpenApiDocument>>) => {
    const op = (r.document!.endpoints!.operations! as unknown as Record<string, Json>).action_guild_join_request!;
    return [((op.request as Json).fields as Record<string, Json>).action, ((op.response as Json).fields as Record<string, Json>).status];
  };

  it("imports a oneOf of constants beside type: string (Discord's GuildJoinRequestApplicationStatus) as an enum of them", async () => {
    const r = await importOpenApiDocument(doc({ $ref: '#/components/schemas/Status' }) as unknown, 'discord.json');
    expect(errorsOf(r)).toEqual([]);
    // Before, type string: any text taken where the document allows four, and nothing said.
    for (const f of fieldsOf(r)) expect(f).toMatchObject({ type: 'enum', values: ['STARTED', 'SUBMITTED', 'REJECTED', 'APPROVED'] });
  });

  it("leaves out an enum of no values beside an allOf naming them (Discord's join request action), and says so", async () => {
    const action = { type: 'string', enum: [], allOf: [{ $ref: '#/components/schemas/Status' }] };
    const r = await importOpenApiDocument(doc(action) as unknown, 'discord.json');
    // Before, an enum with no values: check's enum-needs-values refused the whole import, and nothing was written.
    expect(errorsOf(r)).toEqual([]);
    expect(fieldsOf(r)[0]).toMatchObject({ type: 'enum', values: ['STARTED', 'SUBMITTED', 'REJECTED', 'APPROVED'] });
    const said = r.diagnostics.filter((d) => d.code === 'import-dropped' && d.pointer?.endsWith('/properties/action/enum'));
    expect(said.length).toBe(1);
  });
});
