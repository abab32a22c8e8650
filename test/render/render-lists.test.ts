// The nine-part document names each list that states its paging: the parameters it pages by, its answer, its total
// and whether a Link header gives the next page. Lists that do not state it are left out (the format's page).
import { describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';

const SPEC = `servicespec: 1
resources:
  Pet:
    fields:
      id: { type: integer, readOnly: true }
      name: { type: string }
endpoints:
  operations:
    listPets: { method: GET, path: /pets, action: list, resource: Pet }
    listOffset: { method: GET, path: /o/pets, action: list, resource: Pet, paging: { style: offset, items: data, total: total_count } }
    listPage: { method: GET, path: /p/pets, action: list, resource: Pet, paging: { style: page, body: array, link: true } }
    listAll: { method: GET, path: /all/pets, action: list, resource: Pet, paging: { style: none, body: array } }
    listLeases: { method: GET, path: /k/pets, action: list, resource: Pet, paging: { params: { cursor: continue } } }
    listCounted: { method: GET, path: /c/pets, action: list, resource: Pet, paging: { style: page, body: array, link: true, total_header: X-Total-Count } }
    listBoth: { method: GET, path: /b/pets, action: list, resource: Pet, paging: { style: offset, total: total, total_header: X-Total } }
    listStripe: { method: GET, path: /s/pets, action: list, resource: Pet, paging: { style: after, items: data, has_more: has_more } }
`;

describe('the document shows list shapes', () => {
  it('one row per list that states its paging', () => {
    const md = renderMarkdown(compileSpecText(SPEC).model!);
    const table = md.slice(md.indexOf('### List shapes'));
    expect(table).toContain("Lists not named here answer the format's page `{ items, next_cursor }`, paged by `limit` and `cursor`.");
    expect(table).toContain('| `listOffset` | `limit`, `offset` | `{ data, total_count }` | `total_count` | no |');
    expect(table).toContain('| `listPage` | `page`, `per_page` | a bare array | none | yes |');
    expect(table).toContain('| `listAll` | nothing: every object at once | a bare array | none | no |');
    // A parameter paging.params renames is shown with its role.
    expect(table).toContain('| `listLeases` | `limit`, `continue` (cursor) | `{ items, next_cursor }` | none | no |');
    // The total in a response header (paging.total_header).
    expect(table).toContain('| `listCounted` | `page`, `per_page` | a bare array | header `X-Total-Count` | yes |');
    expect(table).toContain('| `listBoth` | `limit`, `offset` | `{ items, total }` | `total` and header `X-Total` | no |');
    expect(table).toContain('| `listStripe` | `limit`, `starting_after` | `{ data, has_more }` | none | no |');
    expect(table.split('\n### ')[0]).not.toContain('`listPets`');
  });

  it('a spec whose lists state no paging has no such section', () => {
    expect(renderMarkdown(compileSpecText(SPEC.replace(/ {4}list(Offset|Page|All|Leases|Counted|Both|Stripe):.*\n/g, '')).model!)).not.toContain('List shapes');
  });
});
