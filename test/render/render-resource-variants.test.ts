// The nine-part document and the docs console show a resource of several shapes (docs/format.md, "Resources of
// several shapes"): the fields every variant shares, then each variant with its tag and its own fields — not one
// table where a variant's required field would read as required of every object.
import { describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { renderConsole } from '../../src/render/render-console.js';
import { renderHtml } from '../../src/render/render-html.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';
import { PET_VARIANTS_SPEC } from '../support/resource-variants.js';

const model = () => compileSpecText(PET_VARIANTS_SPEC).model!;

describe('the document shows a resource of several shapes', () => {
  it('Markdown: the shared fields, then each variant with its tag and its own fields', () => {
    const md = renderMarkdown(model());
    expect(md).toContain(
      'Each object is one of the variants below, told apart by `kind`, which it holds from its create on (it never changes). Fields every variant holds:',
    );
    expect(md).toMatch(/\| `id` \| uuid \| yes \| read-only \| not shown \|\n\| `name` \| string \| yes \| length at most 50 \| not shown \|\n\nVariant `Cat`/);
    expect(md).toContain('Variant `Cat` (`kind: "cat"`): A cat.\n');
    expect(md).toContain('Variant `Dog` (`kind: "Dog"`).\n');
    expect(md).toContain('| `breed` | string | yes | length at least 1 | not shown |');
    // The tag is no row of the shared table: it is said by each variant's heading.
    expect(md).not.toContain('| `kind` | enum');
  });

  it('HTML and the console name every variant', () => {
    expect(renderHtml(model())).toContain('<code>kind: &quot;cat&quot;</code>');
    const page = renderConsole(model());
    // Each variant's schema as the console lists a union's: its tag, then the variant's component.
    for (const name of ['Cat', 'Dog', 'CatCreate', 'DogCreate']) expect(page).toContain(`<span class="type">object <em>${name}</em></span>`);
    expect(page).toContain('<code>kind</code> is <code>&quot;cat&quot;</code>');
  });
});
