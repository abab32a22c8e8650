// The nine-part document lists each callback: the create, the request field the URL comes from, the events.
import { describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
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
});
