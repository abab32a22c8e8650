// A nested member the document does not require, with a default (Google Calendar's `attendees[].optional`, `false`):
// optional in answers as in the document. The import had dropped `optional` for nested members with a default, so
// every answer was held to carry them and a faithful service leaving them out failed the tester (an outside sweep's
// calendar omit-defaults). A top-level field kept it already.
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';

const json = (schema: unknown) => ({ 'application/json': { schema } });

const doc = (required: string[]) => ({
  openapi: '3.0.3',
  info: { title: 'Calendar', version: '1' },
  paths: {
    '/events': {
      post: {
        operationId: 'insertEvent',
        requestBody: { required: true, content: json({ $ref: '#/components/schemas/Event' }) },
        responses: { '201': { description: 'made', content: json({ $ref: '#/components/schemas/Event' }) } },
      },
    },
  },
  components: {
    schemas: {
      Event: {
        type: 'object',
        required: ['id', 'summary'],
        properties: {
          id: { type: 'string', readOnly: true },
          summary: { type: 'string' },
          attendees: {
            type: 'array',
            items: {
              type: 'object',
              required,
              properties: { email: { type: 'string', format: 'email' }, optional: { type: 'boolean', default: false } },
            },
          },
        },
      },
    },
  },
});

const member = async (required: string[]) => {
  const r = await importOpenApiDocument(doc(required), 'calendar.json');
  const attendees = (r.document!.resources!.Event!.fields as Record<string, { items?: { fields?: Record<string, Record<string, unknown>> } }>).attendees!;
  return attendees.items!.fields!.optional!;
};

describe('a nested member with a default', () => {
  it('not required by the document: optional, its default kept', async () => {
    expect(await member(['email'])).toMatchObject({ type: 'boolean', default: false, optional: true });
  });

  it('required by the document: not optional, and every request must send it', async () => {
    const m = await member(['email', 'optional']);
    expect(m.optional).toBeUndefined();
    expect(m).toMatchObject({ default: false, requiredInRequests: true });
  });
});
