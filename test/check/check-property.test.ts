import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { formatGapReport, getGapReport } from '../../src/check/check-gaps.js';
import { getProducibleConditions } from '../../src/model/model-routes.js';
import { formatDiagnostics } from '../../src/diagnostics/diagnostics-format.js';
import { DIAGNOSTICS, hasErrors } from '../../src/diagnostics/diagnostics-catalogue.js';
import * as builder from '../../src/model/model-builder.js';
import * as lookup from '../../src/model/model-lookup.js';
import * as defaults from '../../src/model/model-defaults.js';
import * as routes from '../../src/model/model-routes.js';
import * as schemas from '../../src/model/model-schemas.js';
import type { FieldModel, ServiceModel } from '../../src/model/model-types.js';
import { compileSpecBytes, compileSpecText, type CompiledSpec } from '../../src/program.js';
import type { PagingRole } from '../../src/spec/spec-types.js';
import { specDocument, wellFormedResourcesSpec } from './spec-arbitrary.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const RUNS = { numRuns: 200 };
const LOAD_AND_STRUCTURE = new Set(Object.keys(DIAGNOSTICS).slice(0, Object.keys(DIAGNOSTICS).indexOf('unknown-resource')));

/** A compile result is well formed: diagnostics from the catalogue, positions where there is text, a model only when structurally valid. */
function wellFormed(r: CompiledSpec): void {
  expect(Array.isArray(r.diagnostics)).toBe(true);
  for (const d of r.diagnostics) {
    expect(DIAGNOSTICS[d.code], d.code).toBeDefined();
    expect(d.severity).toBe(DIAGNOSTICS[d.code].severity);
    expect(d.message.length).toBeGreaterThan(0);
    if (d.line !== undefined) {
      expect(d.line).toBeGreaterThanOrEqual(1);
      expect(d.column).toBeGreaterThanOrEqual(1);
    }
  }
  if (r.model === undefined) expect(hasErrors(r.diagnostics)).toBe(true);
  expect(() => formatDiagnostics(r.diagnostics)).not.toThrow();
  expect(() => formatDiagnostics(r.diagnostics, 'json')).not.toThrow();
}

function isDeepFrozen(value: unknown, seen = new Set<unknown>()): boolean {
  if (value === null || typeof value !== 'object' || seen.has(value)) return true;
  seen.add(value);
  return Object.isFrozen(value) && Object.values(value).every((v) => isDeepFrozen(v, seen));
}

