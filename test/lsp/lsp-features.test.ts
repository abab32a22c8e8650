// Completion, hover, go to definition, references, rename, the outline and code actions, through a real LSP client
// over stdio on the example specs; and a sweep over every spec under examples/ and test/fixtures in-process.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CodeActionRequest,
  CompletionRequest,
  DefinitionRequest,
  DocumentSymbolRequest,
  HoverRequest,
  ReferencesRequest,
  RenameRequest,
  type CodeAction,
  type CompletionItem,
  type Diagnostic,
  type DocumentSymbol,
  type Hover,
  type Location,
  type Position,
  type WorkspaceEdit,
} from 'vscode-languageserver-protocol/node';
import { compileSpecText } from '../../src/program.js';
import { ROOT } from '../cli/cli-helpers.js';
import { applyEdits, offsetOf, positionOf, startLspClient, uriOf, type LspClient } from './lsp-client.js';

const ORDERS = join(ROOT, 'examples', 'orders.yaml');
const LIBRARY = join(ROOT, 'examples', 'library.yaml');
const ordersText = readFileSync(ORDERS, 'utf8');

function textAt(text: string, l: Location): string {
  return text.slice(offsetOf(text, l.range.start), offsetOf(text, l.range.end));
}

const codesAndLines = (text: string): [string, number | undefined][] => compileSpecText(text).diagnostics.map((d) => [d.code, d.line]);

let client: LspClient;
const uri = uriOf(ORDERS);
beforeAll(async () => {
  client = await startLspClient();
  expect(await client.open(uri, ordersText)).toEqual([]);
}, 60_000);
afterAll(async () => {
  expect(await client.close()).toBe(0);
});

const at = (needle: string, shift = 0, nth = 0) => ({ textDocument: { uri }, position: positionOf(ordersText, needle, shift, nth) });

describe('go to definition and references', { timeout: 60_000 }, () => {
  it('a resource used by an operation leads to its declaration; its references are every use', async () => {
    const def = (await client.connection.sendRequest(DefinitionRequest.type, at('resource: Customer', 12))) as Location;
    expect(def.range.start).toEqual(positionOf(ordersText, '  Customer:\n', 2));
    expect(textAt(ordersText, def)).toBe('Customer');
    const refs = (await client.connection.sendRequest(ReferencesRequest.type, { ...at('  Customer:\n', 2), context: { includeDeclaration: true } }))!;
    // The declaration, `to: Customer`, three operations and the event payload.
    expect(refs.map((r) => textAt(ordersText, r))).toEqual(Array(refs.length).fill('Customer'));
    expect(refs.length).toBe(6);
  });

  it('a state, a transition, a scope and an error code', async () => {
    const state = (await client.connection.sendRequest(DefinitionRequest.type, at('to: paid', 4))) as Location;
    expect(state.range.start).toEqual(positionOf(ordersText, '      paid: {', 6));
    const transition = (await client.connection.sendRequest(DefinitionRequest.type, at('transition: pay', 12))) as Location;
    expect(transition.range.start).toEqual(positionOf(ordersText, '      pay:\n', 6));
    const scope = (await client.connection.sendRequest(DefinitionRequest.type, at('scopes: ["orders:read"]', 10))) as Location;
    expect(textAt(ordersText, scope)).toBe('orders:read');
    expect(scope.range.start.line).toBe(positionOf(ordersText, '    "orders:read": Read orders.').line);
    const refs = (await client.connection.sendRequest(ReferencesRequest.type, {
      ...at('    invalid_transition:\n', 4),
      context: { includeDeclaration: false },
    }))!;
    expect(refs.length).toBe(3);
    for (const r of refs) expect(textAt(ordersText, r)).toBe('invalid_transition');
  });
});

