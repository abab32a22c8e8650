// A check that skipped with a reason of its own (not applicable) and then met an object it cannot address keeps its
// reason and its kind: the skip is not reported as a check left not run, which would make the run incomplete.
import { describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { TestContext, Unaddressable } from '../../src/tester/tester-context.js';
import { TestClient } from '../../src/tester/tester-http.js';

const SPEC = `
servicespec: 1
resources:
  Issue:
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string }
`;

function context(): TestContext {
  const model = compileSpecText(SPEC).model!;
  return new TestContext(model, new TestClient({ baseUrl: 'http://127.0.0.1:9', maxRequests: 0, deadline: 0 }), { baseUrl: 'http://127.0.0.1:9' }, 1);
}

describe('tester: a check that meets an unaddressable object', () => {
  it('keeps the reason and kind it gave first', async () => {
    const ctx = context();
    await ctx.check('endpoints', 'endpoints.example', 'getIssue', async (scope) => {
      scope.skip('the spec declares nothing to send here', 'not-applicable');
      throw new Unaddressable('Issue', 'number');
    });
    const r = ctx.results.at(-1)!;
    expect(r).toMatchObject({ outcome: 'skipped', reason: 'the spec declares nothing to send here' });
    expect(r.notRun).toBeUndefined();
  });

  it('without a reason of its own, is not run, naming the field', async () => {
    const ctx = context();
    await ctx.check('endpoints', 'endpoints.example', 'getIssue', async () => {
      throw new Unaddressable('Issue', 'number');
    });
    const r = ctx.results.at(-1)!;
    expect(r).toMatchObject({ outcome: 'skipped', notRun: true });
    expect(r.reason).toMatch(/^not run: the Issue made has no `number`/);
  });
});
