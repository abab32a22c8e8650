// endpoints.unique repeated a unique value by a create only: a service enforcing `unique` on creates and not on
// updates (a PATCH giving one tag another's slug, taken) passed. Now each update and replace taking a unique field
// gives a second object the value the first holds, and must get the declared unique_conflict (an outside sweep's
// catalog sku-unique-patch).

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { PLAIN_ERRORS } from '../support/specs.js';
import { startSpecText, type OrdersServer } from './helpers.js';
import { startProxy } from './mutant-proxy.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText(
    'tags.yaml',
    `servicespec: 1
resources:
  Tag:
    fields:
      id: { type: uuid, readOnly: true }
      slug: { type: string, pattern: '^[a-z]{3,12}$', unique: true }
      label: { type: string, minLength: 1, maxLength: 30 }
endpoints:
  operations:
    createTag: { method: POST, path: /tags, action: create, resource: Tag }
    getTag: { method: GET, path: "/tags/{id}", action: read, resource: Tag }
    editTag: { method: PATCH, path: "/tags/{id}", action: update, resource: Tag }
    putTag: { method: PUT, path: "/tags/{id}", action: replace, resource: Tag }
authentication:
  default: none
${PLAIN_ERRORS}    taken: { status: 409, when: [unique_conflict] }
`,
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const unique = async (baseUrl: string) =>
  (await testService(s.model, { baseUrl, ...s.options, seed: 1, only: ['endpoints.unique'] })).results
    .filter((r) => r.check === 'endpoints.unique')
    .map((r) => ({ target: r.target, outcome: r.outcome, expected: r.failure?.expected }));

it('passes the faithful service, which refuses a taken slug on every write', async () => {
  expect((await unique(s.url)).map((r) => [r.target, r.outcome])).toEqual([
    ['createTag', 'passed'],
    ['editTag', 'passed'],
    ['putTag', 'passed'],
  ]);
});

it('fails a service that checks the slug on creates only', async () => {
  // A change's conflict answered as a success: the check a service left out of its update and replace paths.
  const proxy = await startProxy(s.url, {
    response: (res, req) =>
      (req.method === 'PATCH' || req.method === 'PUT') && res.status === 409
        ? {
            status: 200,
            headers: { 'content-type': 'application/json' },
            body: Buffer.from(JSON.stringify({ ...JSON.parse(req.body.toString()), id: req.path.split('/')[2] })),
          }
        : res,
  });
  try {
    const results = await unique(proxy.url);
    expect(results.map((r) => [r.target, r.outcome])).toEqual([
      ['createTag', 'passed'],
      ['editTag', 'failed'],
      ['putTag', 'failed'],
    ]);
    expect(results[1]!.expected).toMatch(/^the declared taken answer for an update giving Tag ".*" the slug another holds \(".*"\)$/);
  } finally {
    await proxy.close();
  }
});
