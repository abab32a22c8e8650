// Two changes the import made without a word (outside sweeps of a Google-Calendar-like and a Stripe-like document):
// a page's next cursor the document leaves out of the last page (optional, not nullable: Google's `nextPageToken`)
// became the format's `paging.next`, null on the last page (now kept: `paging.next_optional`); and what a document
// says of an Idempotency-Key's value (`maxLength: 64`) is dropped, the format's key being any non-empty text (said at
// its pointer).
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';

const json = (schema: unknown) => ({ 'application/json': { schema } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const doc = (next: Record<string, unknown>, required: string[], key: Record<string, unknown>, deleteKey: Record<string, unknown> = {}) => ({
  openapi: '3.1.0',
  info: { title: 'Events', version: '1' },
  paths: {
    '/events': {
      get: {
        operationId: 'listEvents',
        parameters: [{ name: 'pageToken', in: 'query', schema: { type: 'string' } }],
        responses: {
          '200': {
            description: 'ok',
            content: json({ type: 'object', required, properties: { items: { type: 'array', items: ref('Event') }, nextPageToken: next } }),
          },
        },
      },
      post: {
        operationId: 'createEvent',
        parameters: [{ name: 'Idempotency-Key', in: 'header', schema: { type: 'string', ...key } }],
        requestBody: { required: true, content: json(ref('Event')) },
        responses: { '201': { description: 'made', content: json(ref('Event')) } },
      },
    },
    '/events/{id}': {
      delete: {
        operationId: 'deleteEvent',
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'Idempotency-Key', in: 'header', schema: { type: 'string', ...deleteKey } },
        ],
        responses: { '204': { description: 'gone' } },
      },
      get: {
        operationId: 'getEvent',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'ok', content: json(ref('Event')) } },
      },
    },
  },
  components: {
    schemas: {
      Event: { type: 'object', required: ['id', 'summary'], properties: { id: { type: 'string', readOnly: true }, summary: { type: 'string' } } },
    },
  },
});

const said = (r: Awaited<ReturnType<typeof importOpenApiDocument>>) =>
  r.diagnostics.filter((d) => /nextPageToken|Idempotency-Key/.test(d.message)).map((d) => [d.code, d.pointer]);

describe('what the import says of a page cursor and an idempotency key', () => {
  it('an optional, non-nullable next cursor is kept (next_optional); a key with a maxLength is said', async () => {
    const r = await importOpenApiDocument(doc({ type: 'string' }, ['items'], { minLength: 1, maxLength: 64 }), 'events.json');
    expect(r.document!.endpoints!.operations!.listEvents).toMatchObject({ action: 'list', paging: { next: 'nextPageToken', next_optional: true } });
    expect(said(r)).toEqual([['import-dropped', '/paths/~1events/post/parameters/0/schema']]);
    expect(r.diagnostics.find((d) => d.code === 'import-dropped' && d.message.includes('Idempotency'))!.message).toContain(
      '`Idempotency-Key`: maxLength 64 has no place',
    );
  });

  it('a nullable or required next cursor, and a key of any non-empty text, say nothing', async () => {
    for (const [next, required] of [
      [{ type: ['string', 'null'] }, ['items']],
      [{ type: 'string' }, ['items', 'nextPageToken']],
    ] as const)
      expect(said(await importOpenApiDocument(doc(next, [...required], { minLength: 1 }), 'events.json'))).toEqual([]);
  });

  it("a key's value stated on a later operation only is said too, once", async () => {
    const r = await importOpenApiDocument(doc({ type: ['string', 'null'] }, ['items'], {}, { pattern: '^[a-z0-9-]{8,64}$' }), 'events.json');
    expect(said(r)).toEqual([['import-dropped', '/paths/~1events~1{id}/delete/parameters/1/schema']]);
  });
});
