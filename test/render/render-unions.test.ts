// The nine-part document (Markdown and HTML) shows unions — variants, the discriminator property and each tag's
// variant — and a declared error body's roles: which fields carry the code, status and message, and its media type.

import { describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { renderHtml } from '../../src/render/render-html.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';
import { UNION_SPEC } from '../support/union-spec.js';

function model() {
  const c = compileSpecText(UNION_SPEC);
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return c.model!;
}

describe('the document shows unions and the error body roles', () => {
  it('Markdown: a union field with its discriminator, each tag → variant, and each variant with its fields', () => {
    const md = renderMarkdown(model());
    expect(md).toContain('| `method` | union tagged by kind: card → card, bank → bank_transfer | yes |');
    expect(md).toContain('| `method<card>` | variant card | — | tag kind = `"card"` | A card payment. |');
    expect(md).toContain('| `method<bank_transfer>` | variant bank_transfer | — | tag kind = `"bank"` | not shown |');
    expect(md).toContain('| `method<card>.number` | string | yes | pattern `^[0-9]{12,19}$` | not shown |');
    expect(md).toContain('| `method<bank_transfer>.iban` | string | yes | length at most 34 | not shown |');
  });

  it('Markdown: a union body, untagged, with each variant as its own table', () => {
    const md = renderMarkdown(model());
    expect(md).toContain('Request: union (untagged) of by_weight, by_volume, the variants below.');
    expect(md).toMatch(
      /Variant `by_weight`\.\n\n\| Field \| Type \| Required \| Constraints \| Description \|\n\|[-| ]+\|\n\| `grams` \| integer \| yes \| at least 1 \| not shown \|/,
    );
    expect(md).toContain('Variant `by_volume`.');
  });

  it("Markdown and HTML: the declared error body's roles and media type", () => {
    const md = renderMarkdown(model());
    expect(md).toContain("- Code: `error_code` (the code's HTTP status: the field is a number)\n");
    expect(md).toContain('- Status: `status` (the HTTP status; found by its name, a format default)\n');
    expect(md).toContain("- Message: `why` (what went wrong, else the code's title)\n");
    expect(md).toContain('- Also filled: `errors` (the invalid inputs)\n');
    expect(md).toContain('- Media type: `application/vnd.pay.error+json`\n');
    const html = renderHtml(model());
    expect(html).toContain('<li>Code: <code>error_code</code> (the code&#39;s HTTP status: the field is a number)</li>');
    expect(html).toContain('<li>Media type: <code>application/vnd.pay.error+json</code></li>');
    expect(html).toContain('union tagged by kind: card → card, bank → bank_transfer');
    expect(html).toContain('<code>method&lt;card&gt;.number</code>');
  });

  it('Markdown: a code field whose values the spec does not state (code_values: unstated)', () => {
    const c = compileSpecText(
      UNION_SPEC.replace('media_type: application/vnd.pay.error+json', 'media_type: application/vnd.pay.error+json\n    code_values: unstated'),
    );
    expect(c.model!.errors?.body).toMatchObject({ codeValues: 'unstated' });
    expect(renderMarkdown(c.model!)).toContain(
      "- Code: `error_code` (a value the spec does not state for each code (code_values: unstated); the service writes the code's name, a format default)\n",
    );
  });
});
