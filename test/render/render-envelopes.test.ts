// The nine-part document and the docs console show response envelopes: the document one row per enveloped
// operation (where the answer is, the envelope's fields and values, where it is declared); the console's success
// examples are the export's envelope schema, the answer in its data field.
import { describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';
import { renderConsole } from '../../src/render/render-console.js';
import { WRAPPED_SPEC } from '../support/request-envelope.js';

const SPEC = `servicespec: 1
resources:
  Gif:
    fields:
      id: { type: integer, readOnly: true }
      title: { type: string }
endpoints:
  envelope:
    data: data
    fields:
      meta: { type: object, fields: { msg: { type: string }, status: { type: integer } } }
    status: meta.status
    status_text: meta.msg
  operations:
    getGif: { method: GET, path: '/gifs/{id}', action: read, resource: Gif }
    listGifs: { method: GET, path: /gifs, action: list, resource: Gif, paging: { style: offset, body: array }, envelope: { data: results, fields: { total: { type: integer } }, total: total } }
    deleteGif: { method: DELETE, path: '/gifs/{id}', action: delete, resource: Gif }
`;

describe('response envelopes in the documents', () => {
  it('the nine-part document has one row per enveloped operation', () => {
    const md = renderMarkdown(compileSpecText(SPEC).model!);
    const table = md.slice(md.indexOf('### Response envelopes')).split('\n### ')[0]!;
    expect(table).toContain('| `getGif` | `data` | { data, meta { msg, status } } (status in meta.status, status_text in meta.msg) | endpoints.envelope |');
    expect(table).toContain('| `listGifs` | `results` | { results, total } (total in total) | by the operation |');
    expect(table).not.toContain('deleteGif');
  });

  it('a spec with no envelope has no such section', () => {
    const md = renderMarkdown(
      compileSpecText(SPEC.replace(/ {2}envelope:[\s\S]*? {2}operations:/, '  operations:').replace(/, envelope: \{.*\} \}/, ' }')).model!,
    );
    expect(md).not.toContain('Response envelopes');
  });

  it('the console shows the envelope around the answer', () => {
    const html = renderConsole(compileSpecText(SPEC).model!);
    expect(html).toContain('&quot;meta&quot;');
  });
});

describe('request envelopes in the documents', () => {
  const model = compileSpecText(WRAPPED_SPEC).model!;
  it('the document says each wrapped request is sent in its member', () => {
    const md = renderMarkdown(model);
    const create = md.slice(md.indexOf('#### createProduct')).split('\n#### ')[0]!;
    expect(create).toContain(
      'Request wrapper: the body is sent as `{ "product": … }`, the object holding only that member (`request_envelope`); a body sent bare is refused.',
    );
    expect(md.slice(md.indexOf('#### getProduct')).split('\n#### ')[0]).not.toContain('Request wrapper');
  });

  it('the console’s request example is the wrapper around the body', () => {
    const html = renderConsole(model);
    expect(html).toMatch(/&quot;product&quot;: \{\s*&quot;title&quot;/);
  });
});
