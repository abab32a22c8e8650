// Round 11 of the fault sweeps: a recipes team's OpenAPI 3.1 document exactly as FastAPI (pydantic v2) generates it
// (fixtures/recipes.openapi.yaml: `title` on every schema and property, optional members as anyOf with null,
// HTTPValidationError on every 422, an OAuth2PasswordBearer scheme with scopes, fastapi-pagination's Page with page and
// size, integer path parameters, enums as $ref, a PATCH of all-optional members, a 201 create with Location, a 204
// delete, the team's { detail } on 401, 403, 404, 409 and 429 with Retry-After), imported as `servicespec import
// openapi` makes it, nothing edited, and held against fixtures/recipes-server.mjs, a node:http server imitating
// FastAPI's answers, with faults planted one at a time. The faithful server must pass a default run; each fault a
// default run let through before this round's fixes is run here narrowed to the check that now names it
// (bench/tester-recipes-sweep.ts runs every fault; docs/testing.md, "Round 11").

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { TestReport } from '../../src/tester/tester-types.js';
import { importRecipes, runRecipes } from './recipes-sweep.js';

const failures = (report: TestReport) =>
  report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}: ${r.failure?.expected} / ${r.failure?.actual?.slice(0, 200)}`);

describe('the Recipes service, by hand from its FastAPI-generated OpenAPI 3.1 document', () => {
  it('imports node: modules only', () => {
    const text = readFileSync(new URL('./fixtures/recipes-server.mjs', import.meta.url), 'utf8');
    const imports = [...text.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(0);
    for (const i of imports) expect(i).toMatch(/^node:/);
  });

  // The sign-in (a form) is custom; every other operation a built-in action.
  it('imports as actions, the sign-in custom', async () => {
    const { model } = await importRecipes();
    expect(Object.fromEntries((model.endpoints?.operations ?? []).map((o) => [o.id, o.action]))).toEqual({
      login_token_post: 'custom',
      list_recipes_recipes_get: 'list',
      create_recipe_recipes_post: 'create',
      read_recipe_recipes__recipe_id__get: 'read',
      update_recipe_recipes__recipe_id__patch: 'update',
      delete_recipe_recipes__recipe_id__delete: 'delete',
      list_reviews_recipes__recipe_id__reviews_get: 'list',
      create_review_recipes__recipe_id__reviews_post: 'create',
    });
  });

  // Before this round, the faithful server failed two checks: a review body's recipe_id (the path's, which
  // ReviewCreate never names) was broken and expected refused, and the unknown-member probe of the recipe create
  // re-sent a slug it had sent before (409).
  it.each([1, 2])(
    'without a fault passes a default run (seed %i): PASSED, nothing not run',
    async (seed) => {
      const report = await runRecipes([], { seed });
      expect(failures(report)).toEqual([]);
      expect(report.verdict).toBe('passed');
      expect(report.results.filter((r) => r.outcome === 'skipped' && r.notRun === true).map((r) => `${r.check} ${r.target}`)).toEqual([]);
    },
    30_000,
  );
});

/** The faults a default run let through before this round's fixes, each with the check that now names it. */
const FIXED: { fault: string; seed: number; only: string[]; expected: RegExp }[] = [
  // A create was never read back: an answer echoing the body while less was stored passed.
  {
    fault: 'prep-minutes-not-stored',
    seed: 1,
    only: ['endpoints.valid-requests'],
    expected: /field prep_minutes kept as sent \(.*\) in a read after the create/,
  },
  // A page past the last had only to be a page: one answering the last page again passed.
  { fault: 'page-past-end-last', seed: 2, only: ['endpoints.list-edges'], expected: /an empty page, or a client error, for page=1000000/ },
  // After a delete only the object's own read and lists were asked: a list under it still answering passed.
  {
    fault: 'deleted-recipe-reviews-listed',
    seed: 1,
    only: ['endpoints.valid-requests'],
    expected: /the declared not_found \(404\) answer for a list under a deleted RecipeRead/,
  },
];

describe('the faults a default run let through, each caught by its check', () => {
  it.each(FIXED.map((f) => [f.fault, f.seed, f.only, f.expected] as const))(
    '%s is caught on seed %i by %j',
    async (fault, seed, only, expected) => {
      const report = await runRecipes([fault], { seed, only: [...only] });
      const failed = report.results.filter((r) => r.outcome === 'failed');
      expect(failed.map((r) => r.check)).toContain(only[0]);
      expect(failed.map((r) => r.failure?.expected ?? '').join('\n')).toMatch(expected);
    },
    30_000,
  );

  // Another the document allows: Page[RecipeRead] does not require `pages`. The import read it as a member every page
  // holds (paging.members), and the run failed endpoints.answer-shape; it is now left out (import-dropped).
  it('pages-missing (the document allows it) passes', async () => {
    const report = await runRecipes(['pages-missing'], { seed: 1, only: ['endpoints.answer-shape', 'endpoints.valid-requests'] });
    expect(failures(report)).toEqual([]);
  }, 30_000);

  // A planted "fault" the document allows: FastAPI's response_model_exclude_none drops the nulls of members RecipeRead
  // does not require. A null sent was held only by a null answered, and the run failed.
  it('response-exclude-none (the document allows it) passes', async () => {
    const report = await runRecipes(['response-exclude-none'], { seed: 1, only: ['endpoints.valid-requests', 'endpoints.input-space'] });
    expect(failures(report)).toEqual([]);
  }, 30_000);
});
