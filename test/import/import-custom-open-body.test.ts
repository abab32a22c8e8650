// A custom operation's request is its written-out fields, which refuse a member they do not name. A document leaving
// the body open (GitHub's `PUT /issues/{n}/lock` with `{ lock_reason }`, no additionalProperties: false) had that rule
// added without a word (an outside sweep), and the tester then failed a faithful service accepting a member the
// document allows. Now said at the body; a closed body says nothing.
import { expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';

const doc = (closed: boolean) => ({
  openapi: '3.1.0',
  info: { title: 'Issues', version: '1' },
  paths: {
    '/issues/{n}/lock': {
      put: {
        operationId: 'lockIssue',
        parameters: [{ name: 'n', in: 'path', required: true, schema: { type: 'integer' } }],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { lock_reason: { type: 'string', enum: ['spam', 'resolved'] } },
                ...(closed ? { additionalProperties: false } : {}),
              },
            },
          },
        },
        responses: { '204': { description: 'locked' } },
      },
    },
  },
});
const said = async (closed: boolean) =>
  (await importOpenApiDocument(doc(closed), 'issues.json')).diagnostics.filter((d) => d.message.includes('leaves open')).map((d) => [d.code, d.pointer]);

it("a custom operation's open request body is said to refuse members it does not name; a closed one is not", async () => {
  expect(await said(false)).toEqual([['import-approximated', '/paths/~1issues~1{n}~1lock/put/requestBody/content/application~1json/schema']]);
  expect(await said(true)).toEqual([]);
});
