// `request_fields` in diff: a field an operation's request no longer takes is refused in requests (breaking); one it
// now takes is additive, unless the request must send it. A field the resource itself gains or loses is the field
// rules' (reported once, by them).
import { describe, expect, it } from 'vitest';
import { compareModels } from '../../src/diff/diff-rules.js';
import { compileSpecText } from '../../src/program.js';
import { PLAIN_ERRORS } from '../support/specs.js';

const spec = (create: string, update: string, extra = '') => `
servicespec: 1
resources:
  User:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string }
      email: { type: email }
      nick: { type: string, optional: true }${extra}
endpoints:
  operations:
    addUser: { method: POST, path: /users, action: create, resource: User${create} }
    editUser: { method: PATCH, path: "/users/{id}", action: update, resource: User${update} }
authentication:
  default: none
${PLAIN_ERRORS}`;

const model = (text: string) => {
  const c = compileSpecText(text);
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return c.model!;
};
const changes = (before: string, after: string) =>
  compareModels(model(before), model(after)).map((c) => `${c.impact} ${c.code} ${c.reason} @${c.new?.pointer ?? c.old?.pointer ?? ''}`);

describe('diff of request_fields', () => {
  it('finds nothing between a spec and itself, nor where the list names every writable field', () => {
    const a = spec(', request_fields: [name, email]', ', request_fields: [nick]');
    expect(changes(a, a)).toEqual([]);
    expect(changes(spec('', ''), spec(', request_fields: [name, email, nick]', ', request_fields: [nick, email, name]'))).toEqual([]);
  });

  it('a field removed from a request is breaking', () => {
    expect(changes(spec('', ''), spec('', ', request_fields: [nick, name]'))).toEqual([
      'breaking request-field-removed editUser request.email is no longer accepted in requests; requests that send it are refused @/endpoints/operations/editUser/request_fields',
    ]);
  });

  it('a field added to a request is additive, unless the request must send it', () => {
    expect(
      changes(
        spec(', request_fields: [name, email]', ', request_fields: [nick]'),
        spec(', request_fields: [name, email, nick]', ', request_fields: [nick, name]'),
      ),
    ).toEqual([
      'non-breaking request-field-added addUser request.nick: new optional request field @/endpoints/operations/addUser/request_fields',
      'non-breaking request-field-added editUser request.name: new optional request field @/endpoints/operations/editUser/request_fields',
    ]);
    // A create that now takes a required field (before: a gap) refuses a request without it.
    expect(changes(spec(', request_fields: [name]', ''), spec('', ''))).toEqual([
      'breaking request-field-added-required addUser request.email: new required request field; requests without it are refused @/endpoints/operations/addUser',
      'non-breaking request-field-added addUser request.nick: new optional request field @/endpoints/operations/addUser',
    ]);
  });

  it('a field the resource gains is reported by the field rules only', () => {
    const found = changes(
      spec(', request_fields: [name, email]', ''),
      spec(', request_fields: [name, email]', '', '\n      bio: { type: string, optional: true }'),
    );
    expect(found.map((c) => c.split(' ').slice(0, 3).join(' '))).toEqual(['non-breaking request-field-added User.bio:']);
  });
});
