// `unknown_fields` in the documents: the nine-part document says an ignoring request drops members it does not name;
// the console says, per create, update and replace, whether they are refused or dropped (and when that is the default).
import { describe, expect, it } from 'vitest';
import { renderConsole } from '../../src/render/render-console.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';
import { checkedModel } from '../support/specs.js';
import { UNKNOWN_SPEC } from '../support/unknown-fields-spec.js';

describe('unknown_fields in the documents', () => {
  const model = checkedModel(UNKNOWN_SPEC);
  it('the document names the ignoring requests', () => {
    const md = renderMarkdown(model);
    expect(md).toContain('#### createNote');
    expect(md).toContain('#### replaceNote');
    expect(md).not.toContain('#### updateNote');
    expect(md).toMatch(/a member it does not name is accepted and dropped, never stored nor answered \(`unknown_fields: ignore`\)/);
  });

  it('the console says it per request', () => {
    const html = renderConsole(model);
    expect(html).toContain('<dt>Unknown members</dt><dd>accepted and dropped, never stored nor answered (<code>unknown_fields: ignore</code>)</dd>');
    expect(html).toContain('<dt>Unknown members</dt><dd>refused (<code>unknown_fields: refuse</code>)</dd>');
    const plain = renderConsole(checkedModel(UNKNOWN_SPEC.replace(', unknown_fields: refuse', '')));
    expect(plain).toContain('<dt>Unknown members</dt><dd>refused (<code>unknown_fields: refuse</code>, the format default)</dd>');
  });
});
