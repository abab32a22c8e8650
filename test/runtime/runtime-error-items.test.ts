// A declared error body's `errors` list whose items are the API's own shape (GitHub's `{resource, field, code}`) is
// not filled with the runtime's invalid inputs (`{pointer, message}`), which its schema refuses: left out where it is
// optional, written empty where it is required. Items of any JSON, or objects naming the runtime's members, are filled.
// Before, every validation answer carried items the declared body refuses (found by an outside sweep: the contract
// tester failed the served spec 106 times on `errors.0 must have required property 'resource'`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type Running } from './helpers.js';
import { checkedModel } from '../support/specs.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';

const spec = (errorsField: string) => `
servicespec: 1
resources:
  Label:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string, maxLength: 5 }
endpoints:
  operations:
    createLabel: { method: POST, path: /labels, action: create, resource: Label, auth: none }
errors:
  body:
    fields:
      message: { type: string }
      errors: ${errorsField}
  codes:
    bad: { status: 400, when: [malformed_request] }
    invalid: { status: 422, when: [validation] }
`;

const OWN_ITEMS =
  '{ type: array, OPTIONAL items: { type: object, fields: { resource: { type: string }, field: { type: string, optional: true }, code: { type: string } } } }';

describe("a declared error list of the API's own items", () => {
  const running: Running[] = [];
  const start = async (field: string) => {
    const s = await startService(checkedModel(spec(field)));
    running.push(s);
    return s;
  };
  let optional: Running;
  let required: Running;
  let open: Running;
  beforeAll(async () => {
    optional = await start(OWN_ITEMS.replace('OPTIONAL ', 'optional: true, '));
    required = await start(OWN_ITEMS.replace('OPTIONAL ', ''));
    open = await start('{ type: array, optional: true, items: { type: json } }');
  });
  afterAll(async () => {
    for (const s of running) await s.close();
  });

  it('optional: a validation answer leaves it out', async () => {
    const r = await optional.call('POST', '/labels', { name: 'far too long' });
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ message: expect.any(String) });
  });

  it('required: a validation answer writes it empty', async () => {
    const r = await required.call('POST', '/labels', { name: 'far too long' });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([]);
  });

  it('items of any JSON: the invalid inputs, as before', async () => {
    const r = await open.call('POST', '/labels', { name: 'far too long' });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([{ pointer: '/name', message: expect.any(String) }]);
  });

  it('the document says which', () => {
    expect(renderMarkdown(checkedModel(spec(OWN_ITEMS.replace('OPTIONAL ', ''))))).toContain("an empty list: its items are not the invalid inputs' shape");
  });
});
