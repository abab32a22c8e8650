// Names that share one place on the wire (wire-name-clash), filters that cannot match (filter-type-invalid), event
// kinds no stream reader sees (event-kind-unseen), and the api_key `in` format default in the gap report.
import { describe, expect, it } from 'vitest';
import { formatGapReport, getGapReport } from '../../src/check/check-gaps.js';
import { compileSpecText } from '../../src/program.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';

const codesOf = (text: string) => compileSpecText(text).diagnostics.map((d) => d.code);
const clashes = (text: string) =>
  compileSpecText(text)
    .diagnostics.filter((d) => d.code === 'wire-name-clash')
    .map((d) => d.message);

const spec = (o: { schemes?: string; versioning?: string; idempotency?: string; filter?: string; events?: string }) => `
servicespec: 1
resources:
  Item:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string }
      cursor: { type: string }
endpoints:
  ${o.idempotency ?? ''}
  operations:
    listItems: { method: GET, path: /items, action: list, resource: Item, filter: [${o.filter ?? 'name'}] }
authentication:
  schemes:
${o.schemes ?? '    k: { type: api_key, in: header, name: X-Key }'}
  default: { scopes: [] }
${o.versioning ?? ''}
${o.events ?? ''}
`;
const QUERY_VERSION = 'versioning: { scheme: integer, current: 1, placement: { query: version }, default: current }';
const HEADER_VERSION = (h: string) => `versioning: { scheme: integer, current: 1, placement: { header: ${h} }, default: current }`;

describe('wire-name-clash', () => {
  it('distinct names check clean', () => {
    expect(codesOf(spec({ versioning: QUERY_VERSION, idempotency: 'idempotency: {}' }))).not.toContain('wire-name-clash');
  });
  it('a filter named like a list parameter', () => {
    expect(clashes(spec({ filter: 'cursor' }))).toEqual([
      'query parameter `cursor` is both the list parameter cursor of operation listItems and the filter cursor of operation listItems: one request cannot carry both',
    ]);
  });
  it('a filter named like the version query parameter, an api_key query parameter named like the version or a list parameter', () => {
    expect(clashes(spec({ versioning: QUERY_VERSION.replace('version }', 'name }') }))).toHaveLength(1);
    expect(clashes(spec({ versioning: QUERY_VERSION, schemes: '    k: { type: api_key, in: query, name: version }' }))[0]).toContain(
      'the version (versioning.placement) and the key of scheme k',
    );
    expect(clashes(spec({ schemes: '    k: { type: api_key, in: query, name: limit }' }))[0]).toContain(
      'the list parameter limit of operation listItems and the key of scheme k',
    );
  });
  it('two api_key schemes of one query name clash; of one header name they do not', () => {
    expect(clashes(spec({ schemes: '    a: { type: api_key, in: query, name: key }\n    b: { type: api_key, in: query, name: key }' }))).toHaveLength(1);
    expect(clashes(spec({ schemes: '    a: { type: api_key, in: header, name: X-Key }\n    b: { type: api_key, in: header, name: x-key }' }))).toEqual([]);
  });
  it('headers clash without regard to case: idempotency, version, Authorization, runtime headers', () => {
    expect(clashes(spec({ idempotency: 'idempotency: { header: x-key }' }))[0]).toContain('the key of scheme k and the idempotency key');
    expect(clashes(spec({ versioning: HEADER_VERSION('x-KEY') }))).toHaveLength(1);
    expect(clashes(spec({ schemes: '    b: { type: basic }', versioning: HEADER_VERSION('authorization') }))[0]).toContain(
      'the credential of scheme b (Authorization) and the version',
    );
    expect(clashes(spec({ schemes: '    b: { type: basic }\n    k: { type: api_key, in: header, name: Authorization }' }))).toHaveLength(1);
    expect(clashes(spec({ schemes: '    k: { type: api_key, in: header, name: X-Request-Id }' }))[0]).toContain('the request id the service logs');
    expect(clashes(spec({ idempotency: 'idempotency: { header: Content-Type }' }))).toHaveLength(1);
    // The idempotency header's format default counts too.
    expect(clashes(spec({ idempotency: 'idempotency: {}', schemes: '    k: { type: api_key, in: header, name: idempotency-key }' }))).toHaveLength(1);
  });
  it("the event stream's query parameters and Last-Event-ID", () => {
    const events =
      'events:\n  delivery: { stream: { path: /events } }\n  kinds: { item.created: { on: [create], resource: Item, payload: { resource: Item } } }';
    expect(clashes(spec({ events, schemes: '    k: { type: api_key, in: query, name: after }' }))).toHaveLength(1);
    expect(clashes(spec({ events, schemes: '    k: { type: api_key, in: header, name: Last-Event-ID }' }))).toHaveLength(1);
  });
});

