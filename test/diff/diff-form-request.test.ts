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

const patchSpec = (extra: string) => `servicespec: 1
resources:
  Project: { fields: { id: { type: uuid, readOnly: true }, name: { type: string } } }
endpoints:
  operations:
    getProject: { method: GET, path: '/projects/{id}', action: read, resource: Project }
    updateProject: { method: PATCH, path: '/projects/{id}', action: update, resource: Project${extra} }
authentication: { default: none }
`;

it('reports an update made a merge patch (request_media_type), or made JSON again, as breaking; JSON named as no change', () => {
  const patch = patchSpec(', request_media_type: application/merge-patch+json');
  expect(changes(patchSpec(''), patch)).toEqual([
    'breaking request-media-type-changed: operation updateProject: the request body is now sent as application/merge-patch+json (was application/json); clients sending the old type are refused',
  ]);
  expect(changes(patch, patchSpec('')).map((c) => c.split(':')[0])).toEqual(['breaking request-media-type-changed']);
  expect(changes(patchSpec(''), patchSpec(', request_media_type: application/json'))).toEqual([]);
  expect(changes(patch, patchSpec(', request_media_type: Application/Merge-Patch+JSON'))).toEqual([]);
});