/** Calls every exported function of src/model (and the gap report) on a model; any throw fails the property. */
function exerciseModel(model: ServiceModel): void {
  getGapReport(model);
  formatGapReport(getGapReport(model));
  for (const r of model.resources) {
    lookup.getResource(model, r.name);
    lookup.getStateMachine(model, r.name);
    for (const f of r.fields) {
      lookup.getField(r, f.name);
      defaults.isDefaultIdentifier(f);
      defaults.getUnmakeableIdentifier(f);
      // optionalInRequests lets a create leave the field out whenever it lets a replace.
      if (defaults.isLeftOutIn(f, 'replace')) expect(defaults.isLeftOutIn(f, 'create')).toBe(true);
      for (const view of ['create', 'replace', 'update', 'response'] as const) schemas.isWritable(r, f, view);
      // Answers carry every field but a write-only one.
      expect(schemas.isAnswered(r, f.name)).toBe(f.writeOnly !== true);
      schemas.getFieldSchema(model, f, r, { annotations: true, safeIntegers: true });
      if (f.union) for (const view of ['create', 'response'] as const) schemas.getUnionSchema(model, f.union, r, view, { annotations: true });
    }
    for (const view of ['create', 'replace', 'update', 'response'] as const) {
      schemas.getResourceSchema(model, r, view);
      schemas.getResourceSchema(model, r, view, { annotations: true, safeIntegers: true });
    }
  }
  model.limits?.rate.forEach((r, i) => expect(defaults.getRateLimitName(r, i)).toBe(r.name ?? `rate${i}`));
  for (const m of model.stateMachines) {
    const r = lookup.getResource(model, m.resource);
    const field = lookup.getStateField(model, m);
    if (field !== undefined && m.field === undefined) expect(r?.fields.filter((f) => f.type === 'state').map((f) => f.name)).toEqual([field]);
    for (const t of m.transitions) if (r) schemas.getTransitionSchema(model, r, t.requires, { annotations: true });
  }
  // The fields the service sets by a rule not stated: source: service where it holds, answered required but by the runtime.
  for (const r of model.resources) {
    const set = schemas.getServiceSetFields(model, r);
    for (const f of r.fields) {
      const holds = f.source === 'service' && schemas.getServiceSourceProblem(model, r, f) === undefined;
      expect(set.includes(f), `${r.name}.${f.name}`).toBe(holds);
      if (holds) expect(schemas.isServiceSetField(r, f)).toBe(true);
    }
    const required = (schemas.getResourceSchema(model, r, 'response', { serviceSetAbsent: true }).required ?? []) as string[];
    for (const f of set) expect(required).not.toContain(f.name);
    // The nested members a client cannot write and nothing gives a value: each a read-only, required member at its path.
    for (const path of schemas.getServiceSetMembers(r)) {
      // Each step a field of those at the path so far (a union's variants may each have one of the name).
      let fields: readonly FieldModel[] = r.fields;
      let members: FieldModel[] = [];
      for (const part of path.split('.')) {
        const name = part.replace(/(\[\]|\{\})+$/, '');
        members = fields.filter((x) => x.name === name);
        expect(members.length, `${r.name}.${path}`).toBeGreaterThan(0);
        fields = members.flatMap((f) => {
          let v: FieldModel | undefined = f;
          while (v?.type === 'array' || v?.type === 'map') v = v.items;
          return v?.type === 'union' ? (v.union?.variants ?? []).flatMap((x) => x.fields) : (v?.fields ?? []);
        });
      }
      expect(path.includes('.') || path.includes('[]'), path).toBe(true);
      expect(
        members.some((m) => m.readOnly && !m.optional && !m.hasDefault),
        `${r.name}.${path}`,
      ).toBe(true);
    }
  }
  for (const o of model.endpoints?.operations ?? []) {
    builder.getPathParams(o.path);
    // A list's page sizes as they apply: each key its own paging.page_size states, else limits.page_size's.
    const size = lookup.getPageSize(model, o);
    for (const key of ['default', 'max', 'overMax'] as const) {
      expect(size[key]).toEqual(o.paging?.pageSize?.[key] ?? model.limits?.pageSize?.[key]);
      expect(size.pointers[key].startsWith('/limits/')).toBe(o.paging?.pageSize?.[key] === undefined);
    }
    // The fields a create or replace may leave out whose value is not stated: optionalInRequests fields it takes.
    const target = lookup.getResource(model, o.resource);
    if (target) for (const n of schemas.getUnstatedValueFields(target, o)) expect(lookup.getField(target, n)?.optionalInRequests).toBe(true);
    // unknown_fields: ignore only where stated, on a create, update or replace; its request schema is then open.
    const unknown = defaults.getUnknownFields(o);
    if (unknown === 'ignore') expect(o.unknownFields === 'ignore' && ['create', 'update', 'replace'].includes(o.action)).toBe(true);
    if (target && (o.action === 'create' || o.action === 'update' || o.action === 'replace'))
      expect(schemas.getRequestSchema(model, target, o, o.action).additionalProperties).toBe(unknown === 'ignore' ? undefined : false);
    // A merge patch's schema names what the update's does, none required.
    if (target && o.action === 'update') {
      const patch = schemas.getMergePatchSchema(model, target, o);
      expect(Object.keys(patch.properties as object)).toEqual(Object.keys(schemas.getRequestSchema(model, target, o, 'update').properties as object));
      expect(patch.required ?? []).toEqual([]);
    }
    for (const shape of [o.request, o.response])
      if (shape) for (const view of ['create', 'response'] as const) schemas.getShapeSchema(model, shape, view, { annotations: true });
    // A list's objects: the resource's answer, or its answer_fields of it (the members those name, in its order).
    if (target && o.action === 'list') {
      const whole = Object.keys(schemas.getSchemaMembers(schemas.getResourceSchema(model, target, 'response')));
      const item = Object.keys(schemas.getSchemaMembers(schemas.getListItemSchema(model, target, o)));
      expect(item).toEqual(o.answerFields === undefined ? whole : whole.filter((n) => o.answerFields!.includes(n)));
    }
  }
  for (const k of model.events?.kinds ?? []) {
    if (k.payload) schemas.getShapeSchema(model, k.payload, 'response');
    // The envelope unless the kind says raw (the format's default, written once).
    expect(defaults.isRawEvent(k)).toBe(k.body === 'raw');
  }
  for (const route of routes.getRoutes(model)) {
    routes.getErrorCodes(model, route);
    // The errors the document and the export list: declared codes only, by status.
    const errors = routes.getRouteErrors(model, route);
    expect(errors.map((e) => e.status)).toEqual([...errors.map((e) => e.status)].sort((x, y) => x - y));
    for (const e of errors) expect(model.errors?.codes.some((c) => c.name === e.code && c.status === e.status)).toBe(true);
    if (route.kind !== 'operation') continue;
    expect(routes.getOperationRoute(model, route.operation.id)).toBe(route);
    // A Location only on a create, naming the path of the resource's read operation.
    const location = routes.getCreateLocation(model, route);
    if (location !== undefined) {
      expect(route.operation.action).toBe('create');
      const read = model.endpoints?.operations.find((o) => o.action === 'read' && o.resource === route.resource?.name);
      expect(read && location.endsWith(read.path)).toBe(true);
    }
    // An upsert's Location (its 201) only on a replace saying upsert.
    if (routes.getUpsertLocation(model, route) !== undefined) expect(route.operation).toMatchObject({ action: 'replace', upsert: true });
    // etag: true. An ETag only on one object's answer, If-Match (precondition_failed) only on a one-object change.
    if (routes.answersETag(route.resource, route.operation)) expect(route.resource?.etag).toBe(true);
    expect(route.conditions.includes('precondition_failed')).toBe(routes.isConditionalChange(route.resource, route.operation));
  }
  for (const o of model.endpoints?.operations ?? []) routes.isIdempotentOperation(model, o);
  for (const o of model.endpoints?.operations ?? []) {
    const params = routes.getPagingParams(o);
    // Each parameter a list reads is its role's name (paging.params, else the format's).
    if (o.paging) expect(params.map((q) => q.name)).toEqual(params.map((q) => defaults.getPagingParamName(o.paging, q.kind as PagingRole)));
  }
  routes.getUndeclaredConditions(model);
  routes.getProducibleConditions(model);
  routes.getRouteHeads(model);
  for (const r of routes.getRoutes(model))
    if (r.kind === 'operation') expect(routes.getDeclaredParameters(r)).toHaveLength(r.headers.length + r.query.filter((q) => q.kind === 'param').length);
  defaults.getIdempotencyHeader(model);
  for (const s of model.authentication?.schemes ?? []) defaults.getApiKeyPlacement(s);
  builder.buildField('x', { type: 'string' }, '/x');
}

