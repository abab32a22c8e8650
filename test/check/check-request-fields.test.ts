// An operation's `request_fields` (docs/format.md, "Requests that take some of the fields"): each must be a field its
// request can write (request-field-invalid); outside create, update and replace it has no effect (misplaced-option);
// a create leaving out a required field nothing fills is a named gap, not an error.
import { describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { formatGapItem, getGapReport } from '../../src/check/check-gaps.js';
import { CATCH_ALL_ERRORS } from './helpers.js';

function spec(op: string, fields = ''): string {
  return `servicespec: 1
resources:
  Todo:
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string }
      status: { type: enum, values: [open, done] }
      due: { type: date, optional: true }
      kind: { type: string, default: chore }
      code: { type: string, writeOnce: true, optional: true }
      made: { type: datetime, generated: create_time, readOnly: true }${fields}
endpoints:
  base_url: https://todos.example.com
  operations:
    ${op}
authentication:
  default: none
${CATCH_ALL_ERRORS}`;
}

function found(text: string): { code: string; pointer: string | undefined; message: string }[] {
  return compileSpecText(text)
    .diagnostics.filter((d) => d.severity === 'error' || d.code === 'misplaced-option')
    .map((d) => ({ code: d.code, pointer: d.pointer, message: d.message }));
}

describe('request_fields', () => {
  it.each([
    ['create', 'POST', '/todos', 'titel', 'Todo has no field `titel`; did you mean `title`?'],
    ['create', 'POST', '/todos', 'id', 'Todo.id is not written by a create request (it is read-only)'],
    ['create', 'POST', '/todos', 'made', 'Todo.made is not written by a create request (it is read-only)'],
    ['update', 'PATCH', '/todos/{id}', 'code', 'Todo.code is not written by an update request (it is write-once)'],
    ['replace', 'PUT', '/todos/{id}', 'code', 'Todo.code is not written by a replace request (it is write-once)'],
  ])('on a %s, naming %s is request-field-invalid', (action, method, path, name, detail) => {
    const text = spec(`op: { method: ${method}, path: "${path}", action: ${action}, resource: Todo, request_fields: [title, status, ${name}] }`);
    expect(found(text)).toEqual([
      {
        code: 'request-field-invalid',
        pointer: '/endpoints/operations/op/request_fields/2',
        message: `operation \`op\`: request_fields names \`${name}\`: ${detail}`,
      },
    ]);
  });

  it('on a state field is request-field-invalid', () => {
    const text = `${spec('op: { method: POST, path: /todos, action: create, resource: Todo, request_fields: [title, stage] }', '\n      stage: { type: state }')}states:
  Todo:
    field: stage
    initial: draft
    states: { draft: {}, gone: { terminal: true } }
    transitions: { drop: { from: draft, to: gone } }
`;
    expect(found(text).map((d) => [d.code, d.message])).toEqual([
      ['request-field-invalid', 'operation `op`: request_fields names `stage`: Todo.stage is not written by a create request (it is the state field)'],
    ]);
  });

  it('outside create, update and replace is misplaced-option', () => {
    expect(found(spec('op: { method: GET, path: /todos, action: list, resource: Todo, request_fields: [title] }'))).toEqual([
      {
        code: 'misplaced-option',
        pointer: '/endpoints/operations/op/request_fields',
        message: 'operation `op`: `request_fields` has no effect on action list',
      },
    ]);
  });

  it('empty, or naming a field twice, breaks the format', () => {
    expect(found(spec('op: { method: POST, path: /todos, action: create, resource: Todo, request_fields: [] }')).map((d) => d.code)).toEqual(['invalid-value']);
    expect(found(spec('op: { method: POST, path: /todos, action: create, resource: Todo, request_fields: [title, title] }')).map((d) => d.code)).toEqual([
      'invalid-value',
    ]);
  });

  it('a create leaving out a required field without a source is a gap naming the operation and field; one with a source is not', () => {
    // status: required, no default → a gap. kind (default), due (optional), id, made (server's): no gap.
    const c = compileSpecText(spec('addTodo: { method: POST, path: /todos, action: create, resource: Todo, request_fields: [title] }'));
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const endpoints = getGapReport(c.model!).parts.find((p) => p.part === 'endpoints')!;
    expect(endpoints.missing.map(formatGapItem)).toEqual([
      'value of a required field (operation addTodo: Todo.status, left out of its request_fields): not shown',
    ]);
    const full = compileSpecText(spec('addTodo: { method: POST, path: /todos, action: create, resource: Todo, request_fields: [title, status] }'));
    expect(getGapReport(full.model!).parts.find((p) => p.part === 'endpoints')!.missing).toEqual([]);
    // An update or replace leaving fields out is no gap: they keep their values.
    const put = compileSpecText(spec('putTodo: { method: PUT, path: "/todos/{id}", action: replace, resource: Todo, request_fields: [title] }'));
    expect(getGapReport(put.model!).parts.find((p) => p.part === 'endpoints')!.missing).toEqual([]);
  });
});

describe('request_fields beside a path bound inside an object', () => {
  it('leaving out the object that holds the bound field is request-fields-bound-parent', () => {
    const text = spec(
      'op: { method: POST, path: "/boards/{board}/todos", action: create, resource: Todo, bind: { board: place.board }, request_fields: [title, status] }',
      '\n      place:\n        type: object\n        fields:\n          board: { type: string }\n          shelf: { type: string, optional: true }',
    );
    expect(found(text)).toEqual([
      {
        code: 'request-fields-bound-parent',
        pointer: '/endpoints/operations/op/request_fields',
        message:
          "operation `op`: request_fields leaves out `place`, which holds `place.board` the path gives: list `place` (the path's value is written into it)",
      },
    ]);
  });

  it('listing the object is accepted', () => {
    const text = spec(
      'op: { method: POST, path: "/boards/{board}/todos", action: create, resource: Todo, bind: { board: place.board }, request_fields: [title, status, place] }',
      '\n      place:\n        type: object\n        fields:\n          board: { type: string }\n          shelf: { type: string, optional: true }',
    );
    expect(found(text)).toEqual([]);
  });
});
