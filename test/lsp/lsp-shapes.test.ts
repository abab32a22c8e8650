// Named shapes in the editor (docs/format.md, "Named shapes"): `shape: Name` leads to its declaration under
// `shapes:`, its references are every use, a rename changes them all, and hover shows its fields or variants. Before,
// the language server knew no shape name: none of these answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DefinitionRequest, HoverRequest, ReferencesRequest, RenameRequest, type Hover, type Location } from 'vscode-languageserver-protocol/node';
import { compileSpecText } from '../../src/program.js';
import { applyEdits, offsetOf, positionOf, startLspClient, uriOf, type LspClient } from './lsp-client.js';

const TEXT = `servicespec: 1
shapes:
  Address:
    description: Where a parcel goes.
    fields:
      line1: { type: string }
      city: { type: string, optional: true }
resources:
  Customer:
    fields:
      id: { type: uuid, readOnly: true }
      home: { type: object, shape: Address }
      work: { type: object, shape: Address, optional: true }
      labels:
        type: map
        items: { type: string }
        optional: true
endpoints:
  operations:
    createCustomer: { method: POST, path: /customers, action: create, resource: Customer }
    listCustomers:
      method: GET
      path: /customers
      action: list
      resource: Customer
      paging: { style: after, items: data, constants: { shape: list } }
authentication:
  default: none
`;

let client: LspClient;
const uri = uriOf('/tmp/servicespec-lsp-shapes.yaml');
beforeAll(async () => {
  client = await startLspClient();
  await client.open(uri, TEXT);
}, 60_000);
afterAll(async () => {
  expect(await client.close()).toBe(0);
});

const at = (needle: string, shift = 0, nth = 0) => ({ textDocument: { uri }, position: positionOf(TEXT, needle, shift, nth) });
const textAt = (l: Location) => TEXT.slice(offsetOf(TEXT, l.range.start), offsetOf(TEXT, l.range.end));

describe('named shapes in the language server', { timeout: 60_000 }, () => {
  it('go to definition, references (not the page constant called shape), rename and hover', async () => {
    const def = (await client.connection.sendRequest(DefinitionRequest.type, at('shape: Address', 8))) as Location;
    expect(def.range.start).toEqual(positionOf(TEXT, '  Address:\n', 2));
    const refs = (await client.connection.sendRequest(ReferencesRequest.type, { ...at('  Address:\n', 2), context: { includeDeclaration: true } }))!;
    expect(refs.map(textAt)).toEqual(['Address', 'Address', 'Address']);
    const edit = (await client.connection.sendRequest(RenameRequest.type, { ...at('shape: Address', 8, 1), newName: 'Place' }))!;
    const renamed = applyEdits(TEXT, edit.changes![uri]!);
    expect(renamed).toContain('  Place:\n');
    expect(renamed.match(/shape: Place/g)).toHaveLength(2);
    expect(renamed).toContain('constants: { shape: list }');
    expect(compileSpecText(renamed).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const hover = (await client.connection.sendRequest(HoverRequest.type, at('shape: Address', 8))) as Hover;
    expect((hover.contents as { value: string }).value).toBe('**shape** `Address`\n\nWhere a parcel goes.\n\n- `line1`: string\n- `city`: string (optional)');
  });
});
