// `etag: true` in the nine-part document and the console (docs/format.md, "Conditional requests"): the resource says
// it takes conditional requests, each answer of one object its ETag, a change with `if_match: required` that it needs
// If-Match; the console's route facts say the same. Before, neither said anything of it.
import { describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { renderConsole } from '../../src/render/render-console.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';
import { ETAG_SPEC } from '../support/etag-spec.js';

describe('etag in the document and the console', () => {
  const model = compileSpecText(ETAG_SPEC()).checked!;

  it('the document says the resource takes conditional requests, and which answers and changes', () => {
    const md = renderMarkdown(model);
    expect(md).toContain('Conditional requests: an `ETag` on every answer of one object; a read honours `If-None-Match` (304)');
    expect(md).toContain('needs `If-Match` (`if_match: required`, else `precondition_required`)');
    expect(md).toMatch(/getNote[^\n]*200, `ETag`/);
    const plain = renderMarkdown(compileSpecText(ETAG_SPEC('plural: Notes', 'plural: Contracts').replace(/, if_match: required/g, '')).checked!);
    expect(plain).not.toContain('ETag');
  });

  it('the console says it on each route', () => {
    const html = renderConsole(model);
    expect(html).toContain('<dt>Conditional requests</dt><dd>answers an <code>ETag</code>; <code>If-None-Match</code> naming it answers 304');
    expect(html).toContain('<code>If-Match</code> required (428 without it)');
  });
});