describe('property: no input makes the front end throw', () => {
  it('arbitrary JSON values, as JSON text', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        const r = compileSpecText(JSON.stringify(value) ?? 'null');
        wellFormed(r);
      }),
      RUNS,
    );
  });

  it('arbitrary mappings that start as a spec (`servicespec: 1` plus anything)', () => {
    const key = fc.oneof(
      fc.constantFrom(
        'purpose',
        'resources',
        'states',
        'endpoints',
        'authentication',
        'events',
        'errors',
        'limits',
        'versioning',
        '__proto__',
        'constructor',
        'x-ext',
      ),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.dictionary(key, fc.jsonValue({ maxDepth: 4 }), { maxKeys: 5 }), (rest) => {
        const r = compileSpecText(JSON.stringify({ servicespec: 1, ...rest }));
        wellFormed(r);
        if (r.model) exerciseModel(r.model);
      }),
      RUNS,
    );
  });

  it('YAML-ish strings built from YAML tokens', () => {
    const token = fc.constantFrom(
      'servicespec: 1',
      'resources:',
      'Order:',
      'fields:',
      'id: { type: uuid }',
      '- ',
      ': ',
      '\n',
      '  ',
      '\t',
      '[',
      ']',
      '{',
      '}',
      ',',
      '&a ',
      '*a',
      '*b',
      '<<: *a',
      '!!str ',
      '!!binary ',
      '!custom ',
      '%YAML 1.2\n',
      '---\n',
      '...\n',
      '"',
      "'",
      '# c',
      '|\n',
      '>-\n',
      '?',
      'null',
      '~',
      '\uFEFF',
      '\u0000',
      '\\',
      '\r\n',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof({ weight: 5, arbitrary: token }, { weight: 1, arbitrary: fc.string({ maxLength: 4 }) }), { maxLength: 40 }), (tokens) => {
        wellFormed(compileSpecText(tokens.join('')));
      }),
      { numRuns: 500 },
    );
  });

  it('arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        wellFormed(compileSpecBytes(bytes));
      }),
      RUNS,
    );
  });
});

