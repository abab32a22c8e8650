// `parent` in the nine-part document (the resource says its parent; the bindings table says what the parameter
// names) and the docs console (try-it fills the parent's parameter from a listed parent's field).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { renderConsole } from '../../src/render/render-console.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';

const TEXT = readFileSync(new URL('../fixtures/parent-resource.yaml', import.meta.url), 'utf8').replace(
  '  operations:\n',
  '  operations:\n    listArticles: { method: GET, path: /articles, action: list, resource: Article }\n',
);
const model = compileSpecText(TEXT).model!;

describe('resources under a parent (document and console)', () => {
  it('the document says each resource’s parent, and what a parameter bound to it names', () => {
    const md = renderMarkdown(model);
    expect(md).toContain('Parent: each Comment belongs to one `Article`, which no field of it shows; a path names it (`parent: Article`)');
    expect(md).toContain(
      '| `createComment` | `{slug}` | `Article.slug` | names the Article the objects belong to (none holds it: missing); the object is made under it |',
    );
    expect(md).toContain('| `getComment` | `{slug}` | `Article.slug` | names the Article the objects belong to (none holds it: missing) |');
  });

  it("the console's try-it fills the parent's parameter from a listed parent", () => {
    const html = renderConsole(model);
    const json = /<script type="application\/json" id="console-data">(.*?)<\/script>/s.exec(html)![1]!;
    const routes = (JSON.parse(json) as { routes: { path: string; method: string; fills?: { at: string[]; resource: string; id?: string }[] }[] }).routes;
    const create = routes.find((r) => r.path === '/articles/{slug}/comments' && r.method === 'POST')!;
    expect(create.fills).toContainEqual(expect.objectContaining({ target: 'path', at: ['slug'], resource: 'Article', id: 'slug' }));
    const read = routes.find((r) => r.path === '/articles/{slug}/comments/{id}' && r.method === 'GET')!;
    expect(read.fills!.filter((f) => f.at[0] === 'slug')).toEqual([expect.objectContaining({ resource: 'Article', id: 'slug' })]);
  });
});

describe('resources under a chain of parents (document)', () => {
  it('the bindings table says an outer parent is found first and holds the path’s parent', () => {
    const md = renderMarkdown(compileSpecText(readFileSync(new URL('../fixtures/parent-chain.yaml', import.meta.url), 'utf8')).model!);
    expect(md).toContain('Parent: each Visit belongs to one `Pet`, which no field of it shows; a path names it (`parent: Pet`)');
    expect(md).toContain(
      "| `getVisit` | `{ownerId}` | `Owner.id` | names the Owner the path's parent is under, found first (none holds it, or the parent is not under it: missing) |",
    );
    expect(md).toContain('| `getVisit` | `{petId}` | `Pet.id` | names the Pet the objects belong to (none holds it: missing) |');
  });
});
