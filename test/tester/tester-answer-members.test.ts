// Answers that may carry members their resource does not name (`answer_members: open`): what an OpenAPI response
// schema without `additionalProperties: false` allows, and what many hand-written services do (`_links`, a revision
// counter). The tester holds the named members and lets the others by; where the spec says `named` (the format's
// default, or an imported `additionalProperties: false`) the same answers fail. A write-only field answered is a
// leak either way.
import { describe, expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import { testService } from '../../src/tester/tester-run.js';
import { startService } from '../runtime/helpers.js';
import { checkedModel } from '../support/specs.js';
import { json, startProxy, withJson } from './mutant-proxy.js';

const failures = (report: Awaited<ReturnType<typeof testService>>) =>
  report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}: ${r.failure?.expected} / ${r.failure?.actual}`);

const PETS = (answerMembers: string) => `
servicespec: 1
resources:
  Pet:
    ${answerMembers}
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string, minLength: 1, maxLength: 50 }
      secret: { type: string, writeOnly: true, optional: true, maxLength: 20 }
      owner:
        type: object
        optional: true
        fields:
          name: { type: string, maxLength: 50 }
endpoints:
  operations:
    createPet: { method: POST, path: /pets, action: create, resource: Pet }
    getPet: { method: GET, path: '/pets/{id}', action: read, resource: Pet }
    listPets: { method: GET, path: /pets, action: list, resource: Pet }
    updatePet: { method: PATCH, path: '/pets/{id}', action: update, resource: Pet }
authentication:
  default: none
`;

/** Each Pet answered (alone or in a page) with members the spec does not name, at the top and inside `owner`. */
function addMembers(body: unknown): unknown {
  const pet = (p: Record<string, unknown>) => ({
    ...p,
    _links: { self: { href: `/pets/${String(p.id)}` } },
    revision: 3,
    ...(p.owner && typeof p.owner === 'object' ? { owner: { ...p.owner, verified: true } } : {}),
  });
  if (body && typeof body === 'object' && Array.isArray((body as { items?: unknown }).items))
    return { ...body, items: (body as { items: Record<string, unknown>[] }).items.map(pet) };
  return body && typeof body === 'object' && 'id' in body ? pet(body as Record<string, unknown>) : body;
}

describe('answer_members: open', () => {
  it('lets members the resource does not name by; named, the same answers fail; a write-only field answered fails either way', async () => {
    const s = await startService(checkedModel(PETS('answer_members: named')));
    const extra = await startProxy(s.url, { response: (r) => (r.status < 300 && r.body.length > 0 ? withJson(r, addMembers(json(r))) : r) });
    const leak = await startProxy(s.url, {
      response: (r) => (r.status < 300 && r.body.length > 0 && (json(r) as { id?: unknown }).id !== undefined ? withJson(r, { ...json(r), secret: 'x' }) : r),
    });
    try {
      const open = await testService(checkedModel(PETS('answer_members: open')), { baseUrl: extra.url, seed: 1, only: ['endpoints'] });
      expect(failures(open)).toEqual([]);
      expect(open.results.filter((r) => r.outcome === 'passed').length).toBeGreaterThan(5);
      const named = await testService(checkedModel(PETS('answer_members: named')), { baseUrl: extra.url, seed: 1, only: ['endpoints'] });
      expect(failures(named).join('\n')).toContain('must NOT have additional properties (_links)');
      const leaked = await testService(checkedModel(PETS('answer_members: open')), { baseUrl: leak.url, seed: 1, only: ['endpoints'] });
      expect(failures(leaked).join('\n')).toContain('holds the write-only field secret');
    } finally {
      await extra.close();
      await leak.close();
      await s.close();
    }
  }, 90_000);
});

describe('import: a component that leaves its object open', () => {
  const doc = (closed: boolean) => ({
    openapi: '3.1.0',
    info: { title: 'Pets', version: '1' },
    paths: {
      '/pets/{id}': {
        get: {
          operationId: 'getPet',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }],
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } },
        },
      },
    },
    components: {
      schemas: {
        Pet: {
          type: 'object',
          required: ['id', 'name'],
          properties: { id: { type: 'string', format: 'uuid', readOnly: true }, name: { type: 'string' } },
          ...(closed ? { additionalProperties: false } : {}),
        },
      },
    },
  });

  it('is answer_members: open; additionalProperties: false leaves the format default (named)', async () => {
    const open = await importOpenApiDocument(doc(false), 'open.json');
    expect(open.document!.resources!.Pet!.answer_members).toBe('open');
    expect(open.compiled!.model!.resources[0]!.answerMembers).toBe('open');
    const closed = await importOpenApiDocument(doc(true), 'closed.json');
    expect(closed.document!.resources!.Pet!.answer_members).toBeUndefined();
    expect(closed.compiled!.model!.resources[0]!.answerMembers).toBe('named');
  });

  it('exports back as it was read: the answer schema open, or closed', async () => {
    const { exportOpenApi } = await import('../../src/export/export-openapi.js');
    for (const closed of [false, true]) {
      const imported = await importOpenApiDocument(doc(closed), 'pets.json');
      const out = exportOpenApi(imported.compiled!.model!).document as { components: { schemas: Record<string, { additionalProperties?: unknown }> } };
      expect(out.components.schemas.Pet!.additionalProperties).toBe(closed ? false : undefined);
    }
  });
});

describe('answer_members: open, as every view of the spec shows it', () => {
  it('the document and the console say it; the JSON Schema leaves the answer open; the client type takes other members', async () => {
    const { renderMarkdown } = await import('../../src/render/render-markdown.js');
    const { renderConsole } = await import('../../src/render/render-console.js');
    const { exportJsonSchemas } = await import('../../src/export/export-json-schema.js');
    const { generateClient } = await import('../../src/export/export-client.js');
    const open = checkedModel(PETS('answer_members: open'));
    const named = checkedModel(PETS('answer_members: named'));
    expect(renderMarkdown(open)).toContain('Other members in answers');
    expect(renderMarkdown(named)).not.toContain('Other members in answers');
    expect(renderConsole(open)).toContain('<dt>Other members in answers</dt>');
    expect(renderConsole(named)).not.toContain('Other members in answers');
    const pet = (m: typeof open) => (exportJsonSchemas(m).document as { $defs: Record<string, { additionalProperties?: unknown }> }).$defs.Pet!;
    expect(pet(open).additionalProperties).toBeUndefined();
    expect(pet(named).additionalProperties).toBe(false);
    const petType = (m: typeof open) => /export interface Pet \{[\s\S]*?\n\}/.exec(generateClient(m).code)?.[0] ?? '';
    expect(petType(open)).toContain('[key: string]: unknown;');
    expect(petType(named)).toContain('name');
    expect(petType(named)).not.toContain('[key: string]: unknown;');
  });
});