describe('property: structurally valid specs', () => {
  it('always compile to a deeply frozen model, and every model function accepts it', () => {
    fc.assert(
      fc.property(specDocument, fc.boolean(), (doc, asJson) => {
        const text = asJson ? JSON.stringify(doc) : stringify(doc);
        const r = compileSpecText(text);
        wellFormed(r);
        const structural = r.diagnostics.filter((d) => LOAD_AND_STRUCTURE.has(d.code));
        expect(structural, text).toEqual([]);
        expect(r.model).toBeDefined();
        expect(isDeepFrozen(r.model)).toBe(true);
        exerciseModel(r.model!);
        // Every diagnostic of a loaded spec points into the file.
        for (const d of r.diagnostics) expect(d.line, `${d.code} ${d.pointer}`).toBeGreaterThanOrEqual(1);
      }),
      RUNS,
    );
  });

  it('well-formed resources raise no error, and every schema view compiles with Ajv 2020 strict', () => {
    fc.assert(
      fc.property(wellFormedResourcesSpec, (doc) => {
        const r = compileSpecText(stringify(doc));
        expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        // One schema holding every view of every resource: one Ajv compile per run keeps this fast.
        const properties: Record<string, unknown> = {};
        for (const res of r.model!.resources) {
          for (const view of ['create', 'replace', 'update', 'response'] as const) {
            properties[`${res.name}_${view}`] = schemas.getResourceSchema(r.model!, res, view, { annotations: true, safeIntegers: view !== 'response' });
          }
        }
        const ajv = new Ajv2020({ strict: true });
        addFormats(ajv);
        expect(() => ajv.compile({ type: 'object', properties })).not.toThrow();
      }),
      { numRuns: 100 },
    );
  });

  it('every condition a route can produce is one the checker knows the spec can produce', () => {
    fc.assert(
      fc.property(specDocument, (doc) => {
        const r = compileSpecText(stringify(doc));
        if (!r.model) return;
        const producible = getProducibleConditions(r.model);
        for (const route of routes.getRoutes(r.model)) {
          for (const c of route.conditions) expect(producible.has(c), `${route.method} ${route.path}: ${c}`).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('compiling is deterministic', () => {
    fc.assert(
      fc.property(specDocument, (doc) => {
        const text = stringify(doc);
        expect(compileSpecText(text).diagnostics).toEqual(compileSpecText(text).diagnostics);
      }),
      { numRuns: 50 },
    );
  });
});

describe('property: ambiguous-route finds exactly the pairs a pairwise comparison finds', () => {
  it('on random sets of paths', () => {
    const segment = fc.constantFrom('a', 'b', 'c', '{id}', '{key}');
    const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => `/${s.join('/')}`);
    const ops = fc.uniqueArray(fc.tuple(fc.constantFrom('GET', 'POST'), path), {
      maxLength: 12,
      selector: ([m, p]) => `${m} ${p.replace(/\{[^}]*\}/g, '{}')}`,
    });
    fc.assert(
      fc.property(ops, (list) => {
        const operations = Object.fromEntries(
          list.map(([method, p], i) => [
            `op${i}`,
            {
              method,
              path: p,
              action: 'custom',
              handler: 'h',
              request: { fields: { id: { type: 'string' }, key: { type: 'string' } } },
              response: { fields: { ok: { type: 'boolean' } } },
            },
          ]),
        );
        const r = compileSpecText(JSON.stringify({ servicespec: 1, endpoints: { operations } }));
        const found = r.diagnostics
          .filter((d) => d.code === 'ambiguous-route')
          .map((d) => d.message)
          .sort();
        const shape = (p: string) => p.replace(/\{[^}]*\}/g, '{}').split('/');
        const expected: string[] = [];
        list.forEach(([ma, pa], i) => {
          list.forEach(([mb, pb], j) => {
            if (j <= i || ma !== mb) return;
            const a = shape(pa);
            const b = shape(pb);
            if (a.length === b.length && a.every((s, k) => s === b[k] || s === '{}' || b[k] === '{}')) {
              expected.push(`operations \`op${i}\` and \`op${j}\` have paths ${pa} and ${pb} that match the same requests`);
            }
          });
        });
        expect(found).toEqual(expected.sort());
      }),
      RUNS,
    );
  });
});

describe('property: reserved-path is reported exactly for the paths under /_servicespec', () => {
  it('on random paths', () => {
    const segment = fc.constantFrom('a', '{id}', '_servicespec', '_SERVICESPEC', '_servicespecs', 'servicespec');
    const path = fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => `/${s.join('/')}`);
    const ops = fc.uniqueArray(path, { maxLength: 6, selector: (p) => p.replace(/\{[^}]*\}/g, '{}') });
    fc.assert(
      fc.property(ops, (list) => {
        const operations = Object.fromEntries(
          list.map((p, i) => [
            `op${i}`,
            {
              method: 'GET',
              path: p,
              action: 'custom',
              handler: 'h',
              request: { fields: { id: { type: 'string' } } },
              response: { fields: { ok: { type: 'boolean' } } },
            },
          ]),
        );
        const r = compileSpecText(JSON.stringify({ servicespec: 1, endpoints: { operations } }));
        const found = r.diagnostics
          .filter((d) => d.code === 'reserved-path')
          .map((d) => d.pointer)
          .sort();
        const expected = list.flatMap((p, i) => (/^\/_servicespec(\/|$)/i.test(p) ? [`/endpoints/operations/op${i}/path`] : [])).sort();
        expect(found).toEqual(expected);
      }),
      RUNS,
    );
    // The service's own routes are all under the prefix.
    for (const r of routes.getServiceRoutes()) expect(routes.isReservedPath(r.path)).toBe(true);
  });
});

describe("property: a declared error body's roles are the fields it names, else the format's names", () => {
  it('on random bodies', () => {
    const name = fc.constantFrom<string>('code', 'error', 'status', 'message', 'detail', 'err', 'http_status', 'text');
    const type = fc.constantFrom('string', 'integer', 'enum', 'boolean');
    const body = fc.record({
      fields: fc.uniqueArray(fc.tuple(name, type), { maxLength: 6, selector: ([n]) => n }),
      code: fc.option(name, { nil: undefined }),
      status: fc.option(name, { nil: undefined }),
      message: fc.option(name, { nil: undefined }),
      mediaType: fc.option(fc.constantFrom('application/json', 'application/vnd.x+json'), { nil: undefined }),
    });
    fc.assert(
      fc.property(body, (b) => {
        const model = {
          kind: 'declared' as const,
          answerMembers: 'named' as const,
          ...b,
          fields: b.fields.map(([n, t]) => ({ name: n, type: t }) as FieldModel),
        };
        const roles = defaults.getErrorBodyRoles(model);
        const names = b.fields.map(([n]) => n);
        const typeOf = (n: string) => b.fields.find(([x]) => x === n)?.[1];
        const expected = (role: 'code' | 'status' | 'message', byDefault: string[], types: string[]) =>
          b[role] !== undefined ? (names.includes(b[role]) ? b[role] : undefined) : byDefault.find((n) => names.includes(n) && types.includes(typeOf(n)!));
        expect(roles.code?.name).toBe(expected('code', ['code', 'error'], ['string', 'enum', 'integer']));
        expect(roles.status?.name).toBe(expected('status', ['status'], ['integer']));
        expect(roles.message?.name).toBe(expected('message', ['message', 'detail'], ['string']));
        expect(roles.mediaType).toBe(b.mediaType ?? 'application/json');
        expect(defaults.getErrorMediaType(model)).toBe(roles.mediaType);
        const value = defaults.getErrorCodeValue(roles.code, { name: 'gone', status: 410 });
        expect(value).toBe(roles.code?.type === 'integer' ? 410 : 'gone');
        // The body every answer is built from carries the code and status in the fields the roles name.
        const built = defaults.buildErrorBody(defaults.getDeclaredErrorFill(model), { code: 'gone', status: 410 }, { detail: 'it went', instance: '/x' });
        expect(built.status).toBe(410);
        expect(built.contentType).toBe(roles.mediaType);
        if (roles.code) expect(built.body[roles.code.name]).toBe(value);
        if (roles.status && roles.status.name !== roles.code?.name) expect(built.body[roles.status.name]).toBe(410);
        // Every field is required here: each is written, or named as unfilled (a gap), never both.
        const unfilled = defaults.getUnfilledErrorFields(model).map((u) => u.path);
        for (const n of new Set(names)) expect([n, n in (built.body as object) !== unfilled.includes(n)]).toEqual([n, true]);
        // A problem's type nothing else fills is written about:blank (RFC 9457), and is not unfilled.
        const problemType = defaults.getProblemTypeField(model);
        if (problemType) expect([built.body.type, unfilled.includes('type')]).toEqual(['about:blank', false]);
      }),
      RUNS,
    );
    expect(defaults.getErrorMediaType({ kind: 'problem' })).toBe('application/problem+json');
    expect(defaults.getErrorMediaType(undefined)).toBe('application/problem+json');
    // Without a declared body: problem details with the code and status.
    const problem = defaults.buildErrorBody(undefined, { code: 'gone', status: 410 }, { instance: '/x' });
    expect([problem.contentType, problem.body.code, problem.body.status, problem.body.title]).toEqual(['application/problem+json', 'gone', 410, 'Gone']);
  });
});

describe('property: a request may leave a field out when it is optional, or has a default it is not required to send', () => {
  it('on every combination', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), fc.option(fc.boolean(), { nil: undefined }), (optional, hasDefault, requiredInRequests) => {
        const f = { optional, hasDefault, ...(requiredInRequests !== undefined ? { requiredInRequests } : {}) };
        expect(defaults.mayLeaveOut(f)).toBe(optional || (hasDefault && requiredInRequests !== true));
      }),
    );
  });
});

