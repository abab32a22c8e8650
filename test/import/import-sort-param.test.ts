// A list sorted by a parameter named otherwise than `sort` (Django REST Framework's `ordering`, `order_by`, `sort_by`)
// whose values name fields of the listed resource (an optional `-` descending) is the list's `sort`, its name on the
// wire `sort_param`. Before, `ordering` was imported as a declared parameter the service checked and did not use
// (`import-approximated`): served, `?ordering=-title` answered the list unsorted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareModels } from '../../src/diff/diff-rules.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';
import type { CheckedModel } from '../../src/model/model-types.js';
import { compileSpecText } from '../../src/program.js';
import { startService, type Running } from '../runtime/helpers.js';

const workshop = {
  type: 'object',
  required: ['id', 'title', 'seats'],
  properties: { id: { type: 'integer', readOnly: true }, title: { type: 'string' }, seats: { type: 'integer', minimum: 1 } },
};

const doc = (name: string, values: string[]) => ({
  openapi: '3.0.3',
  info: { title: 'workshops', version: '1' },
  paths: {
    '/workshops': {
      get: {
        operationId: 'listWorkshops',
        parameters: [{ name, in: 'query', description: 'Which field orders the list; `-` is descending.', schema: { type: 'string', enum: values } }],
        responses: {
          '200': {
            description: 'the workshops',
            content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Workshop' } } } },
          },
        },
      },
      post: {
        operationId: 'createWorkshop',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Workshop' } } } },
        responses: { '201': { description: 'stored', content: { 'application/json': { schema: { $ref: '#/components/schemas/Workshop' } } } } },
      },
    },
  },
  components: { schemas: { Workshop: workshop } },
});

const compiled = (text: string) => {
  const c = compileSpecText(text);
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return c;
};

