// Raw event payloads in the exports (events.kinds.<kind>.body: raw): OpenAPI's webhook request body and AsyncAPI's
// message payload are the kind's payload schema itself; the generated client types a raw kind's WebhookEvent as the
// payload. Enveloped kinds beside it keep the envelope.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exportAsyncApi } from '../../src/export/export-asyncapi.js';
import { generateClient } from '../../src/export/export-client.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { ROOT, tempDir, tsc } from './helpers.js';

const tmp = tempDir('servicespec-raw-client-');
afterAll(() => tmp.remove());

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- exported documents

function rawModel() {
  const text = readFileSync(join(ROOT, 'test', 'events', 'fixtures', 'events.yaml'), 'utf8')
    .replace('ticket.created: { payload: { resource: Ticket }, on: [create] }', 'ticket.created: { payload: { resource: Ticket }, on: [create], body: raw }')
    .replace('ticket.deleted: { payload: {', 'ticket.deleted: { body: raw, payload: {');
  const c = compileSpecText(text, 'events-raw.yaml');
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return c.model!;
}

describe('a raw kind in the exports', () => {
  it('OpenAPI: the webhook body is the payload schema; an enveloped kind keeps { id, type, timestamp, data }', () => {
    const doc = exportOpenApi(rawModel()).document as Json;
    const body = (name: string) => doc.webhooks[name].post.requestBody.content['application/json'].schema as Json;
    expect(body('ticket.created')).toEqual({ $ref: '#/components/schemas/Ticket' });
    expect(Object.keys(body('ticket.deleted').properties as object)).toEqual(['id', 'title']);
    expect(body('ticket.updated').required).toEqual(['id', 'type', 'timestamp', 'data']);
    expect(doc.webhooks['ticket.created'].post.parameters.map((p: Json) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    expect(doc['x-servicespec-events'].kinds['ticket.created'].body).toBe('raw');
    expect(Object.values(doc.paths as Json).find((p: Json) => p.get?.['x-servicespec-route'] === 'stream').get.description).toContain(
      'For `ticket.created` and `ticket.deleted`, `data` is the payload itself (raw).',
    );
  });

  it('AsyncAPI: the message payload is the payload schema; no envelope schema is made for it', () => {
    const doc = exportAsyncApi(rawModel()).document as Json;
    const payloadOf = (name: string) => (Object.values(doc.components.messages as Json).find((m: Json) => m.name === name) as Json).payload as Json;
    expect(payloadOf('ticket.created')).toEqual({ $ref: '#/components/schemas/Ticket' });
    expect(payloadOf('ticket.updated')).toEqual({ $ref: '#/components/schemas/TicketUpdatedEvent' });
    expect(doc.components.schemas.TicketCreatedEvent).toBeUndefined();
  });

  it('client: WebhookEvent of a raw kind is its payload, and the client compiles under tsc --strict', async () => {
    const { code } = generateClient(rawModel());
    expect(code).toContain('export type RawEventKind = "ticket.created" | "ticket.deleted";');
    writeFileSync(join(tmp.path, 'client.ts'), code);
    writeFileSync(
      join(tmp.path, 'use.ts'),
      [
        "import type { WebhookEvent } from './client.js';",
        "export const raw: WebhookEvent = { id: '0193', title: 't', status: 'open', created_at: '2026-01-01T00:00:00Z' };",
        "export const deleted: WebhookEvent = { id: '0193', title: 't' };",
        "export const enveloped: WebhookEvent = { id: 'e', type: 'ticket.updated', timestamp: 't', data: { object: { id: '0193', title: 't', status: 'open', created_at: 'c' } } };",
        '',
      ].join('\n'),
    );
    const r = await tsc(tmp.path, ['client.ts', 'use.ts'], {
      target: 'ES2022',
      lib: ['ES2022', 'DOM'],
      module: 'ES2022',
      moduleResolution: 'bundler',
      types: [],
    });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.code).toBe(0);
  }, 60_000);
});
