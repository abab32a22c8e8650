// events.delivery.broker: each broker-* code on a minimal spec, at the template's line, and gone once fixed.
import { Parser } from '@asyncapi/parser';
import { describe, expect, it } from 'vitest';
import { formatDefaultItem, formatGapItem, getGapReport } from '../../src/check/check-gaps.js';
import { exportAsyncApi } from '../../src/export/export-asyncapi.js';
import { serializeDocument, type JsonObject } from '../../src/export/export-shared.js';
import { fillBrokerTemplate, getBrokerKindBinding, getNatsStreamSubjects, parseBrokerTemplate, encodeBrokerToken } from '../../src/model/model-broker.js';
import { compileSpecText } from '../../src/program.js';
import { renderConsole } from '../../src/render/render-console.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';
import { brief, markedLine, yaml } from './helpers.js';

const base = (broker: string, kind = '{ on: [create], payload: { resource: Book } }') => yaml`
  servicespec: 1
  resources:
    Book:
      fields:
        id: { type: uuid, readOnly: true }
        title: { type: string }
    Shelf:
      fields:
        id: { type: uuid, readOnly: true }
  endpoints:
    operations:
      getBook: { method: GET, path: "/books/{id}", resource: Book, action: read }
  events:
    delivery:
      broker:
        ${broker}
    kinds:
      book.added: ${kind}
`;

const CASES: { code: string; spec: string; fix: [string, string]; message: string }[] = [
  {
    code: 'broker-placeholder-unknown',
    spec: base('nats: { subject: "library.{kinds}" } # <-'),
    fix: ['{kinds}', '{kind}'],
    message: '`{kinds}` is not a placeholder',
  },
  {
    code: 'broker-placeholder-unfilled',
    spec: base('nats: { subject: "library.{resource}.{id}" } # <-', '{ resource: Book, on: [create], payload: { fields: { title: { type: string } } } }'),
    fix: ['.{id}', ''],
    message: '`{id}` cannot be filled for event `book.added`',
  },
  { code: 'broker-subject-invalid', spec: base('nats: { subject: "library..{kind}" } # <-'), fix: ['library..', 'library.'], message: 'empty token' },
  { code: 'broker-subject-invalid', spec: base('nats: { subject: "library.*.{kind}" } # <-'), fix: ['library.*.', 'library.'], message: 'wildcard' },
  {
    code: 'broker-stream-name-invalid',
    spec: base('nats: { subject: "library.{kind}", stream: "LIB.RARY" } # <-'),
    fix: ['LIB.RARY', 'LIBRARY'],
    message: '`LIB.RARY` is not a stream name',
  },
  {
    code: 'broker-exchange-invalid',
    spec: base('amqp: { exchange: "amq.topic", routing_key: "{kind}" } # <-'),
    fix: ['amq.topic', 'library'],
    message: 'reserved',
  },
  {
    code: 'broker-routing-key-invalid',
    spec: base('amqp: { exchange: library, routing_key: "#.{kind}" } # <-'),
    fix: ['#.{kind}', '{kind}'],
    message: 'binding wildcards',
  },
];

describe('check: events.delivery.broker', () => {
  it.each(CASES.map((c, i) => [`${c.code} #${i}`, c] as const))('%s', (_n, c) => {
    const d = compileSpecText(c.spec, 'case.yaml').diagnostics.filter((x) => x.code.startsWith('broker-'));
    expect(brief(d).map((b) => b.replace(/^\d+:\d+ /, ''))).toEqual([`error ${c.code}`]);
    expect(d[0]!.line).toBe(markedLine(c.spec));
    expect(d[0]!.message).toContain(c.message);
    const fixed = compileSpecText(c.spec.replace(c.fix[0], c.fix[1]), 'case.yaml');
    expect(fixed.diagnostics.filter((x) => x.severity === 'error')).toEqual([]);
  });

  it('refuses a broker entry without its required template (structure)', () => {
    const d = compileSpecText(base('nats: { stream: LIBRARY }'), 'case.yaml').diagnostics;
    expect(d.map((x) => x.code)).toContain('missing-key');
  });

  it('fills {kind}, {resource} and {id}; an id with a dot or wildcard stays one token', () => {
    const m = compileSpecText(base('nats: { subject: "library.{resource}.{kind}.{id}", stream: LIBRARY }'), 'case.yaml').model!;
    const b = getBrokerKindBinding(m, m.events!.kinds[0]!);
    expect(b).toMatchObject({ resource: 'Book', idField: 'id' });
    expect(fillBrokerTemplate(parseBrokerTemplate(m.events!.broker!.nats!.subject), b, encodeBrokerToken('a.b*c d'))).toBe(
      'library.Book.book.added.a%2Eb%2Ac%20d',
    );
    expect(getNatsStreamSubjects(m, m.events!)).toEqual(['library.Book.book.added.*']);
  });

  it('is shown by gaps (the stream limits by default) and by the document', () => {
    const m = compileSpecText(
      base('nats: { subject: "library.{kind}", stream: LIBRARY }\namqp: { exchange: library, routing_key: "{kind}" }'),
      'case.yaml',
    ).model!;
    const events = getGapReport(m).parts.find((p) => p.part === 'events')!;
    expect(events.defaults.map(formatDefaultItem).join('\n')).toContain('stream limits (broker delivery (NATS))');
    expect(events.missing.map(formatGapItem).join('\n')).not.toContain('delivery mechanism');
    const md = renderMarkdown(m);
    expect(md).toContain('NATS subject: `library.{kind}`');
    expect(md).toContain('JetStream stream: `LIBRARY` (created with the subjects `library.book.added` when missing)');
    expect(md).toContain('AMQP exchange: `library`');
    expect(md).toContain('AMQP routing key: `{kind}`');
    const html = renderConsole(m);
    expect(html).toContain('<code>library.{kind}</code>');
    expect(html).toContain('<code>LIBRARY</code>');
  });

  it('exports AsyncAPI 3 channels with nats and amqp bindings that @asyncapi/parser accepts', async () => {
    const m = compileSpecText(
      base('nats: { subject: "library.{kind}.{id}", stream: LIBRARY }\namqp: { exchange: library, routing_key: "{kind}" }'),
      'case.yaml',
    ).model!;
    const { document } = exportAsyncApi(m);
    const doc = document as JsonObject & { channels: Record<string, JsonObject>; operations: Record<string, JsonObject>; servers: Record<string, JsonObject> };
    expect(doc.channels.natsBookAdded).toMatchObject({ address: 'library.book.added.{id}', parameters: { id: {} } });
    expect(doc.channels.amqpBookAdded).toMatchObject({ address: 'book.added', bindings: { amqp: { is: 'routingKey', exchange: { name: 'library' } } } });
    expect(doc.operations.publishNatsBookAdded).toMatchObject({ action: 'send', bindings: { nats: {} } });
    expect(doc.servers.natsBroker).toMatchObject({ protocol: 'nats' });
    expect(doc.servers.amqpBroker).toMatchObject({ protocol: 'amqp' });
    const parsed = await new Parser().parse(serializeDocument(document, 'yaml'));
    expect(parsed.diagnostics.filter((d) => d.severity === 0).map((d) => `${d.code}: ${d.message} at ${d.path.join('.')}`)).toEqual([]);
    const msg = parsed
      .document!.messages()
      .all()
      .find((x) => x.id() === 'book.added.nats')!;
    expect(Object.keys((msg.headers()!.json() as JsonObject).properties as JsonObject)).toEqual(['Nats-Msg-Id', 'Content-Type']);
  }, 30_000);
});
