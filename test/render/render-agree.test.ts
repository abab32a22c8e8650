// The nine-part document and the OpenAPI export agree on every operation's errors and on a create's Location header,
// for every example and fixture spec: both read getRouteErrors / getCreateLocation (src/model/model-routes.ts).

import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { compileSpecFile } from '../../src/program.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';
import { hasErrors } from '../../src/diagnostics/diagnostics-catalogue.js';
import { ROOT } from '../export/helpers.js';

type JsonObject = Record<string, unknown>;

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

/** The specs of examples/ and test/fixtures/ that compile (OpenAPI inputs and broken specs are not specs to document). */
const SPECS = [...yamlFiles(join(ROOT, 'examples')), ...yamlFiles(join(ROOT, 'test', 'fixtures'))].flatMap((file) => {
  const compiled = compileSpecFile(file);
  return compiled.model && !hasErrors(compiled.diagnostics) && (compiled.model.endpoints?.operations.length ?? 0) > 0
    ? [{ file: relative(ROOT, file), model: compiled.model }]
    : [];
});

function deref(doc: JsonObject, value: unknown): JsonObject {
  const r = (value as JsonObject).$ref as string | undefined;
  if (r === undefined) return value as JsonObject;
  return r
    .split('/')
    .slice(1)
    .reduce((o: unknown, k) => (o as JsonObject)[k], doc) as JsonObject;
}

/** Operation id → its row of the document's Operations table, cells by header. */
function documentRows(markdown: string): Map<string, Record<string, string>> {
  const rows = new Map<string, Record<string, string>>();
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith('| Operation | Method | Path |')) continue;
    const headers = lines[i]!.split(' | ').map((h) => h.replace(/^\| |\s*\|$/g, ''));
    for (let j = i + 2; j < lines.length && lines[j]!.startsWith('| '); j++) {
      const cells = lines[j]!.slice(2, -2).split(' | ');
      const row = Object.fromEntries(headers.map((h, k) => [h, cells[k] ?? '']));
      rows.set(/^`([^`]+)`/.exec(row.Operation!)![1]!, row);
    }
  }
  return rows;
}

describe('document and OpenAPI export agree on errors and headers', () => {
  it('finds specs to compare (examples and fixtures)', () => {
    expect(SPECS.map((s) => s.file)).toEqual(expect.arrayContaining(['examples/orders.yaml', 'examples/library.yaml']));
    expect(SPECS.length).toBeGreaterThan(3);
  });

  it.each(SPECS)('$file', ({ model }) => {
    const rows = documentRows(renderMarkdown(model));
    const doc = exportOpenApi(model).document as JsonObject;
    const operations = new Map<string, JsonObject>();
    for (const item of Object.values(doc.paths as JsonObject))
      for (const op of Object.values(item as JsonObject))
        if (typeof op === 'object' && op && 'operationId' in op) operations.set((op as JsonObject).operationId as string, op as JsonObject);
    for (const o of model.endpoints?.operations ?? []) {
      const row = rows.get(o.id);
      const op = operations.get(o.id);
      expect(row, `document row of ${o.id}`).toBeDefined();
      expect(op, `export of ${o.id}`).toBeDefined();
      const responses = op!.responses as JsonObject;
      const exported = Object.entries(responses)
        .filter(([status]) => /^[45]/.test(status))
        .flatMap(([status, r]) => ((deref(doc, r)['x-servicespec-codes'] as string[] | undefined) ?? []).map((c) => `${c} (${status})`));
      const documented =
        row!.Errors === 'none' ? [] : [...row!.Errors!.matchAll(/`([^`]+)` \((\d+|[45]XX)(?: \(answered \d+\))?\)/g)].map((m) => `${m[1]} (${m[2]})`);
      expect(documented.sort(), `errors of ${o.id}`).toEqual(exported.sort());
      const success = deref(doc, responses[o.statusRange ?? String(o.status)]);
      const location = (success.headers as JsonObject | undefined)?.Location as JsonObject | undefined;
      const documentedLocation = /Location: `([^`]+)`/.exec(row!.Success!)?.[1];
      expect(documentedLocation !== undefined, `Location of ${o.id}`).toBe(location !== undefined);
      if (location) expect(location.description).toContain(`: ${documentedLocation}.`);
    }
  });

  it('examples/orders.yaml: each operation lists the 401, 404 and 429 the export declares; createOrder has a Location', () => {
    const orders = SPECS.find((s) => s.file === 'examples/orders.yaml')!;
    const rows = documentRows(renderMarkdown(orders.model));
    expect(rows.get('getOrder')!.Errors).toContain('`not_found` (404)');
    expect(rows.get('getOrder')!.Errors).toContain('`unauthenticated` (401)');
    expect(rows.get('getOrder')!.Errors).toContain('`rate_limited` (429)');
    expect(rows.get('createOrder')!.Success).toBe('201, Location: `/orders/{id}`');
  });
});