describe('a sort read under another name (sort_param)', () => {
  it.each(['ordering', 'order_by', 'orderBy', 'sort_by', 'sortBy'])('`%s` naming fields is the list sort, said by its name', async (name) => {
    const r = await importOpenApiDocument(doc(name, ['title', '-title', 'seats']), 'workshops.json');
    const op = r.document!.endpoints!.operations!.listWorkshops!;
    expect(op).toMatchObject({ action: 'list', sort: ['title', '+seats'], sort_param: name });
    expect(op.query).toBeUndefined();
    expect(r.diagnostics.filter((d) => d.message.includes(`\`${name}\``))).toEqual([]);
    compiled(r.text!);
  });

  // django-filter's OrderingFilter as drf-spectacular writes it: an array of the orderings, comma-separated. Before,
  // it was a declared repeated parameter (name=a&name=b) the service checked and did not use.
  it("django-filter's array of orderings (style form, explode false) is the list sort, several at once said", async () => {
    const d = doc('ordering', []);
    d.paths['/workshops'].get.parameters = [
      {
        name: 'ordering',
        in: 'query',
        description: 'Ordering',
        schema: { type: 'array', items: { type: 'string', enum: ['-seats', '-title', 'seats', 'title'] } },
        explode: false,
        style: 'form',
      } as never,
    ];
    const r = await importOpenApiDocument(d, 'workshops.json');
    const op = r.document!.endpoints!.operations!.listWorkshops!;
    expect(op).toMatchObject({ action: 'list', sort: ['seats', 'title'], sort_param: 'ordering' });
    expect(op.query).toBeUndefined();
    expect(r.diagnostics.filter((x) => x.message.includes('`ordering`')).map((x) => x.code)).toEqual(['import-approximated']);
    compiled(r.text!);
  });

  it('`sort` itself needs no sort_param', async () => {
    const r = await importOpenApiDocument(doc('sort', ['title', '-title']), 'workshops.json');
    const op = r.document!.endpoints!.operations!.listWorkshops!;
    expect(op.sort).toEqual(['title']);
    expect(op.sort_param).toBeUndefined();
  });

  it('`ordering` whose values name no field stays the operation’s declared parameter, said', async () => {
    const r = await importOpenApiDocument(doc('ordering', ['newest', 'oldest']), 'workshops.json');
    const op = r.document!.endpoints!.operations!.listWorkshops!;
    expect(op.sort).toBeUndefined();
    expect(op.sort_param).toBeUndefined();
    expect(op.query).toMatchObject({ ordering: {} });
    expect(r.diagnostics.find((d) => d.message.includes('`ordering`'))?.code).toBe('import-approximated');
  });

  it('is exported under its name and imported back the same', async () => {
    const r = await importOpenApiDocument(doc('ordering', ['title', '-title']), 'workshops.json');
    const c = compiled(r.text!);
    const out = exportOpenApi(c.model!).document as { paths: Record<string, Record<string, { parameters?: { name: string; schema: { enum?: string[] } }[] }>> };
    const params = out.paths['/workshops']!.get!.parameters ?? [];
    expect(params.find((p) => p.name === 'ordering')?.schema.enum).toEqual(['title', '-title']);
    expect(params.find((p) => p.name === 'sort')).toBeUndefined();
    const back = await importOpenApiDocument(out, 'exported.json');
    expect(back.document!.endpoints!.operations!.listWorkshops).toMatchObject({ sort: ['title'], sort_param: 'ordering' });
  });

  describe('served', () => {
    let svc: Running;
    beforeAll(async () => {
      const r = await importOpenApiDocument(doc('ordering', ['title', '-title']), 'workshops.json');
      svc = await startService(compiled(r.text!).checked as CheckedModel);
      for (const title of ['Bread', 'Clay', 'Abacus']) expect((await svc.call('POST', '/workshops', { title, seats: 4 })).status).toBe(201);
    });
    afterAll(() => svc?.close());

    it('sorts by `ordering` both ways and refuses a value it does not list, naming the parameter', async () => {
      const titles = async (q: string) => ((await svc.call('GET', `/workshops?${q}`)).body as { title: string }[]).map((x) => x.title);
      expect(await titles('ordering=title')).toEqual(['Abacus', 'Bread', 'Clay']);
      expect(await titles('ordering=-title')).toEqual(['Clay', 'Bread', 'Abacus']);
      const bad = await svc.call('GET', '/workshops?ordering=seats');
      expect(bad.status).toBe(422); // validation, the format's status
      expect(JSON.stringify(bad.body)).toContain('ordering');
    });
  });
});

const SPEC = `servicespec: 1
purpose: { name: workshops }
resources:
  Workshop:
    identifier: id
    fields:
      id: { type: integer, readOnly: true }
      title: { type: string }
      ordering: { type: integer }
endpoints:
  operations:
    listWorkshops: { method: GET, path: /workshops, action: list, resource: Workshop, sort: [title], sort_param: ordering }
    readWorkshop: { method: GET, path: '/workshops/{id}', action: read, resource: Workshop }
`;

describe('check and diff of sort_param', () => {
  const codes = (text: string) => compileSpecText(text).diagnostics.map((d) => `${d.code} ${d.pointer ?? ''}`);
  it('is misplaced on another action and on a list without sort', () => {
    expect(codes(SPEC.replace('action: read, resource: Workshop }', 'action: read, resource: Workshop, sort_param: ordering }'))).toContain(
      'misplaced-option /endpoints/operations/readWorkshop/sort_param',
    );
    expect(codes(SPEC.replace('sort: [title], ', ''))).toContain('misplaced-option /endpoints/operations/listWorkshops/sort_param');
  });
  it('clashes with a filter of its name', () => {
    expect(codes(SPEC.replace('sort: [title],', 'filter: [ordering], sort: [title],')).filter((c) => c.startsWith('wire-name-clash'))).not.toEqual([]);
  });
  it('a new name is breaking (sort-param-changed)', () => {
    const before = compiled(SPEC.replace(', sort_param: ordering', '')).model!;
    const after = compiled(SPEC).model!;
    expect(compareModels(before, after).map((c) => `${c.impact} ${c.code}`)).toContain('breaking sort-param-changed');
    expect(compareModels(after, after)).toEqual([]);
  });
});