describe('rename', { timeout: 60_000 }, () => {
  it('edits every reference in the file; the renamed spec checks the same', async () => {
    const edit = (await client.connection.sendRequest(RenameRequest.type, { ...at('resource: Customer', 12), newName: 'Client' }))!;
    const renamed = applyEdits(ordersText, edit.changes![uri]!);
    expect(renamed).not.toMatch(/(resource|to): Customer\b/);
    expect(compileSpecText(renamed).diagnostics).toEqual([]);
    const state = (await client.connection.sendRequest(RenameRequest.type, { ...at('      paid: {', 6), newName: 'settled' }))!;
    const renamedState = applyEdits(ordersText, state.changes![uri]!);
    expect(renamedState).toContain('to: settled');
    expect(renamedState).toContain('from: [pending, settled]');
    expect(compileSpecText(renamedState).diagnostics).toEqual([]);
  });

  it('refuses a name that would clash', async () => {
    await expect(client.connection.sendRequest(RenameRequest.type, { ...at('resource: Customer', 12), newName: 'Order' })).rejects.toThrow(
      /resource `Order` already exists/,
    );
    await expect(client.connection.sendRequest(RenameRequest.type, { ...at('to: paid', 4), newName: 'shipped' })).rejects.toThrow(
      /state `shipped` already exists in Order/,
    );
  });
});

describe('hover', { timeout: 60_000 }, () => {
  const hover = async (needle: string, shift = 0, nth = 0): Promise<string> => {
    const h = (await client.connection.sendRequest(HoverRequest.type, at(needle, shift, nth))) as Hover | null;
    return h === null ? '' : (h.contents as { value: string }).value;
  };
  it('a key shows its row of docs/format.md', async () => {
    expect(await hover('    plural: customers', 5)).toContain('The plural name, used in documents');
    expect(await hover('      quantity: { type: integer', 20)).toContain('One of the field types below.');
    expect(await hover('        from: pending', 9)).toContain('The state or states it starts from.');
    expect(await hover('resources:\n', 1)).toContain('`resources` — resources and their fields');
  });
  it('a name shows what it refers to', async () => {
    expect(await hover('errors: [not_found, invalid_transition]', 22)).toMatch(/error code\*\* `invalid_transition`: status 409[\s\S]*`illegal_transition`/);
    expect(await hover('transition: pay', 12)).toContain('from `pending` to `paid`');
    const resource = await hover('resource: Customer', 12);
    expect(resource).toContain('- `email`: email');
  });
});

describe('completion', { timeout: 60_000 }, () => {
  const complete = async (text: string, position: Position): Promise<CompletionItem[]> => {
    await client.change(uri, text);
    const r = await client.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position });
    return (Array.isArray(r) ? r : (r?.items ?? [])) as CompletionItem[];
  };
  afterAll(async () => {
    await client.change(uri, ordersText);
  });

  it('the keys an operation may still have, from the schema', async () => {
    const text = ordersText.replace('      errors: [not_found]\n    listCustomers:', '      errors: [not_found]\n      \n    listCustomers:');
    const labels = (await complete(text, positionOf(text, '      errors: [not_found]\n      \n', 32))).map((i) => i.label);
    expect(labels).toContain('idempotent');
    expect(labels).toContain('status');
    expect(labels).not.toContain('method');
  });

  it('resource, error code, condition, scheme and field names where they are expected', async () => {
    const text = ordersText.replace('      resource: Customer\n      summary: Read one customer.', '      resource: \n      summary: Read one customer.');
    const resources = await complete(text, positionOf(text, '      resource: \n      summary: Read one customer.', 16));
    expect(resources.map((i) => i.label).sort()).toEqual(['Customer', 'Order']);
    const codes = await complete(ordersText, positionOf(ordersText, 'errors: [not_found]\n    listCustomers', 9));
    expect(codes.map((i) => i.label)).toContain('invalid_transition');
    const conditions = await complete(ordersText, positionOf(ordersText, 'when: [rate_limited]', 7));
    expect(conditions.map((i) => i.label)).toContain('idempotency_conflict');
    expect(conditions.find((i) => i.label === 'timeout')?.detail).toBe('condition');
    const schemes = await complete(ordersText, positionOf(ordersText, 'auth: { schemes: [payments]', 18));
    expect(schemes.map((i) => i.label).sort()).toEqual(['bearer', 'key', 'payments']);
    const fields = await complete(ordersText, positionOf(ordersText, 'filter: [status, currency]', 9));
    expect(fields.map((i) => i.label)).toContain('tracking_number');
    expect(fields.map((i) => i.label)).not.toContain('email');
  });

  it('an unparseable file keeps the last good names', async () => {
    const text =
      ordersText.replace('      resource: Customer\n      summary: Read one customer.', '      resource: \n      summary: Read one customer.') +
      '\nbroken: [\n';
    const items = await complete(text, positionOf(text, '      resource: \n      summary: Read one customer.', 16));
    expect(items.map((i) => i.label)).toContain('Customer');
  });
});

