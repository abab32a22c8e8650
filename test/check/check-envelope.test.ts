// Response envelopes (docs/format.md, "Response envelopes"): what check refuses, with the exact code and place.
import { describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { CATCH_ALL_ERRORS } from './helpers.js';

/** Giphy's envelope: { data, meta: { msg, status, response_id }, pagination: { total_count, count, offset } }. */
export const GIPHY_ENVELOPE = `data: data
    fields:
      meta:
        type: object
        fields:
          msg: { type: string }
          status: { type: integer }
          response_id: { type: string }
      pagination:
        type: object
        optional: true
        fields:
          total_count: { type: integer }
          count: { type: integer }
          offset: { type: integer }
    status: meta.status
    status_text: meta.msg
    request_id: meta.response_id
    total: pagination.total_count
    count: pagination.count
    offset: pagination.offset`;

function spec(envelope: string, operations = '', paging = '{ style: offset, body: array }'): string {
  return `servicespec: 1
resources:
  Gif:
    fields:
      id: { type: string, readOnly: true }
      title: { type: string }
endpoints:
  envelope:
    ${envelope}
  operations:
    listGifs: { method: GET, path: /gifs, action: list, resource: Gif, paging: ${paging} }
    getGif: { method: GET, path: '/gifs/{id}', action: read, resource: Gif }
${operations}authentication:
  default: none
${CATCH_ALL_ERRORS}`;
}

function found(text: string): [string, string | undefined][] {
  return compileSpecText(text)
    .diagnostics.filter((d) => d.severity === 'error' || d.code === 'misplaced-option')
    .map((d) => [d.code, d.pointer]);
}

describe('response envelopes', () => {
  it('giphy’s envelope checks, and the model wraps the read and the list but not a custom operation', () => {
    const text = spec(GIPHY_ENVELOPE, '    random: { method: GET, path: /random, action: custom, handler: random, response: { resource: Gif } }\n');
    const compiled = compileSpecText(text);
    expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const ops = compiled.model!.endpoints!.operations;
    expect(ops.find((o) => o.id === 'listGifs')!.envelope?.data).toBe('data');
    expect(ops.find((o) => o.id === 'getGif')!.envelope?.values.map((v) => v.source)).toEqual([
      'status',
      'status_text',
      'request_id',
      'total',
      'count',
      'offset',
    ]);
    expect(ops.find((o) => o.id === 'random')!.envelope).toBeUndefined();
  });

  it('a constant (a field with a default) must be a value of its field, and an object holding a named value has none', () => {
    const constants = `data: data
    fields:
      success: { type: boolean, default: "yes" }
      kind: { type: enum, values: [a, b], default: c }
      meta: { type: object, default: { api: v1 }, fields: { api: { type: string, optional: true }, status: { type: integer, optional: true } } }
    status: meta.status`;
    expect(found(spec(constants))).toEqual([
      ['value-violates-field', '/endpoints/envelope/fields/success/default'],
      ['value-violates-field', '/endpoints/envelope/fields/kind/default'],
      ['envelope-field-clash', '/endpoints/envelope/fields/meta/default'],
    ]);
    const ok = compileSpecText(spec(constants.replace('default: "yes"', 'default: true').replace('default: c', 'default: a')));
    expect(ok.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code)).toEqual(['envelope-field-clash']);
  });

  it('an operation’s envelope: none answers bare', () => {
    const text = spec(GIPHY_ENVELOPE).replace('body: array } }', 'body: array }, envelope: none }');
    const compiled = compileSpecText(text);
    expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(compiled.model!.endpoints!.operations.find((o) => o.id === 'listGifs')!.envelope).toBeUndefined();
  });

  it('a value naming no field is envelope-field-unknown', () => {
    expect(found(spec(GIPHY_ENVELOPE.replace('status: meta.status', 'status: meta.code')))).toEqual([['envelope-field-unknown', '/endpoints/envelope/status']]);
  });

  it('a field that cannot hold its value is envelope-field-type', () => {
    expect(found(spec(GIPHY_ENVELOPE.replace('status: { type: integer }', 'status: { type: string }')))).toEqual([
      ['envelope-field-type', '/endpoints/envelope/fields/meta/fields/status'],
    ]);
    expect(found(spec(GIPHY_ENVELOPE.replace('msg: { type: string }', "msg: { type: string, pattern: '^O' }")))).toEqual([
      ['envelope-field-type', '/endpoints/envelope/fields/meta/fields/msg'],
    ]);
    // A count's floor constrains nothing the runtime writes (total ≥ 0); a bound above it does.
    expect(found(spec(GIPHY_ENVELOPE.replace('total_count: { type: integer }', 'total_count: { type: integer, minimum: 0 }')))).toEqual([]);
    expect(found(spec(GIPHY_ENVELOPE.replace('total_count: { type: integer }', 'total_count: { type: integer, minimum: 1 }')))).toEqual([
      ['envelope-field-type', '/endpoints/envelope/fields/pagination/fields/total_count'],
    ]);
    expect(found(spec(GIPHY_ENVELOPE.replace('offset: { type: integer }', 'offset: { type: integer, maximum: 1000 }')))).toEqual([
      ['envelope-field-type', '/endpoints/envelope/fields/pagination/fields/offset'],
    ]);
  });

  it("an echoed page size bounded at or over every list's maximum constrains nothing the runtime writes", () => {
    // { data, page, per_page: { maximum: 100 }, total } of lists capped at 100 (a warehouse API's): accepted.
    const echo = GIPHY_ENVELOPE.replace(
      'offset: { type: integer }',
      'offset: { type: integer }\n          per_page: { type: integer, minimum: 1, maximum: 100 }',
    ).replace('offset: pagination.offset', 'offset: pagination.offset\n    limit: pagination.per_page');
    const capped = (max: number | undefined) => `{ style: offset, body: array${max === undefined ? '' : `, page_size: { max: ${max} }`} }`;
    expect(found(spec(echo, '', capped(100)))).toEqual([]);
    expect(found(spec(echo, '', capped(50)))).toEqual([]);
    // A list that may write more than the field allows (its maximum 200; or none stated: the runtime's own).
    expect(found(spec(echo, '', capped(200)))).toEqual([['envelope-field-type', '/endpoints/envelope/fields/pagination/fields/per_page']]);
    expect(found(spec(echo, '', capped(undefined)))).toEqual([['envelope-field-type', '/endpoints/envelope/fields/pagination/fields/per_page']]);
  });

  it('the data field among the fields, or two values in one field, is envelope-field-clash', () => {
    expect(found(spec(GIPHY_ENVELOPE.replace('      meta:\n', '      data: { type: json }\n      meta:\n')))).toEqual([
      ['envelope-field-clash', '/endpoints/envelope/data'],
    ]);
    expect(found(spec(GIPHY_ENVELOPE.replace('count: pagination.count', 'count: pagination.total_count')))).toEqual([
      ['envelope-field-clash', '/endpoints/envelope/count'],
    ]);
  });

  it('a required field with no value on some answer is envelope-field-unfilled', () => {
    // pagination required: a read has no total, count or offset
    expect(found(spec(GIPHY_ENVELOPE.replace('        optional: true\n', '')))).toEqual([['envelope-field-unfilled', '/endpoints/envelope/fields/pagination']]);
    // a field no value names
    expect(found(spec(GIPHY_ENVELOPE.replace('response_id: { type: string }', 'response_id: { type: string }\n          server: { type: string }')))).toEqual([
      ['envelope-field-unfilled', '/endpoints/envelope/fields/meta/fields/server'],
    ]);
    // a cursor list has no offset
    const cursor = GIPHY_ENVELOPE.replace('        optional: true\n', '').replace("getGif'", '');
    expect(found(spec(cursor, '', '{ body: array, link: true }'))).toContainEqual(['envelope-field-unfilled', '/endpoints/envelope/fields/pagination']);
  });

  it('a bare array paged by cursor needs no Link header when the envelope carries the next cursor', () => {
    const own = '{ data: items, fields: { next: { type: string, nullable: true } }, next: next }';
    // giphy's envelope has no next cursor (and a cursor list no offset, which its pagination requires)
    expect(found(spec(GIPHY_ENVELOPE, '', '{ body: array }'))).toEqual([
      ['envelope-field-unfilled', '/endpoints/envelope/fields/pagination/fields/offset'],
      ['paging-contradiction', '/endpoints/operations/listGifs/paging/body'],
    ]);
    expect(found(spec(GIPHY_ENVELOPE, '', `{ body: array }, envelope: ${own}`))).toEqual([]);
    expect(found(spec(GIPHY_ENVELOPE, '', `{ body: array }, envelope: ${own.replace(', nullable: true', '')}`))).toEqual([
      ['envelope-field-type', '/endpoints/operations/listGifs/envelope/fields/next'],
    ]);
    // Optional and not nullable (Kubernetes' metadata.continue): left out on the last page, accepted.
    expect(found(spec(GIPHY_ENVELOPE, '', `{ body: array }, envelope: ${own.replace(', nullable: true', ', optional: true')}`))).toEqual([]);
    const nested =
      '{ data: items, fields: { kind: { type: string, optional: true }, metadata: { type: object, optional: true, fields: { continue: { type: string, optional: true } } } }, next: metadata.continue }';
    expect(found(spec(GIPHY_ENVELOPE, '', `{ body: array, params: { cursor: continue } }, envelope: ${nested}`))).toEqual([]);
  });

  it("a JSON:API page's links and a page count: each held to the type and nullability its value needs", () => {
    // { data, links: { self, first, next, prev }, meta: { total, pages } }, its own on the list (a read has no links).
    const links = (next: string, style = 'page', self = '{ type: uri }') =>
      `{ style: ${style}, body: array }, envelope: { data: data, fields: { links: { type: object, fields: { self: ${self}, first: { type: uri }, next: ${next}, prev: { type: uri, nullable: true }, last: { type: uri } } }, meta: { type: object, fields: { total: { type: integer }, pages: { type: integer, minimum: 0 } } } }, total: meta.total, pages: meta.pages, self_link: links.self, first_link: links.first, next_link: links.next, previous_link: links.prev, last_link: links.last }`;
    const model = compileSpecText(spec(GIPHY_ENVELOPE, '', links('{ type: uri, nullable: true }')));
    expect(found(spec(GIPHY_ENVELOPE, '', links('{ type: uri, nullable: true }')))).toEqual([]);
    expect(model.model!.endpoints!.operations.find((o) => o.id === 'listGifs')!.envelope!.values.map((v) => v.source)).toEqual([
      'total',
      'pages',
      'self_link',
      'first_link',
      'next_link',
      'previous_link',
      'last_link',
    ]);
    // Optional and not nullable: left out on the last page, accepted; a string field holds an address too.
    expect(found(spec(GIPHY_ENVELOPE, '', links('{ type: string, optional: true }')))).toEqual([]);
    // Neither: the last page would have nothing to write there.
    expect(found(spec(GIPHY_ENVELOPE, '', links('{ type: uri }')))).toEqual([
      ['envelope-field-type', '/endpoints/operations/listGifs/envelope/fields/links/fields/next'],
    ]);
    // An address is text; a self address is never null.
    expect(found(spec(GIPHY_ENVELOPE, '', links('{ type: uri, nullable: true }', 'page', '{ type: integer }')))).toEqual([
      ['envelope-field-type', '/endpoints/operations/listGifs/envelope/fields/links/fields/self'],
    ]);
    // A list paged by cursor has no previous page nor a page count: their required fields get no value.
    expect(found(spec(GIPHY_ENVELOPE, '', links('{ type: uri, nullable: true }', 'cursor, link: true')))).toEqual([
      ['envelope-field-unfilled', '/endpoints/operations/listGifs/envelope/fields/links/fields/prev'],
    ]);
  });

  it('envelope on a delete or a custom operation is misplaced-option', () => {
    const text = spec(GIPHY_ENVELOPE, '    delGif: { method: DELETE, path: "/gifs/{id}", action: delete, resource: Gif, envelope: none }\n');
    expect(found(text)).toEqual([['misplaced-option', '/endpoints/operations/delGif/envelope']]);
  });

  it('request_envelope on a read, list, delete or custom operation is misplaced-option; on a create it is not', () => {
    const text = spec(
      GIPHY_ENVELOPE,
      `    addGif: { method: POST, path: /gifs, action: create, resource: Gif, request_envelope: { data: gif } }
    delGif: { method: DELETE, path: "/gifs/{id}", action: delete, resource: Gif, request_envelope: { data: gif } }
    random: { method: POST, path: /random, action: custom, handler: random, request: { resource: Gif }, response: { resource: Gif }, request_envelope: { data: gif } }
`,
    ).replace('action: read, resource: Gif }', 'action: read, resource: Gif, request_envelope: { data: gif } }');
    expect(found(text)).toEqual([
      ['misplaced-option', '/endpoints/operations/getGif/request_envelope'],
      ['misplaced-option', '/endpoints/operations/delGif/request_envelope'],
      ['misplaced-option', '/endpoints/operations/random/request_envelope'],
    ]);
    expect(compileSpecText(text).model!.endpoints!.operations.find((o) => o.id === 'addGif')!.requestEnvelope).toEqual({ data: 'gif' });
  });

  it('a request_envelope without its data member, or with another key, is a structural error', () => {
    const op = (env: string) => spec(GIPHY_ENVELOPE, `    addGif: { method: POST, path: /gifs, action: create, resource: Gif, request_envelope: ${env} }\n`);
    expect(found(op('{}')).map(([c]) => c)).toEqual(['missing-key']);
    expect(found(op('{ data: gif, fields: {} }')).map(([c]) => c)).toEqual(['unknown-key']);
  });

  it('an unknown key in an envelope is a structural error', () => {
    expect(found(spec(`${GIPHY_ENVELOPE}\n    server: meta.msg`)).map(([c]) => c)).toEqual(['unknown-key']);
  });
});