describe('property: a request may send null for a field nullable, but not `nullable: answers`', () => {
  it('on every combination', () => {
    fc.assert(
      fc.property(fc.constantFrom(true, false, 'answers' as const), (nullable) => {
        const f = builder.buildField('x', { type: 'string', nullable }, '/x');
        expect([f.nullable, defaults.isNullableInRequests(f)]).toEqual([nullable !== false, nullable === true]);
      }),
    );
  });
});

describe("a request body's media type (request_media_type, request.media_type)", () => {
  it("is the stated one (lower case), a form's, else JSON; an update with merge-patch+json reads a merge patch", () => {
    fc.assert(
      fc.property(
        fc.constantFrom('create', 'update', 'replace', 'custom'),
        fc.option(fc.constantFrom('application/merge-patch+json', 'Application/Merge-Patch+JSON', 'application/json', 'application/vnd.x+json'), {
          nil: undefined,
        }),
        (action, requestMediaType) => {
          const o = { action, ...(requestMediaType !== undefined ? { requestMediaType } : {}) };
          expect(defaults.getRequestMediaType(o)).toBe(requestMediaType?.toLowerCase() ?? 'application/json');
          expect(defaults.isMergePatch(o)).toBe(action === 'update' && requestMediaType?.toLowerCase() === defaults.MERGE_PATCH_MEDIA_TYPE);
        },
      ),
    );
    expect(defaults.getRequestMediaType({ request: { mediaType: 'application/x-www-form-urlencoded' } })).toBe('application/x-www-form-urlencoded');
  });
});

