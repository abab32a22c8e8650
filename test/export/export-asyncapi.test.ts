import { Parser } from '@asyncapi/parser';
import { describe, expect, it } from 'vitest';
import { exportAsyncApi } from '../../src/export/export-asyncapi.js';
import { serializeDocument, type JsonObject } from '../../src/export/export-shared.js';
import { compileSpecText } from '../../src/program.js';
import { EXAMPLE_NAMES, exampleModel } from './helpers.js';

const parser = new Parser();

describe('AsyncAPI export', () => {
  for (const name of EXAMPLE_NAMES) {
    it(`${name}: parses with @asyncapi/parser with no errors`, async () => {
      const { document } = exportAsyncApi(exampleModel(name));
      const { diagnostics } = await parser.parse(serializeDocument(document, 'yaml'));
      // severity 0 is an error in the parser's diagnostics (1 warning, 2 information, 3 hint)
      expect(diagnostics.filter((d) => d.severity === 0).map((d) => `${d.code}: ${d.message} at ${d.path.join('.')}`)).toEqual([]);
    }, 30_000);
  }

  it('a tagged union field in an event payload: discriminator is the property name (AsyncAPI), and the parser accepts it', async () => {
    const spec = `servicespec: 1
resources:
  Payment:
    fields:
      id: { type: uuid, readOnly: true }
      method:
        type: union
        discriminator: kind
        variants:
          cash: { fields: { amount: { type: integer } } }
          card: { fields: { last4: { type: string } } }
events:
  kinds:
    payment.created: { payload: { resource: Payment }, on: [create] }
`;
    const { document } = exportAsyncApi(compileSpecText(spec, 'union-event.yaml').model!);
    const schemas = (document.components as Record<string, Record<string, JsonObject>>).schemas!;
    expect((schemas.Payment!.properties as Record<string, JsonObject>).method!.discriminator).toBe('kind');
    const { diagnostics } = await parser.parse(serializeDocument(document, 'yaml'));
    expect(diagnostics.filter((d) => d.severity === 0).map((d) => `${d.code}: ${d.message} at ${d.path.join('.')}`)).toEqual([]);
  }, 30_000);

  it('has a channel for webhook delivery and one for the event stream, a message per kind on each', async () => {
    const { document } = exportAsyncApi(exampleModel('orders'));
    const doc = document as JsonObject & {
      channels: Record<string, JsonObject>;
      operations: Record<string, JsonObject>;
      components: Record<string, Record<string, JsonObject>>;
    };
    expect(Object.keys(doc.channels)).toEqual(['webhook', 'eventStream']);
    expect(doc.channels.webhook!.address).toBeNull();
    expect(doc.channels.eventStream!.address).toBe('/events');
    const kinds = ['order.created', 'order.paid', 'order.shipped', 'order.cancelled', 'customer.created'];
    expect(Object.keys(doc.channels.webhook!.messages as JsonObject)).toEqual(kinds.map((k) => `${k}.webhook`));
    expect(Object.keys(doc.channels.eventStream!.messages as JsonObject)).toEqual(kinds.map((k) => `${k}.stream`));
    expect(doc.operations.deliverWebhook).toMatchObject({ action: 'send', channel: { $ref: '#/channels/webhook' } });
    // the payload: the envelope around the kind's payload schema
    const parsed = await parser.parse(serializeDocument(document, 'yaml'));
    const message = parsed
      .document!.messages()
      .all()
      .find((m) => m.id() === 'order.paid.webhook')!;
    const payload = message.payload()!.json() as JsonObject;
    expect(Object.keys(payload.properties as JsonObject)).toEqual(['id', 'type', 'timestamp', 'version', 'data']);
    // data as the runtime sends it: { object, previous? }; a transition's previous holds its state field
    const data = (payload.properties as JsonObject).data as JsonObject & { properties: Record<string, JsonObject> };
    expect(Object.keys(data.properties)).toEqual(['object', 'previous']);
    expect(data.properties.object!.properties).toHaveProperty('status');
    expect(Object.keys(data.properties.previous!.properties as JsonObject)).toEqual(['status']);
    expect(data).toMatchObject({ required: ['object'], additionalProperties: false });
    // the signing headers on webhook messages, none on the stream
    expect(Object.keys((message.headers()!.json() as JsonObject).properties as JsonObject)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    expect(
      parsed
        .document!.messages()
        .all()
        .find((m) => m.id() === 'order.paid.stream')!
        .hasHeaders(),
    ).toBe(false);
  });

  it('puts the path version placement into the stream channel address as a parameter', () => {
    const doc = exportAsyncApi(exampleModel('library')).document as { channels: Record<string, JsonObject> };
    expect(doc.channels.eventStream).toMatchObject({ address: '/v{version}/events', parameters: { version: { enum: ['2', '1'] } } });
  });

  it('lists retries and triggers as extension diagnostics, and has no channels where no delivery is shown', () => {
    const r = exportAsyncApi(exampleModel('orders'));
    expect(r.diagnostics.some((d) => d.code === 'export-extension' && d.message.includes('retry schedule'))).toBe(true);
    expect((r.document as JsonObject)['x-servicespec-events']).toBeDefined();
    const empty = exportAsyncApi(exampleModel('empty'));
    expect(empty.document).toMatchObject({ asyncapi: '3.0.0', channels: {}, operations: {} });
  });
});
