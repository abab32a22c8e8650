// `bind` in the nine-part document (a table of what each bound path parameter names) and in the docs console (try-it
// fills each bound parameter from the listed object's field it names).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { renderConsole } from '../../src/render/render-console.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';

const TEXT = readFileSync(new URL('../fixtures/path-bindings.yaml', import.meta.url), 'utf8').replace(
  '  operations:\n',
  '  operations:\n    listUsers: { method: GET, path: /users, action: list, resource: User }\n',
);
const model = compileSpecText(TEXT).model!;

describe('path bindings (document and console)', () => {
  it('the document lists each bound path parameter with its field and what the action does with it', () => {
    const md = renderMarkdown(model);
    expect(md).toContain('### Path parameters bound to fields');
    expect(md).toContain("| `getUser` | `{username}` | `username` | finds the object by it, with the path's other values (none holds them: missing) |");
    expect(md).toContain("| `createRepo` | `{username}` | `owner` | sets the created object's field (a body value must equal it) |");
    expect(md).toContain('| `listRepos` | `{username}` | `owner` | lists only the objects holding this value |');
  });

  it("the console's try-it fills a parameter bound to a unique field from that field of a listed object", () => {
    const html = renderConsole(model);
    const json = /<script type="application\/json" id="console-data">(.*?)<\/script>/s.exec(html)![1]!;
    const routes = (JSON.parse(json) as { routes: { id: string; path: string; method: string; fills?: unknown[] }[] }).routes;
    const getUser = routes.find((r) => r.path === '/users/{username}' && r.method === 'GET')!;
    expect(getUser.fills).toEqual([
      { target: 'path', at: ['username'], resource: 'User', list: '/users', items: 'items', id: 'username', create: 'createUser' },
    ]);
  });
});

describe('keys unique together in the document', () => {
  it('lists each key of a resource under its identifier', () => {
    const c = compileSpecText(readFileSync(new URL('../fixtures/nested-bindings.yaml', import.meta.url), 'utf8'));
    const md = renderMarkdown(c.model!);
    expect(md).toContain('Unique together: `metadata.namespace`, `metadata.name`');
  });
});