describe('status ranges (docs/format.md, "Status ranges")', () => {
  it('a range covers the hundred statuses of its digit, a status only itself; a range answers its first', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 599 }), fc.constantFrom('2XX', '4XX', '5XX'), (status, range) => {
        expect(defaults.isStatusIn(status, status, undefined)).toBe(true);
        expect(defaults.isStatusIn(status, 0, range)).toBe(Math.floor(status / 100) === Number(range[0]));
        expect(defaults.isStatusIn(defaults.getRangeStatus(range), 0, range)).toBe(true);
        expect(routes.isSuccessAnswer({ successStatus: 201 }, status)).toBe(status === 201);
      }),
    );
    // A delete answering the deleted object (response) succeeds with 200: a 204 has no body.
    for (const [action, status] of Object.entries(defaults.DEFAULT_SUCCESS_STATUS) as [keyof typeof defaults.DEFAULT_SUCCESS_STATUS, number][]) {
      expect(defaults.getDefaultSuccessStatus(action, false)).toBe(status);
      expect(defaults.getDefaultSuccessStatus(action, true)).toBe(action === 'delete' ? 200 : status);
    }
    expect(defaults.getStatusText(400, '4XX')).toBe('4XX (answered 400)');
    expect(defaults.getStatusText(404, undefined)).toBe('404');
  });
});

