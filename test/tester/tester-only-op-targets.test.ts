// `--only <operation>` and `--skip <operation>` select the probes whose target is written `operation: …`
// (`createNote: text missing (required)`): the target was split on spaces, parentheses and commas only, so its first
// word was `createNote:`, which is no operation id, and `--only createNote` left every such probe out (`--skip
// createNote` kept them).

import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { PLAIN_ERRORS } from '../support/specs.js';
import { startSpecText, type OrdersServer } from './helpers.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText(
    'notes.yaml',
    `servicespec: 1
resources:
  Note:
    fields:
      id: { type: uuid, readOnly: true }
      text: { type: string, minLength: 1, maxLength: 20 }
endpoints:
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note }
    getNote: { method: GET, path: "/notes/{id}", action: read, resource: Note }
authentication:
  default: none
${PLAIN_ERRORS}`,
  );
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const targets = async (only: string[], skip: string[] = []) =>
  (await testService(s.model, { baseUrl: s.url, ...s.options, seed: 1, only, skip })).results.map((r) => r.target);

it('--only an operation runs its probes written `operation: …`', async () => {
  const got = await targets(['createNote']);
  expect(got).toContain('createNote: text missing (required)');
});

it('--skip an operation leaves its probes written `operation: …` out', async () => {
  const got = await targets(['endpoints.invalid-requests'], ['createNote']);
  expect(got.filter((t) => t.startsWith('createNote'))).toEqual([]);
  const all = await targets(['endpoints.invalid-requests']);
  expect(all).toContain('createNote: text missing (required)');
});
