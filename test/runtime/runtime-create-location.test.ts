// `location: false` on a create (docs/format.md): its answer carries no Location header. One derivation
// (getCreateLocation) tells the runtime, the OpenAPI export, the document and the contract tester alike; import
// writes it for a create whose success response declares no Location, and diff says Location removed or added.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffModels } from '../../src/diff/diff-api.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { compileSpecText } from '../../src/program.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';
import { testService } from '../../src/tester/tester-run.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';
import { startService, type Running } from './helpers.js';

const spec = (location: string): string => `
servicespec: 1
resources:
  Item:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string }
endpoints:
  operations:
    createItem: { method: POST, path: /items, action: create, resource: Item${location} }
    readItem: { method: GET, path: '/items/{id}', action: read, resource: Item }
authentication:
  default: none
${PLAIN_ERRORS}`;

const WITHOUT = spec(', location: false');
const WITH = spec('');

let without: Running;
let withLocation: Running;
beforeAll(async () => {
  without = await startService(checkedModel(WITHOUT));
  withLocation = await startService(checkedModel(WITH));
});
afterAll(async () => {
  await without.close();
  await withLocation.close();
});

describe('location: false on a create', () => {
  it('the runtime answers the create without Location; the default still answers one', async () => {
    const a = await without.call('POST', '/items', { name: 'a' });
    expect(a.status).toBe(201);
    expect(a.headers.get('location')).toBeNull();
    expect((await without.call('GET', `/items/${a.body.id as string}`)).status).toBe(200);
    const b = await withLocation.call('POST', '/items', { name: 'b' });
    expect(b.headers.get('location')).toBe(`/items/${b.body.id as string}`);
  });

  it('the OpenAPI export declares no Location on the 201, and its import gives location: false back', async () => {
    const doc = exportOpenApi(checkedModel(WITHOUT)).document as { paths: Record<string, Record<string, { responses: Record<string, { headers?: object }> }>> };
    expect(doc.paths['/items']!.post!.responses['201']!.headers ?? {}).not.toHaveProperty('Location');
    const exported = exportOpenApi(checkedModel(WITH)).document as typeof doc;
    expect(exported.paths['/items']!.post!.responses['201']!.headers).toHaveProperty('Location');
    const back = await importOpenApiDocument(doc, 'items.json');
    expect(back.document!.endpoints!.operations!.createItem!.location).toBe(false);
    // Without servicespec's own extension, read as any document is.
    delete (doc.paths['/items']!.post as Record<string, unknown>)['x-servicespec-operation'];
    const plain = await importOpenApiDocument(doc, 'items.json');
    expect(plain.document!.endpoints!.operations!.createItem!.location).toBe(false);
    expect(plain.diagnostics.filter((d) => d.message.includes('Location'))).toEqual([]);
  });

  it('the document shows no Location for it', () => {
    expect(renderMarkdown(checkedModel(WITH))).toContain('Location: `/items/{id}`');
    expect(renderMarkdown(checkedModel(WITHOUT))).not.toContain('Location: `/items/{id}`');
  });

  it('the contract tester asks no Location of it, and still asks the default create for one', async () => {
    // The service answering with Location, held to a spec that says none: nothing to fail; and the reverse.
    const lax = await testService(checkedModel(WITHOUT), { baseUrl: without.url, seed: 1, only: ['endpoints'] });
    expect(lax.results.filter((r) => r.outcome === 'failed')).toEqual([]);
    expect(lax.results.filter((r) => r.check === 'endpoints.location')).toEqual([]);
    const strict = await testService(checkedModel(WITH), { baseUrl: without.url, seed: 1, only: ['endpoints'] });
    expect([...new Set(strict.results.filter((r) => r.outcome === 'failed').map((r) => r.check))]).toEqual(['endpoints.location']);
  }, 60_000);

  it('diff: Location removed is breaking, added is not', () => {
    const a = checkedModel(WITH);
    const b = checkedModel(WITHOUT);
    const removed = diffModels(a, b).changes.filter((c) => c.code.startsWith('response-header'));
    expect(removed.map((c) => [c.code, c.impact, c.reason])).toEqual([
      ['response-header-removed', 'breaking', 'operation createItem: response header Location was removed; clients reading it find nothing'],
    ]);
    const added = diffModels(b, a).changes.filter((c) => c.code.startsWith('response-header'));
    expect(added.map((c) => [c.code, c.impact])).toEqual([['response-header-added', 'non-breaking']]);
  });

  it('check: `location` on another action has no effect (misplaced-option)', () => {
    const c = compileSpecText(WITH.replace('action: read, resource: Item }', 'action: read, resource: Item, location: false }'));
    expect(c.diagnostics.map((d) => [d.code, d.pointer])).toEqual([['misplaced-option', '/endpoints/operations/readItem/location']]);
    const bad = compileSpecText(spec(', location: no'));
    expect(bad.diagnostics.filter((d) => d.severity === 'error').length).toBeGreaterThan(0);
  });
});
