// Unions nested in arrays and nullable unions, in the nine-part document and in the console's schema trees.
import { describe, expect, it } from 'vitest';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { renderSchemaTree } from '../../src/render/render-console-schema.js';
import { renderConsole } from '../../src/render/render-console.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';
import { UNIONS_EVERYWHERE } from '../support/unions-everywhere.js';

const model = () => compileSpecText(UNIONS_EVERYWHERE, 'unions.yaml').model!;

/** The `<li>` of one field of a tree, as text with the tags kept. */
function fieldItem(html: string, field: string): string {
  const at = html.indexOf(`<li data-field="${field}"`);
  expect(at).toBeGreaterThanOrEqual(0);
  // to the next field of the same level (a field holding nested fields: the next 4,000 characters)
  const next = html.indexOf('<li data-field="', at + 1);
  return html.slice(at, next > at && !html.slice(at, next).includes('<ul>') ? next : at + 4000);
}

describe('a union nested in an array, and a nullable union', () => {
  it('the document: the array of a tagged union, each variant and its fields under `history[]`', () => {
    const md = renderMarkdown(model());
    expect(md).toContain('| `history` | array of union tagged by type: refund → refund, dispute → dispute | no |');
    expect(md).toContain('| `history[]<refund>` | variant refund | — | tag type = `"refund"` |');
    expect(md).toContain('| `history[]<dispute>.reason` | string | yes |');
    expect(md).toContain('| `backup` | union tagged by kind: card → card, cash → cash | no | nullable |');
  });

  it('the console tree: "array of union" (not "array of object"), the union inside with its variants and tags', () => {
    const doc = exportOpenApi(model(), { openapi: '3.1' }).document as Record<string, unknown>;
    const tree = renderSchemaTree(doc, { $ref: '#/components/schemas/Payment' }, 'Payment');
    const history = fieldItem(tree, 'history');
    expect(history).toContain('<span class="type">array of union</span>');
    expect(history).toContain(
      '<details data-kind="union"><summary><span class="field"><span class="muted">each item</span></span> <span class="type">one of 2</span>',
    );
    expect(history).toContain('variant <code>refund</code> when <code>type</code> is <code>&quot;refund&quot;</code>');
    expect(history).toContain('variant <code>dispute</code> when <code>type</code> is <code>&quot;dispute&quot;</code>');
  });

  it("the console tree names a variant by its own name where its component's carries a number", () => {
    const doc = exportOpenApi(model(), { openapi: '3.1' }).document as Record<string, unknown>;
    // backup's card variant differs from method's card, so its component is card2
    expect(Object.keys((doc.components as { schemas: Record<string, unknown> }).schemas)).toContain('card2');
    const backup = fieldItem(renderSchemaTree(doc, { $ref: '#/components/schemas/Payment' }, 'Payment'), 'backup');
    expect(backup).toContain('variant <code>card</code> when <code>kind</code> is <code>&quot;card&quot;</code>');
    expect(backup).not.toContain('variant <code>card2</code>');
    expect(backup).toContain('nullable');
  });

  it('the console page shows the trees of the create and the read', () => {
    const html = renderConsole(model());
    expect(html.split('<code>history</code></span> <span class="type">array of union</span>').length).toBeGreaterThanOrEqual(3);
    expect(html).not.toContain('<code>history</code></span> <span class="type">array of object</span>');
  });
});
