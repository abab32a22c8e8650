// The nine-part document and the docs console list each callback: the create, the request field the URL comes from,
// the events.
import { describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { renderConsole } from '../../src/render/render-console.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';
import { CALLBACK_SPEC } from '../support/callbacks.js';

describe('callbacks in the document', () => {
  it('has a Callbacks table under Endpoints', () => {
    const md = renderMarkdown(compileSpecText(CALLBACK_SPEC).model!);
    expect(md).toContain('### Callbacks');
    expect(md).toContain('| `subscribe` | `onData` | `callbackUrl` | `subscription.updated`, `subscription.cancelled` | Data about the subscription. |');
  });

  it('has none for a spec without callbacks', () => {
    const md = renderMarkdown(compileSpecText(CALLBACK_SPEC.replace(/ {6}callbacks:\n(?: {8,}.*\n)+/, '')).model!);
    expect(md).not.toContain('Callbacks');
  });

  it('the docs console shows them on the create', () => {
    const html = renderConsole(compileSpecText(CALLBACK_SPEC).model!);
    expect(html).toContain(
      '<dt>Callbacks</dt><dd><code>onData</code>: the URL in <code>callbackUrl</code> receives <code>subscription.updated</code>, <code>subscription.cancelled</code> about the created object',
    );
    expect(html.match(/<dt>Callbacks<\/dt>/g)).toHaveLength(1);
  });
});
