// A list's query parameter named after a field becomes a filter, which compares for equality and applies only where
// sent. GitHub's `state` (enum open, closed, all; default open) lost its default and its `all` without a word (an
// outside sweep of a GitHub-like issues API): served, a list without it answered closed issues too. Now said.
import { expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';

const json = (schema: unknown) => ({ 'application/json': { schema } });
const doc = (state: Record<string, unknown>) => ({
  openapi: '3.1.0',
  info: { title: 'Issues', version: '1' },
  paths: {
    '/issues': {
      get: {
        operationId: 'listIssues',
        parameters: [{ name: 'state', in: 'query', schema: state }],
        responses: { '200': { description: 'ok', content: json({ type: 'array', items: { $ref: '#/components/schemas/Issue' } }) } },
      },
    },
  },
  components: {
    schemas: {
      Issue: {
        type: 'object',
        required: ['id', 'state'],
        properties: { id: { type: 'integer', readOnly: true }, state: { type: 'string', enum: ['open', 'closed'] } },
      },
    },
  },
});
const said = async (state: Record<string, unknown>) =>
  (await importOpenApiDocument(doc(state), 'issues.json')).diagnostics
    .filter((d) => d.message.includes('query parameter `state`'))
    .map((d) => [d.code, d.pointer, d.message]);

it("a filter parameter with a default, or values the field does not hold, is said; one with the field's values is not", async () => {
  expect(await said({ type: 'string', enum: ['open', 'closed', 'all'], default: 'open' })).toEqual([
    [
      'import-approximated',
      '/paths/~1issues/get/parameters/0/schema',
      'operation listIssues: query parameter `state` (default "open"; "all", which the field does not hold) is imported as the filter on its resource\'s field `state`: a filter compares the field for equality and applies only where a request sends it: served, a list without it answers every object, and a value the field does not hold is refused',
    ],
  ]);
  expect(await said({ type: 'string', enum: ['open', 'closed'] })).toEqual([]);
  expect((await said({ type: 'string', enum: ['open', 'closed'], default: 'closed' })).length).toBe(1);
});
