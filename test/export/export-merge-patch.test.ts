// An update's request_media_type (application/merge-patch+json) through the exports and back: the OpenAPI
// requestBody's content key and the operation's extension, the import of a document whose PATCH takes merge-patch
// only (kept) or beside application/json (not: the format's JSON update), and the typed client sending that type to
// the real runtime, which removes a field on its null.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { generateClient } from '../../src/export/export-client.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';
import type { CheckedModel } from '../../src/model/model-types.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';
import { startService, type Running } from '../runtime/helpers.js';
import { loadClient } from './client-loader.js';
import { tempDir } from './helpers.js';

const SPEC = `
servicespec: 1
resources:
  Project:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string }
      note: { type: string, optional: true }
endpoints:
  operations:
    createProject: { method: POST, path: /projects, action: create, resource: Project }
    getProject: { method: GET, path: "/projects/{id}", action: read, resource: Project }
    patchProject: { method: PATCH, path: "/projects/{id}", action: update, resource: Project, request_media_type: application/merge-patch+json }
authentication:
  default: none
${PLAIN_ERRORS}`;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- documents of many shapes

let model: CheckedModel;
beforeAll(() => {
  model = checkedModel(SPEC);
});

const patchOf = (doc: Json): Json => doc.paths['/projects/{id}'].patch;

describe('OpenAPI', () => {
  it('exports the request as its stated media type, and imports it back', async () => {
    const doc = exportOpenApi(model).document as Json;
    expect(Object.keys(patchOf(doc).requestBody.content)).toEqual(['application/merge-patch+json']);
    expect(patchOf(doc)['x-servicespec-operation'].request_media_type).toBe('application/merge-patch+json');
    expect(Object.keys(doc.paths['/projects'].post.requestBody.content)).toEqual(['application/json']);
    const back = await importOpenApiDocument(doc);
    expect(back.compiled?.checked?.endpoints?.operations.find((o) => o.id === 'patchProject')?.requestMediaType).toBe('application/merge-patch+json');
  });

  it("imports a PATCH taking merge-patch+json only as it; beside application/json, as the format's JSON update", async () => {
    const doc = exportOpenApi(model).document as Json;
    delete patchOf(doc)['x-servicespec-operation'];
    delete doc['x-servicespec-parts'];
    const only = await importOpenApiDocument(structuredClone(doc));
    expect(only.text).toMatch(/request_media_type: application\/merge-patch\+json/);
    const content = patchOf(doc).requestBody.content;
    content['application/json'] = content['application/merge-patch+json'];
    const both = await importOpenApiDocument(doc);
    expect(both.text).not.toMatch(/request_media_type/);
  });
});

describe('document', () => {
  it('says the update takes a JSON merge patch only', () => {
    expect(renderMarkdown(model)).toContain(
      'Request media type: `application/merge-patch+json` only: a JSON merge patch (RFC 7396): a null removes a field that may be absent, an object merges into the stored one.',
    );
  });
});

describe('typed client', () => {
  let s: Running;
  const tmp = tempDir('servicespec-merge-patch-');
  beforeAll(async () => {
    s = await startService(model);
  });
  afterAll(async () => {
    await s.close();
    tmp.remove();
  });

  it('sends the update as application/merge-patch+json; a null removes the field', async () => {
    const sent: string[] = [];
    const fetchSpy: typeof fetch = (url, init) => {
      if (init?.method === 'PATCH') sent.push(new Headers(init.headers).get('content-type') ?? '');
      return fetch(url, init);
    };
    const mod = await loadClient<Json>(generateClient(model).code, tmp.path, 'projects');
    const client = new mod.ServiceClient({ baseUrl: s.url, fetch: fetchSpy });
    const made = await client.createProject({ name: 'Garden', note: 'beds' });
    const patched = await client.patchProject(made.id, { note: null });
    expect(sent).toEqual(['application/merge-patch+json']);
    expect(patched).toEqual({ id: made.id, name: 'Garden' });
  });
});
