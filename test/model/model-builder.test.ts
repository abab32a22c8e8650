import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildField, buildModel, getPathParams } from '../../src/model/model-builder.js';
import { DEFAULT_IDENTIFIER_FIELD, DEFAULT_SUCCESS_STATUS } from '../../src/model/model-defaults.js';
import { getField, getResource, getStateMachine } from '../../src/model/model-lookup.js';
import type { ServiceModel } from '../../src/model/model-types.js';
import { compileSpecFile, compileSpecText } from '../../src/program.js';
import type { SpecDocument } from '../../src/spec/spec-types.js';
import { yaml } from '../check/helpers.js';

function model(text: string): ServiceModel {
  const r = compileSpecText(text);
  expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return r.model!;
}

function isDeepFrozen(value: unknown, seen = new Set<unknown>()): boolean {
  if (value === null || typeof value !== 'object' || seen.has(value)) return true;
  seen.add(value);
  return Object.isFrozen(value) && Object.values(value).every((v) => isDeepFrozen(v, seen));
}

describe('buildModel: the defaults the format defines, and only those', () => {
  it('a field takes optional, nullable, readOnly, writeOnce and unique as false; nothing else is filled in', () => {
    const f = buildField('name', { type: 'string' }, '/resources/A/fields/name');
    expect(f).toEqual({
      name: 'name',
      pointer: '/resources/A/fields/name',
      type: 'string',
      optional: false,
      nullable: false,
      readOnly: false,
      writeOnce: false,
      unique: false,
      hasDefault: false,
      hasExample: false,
    });
    expect(Object.keys(f)).not.toContain('default');
    expect(Object.keys(f)).not.toContain('maxLength');
  });

  it('a declared default of null or false is kept and distinguished from no default', () => {
    const f = buildField('n', { type: 'string', nullable: true, default: null }, '/x');
    expect([f.hasDefault, f.default]).toEqual([true, null]);
    const g = buildField('b', { type: 'boolean', default: false, example: false }, '/x');
    expect([g.hasDefault, g.default, g.hasExample, g.example]).toEqual([true, false, true, false]);
  });

  it('nested fields (items, object fields) are built with their pointers', () => {
    const f = buildField('lines', { type: 'array', items: { type: 'object', fields: { qty: { type: 'integer', minimum: 1 } } } }, '/r');
    expect(f.items?.pointer).toBe('/r/items');
    expect(f.items?.fields?.[0]).toMatchObject({ name: 'qty', pointer: '/r/items/fields/qty', minimum: 1, optional: false });
  });

  it('the success status per action, unless declared', () => {
    expect(DEFAULT_SUCCESS_STATUS).toEqual({ create: 201, read: 200, update: 200, replace: 200, delete: 204, list: 200, transition: 200, custom: 200 });
    const m = model(yaml`
      servicespec: 1
      resources:
        A:
          fields:
            id: { type: uuid }
      endpoints:
        operations:
          createA: { method: POST, path: /a, action: create, resource: A }
          deleteA: { method: DELETE, path: "/a/{id}", action: delete, resource: A }
          acceptA: { method: POST, path: /a/accept, action: create, resource: A, status: 202 }
    `);
    expect(m.endpoints!.operations.map((o) => [o.id, o.status, o.statusDeclared])).toEqual([
      ['createA', 201, false],
      ['deleteA', 204, false],
      ['acceptA', 202, true],
    ]);
  });

  it('the identifier is `id` when a field `id` exists and none is named; otherwise undefined', () => {
    expect(DEFAULT_IDENTIFIER_FIELD).toBe('id');
    const m = model(yaml`
      servicespec: 1
      resources:
        WithId:
          fields:
            id: { type: uuid }
        Named:
          identifier: code
          fields:
            id: { type: uuid }
            code: { type: string }
        Without:
          fields:
            code: { type: string }
    `);
    expect(m.resources.map((r) => [r.name, r.identifier])).toEqual([
      ['WithId', 'id'],
      ['Named', 'code'],
      ['Without', undefined],
    ]);
  });

  it('owner access is hidden unless declared; there is no owner unless declared', () => {
    const m = model(yaml`
      servicespec: 1
      resources:
        A:
          owner: who
          fields:
            id: { type: uuid }
            who: { type: string, readOnly: true }
        B:
          owner: who
          owner_access: forbidden
          fields:
            who: { type: string }
        C:
          fields:
            who: { type: string }
    `);
    expect(m.resources.map((r) => [r.name, r.owner, r.ownerAccess])).toEqual([
      ['A', 'who', 'hidden'],
      ['B', 'who', 'forbidden'],
      ['C', undefined, 'hidden'],
    ]);
  });

  it('a resource with no `plural` has plural undefined (never guessed)', () => {
    const m = model('servicespec: 1\nresources:\n  Person:\n    fields:\n      id: { type: uuid }\n');
    expect(m.resources[0]!.plural).toBeUndefined();
    expect('plural' in m.resources[0]!).toBe(false);
  });

  it("an operation auth requirement: its own, else the default, else undefined; scopes are all required; no schemes means the default's, else every scheme", () => {
    const m = model(yaml`
      servicespec: 1
      resources:
        A:
          fields:
            id: { type: uuid }
      endpoints:
        operations:
          own: { method: GET, path: "/a/{id}", action: read, resource: A, auth: { scopes: [a, b] } }
          open: { method: GET, path: /a, action: list, resource: A, auth: none }
          inherit: { method: POST, path: /a, action: create, resource: A }
      authentication:
        schemes:
          key: { type: api_key, in: header, name: X-Key }
          jwt: { type: bearer, token: jwt }
        scopes: { a: A, b: B }
        default: { schemes: [jwt] }
    `);
    const ops = Object.fromEntries(m.endpoints!.operations.map((o) => [o.id, [o.auth, o.authDeclared]]));
    expect(ops).toEqual({
      own: [{ kind: 'required', schemes: ['jwt'], scopes: ['a', 'b'] }, 'operation'],
      open: [{ kind: 'none' }, 'operation'],
      inherit: [{ kind: 'required', schemes: ['jwt'], scopes: [] }, 'default'],
    });
    const noDefault = model(yaml`
      servicespec: 1
      authentication:
        schemes:
          key: { type: api_key, in: header, name: X-Key }
          jwt: { type: bearer, token: jwt }
        default: { scopes: [a] }
        scopes: { a: A }
    `);
    expect(noDefault.authentication!.default).toEqual({ kind: 'required', schemes: ['key', 'jwt'], scopes: ['a'] });
    const bare = model(
      'servicespec: 1\nendpoints:\n  operations:\n    x: { method: GET, path: /x, action: custom, handler: x, response: { fields: { a: { type: string } } } }\n',
    );
    expect(bare.endpoints!.operations[0]!.auth).toBeUndefined();
    expect(bare.endpoints!.operations[0]!.authDeclared).toBe('none');
  });

  it('an api_key scheme keeps its prefix and name as written', () => {
    const m = model('servicespec: 1\nauthentication:\n  schemes:\n    key: { type: api_key, in: header, name: X-API-Key, prefix: "sk_" }\n');
    expect(m.authentication!.schemes[0]).toMatchObject({ type: 'api_key', in: 'header', credentialName: 'X-API-Key', prefix: 'sk_' });
  });

  it('durations and sizes carry the text as written and the value', () => {
    const m = model('servicespec: 1\nlimits:\n  timeout: 5s\n  body_size: 64KiB\n  header_size: 1000\n  rate: [{ requests: 1, per: 1h }]\n');
    expect(m.limits!.timeout).toEqual({ text: '5s', ms: 5000 });
    expect(m.limits!.bodySize).toEqual({ text: '64KiB', bytes: 65536 });
    expect(m.limits!.headerSize).toEqual({ text: '1000 B', bytes: 1000 });
    expect(m.limits!.rate[0]!.per).toEqual({ text: '1h', ms: 3_600_000 });
    expect(m.limits!.pageSize).toBeUndefined();
  });

  it('state machines: states come from `states`, or from the names the machine uses when `states` is not written', () => {
    const m = model(yaml`
      servicespec: 1
      resources:
        A:
          fields:
            id: { type: uuid }
            status: { type: state }
        B:
          fields:
            id: { type: uuid }
            status: { type: state }
      states:
        A:
          initial: new
          terminal: [done]
          transitions:
            finish: { from: [new, busy], to: done }
            start: { from: new, to: busy }
        B:
          initial: new
          states:
            new: {}
            done: { terminal: true, description: Finished. }
          transitions:
            finish: { from: new, to: done, emits: b.done }
      events:
        kinds:
          b.done: { payload: { resource: B } }
    `);
    const a = getStateMachine(m, 'A')!;
    expect(a.field).toBeUndefined();
    expect(a.states).toEqual([
      { name: 'new', terminal: false, declared: false },
      { name: 'busy', terminal: false, declared: false },
      { name: 'done', terminal: true, declared: false },
    ]);
    expect(a.transitions.map((t) => [t.name, t.from, t.to, t.requires])).toEqual([
      ['finish', ['new', 'busy'], 'done', []],
      ['start', ['new'], 'busy', []],
    ]);
    const b = getStateMachine(m, 'B')!;
    expect(b.states).toEqual([
      { name: 'new', terminal: false, declared: true },
      { name: 'done', terminal: true, declared: true, description: 'Finished.' },
    ]);
    expect(m.events!.kinds[0]!.triggers).toEqual([{ action: 'transition', resource: 'B', transition: 'finish' }]);
  });

  it('an event kind is emitted by the actions in `on` of its resource, or of its payload resource', () => {
    const m = model(yaml`
      servicespec: 1
      resources:
        A:
          fields:
            id: { type: uuid }
      events:
        kinds:
          a.created: { on: [create], payload: { resource: A } }
          a.changed: { on: [update, delete], resource: A, payload: { fields: { id: { type: uuid } } } }
    `);
    expect(m.events!.kinds.map((k) => [k.name, k.triggers])).toEqual([
      ['a.created', [{ action: 'create', resource: 'A' }]],
      [
        'a.changed',
        [
          { action: 'update', resource: 'A' },
          { action: 'delete', resource: 'A' },
        ],
      ],
    ]);
  });

  it('errors: byCondition maps each condition to the first code declaring it', () => {
    const m = model(
      'servicespec: 1\nerrors:\n  codes:\n    a: { status: 400, when: [validation] }\n    b: { status: 404, when: [missing_resource, route_not_found] }\n',
    );
    expect(m.errors!.byCondition).toEqual({ validation: 'a', missing_resource: 'b', route_not_found: 'b' });
    expect(m.errors!.body).toBeUndefined();
  });

  it('versions are strings whatever the YAML type; the placement kind is explicit', () => {
    const m = model('servicespec: 1\nversioning:\n  scheme: integer\n  current: 2\n  placement: { path: "/v{version}" }\n  supported: [{ version: 1 }]\n');
    expect(m.versioning).toEqual({
      scheme: 'integer',
      current: '2',
      placement: { kind: 'path', template: '/v{version}' },
      supported: [{ version: '1', pointer: '/versioning/supported/0', changes: [] }],
      compatibility: [],
    });
  });

  it('parts not written are absent, and `present` says which parts the file has', () => {
    const m = model('servicespec: 1\npurpose: { name: X }\n');
    expect(m.present).toEqual({
      purpose: true,
      resources: false,
      states: false,
      endpoints: false,
      authentication: false,
      events: false,
      errors: false,
      limits: false,
      versioning: false,
    });
    expect(m.purpose).toEqual({ name: 'X' });
    for (const k of ['endpoints', 'authentication', 'events', 'errors', 'limits', 'versioning'] as const) expect(m[k]).toBeUndefined();
    expect(m.resources).toEqual([]);
    expect(m.stateMachines).toEqual([]);
  });

  it('path parameters are read in order', () => {
    expect(getPathParams('/a/{x}/b/{y}')).toEqual(['x', 'y']);
    expect(getPathParams('/a')).toEqual([]);
  });

  it('path parameters are what /\\{([^{}]*)\\}/g matches, for any arrangement of braces (read without a regex)', () => {
    const byRegex = (p: string) => Array.from(p.matchAll(/\{([^{}]*)\}/g), (m) => m[1] ?? '');
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('{', '}', 'a', '/', '{id}', '}{', '{{x}'), { maxLength: 12 }).map((a) => a.join('')),
        (p) => {
          expect(getPathParams(p)).toEqual(byRegex(p));
        },
      ),
      { numRuns: 3000 },
    );
    expect(getPathParams('/a/{{x}/{}/{y')).toEqual(['x', '']);
  });

  it('the model is deeply frozen', () => {
    for (const f of ['examples/orders.yaml', 'examples/library.yaml', 'examples/empty.yaml']) {
      const m = compileSpecFile(f).model!;
      expect(isDeepFrozen(m)).toBe(true);
      expect(() => {
        (m.resources as unknown as unknown[]).push({});
      }).toThrow(TypeError);
    }
  });

  it('buildModel does not change the document it reads', () => {
    const doc: SpecDocument = { servicespec: 1, resources: { A: { fields: { id: { type: 'uuid' } } } } };
    const copy = structuredClone(doc);
    buildModel(doc);
    expect(doc).toEqual(copy);
    expect(Object.isFrozen(doc)).toBe(false);
  });

  it('getResource, getField and getStateMachine find by name', () => {
    const m = compileSpecFile('examples/orders.yaml').model!;
    expect(getResource(m, 'Order')?.name).toBe('Order');
    expect(getResource(m, 'Nope')).toBeUndefined();
    expect(getResource(m, undefined)).toBeUndefined();
    expect(getField(getResource(m, 'Order'), 'amount')?.type).toBe('integer');
    expect(getField(undefined, 'amount')).toBeUndefined();
    expect(getStateMachine(m, 'Order')?.initial).toBe('pending');
    expect(getStateMachine(m, 'Customer')).toBeUndefined();
  });

  it('orders.yaml resolves as written', () => {
    const m = compileSpecFile('examples/orders.yaml').model!;
    expect(m.resources.map((r) => [r.name, r.plural, r.identifier, r.owner, r.ownerAccess])).toEqual([
      ['Customer', 'customers', 'id', undefined, 'hidden'],
      ['Order', 'orders', 'id', 'owner', 'forbidden'],
    ]);
    expect(m.endpoints!.baseUrl).toBe('{base_url}');
    expect(m.endpoints!.idempotency).toEqual({ header: 'Idempotency-Key', retention: { text: '24h', ms: 86_400_000 } });
    expect(m.events!.webhook!.retries!.map((r) => r.ms)).toEqual([5000, 60_000, 600_000, 3_600_000]);
    expect(m.versioning!.placement).toEqual({ kind: 'header', name: 'Service-Version' });
    expect(m.versioning!.supported[0]!.changes).toEqual([
      { kind: 'rename_field', resource: 'Order', from: 'total', to: 'amount', description: 'Order.total was renamed to Order.amount.' },
    ]);
  });
});
