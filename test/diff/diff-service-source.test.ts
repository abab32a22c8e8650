// `source: service` in diff: a read-only field every answer now holds, set by the service (optional → source:
// service) is not breaking for clients; one no longer promised (source: service → optional) is. The existing rules of
// a response field made required or optional say it; the key itself is no change clients see.
import { describe, expect, it } from 'vitest';
import { compareModels } from '../../src/diff/diff-rules.js';
import { compileSpecText } from '../../src/program.js';
import { PLAIN_ERRORS } from '../support/specs.js';

const spec = (number: string) => `
servicespec: 1
resources:
  Issue:
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string }
      number: ${number}
endpoints:
  operations:
    createIssue: { method: POST, path: /issues, action: create, resource: Issue }
    readIssue: { method: GET, path: '/issues/{id}', action: read, resource: Issue }
authentication:
  default: none
${PLAIN_ERRORS}`;

const model = (text: string) => {
  const c = compileSpecText(text);
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return c.model!;
};
const changes = (before: string, after: string) => compareModels(model(before), model(after)).map((c) => `${c.impact} ${c.code} ${c.subject}`);

const OPTIONAL = '{ type: integer, readOnly: true, optional: true }';
const SERVICE = '{ type: integer, readOnly: true, source: service }';

describe('diff of source: service', () => {
  it('an optional read-only field every answer now holds (source: service) is not breaking', () => {
    expect(changes(spec(OPTIONAL), spec(SERVICE))).toEqual(['non-breaking response-field-became-required Issue.number']);
  });

  it('the field no longer promised (source: service → optional) is breaking', () => {
    expect(changes(spec(SERVICE), spec(OPTIONAL))).toEqual(['breaking response-field-became-optional Issue.number']);
  });

  it('its value now stated (source: service → a default) is no change clients see', () => {
    expect(changes(spec(SERVICE), spec('{ type: integer, readOnly: true, default: 1 }'))).toEqual([]);
  });
});