describe('filter-type-invalid', () => {
  const filtered = (type: string) => `
servicespec: 1
resources:
  Box:
    fields:
      id: { type: uuid, readOnly: true }
      f: ${type}
endpoints:
  operations:
    listBoxes: { method: GET, path: /boxes, action: list, resource: Box, filter: [f], auth: none }
`;
  it('refuses a filter on an array, object or json field, not on a scalar', () => {
    for (const t of ['{ type: array, items: { type: string } }', '{ type: object, fields: { w: { type: integer } } }', '{ type: json }']) {
      expect(codesOf(filtered(t)), t).toContain('filter-type-invalid');
    }
    for (const t of ['{ type: string }', '{ type: integer }', '{ type: enum, values: [a] }', '{ type: boolean }'])
      expect(codesOf(filtered(t)), t).not.toContain('filter-type-invalid');
  });
});

describe('event-kind-unseen', () => {
  const evented = (ops: string, delivery: string) => `
servicespec: 1
resources:
  Note:
    fields:
      id: { type: uuid, readOnly: true }
      text: { type: string }
endpoints:
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note, auth: none }
${ops}
events:
  delivery: ${delivery}
  kinds:
    note.created: { on: [create], resource: Note, payload: { resource: Note } }
`;
  it('warns when the stream is the only delivery and the resource has no read or list operation', () => {
    const d = compileSpecText(evented('', '{ stream: { path: /events } }')).diagnostics.find((x) => x.code === 'event-kind-unseen');
    expect(d?.severity).toBe('warning');
    expect(d?.message).toContain('resource Note has no read or list operation');
  });
  it('is quiet with a read operation, or with webhook delivery', () => {
    expect(
      codesOf(evented('    getNote: { method: GET, path: "/notes/{id}", action: read, resource: Note, auth: none }', '{ stream: { path: /events } }')),
    ).not.toContain('event-kind-unseen');
    expect(codesOf(evented('', '{ stream: { path: /events }, webhook: { path: /hooks } }'))).not.toContain('event-kind-unseen');
  });
});

describe('gaps: the api_key `in` default', () => {
  it('names an api_key scheme without `in` as a format default', () => {
    const m = compileSpecText('servicespec: 1\nauthentication:\n  schemes:\n    k: { type: api_key, name: X-Key }\n').model!;
    expect(formatGapReport(getGapReport(m))).toContain('  - key placement (scheme k): format default, in header\n');
    const m2 = compileSpecText('servicespec: 1\nauthentication:\n  schemes:\n    k: { type: api_key, in: header, name: X-Key }\n').model!;
    expect(formatGapReport(getGapReport(m2))).not.toContain('key placement');
  });
});

describe('a rate limit without a name: the name it goes by in RateLimit-Policy is a format default', () => {
  const text = 'servicespec: 1\nlimits:\n  rate:\n    - { requests: 10, per: 1m, by: address }\n    - { name: burst, requests: 5, per: 1s, by: address }\n';
  it('gaps names it as a format default; a named one is not listed', () => {
    const report = formatGapReport(getGapReport(compileSpecText(text).model!));
    expect(report).toContain('  - rate limit name (rate limit 0): format default, rate0 in RateLimit-Policy\n');
    expect(report).not.toContain('rate limit name (rate limit 1)');
  });
  it('the nine-part document says so beside the limit', () => {
    const doc = renderMarkdown(compileSpecText(text).model!);
    expect(doc).toContain('named `rate0` in RateLimit-Policy (format default)');
  });
});
