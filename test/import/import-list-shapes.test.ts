// Common frameworks' list shapes (test/fixtures/list-shapes, documents written for these tests) imported as list
// actions, never custom operations (issue 26; docs/import.md, "Lists"). Each document's import is compared with its
// golden spec (UPDATE_GOLDEN=1 rewrites them); test/import/import-prism-proxy.test.ts serves each import and passes
// the contract tester's traffic through Prism's validation proxy built from the document.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importOpenApiFile } from '../../src/import/import-openapi.js';

const DIR = new URL('../fixtures/list-shapes/', import.meta.url).pathname;
const GOLDEN = join(DIR, 'golden');

function golden(name: string, actual: string): void {
  const path = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN) {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(path, actual);
  }
  if (!existsSync(path)) throw new Error(`no golden file ${path}: run UPDATE_GOLDEN=1 npx vitest run test/import/import-list-shapes.test.ts`);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

/** Each document's list and the paging its answer says. */
const LISTS: Record<string, Record<string, unknown>> = {
  // GitHub's: a bare array, ?page=&per_page=, the next page in Link, the total in X-Total-Count.
  'array-link-total': { style: 'page', body: 'array', link: true, total_header: 'X-Total-Count' },
  // Django REST Framework's PageNumberPagination.
  'drf-page': { style: 'page', items: 'results', total: 'count', next_link: 'next', previous_link: 'previous', params: { limit: 'page_size' } },
  // fastapi-pagination's Page as FastAPI writes it (OpenAPI 3.1, pydantic v2): `pages` is the page count, and each
  // number is `anyOf: [integer, null]`. Until 2026-11-29 both made it a custom operation (501 served).
  'fastapi-page': { style: 'page', total: 'total', members: { page: 'page', size: 'size', pages: 'pages' }, params: { limit: 'size' } },
};

describe('common list shapes import as list actions', () => {
  for (const [name, paging] of Object.entries(LISTS)) {
    it(`${name}: GET /articles is a list of Article, paged as its answer says`, async () => {
      const r = await importOpenApiFile(join(DIR, `${name}.openapi.yaml`), { specFile: `${name}.servicespec.yaml` });
      expect(r.diagnostics.filter((d) => d.code === 'import-custom-operation').map((d) => d.message)).toEqual([]);
      expect(r.document!.endpoints!.operations!.listArticles).toMatchObject({ action: 'list', resource: 'Article', paging });
      expect(r.compiled?.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      golden(`${name}.servicespec.yaml`, r.text!);
    });
  }
});
