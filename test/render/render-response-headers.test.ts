// The nine-part document names an operation's declared response headers in its Success column, beside the Location
// of a create (both from getResponseHeaders / getCreateLocation, as the OpenAPI export).
import { expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';

it('shows each declared response header, the optional ones said so', () => {
  const c = compileSpecText(`servicespec: 1
resources:
  Item: { fields: { id: { type: uuid, readOnly: true } } }
endpoints:
  operations:
    createItem:
      method: POST
      path: /items
      action: create
      resource: Item
      response_headers:
        Cache-Control: { type: string, default: no-store }
        X-Seldom: { type: string, optional: true }
    readItem: { method: GET, path: '/items/{id}', action: read, resource: Item }
`);
  const text = renderMarkdown(c.model!);
  expect(text).toContain('201, Location: `/items/{id}`, headers: `Cache-Control`, `X-Seldom` (optional)');
});
