// A custom operation's request turned into a form (request.media_type), or back to JSON, is breaking: a client
// sending the other body is refused (unsupported_media_type). Issue 26.
import { expect, it } from 'vitest';
import { compareModels } from '../../src/diff/diff-rules.js';
import { compileSpecText } from '../../src/program.js';

const spec = (mediaType: string) => `servicespec: 1
endpoints:
  operations:
    search:
      method: POST
      path: /search
      action: custom
      handler: search
      request: { ${mediaType} fields: { criteria: { type: string } } }
      response: { fields: { hits: { type: integer } } }
authentication: { default: none }
`;
const model = (text: string) => {
  const c = compileSpecText(text);
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return c.model!;
};
const changes = (before: string, after: string) => compareModels(model(before), model(after)).map((c) => `${c.impact} ${c.code}: ${c.reason}`);

it('reports a request made a form, and a form made JSON, as breaking; JSON named or left out as no change', () => {
  const form = spec('media_type: application/x-www-form-urlencoded,');
  expect(changes(spec(''), form)).toEqual([
    'breaking operation-request-changed: operation search: the request body is now declared fields sent as a form (application/x-www-form-urlencoded) (was declared fields)',
  ]);
  expect(changes(form, spec('')).map((c) => c.split(':')[0])).toEqual(['breaking operation-request-changed']);
  expect(changes(spec(''), spec('media_type: application/json,'))).toEqual([]);
});