describe('page members and the first page (paging.first_page, paging.members)', () => {
  it('a page counts from 1 unless stated 0; first, last and empty are booleans, every other member an integer', () => {
    expect(defaults.getFirstPage(undefined)).toBe(1);
    expect(defaults.getFirstPage({ firstPage: 0 })).toBe(0);
    for (const role of defaults.PAGE_MEMBER_ROLES) expect(defaults.isIntegerPageMember(role)).toBe(!['first', 'last', 'empty'].includes(role));
  });
});

describe("an operation's own code for a condition no code declares (getOperationRefusalCode)", () => {
  it('is the one code of the first status HTTP gives the condition that the operation lists; none where it lists two of it, or the condition is declared', () => {
    const code = (name: string, status: number) => ({ name, status }) as unknown as NonNullable<ServiceModel['errors']>['codes'][number];
    const errors = { byCondition: {}, codes: [code('bad', 400), code('also_bad', 400), code('unprocessable', 422), code('gone', 404)] };
    const of = (listed: string[], condition: Parameters<typeof defaults.getOperationRefusalCode>[2], e = errors) =>
      defaults.getOperationRefusalCode(e, { errors: listed }, condition)?.name;
    expect(of(['bad'], 'validation')).toBe('bad');
    expect(of(['bad', 'unprocessable'], 'validation')).toBe('unprocessable');
    expect(of(['bad', 'also_bad'], 'validation')).toBeUndefined();
    expect(of(['gone', 'bad'], 'missing_resource')).toBe('gone');
    expect(of(['unprocessable'], 'malformed_request')).toBeUndefined();
    expect(of(['bad'], 'validation', { ...errors, byCondition: { validation: 'bad' } })).toBeUndefined();
    expect(of(['bad'], 'unique_conflict')).toBeUndefined();
  });
});

describe('the model API surface', () => {
  it('every exported function of src/model is exercised above', () => {
    const fns = [builder, lookup, defaults, routes, schemas].flatMap((mod) =>
      Object.entries(mod)
        .filter(([, v]) => typeof v === 'function')
        .map(([k]) => k),
    );
    expect(fns.sort()).toEqual(
      [
        'buildField',
        'buildModel',
        'getFirstPage',
        'isIntegerPageMember',
        'getField',
        'getDeclaredFields',
        'isDefaultIdentifier',
        'isLeftOutIn',
        'isNullableInRequests',
        'isNoContentStatus',
        'getUnknownFields',
        'getUnmakeableIdentifier',
        'getIdempotencyHeader',
        'getApiKeyPlacement',
        'getRateLimitName',
        'getErrorBodyRoles',
        'getUnfilledErrorFields',
        'getProblemTypeField',
        'getErrorCodeValue',
        'getErrorMediaType',
        'getPathParams',
        'getResource',
        'getResourceRenames',
        'getPageSize',
        'getStateMachine',
        'getStateField',
        'getErrorCodes',
        'getRouteErrors',
        'getOperationRoute',
        'getCreateLocation',
        'getUpsertLocation',
        'answersETag',
        'isConditionalChange',
        'getRoutes',
        'getRouteHeads',
        'getDeclaredParameters',
        'getServiceRoutes',
        'isReservedPath',
        'getUndeclaredConditions',
        'getProducibleConditions',
        'isIdempotentOperation',
        'isRawEvent',
        'getPagingParams',
        'getPagingParamName',
        'getRangeStatus',
        'getDefaultSuccessStatus',
        'getStatusText',
        'isStatusIn',
        'isAnswered',
        'isSuccessAnswer',
        'isChangeAnswer',
        'getBoundRequestSchema',
        'getFieldSchema',
        'getResourceSchema',
        'getListItemSchema',
        'getResourceVariantSchema',
        'getSchemaMembers',
        'getRequestSchema',
        'getMergePatchSchema',
        'getOperationRefusalCode',
        'getUnsourcedFields',
        'getUnstatedValueFields',
        'getServiceSetFields',
        'getServiceSetMembers',
        'getServiceSourceProblem',
        'isServiceSetField',
        'getShapeSchema',
        'getTransitionSchema',
        'getUnionSchema',
        'isWritable',
        'buildErrorBody',
        'getDeclaredErrorFill',
        'mayLeaveOut',
        'getRequestMediaType',
        'isMergePatch',
      ].sort(),
    );
  });
});