describe('document symbols', { timeout: 60_000 }, () => {
  it('an outline by the nine parts, names under each', async () => {
    const symbols = (await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } })) as DocumentSymbol[];
    expect(symbols.map((s) => s.name)).toEqual(
      ['purpose', 'resources', 'states', 'endpoints', 'authentication', 'events', 'errors', 'limits', 'versioning'].filter((p) =>
        new RegExp(`^${p}:`, 'm').test(ordersText),
      ),
    );
    const resources = symbols.find((s) => s.name === 'resources')!;
    expect(resources.children!.map((c) => c.name)).toEqual(['Customer', 'Order']);
    expect(resources.children![0]!.children!.map((c) => c.name)).toContain('email');
    const machine = symbols.find((s) => s.name === 'states')!.children![0]!;
    expect(machine.name).toBe('Order');
    expect(machine.children!.map((c) => c.name)).toEqual(['pending', 'paid', 'shipped', 'cancelled', 'pay', 'ship', 'cancel']);
  });
});

describe('code actions', { timeout: 60_000 }, () => {
  const actionsFor = async (text: string, code: string): Promise<{ d: Diagnostic; actions: CodeAction[] }> => {
    const diagnostics = await client.change(uri, text);
    const d = diagnostics.find((x) => x.code === code)!;
    expect(d, code).toBeDefined();
    const actions = (await client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: d.range,
      context: { diagnostics: [d] },
    })) as CodeAction[];
    return { d, actions };
  };
  afterAll(async () => {
    await client.change(uri, ordersText);
  });

  it('adds an error code for an undeclared condition', async () => {
    const text = ordersText.replace(/ {4}rate_limited:\n {6}status: 429\n {6}title: Too many requests\n {6}when: \[rate_limited\]\n/, '');
    expect(text).not.toBe(ordersText);
    const { actions } = await actionsFor(text, 'undeclared-condition');
    const add = actions.find((a) => a.title.startsWith('Declare error code `rate_limited`'))!;
    expect(add.title).toContain('status 429');
    const fixed = applyEdits(text, (add.edit as WorkspaceEdit).changes![uri]!);
    expect(codesAndLines(fixed).map(([c]) => c)).not.toContain('undeclared-condition');
  });

  it('declares a missing state', async () => {
    const text = ordersText.replace('        to: cancelled\n', '        to: voided\n');
    const { actions } = await actionsFor(text, 'unknown-state');
    const declare = actions.find((a) => a.title === 'Declare state `voided` in the Order state machine')!;
    const fixed = applyEdits(text, (declare.edit as WorkspaceEdit).changes![uri]!);
    expect(fixed).toContain('      voided: {}\n');
    expect(codesAndLines(fixed).map(([c]) => c)).not.toContain('unknown-state');
  });
});

describe('on the library example too', { timeout: 60_000 }, () => {
  it('every reference of every declared name leads back to its declaration', async () => {
    const text = readFileSync(LIBRARY, 'utf8');
    const luri = uriOf(LIBRARY);
    await client.open(luri, text);
    const symbols = (await client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: luri } })) as DocumentSymbol[];
    const all = symbols.flatMap(function flat(s: DocumentSymbol): DocumentSymbol[] {
      return [s, ...(s.children ?? []).flatMap(flat)];
    });
    let checked = 0;
    for (const s of all.filter((x) => x.detail !== undefined && !x.detail.startsWith('part') && x.detail !== 'state machine')) {
      const refs = (await client.connection.sendRequest(ReferencesRequest.type, {
        textDocument: { uri: luri },
        position: s.selectionRange.start,
        context: { includeDeclaration: true },
      }))!;
      for (const r of refs) {
        const def = (await client.connection.sendRequest(DefinitionRequest.type, { textDocument: { uri: luri }, position: r.range.start })) as Location;
        expect(def.range, `${s.detail} ${s.name}`).toEqual(s.selectionRange);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });
});
