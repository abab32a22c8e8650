// An update's request body that requires properties (a PATCH that must send a `reason`): the format's update takes any
// subset of its fields, so the import cannot keep the requirement, and says so at the schema's `required` (issue 26,
// item 8: import never changes the contract silently). Before, it was dropped without a word.
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';

const json = (schema: unknown) => ({ 'application/json': { schema } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const ID = [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }];

const tickets = (patchBody: unknown) => ({
  openapi: '3.1.0',
  info: { title: 'Tickets', version: '1' },
  paths: {
    '/tickets': {
      post: {
        operationId: 'createTicket',
        requestBody: { required: true, content: json(ref('Ticket')) },
        responses: { '201': { description: 'made', content: json(ref('Ticket')) } },
      },
    },
    '/tickets/{id}': {
      get: { operationId: 'getTicket', parameters: ID, responses: { '200': { description: 'ok', content: json(ref('Ticket')) } } },
      patch: {
        operationId: 'updateTicket',
        parameters: ID,
        requestBody: { required: true, content: json(patchBody) },
        responses: { '200': { description: 'ok', content: json(ref('Ticket')) } },
      },
    },
  },
  components: {
    schemas: {
      Ticket: {
        type: 'object',
        required: ['id', 'title'],
        properties: { id: { type: 'string', format: 'uuid', readOnly: true }, title: { type: 'string' }, reason: { type: 'string' } },
      },
      TicketPatch: { type: 'object', required: ['reason'], properties: { title: { type: 'string' }, reason: { type: 'string', minLength: 1 } } },
    },
  },
});

const approximated = (r: Awaited<ReturnType<typeof importOpenApiDocument>>) =>
  r.diagnostics.filter((d) => d.code === 'import-approximated' && /\(required\)/.test(d.message)).map((d) => [d.pointer, d.message]);

describe('an update whose request body requires properties', () => {
  it('its own schema: imported as the update, the requirement said at `required`', async () => {
    const r = await importOpenApiDocument(tickets(ref('TicketPatch')), 'tickets.json');
    expect(r.document!.endpoints!.operations!.updateTicket).toMatchObject({ action: 'update', resource: 'Ticket' });
    expect(approximated(r)).toEqual([
      [
        '/components/schemas/TicketPatch/required',
        "operation updateTicket: request property `reason` (required) is imported as fields an update of Ticket may leave out (a field left out keeps its value): the format's update takes any subset of its fields, so a request without it is served, and `servicespec test` sends one",
      ],
    ]);
  });

  it('inline, naming the resource schema`s required fields: each is said, the read-only identifier is not', async () => {
    const body = {
      type: 'object',
      required: ['id', 'title', 'reason'],
      properties: { id: { type: 'string', readOnly: true }, title: { type: 'string' }, reason: { type: 'string' } },
    };
    const r = await importOpenApiDocument(tickets(body), 'tickets.json');
    expect(approximated(r).map(([pointer, message]) => [pointer, /request properties `title`, `reason` \(required\)/.test(message!)])).toEqual([
      ['/paths/~1tickets~1{id}/patch/requestBody/content/application~1json/schema/required', true],
    ]);
  });

  it('a body that requires nothing says nothing', async () => {
    const body = { type: 'object', properties: { title: { type: 'string' }, reason: { type: 'string' } } };
    expect(approximated(await importOpenApiDocument(tickets(body), 'tickets.json'))).toEqual([]);
  });
});
