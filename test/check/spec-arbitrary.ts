// A fast-check generator of structurally valid specs, built from the format (schema/servicespec.schema.json).
// References between parts are drawn from small name pools, so they resolve often and dangle sometimes:
// the result always passes structural validation but may well carry semantic diagnostics.
import fc from 'fast-check';
import { ACTIONS, CONDITIONS, FIELD_TYPES, HTTP_METHODS } from '../../src/spec/spec-types.js';

const RESOURCE_NAMES = ['Order', 'Customer', 'Item', 'Shipment', 'Note'] as const;
const FIELD_NAMES = ['id', 'name', 'status', 'amount', 'owner', 'code', 'tags', 'parent', 'created_at', 'note'] as const;
const STATE_NAMES = ['new', 'active', 'paid', 'done', 'lost', 'constructor'] as const;
const EVENT_NAMES = ['order.created', 'order.paid', 'thing.done'] as const;
const SCOPE_NAMES = ['read', 'write', 'orders:admin'] as const;
const SCHEME_NAMES = ['key', 'jwt', 'm2m', 'login'] as const;
const ERROR_NAMES = ['invalid', 'not_found', 'conflict', 'internal', 'limited'] as const;
const OP_NAMES = ['createOrder', 'getOrder', 'listOrders', 'updateOrder', 'deleteOrder', 'payOrder', 'quote', 'ping'] as const;
const PATHS = ['/orders', '/orders/{id}', '/orders/{id}/pay', '/things/{a}/{b}', '/quotes', '/events', '/oauth/token', '/', '/orders/{id', '/x/{}'] as const;
const PATTERNS = ['^[A-Z]{3}$', '^[a-z0-9-]+$', '.*', '^[', '(a|b)+'] as const;
const DURATIONS = ['5s', '1m', '250ms', '24h', '7d', '0s'] as const;
const SIZES = ['64KiB', '1MB', 1024, '0B', '2GiB'] as const;

/** Present about half the time. */
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });
/** A recursive member: rarer, and never deeper than three levels. */
const rec = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2, maxDepth: 3, depthIdentifier: 'field' });
const num = fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }));
const nonNegInt = fc.integer({ min: 0, max: 500 });

/** Drops undefined members so YAML/JSON output carries only what was generated. */
function clean<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

const scalarValue = fc.oneof(fc.string({ maxLength: 8 }), fc.integer({ min: -5, max: 50 }), fc.boolean(), fc.constant(null));

const { field: fieldArb } = fc.letrec<{ field: Record<string, unknown>; fieldMap: Record<string, unknown> }>((tie) => ({
  field: fc
    .record(
      {
        type: fc.constantFrom(...FIELD_TYPES),
        description: opt(fc.string({ maxLength: 20 })),
        optional: opt(fc.boolean()),
        nullable: opt(fc.constantFrom(true, false, 'answers')),
        readOnly: opt(fc.boolean()),
        writeOnce: opt(fc.boolean()),
        unique: opt(fc.boolean()),
        generated: opt(fc.constantFrom('create_time', 'update_time')),
        source: opt(fc.constant('service')),
        default: opt(scalarValue),
        example: opt(scalarValue),
        values: opt(fc.array(fc.oneof(fc.constantFrom('red', 'blue', 'green'), fc.integer({ min: 0, max: 9 })), { maxLength: 4 })),
        to: opt(fc.constantFrom(...RESOURCE_NAMES, 'Missing')),
        items: rec(tie('field')),
        fields: rec(tie('fieldMap')),
        minLength: opt(nonNegInt),
        maxLength: opt(nonNegInt),
        pattern: opt(fc.constantFrom(...PATTERNS)),
        minimum: opt(num),
        maximum: opt(num),
        exclusiveMinimum: opt(num),
        exclusiveMaximum: opt(num),
        multipleOf: opt(fc.constantFrom(0.5, 1, 5, 100)),
        minItems: opt(nonNegInt),
        maxItems: opt(nonNegInt),
        uniqueItems: opt(fc.boolean()),
      },
      { requiredKeys: ['type'] },
    )
    .map(clean),
  fieldMap: fc.dictionary(fc.constantFrom(...FIELD_NAMES), tie('field'), { maxKeys: 3, depthIdentifier: 'field' }),
}));

/** Mostly plain fields, so that the nesting stays small. */
const plainField = fc
  .record(
    {
      type: fc.constantFrom(...FIELD_TYPES),
      optional: opt(fc.boolean()),
      nullable: opt(fc.constantFrom(true, false, 'answers')),
      readOnly: opt(fc.boolean()),
      unique: opt(fc.boolean()),
      values: opt(fc.constant(['red', 'blue'])),
      to: opt(fc.constantFrom(...RESOURCE_NAMES)),
      items: opt(fc.constant({ type: 'string', maxLength: 10 })),
      minimum: opt(fc.integer({ min: 0, max: 10 })),
      maxLength: opt(fc.integer({ min: 1, max: 100 })),
      pattern: opt(fc.constantFrom(...PATTERNS)),
      default: opt(scalarValue),
    },
    { requiredKeys: ['type'] },
  )
  .map(clean);

// Variant fields are plain fields, a default included (an optional one with a default round-trips through OpenAPI).
const variantField = plainField;

/** A union field: tagged or not, its variants' fields plain. */
const unionField = fc
  .record({
    optional: opt(fc.boolean()),
    discriminator: opt(fc.constantFrom('kind', 'type')),
    variants: fc.dictionary(
      fc.constantFrom('card', 'bank', 'other'),
      fc
        .record({
          tag: opt(fc.constantFrom('a', 'b')),
          fields: fc.dictionary(fc.constantFrom('number', 'iban', 'holder'), variantField, { minKeys: 1, maxKeys: 2 }),
        })
        .map(clean),
      { minKeys: 1, maxKeys: 3 },
    ),
  })
  .map((u) => clean({ type: 'union', ...u }));

const field = fc.oneof({ weight: 1, arbitrary: unionField }, { weight: 4, arbitrary: plainField }, { weight: 1, arbitrary: fieldArb });
const fieldMap = fc.dictionary(fc.constantFrom(...FIELD_NAMES), field, { maxKeys: 6 });

const resource = fc
  .record({
    description: opt(fc.string({ maxLength: 20 })),
    plural: opt(fc.constantFrom('orders', 'customers', 'items')),
    identifier: opt(fc.constantFrom(...FIELD_NAMES)),
    owner: opt(fc.constantFrom(...FIELD_NAMES)),
    owner_access: opt(fc.constantFrom('hidden', 'forbidden')),
    answer_members: opt(fc.constantFrom('named', 'open')),
    fields: opt(fieldMap),
  })
  .map(clean);

const stateName = fc.constantFrom(...STATE_NAMES);
const transition = fc
  .record({
    description: opt(fc.string({ maxLength: 10 })),
    from: fc.oneof(stateName, fc.uniqueArray(stateName, { minLength: 1, maxLength: 3 })),
    to: stateName,
    requires: opt(fc.uniqueArray(fc.constantFrom(...FIELD_NAMES), { maxLength: 2 })),
    emits: opt(fc.constantFrom(...EVENT_NAMES)),
    stamp: opt(fc.constantFrom('created_at', 'note', 'missing')),
  })
  .map(clean);

const stateMachine = fc
  .record({
    field: opt(fc.constantFrom(...FIELD_NAMES)),
    initial: opt(stateName),
    states: opt(
      fc.dictionary(stateName, fc.record({ description: opt(fc.string({ maxLength: 10 })), terminal: opt(fc.boolean()) }).map(clean), { maxKeys: 5 }),
    ),
    terminal: opt(fc.uniqueArray(stateName, { maxLength: 3 })),
    transitions: opt(fc.dictionary(fc.constantFrom('pay', 'ship', 'cancel', 'finish', 'toString'), transition, { maxKeys: 4 })),
  })
  .map(clean);

/** A union body's variants: their fields plain, some tagged, some with no fields at all. */
const shapeVariants = fc.dictionary(
  fc.constantFrom('Quote', 'Refusal', 'other'),
  fc
    .record({
      description: opt(fc.constantFrom('A quote.', 'A refusal.')),
      tag: opt(fc.constantFrom('quote', 'refusal')),
      fields: opt(fc.dictionary(fc.constantFrom('price', 'reason', 'currency'), variantField, { maxKeys: 2 })),
    })
    .map(clean),
  { minKeys: 1, maxKeys: 3 },
);

// Union shapes (request and response bodies, event payloads) too: under a shown but empty `resources` a union body's
// variants must not come back as resources, and a discriminator with no variants (check's union-needs-variants) must
// come back as written.
const shape = fc
  .record({
    resource: opt(fc.constantFrom(...RESOURCE_NAMES)),
    fields: opt(fc.dictionary(fc.constantFrom(...FIELD_NAMES), plainField, { maxKeys: 3 })),
    discriminator: opt(fc.constantFrom('kind', 'type')),
    variants: opt(shapeVariants),
    list: opt(fc.boolean()),
  })
  .map(clean);

/** A named example: a summary, a description, a value. */
const namedExamples = fc.dictionary(fc.constantFrom('one', 'two'), fc.record({ summary: opt(fc.string({ maxLength: 8 })), value: scalarValue }).map(clean), {
  maxKeys: 2,
});

const authRequirement = fc.oneof(
  fc.constant('none'),
  fc
    .record({
      schemes: opt(fc.uniqueArray(fc.constantFrom(...SCHEME_NAMES), { maxLength: 2 })),
      scopes: opt(fc.uniqueArray(fc.constantFrom(...SCOPE_NAMES), { maxLength: 2 })),
    })
    .map(clean),
);

// A list's paging (docs/format.md, "List shapes"): every style and body, envelope names, a total, a Link header.
const paging = fc
  .record(
    {
      style: opt(fc.constantFrom('cursor', 'offset', 'page', 'limit', 'none', 'after')),
      body: opt(fc.constantFrom('envelope', 'array')),
      items: opt(fc.constantFrom('items', 'data', 'results')),
      next: opt(fc.constantFrom('next_cursor', 'after')),
      next_optional: opt(fc.boolean()),
      total: opt(fc.constantFrom('total', 'count')),
      total_header: opt(fc.constantFrom('X-Total-Count', 'X-Total', 'Link')),
      has_more: opt(fc.constantFrom('has_more', 'items')),
      constants: opt(fc.constantFrom({ object: 'list' }, { kind: 'page', items: 'x' })),
      url: opt(fc.constantFrom('url', 'items')),
      next_link: opt(fc.constantFrom('next', 'url')),
      previous_link: opt(fc.constantFrom('previous', 'next')),
      first_page: opt(fc.constantFrom(0, 1)),
      members: opt(fc.constantFrom({ page: 'number', count: 'numberOfElements' }, { size: ['size', 'pageable.pageSize'], last: 'last' }, { empty: 'items' })),
      link: opt(fc.boolean()),
    },
    { requiredKeys: [] },
  )
  .map(clean);

const operation = fc
  .record(
    {
      method: fc.constantFrom(...HTTP_METHODS),
      path: fc.constantFrom(...PATHS),
      action: fc.constantFrom(...ACTIONS),
      resource: opt(fc.constantFrom(...RESOURCE_NAMES)),
      transition: opt(fc.constantFrom('pay', 'ship', 'nope')),
      summary: opt(fc.string({ maxLength: 10 })),
      filter: opt(fc.uniqueArray(fc.constantFrom(...FIELD_NAMES), { maxLength: 2 })),
      sort: opt(fc.uniqueArray(fc.constantFrom(...FIELD_NAMES), { maxLength: 2 })),
      request_fields: opt(fc.uniqueArray(fc.constantFrom(...FIELD_NAMES), { minLength: 1, maxLength: 3 })),
      location: opt(fc.boolean()),
      request_media_type: opt(fc.constantFrom('application/json', 'application/merge-patch+json', 'application/vnd.x+json', 'text/plain')),
      unknown_fields: opt(fc.constantFrom('refuse', 'ignore')),
      request_envelope: opt(fc.record({ data: fc.constantFrom('item', 'data', 'a b') })),
      paging: opt(paging),
      bind: opt(fc.dictionary(fc.constantFrom('id', 'a', 'b', 'owner'), fc.constantFrom(...FIELD_NAMES, 'parent.id'), { maxKeys: 2 })),
      response_headers: opt(
        fc.dictionary(
          fc.constantFrom('X-Cost', 'ETag', 'location', 'X-Request-Id'),
          fc
            .record(
              {
                type: fc.constantFrom('string', 'integer', 'object', 'array'),
                optional: opt(fc.boolean()),
                default: opt(scalarValue),
                items: opt(fc.constant({ type: 'string' })),
              },
              { requiredKeys: ['type'] },
            )
            .map(clean),
          { maxKeys: 2 },
        ),
      ),
      status: opt(fc.constantFrom(200, 201, 202, 204, 302)),
      request: opt(shape),
      response: opt(shape),
      handler: opt(fc.constantFrom('quote', 'ping')),
      auth: opt(authRequirement),
      errors: opt(fc.uniqueArray(fc.constantFrom(...ERROR_NAMES, 'undeclared'), { maxLength: 3 })),
      idempotent: opt(fc.boolean()),
      deprecated: opt(fc.boolean()),
      examples: opt(
        fc
          .record({
            request: opt(namedExamples),
            response: opt(namedExamples),
            parameters: opt(
              fc.dictionary(
                fc.constantFrom('limit', 'X-Cost'),
                namedExamples.filter((e) => Object.keys(e).length > 0),
                { maxKeys: 1 },
              ),
            ),
          })
          .map(clean),
      ),
    },
    { requiredKeys: ['method', 'path', 'action'] },
  )
  .map(clean);

const scheme = fc
  .record(
    {
      type: fc.constantFrom('api_key', 'basic', 'bearer', 'oauth2_client_credentials'),
      in: opt(fc.constantFrom('header', 'query')),
      name: opt(fc.constantFrom('X-Key', 'api_key')),
      prefix: opt(fc.constantFrom('sk_', 'Key ')),
      token: opt(fc.constant('jwt')),
      algorithms: opt(fc.constantFrom(['RS256'], ['ES256', 'HS256'])),
      issuer: opt(fc.constant('https://id.example.com/')),
      audience: opt(fc.constant('orders')),
      lifetime: opt(fc.constantFrom(...DURATIONS)),
      clock_tolerance: opt(fc.constantFrom(...DURATIONS)),
      token_path: opt(fc.constantFrom('/oauth/token', '/orders')),
    },
    { requiredKeys: ['type'] },
  )
  .map(clean);

const parts = {
  purpose: fc
    .record({
      name: opt(fc.string({ maxLength: 10 })),
      summary: opt(fc.string({ maxLength: 20 })),
      scope: opt(
        fc
          .record({
            includes: opt(fc.array(fc.string({ maxLength: 5 }), { maxLength: 2 })),
            excludes: opt(fc.array(fc.string({ maxLength: 5 }), { maxLength: 2 })),
          })
          .map(clean),
      ),
      audience: opt(fc.array(fc.string({ maxLength: 5 }), { maxLength: 2 })),
      contact: opt(
        fc.record({ name: opt(fc.constant('Team')), email: opt(fc.constant('team@example.com')), url: opt(fc.constant('https://example.com')) }).map(clean),
      ),
    })
    .map(clean),
  resources: fc.dictionary(fc.constantFrom(...RESOURCE_NAMES), resource, { maxKeys: 4 }),
  states: fc.dictionary(fc.constantFrom(...RESOURCE_NAMES, 'Ghost'), stateMachine, { maxKeys: 2 }),
  endpoints: fc
    .record({
      base_url: opt(fc.constantFrom('{base_url}', 'https://api.example.com')),
      idempotency: opt(fc.record({ header: opt(fc.constant('Idempotency-Key')), retention: opt(fc.constantFrom(...DURATIONS)) }).map(clean)),
      operations: opt(fc.dictionary(fc.constantFrom(...OP_NAMES), operation, { maxKeys: 6 })),
    })
    .map(clean),
  authentication: fc
    .record({
      schemes: opt(fc.dictionary(fc.constantFrom(...SCHEME_NAMES), scheme, { maxKeys: 3 })),
      scopes: opt(fc.dictionary(fc.constantFrom(...SCOPE_NAMES), fc.string({ maxLength: 10 }), { maxKeys: 3 })),
      default: opt(authRequirement),
    })
    .map(clean),
  events: fc
    .record({
      delivery: opt(
        fc
          .record({
            webhook: opt(
              fc
                .record({
                  signing: opt(fc.constant('standard-webhooks')),
                  retries: opt(fc.array(fc.constantFrom(...DURATIONS), { maxLength: 3 })),
                  timeout: opt(fc.constantFrom(...DURATIONS)),
                  path: opt(fc.constantFrom('/webhooks', '/orders')),
                  scopes: opt(fc.uniqueArray(fc.constantFrom(...SCOPE_NAMES), { maxLength: 2 })),
                })
                .map(clean),
            ),
            stream: opt(fc.record({ path: opt(fc.constantFrom('/events', '/orders')), heartbeat: opt(fc.constantFrom(...DURATIONS)) }).map(clean)),
          })
          .map(clean),
      ),
      kinds: opt(
        fc.dictionary(
          fc.constantFrom(...EVENT_NAMES),
          fc
            .record({
              description: opt(fc.string({ maxLength: 10 })),
              payload: opt(shape),
              body: opt(fc.constantFrom('envelope', 'raw')),
              resource: opt(fc.constantFrom(...RESOURCE_NAMES)),
              on: opt(fc.uniqueArray(fc.constantFrom('create', 'update', 'delete'), { maxLength: 3 })),
            })
            .map(clean),
          { maxKeys: 3 },
        ),
      ),
    })
    .map(clean),
  errors: fc
    .record({
      body: opt(
        fc.oneof(
          fc.constant('problem'),
          fc
            .record(
              {
                fields: fc.dictionary(fc.constantFrom('code', 'message', 'detail', 'error_code', 'http_status'), plainField, { maxKeys: 3 }),
                code: opt(fc.constantFrom('code', 'error_code', 'missing')),
                status: opt(fc.constantFrom('http_status', 'code')),
                message: opt(fc.constantFrom('message', 'detail')),
                media_type: opt(fc.constantFrom('application/json', 'application/vnd.x.error+json', 'text/plain')),
              },
              { requiredKeys: ['fields'] },
            )
            .map(clean),
        ),
      ),
      codes: opt(
        fc.dictionary(
          fc.constantFrom(...ERROR_NAMES),
          fc
            .record(
              {
                status: fc.constantFrom(200, 400, 401, 403, 404, 409, 422, 429, 500, 503),
                title: opt(fc.string({ maxLength: 10 })),
                when: opt(fc.uniqueArray(fc.constantFrom(...CONDITIONS), { maxLength: 6 })),
              },
              { requiredKeys: ['status'] },
            )
            .map(clean),
          { maxKeys: 5 },
        ),
      ),
    })
    .map(clean),
  limits: fc
    .record({
      rate: opt(
        fc.array(
          fc
            .record(
              {
                name: opt(fc.constantFrom('a', 'b')),
                requests: fc.integer({ min: 1, max: 1000 }),
                per: fc.constantFrom(...DURATIONS),
                by: opt(fc.constantFrom('credential', 'address', 'operation', 'global')),
                operations: opt(fc.uniqueArray(fc.constantFrom(...OP_NAMES, 'nope'), { maxLength: 2 })),
                on_store_failure: opt(fc.constantFrom('open', 'closed')),
              },
              { requiredKeys: ['requests', 'per'] },
            )
            .map(clean),
          { maxLength: 3 },
        ),
      ),
      body_size: opt(fc.constantFrom(...SIZES)),
      header_size: opt(fc.constantFrom(...SIZES)),
      nesting_depth: opt(fc.integer({ min: 1, max: 64 })),
      page_size: opt(
        fc
          .record({
            default: opt(fc.integer({ min: 1, max: 200 })),
            max: opt(fc.integer({ min: 1, max: 200 })),
            over_max: opt(fc.constantFrom('reject', 'clamp')),
          })
          .map(clean),
      ),
      timeout: opt(fc.constantFrom(...DURATIONS)),
      concurrency: opt(fc.integer({ min: 1, max: 100 })),
      failed_auth: opt(fc.record({ attempts: fc.integer({ min: 1, max: 20 }), per: fc.constantFrom(...DURATIONS) })),
    })
    .map(clean),
  versioning: fc
    .record({
      scheme: opt(fc.constantFrom('date', 'semver', 'integer')),
      current: opt(fc.constantFrom('2026-11-01', '1.2.0', 2, 'x')),
      placement: opt(
        fc.oneof(
          fc.constant({ header: 'Api-Version' }),
          fc.constantFrom({ path: '/v{version}' }, { path: '/v1' }),
          fc.constant({ query: 'v' }),
          fc.constant({ media_type: 'application/vnd.x.v{version}+json' }),
        ),
      ),
      default: opt(fc.constantFrom('current', 'oldest', 'required')),
      supported: opt(
        fc.array(
          fc
            .record(
              {
                version: fc.constantFrom('2026-06-01', '1.0.0', 1, 2),
                changes: opt(
                  fc.array(
                    fc.oneof(
                      fc.record({
                        rename_field: fc.record({
                          resource: fc.constantFrom(...RESOURCE_NAMES),
                          from: fc.constantFrom(...FIELD_NAMES),
                          to: fc.constantFrom(...FIELD_NAMES),
                        }),
                      }),
                      fc.record({ add_field: fc.record({ resource: fc.constantFrom(...RESOURCE_NAMES), field: fc.constantFrom(...FIELD_NAMES) }) }),
                      fc.record({ remove_field: fc.record({ resource: fc.constantFrom(...RESOURCE_NAMES), field: fc.constantFrom(...FIELD_NAMES) }) }),
                      fc.record({ description: fc.string({ maxLength: 10 }) }),
                    ),
                    { maxLength: 2 },
                  ),
                ),
                deprecated: opt(fc.constantFrom('2026-01-01', '2026-06-01')),
                sunset: opt(fc.constantFrom('2025-12-31', '2026-12-31')),
              },
              { requiredKeys: ['version'] },
            )
            .map(clean),
          { maxLength: 2 },
        ),
      ),
      compatibility: opt(fc.array(fc.string({ maxLength: 10 }), { maxLength: 2 })),
    })
    .map(clean),
};

/** A structurally valid spec document: `servicespec: 1` and any subset of the nine parts. */
export const specDocument = fc
  .record(
    {
      purpose: opt(parts.purpose),
      resources: opt(parts.resources),
      states: opt(parts.states),
      endpoints: opt(parts.endpoints),
      authentication: opt(parts.authentication),
      events: opt(parts.events),
      errors: opt(parts.errors),
      limits: opt(parts.limits),
      versioning: opt(parts.versioning),
    },
    { requiredKeys: [] },
  )
  .map((p) => ({ servicespec: 1, ...clean(p) }));

// ── well-formed resources: constraints that fit their types, references that resolve ──────────────

const lengthBounds = fc
  .tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 200 }))
  .map(([a, b]) => ({ minLength: Math.min(a, b), maxLength: Math.max(a, b) }));
const numberBounds = fc
  .tuple(fc.integer({ min: -100, max: 100 }), fc.integer({ min: -100, max: 100 }))
  .map(([a, b]) => ({ minimum: Math.min(a, b), maximum: Math.max(a, b) }));
// A read-only field needs a source of its value; here it is optional (the server may leave it out).
const flags = fc
  .record({ optional: opt(fc.boolean()), nullable: opt(fc.constantFrom(true, false, 'answers')), readOnly: opt(fc.boolean()), unique: opt(fc.boolean()) })
  .map((f) => clean({ ...f, optional: f.readOnly ? true : f.optional }));

function wellFormedField(targets: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  const leaf = fc.oneof(
    fc
      .tuple(flags, opt(lengthBounds), opt(fc.constantFrom('^[A-Z]{3}$', '^[a-z0-9-]+$')))
      .map(([f, b, pattern]) => clean({ type: 'string', ...f, ...b, pattern })),
    fc.tuple(flags, opt(numberBounds), fc.constantFrom('integer', 'number')).map(([f, b, type]) => clean({ type, ...f, ...b })),
    fc.tuple(flags, fc.uniqueArray(fc.constantFrom('red', 'green', 'blue'), { minLength: 1 })).map(([f, values]) => ({ type: 'enum', ...f, values })),
    fc.tuple(flags, fc.constantFrom('boolean', 'date', 'datetime', 'uuid', 'email', 'uri', 'json')).map(([f, type]) => ({ type, ...f })),
    fc.constantFrom('create_time', 'update_time').map((generated) => ({ type: 'datetime', readOnly: true, generated })),
  );
  const ref = targets.length > 0 ? [fc.tuple(flags, fc.constantFrom(...targets)).map(([f, to]) => ({ type: 'ref', ...f, to }))] : [];
  return fc.oneof(
    { weight: 6, arbitrary: leaf },
    ...ref.map((arbitrary) => ({ weight: 1, arbitrary })),
    {
      weight: 1,
      arbitrary: fc.tuple(flags, leaf, opt(fc.integer({ min: 0, max: 5 }))).map(([f, items, minItems]) => clean({ type: 'array', ...f, items, minItems })),
    },
    { weight: 1, arbitrary: fc.tuple(flags, leaf).map(([f, items]) => ({ type: 'map', ...f, items })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(flags, fc.dictionary(fc.constantFrom('id', 'line1', 'city', 'owner', 'qty'), leaf, { minKeys: 1, maxKeys: 3 }))
        .map(([f, fields]) => ({ type: 'object', ...f, fields })),
    },
  );
}

/** A spec with only resources, every one of them free of errors: the fields' constraints fit their types. */
export const wellFormedResourcesSpec = fc.uniqueArray(fc.constantFrom(...RESOURCE_NAMES), { minLength: 1, maxLength: 4 }).chain((names) =>
  fc
    .tuple(
      ...names.map(() =>
        fc.dictionary(fc.constantFrom('name', 'amount', 'code', 'tags', 'parent', 'created_at', 'note', 'address'), wellFormedField(names), { maxKeys: 6 }),
      ),
    )
    .map((fieldSets) => ({
      servicespec: 1,
      resources: Object.fromEntries(names.map((n, i) => [n, { fields: { id: { type: 'uuid', readOnly: true }, ...fieldSets[i] } }])),
    })),
);

// ── well-formed specs using the shapes of issue 26: unions, list shapes (renamed paging parameters), declared error
// bodies (nested roles), a list's own envelope (an optional non-nullable next), raw event payloads, named examples,
// response headers, path bindings — each spec free of errors, so its round trip through OpenAPI must keep it whole.

const TAGGED_UNION = {
  type: 'union',
  discriminator: 'kind',
  variants: {
    card: { description: 'A card.', fields: { number: { type: 'string', pattern: '^[0-9]{12,19}$' }, holder: { type: 'string', optional: true } } },
    bank_transfer: { tag: 'bank', fields: { iban: { type: 'string', minLength: 15 } } },
  },
};
const UNTAGGED_UNION = {
  type: 'union',
  variants: { by_weight: { fields: { grams: { type: 'integer', minimum: 1 } } }, by_volume: { fields: { litres: { type: 'number' } } } },
};
const WELL_FORMED_PAGING = [
  undefined,
  { style: 'offset', items: 'data', total: 'total' },
  { style: 'page', body: 'array', link: true },
  { style: 'page', body: 'array', link: true, total_header: 'X-Total-Count' },
  { style: 'offset', total: 'total', total_header: 'X-Total' },
  { style: 'after', items: 'data', has_more: 'has_more' },
  { style: 'limit', body: 'array' },
  { style: 'none', body: 'array' },
  { body: 'array', link: true },
  { next: 'after', total: 'count' },
  { link: true },
  { items: 'products', next: false, link: true, params: { cursor: 'page_info' } },
  // renamed paging parameters (paging.params), in each style that reads them
  { params: { cursor: 'continue' } },
  { items: 'files', next: 'nextPageToken', params: { limit: 'pageSize', cursor: 'pageToken' } },
  // Google's: the next cursor left out on the last page (next_optional), by the format's names or its own
  { items: 'files', next: 'nextPageToken', next_optional: true, params: { limit: 'pageSize', cursor: 'pageToken' } },
  { next_optional: true },
  // Stripe's list object: a constant and the list's address beside has_more
  { style: 'after', items: 'data', has_more: 'has_more', constants: { object: 'list' }, url: 'url' },
  // Django REST Framework's page: the neighbouring pages' addresses beside the count
  { style: 'offset', items: 'results', total: 'count', next_link: 'next', previous_link: 'previous' },
  { style: 'page', items: 'results', next_link: 'next', previous_link: 'previous', params: { limit: 'page_size' } },
  // Spring Data's Page (numbered from 0, nested pageable) and Laravel's paginator: the page's members by role
  {
    style: 'page',
    first_page: 0,
    items: 'content',
    total: 'totalElements',
    params: { limit: 'size' },
    members: {
      page: ['number', 'pageable.pageNumber'],
      size: ['size', 'pageable.pageSize'],
      pages: 'totalPages',
      count: 'numberOfElements',
      first: 'first',
      last: 'last',
      empty: 'empty',
      offset: 'pageable.offset',
    },
  },
  { style: 'page', items: 'data', total: 'total', members: { page: 'current_page', last_page: 'last_page', size: 'per_page', from: 'from', to: 'to' } },
  { style: 'offset', params: { limit: 'size', offset: 'skip' } },
  { style: 'page', body: 'array', link: true, params: { limit: 'page_size', page: 'page_number' } },
  { style: 'limit', body: 'array', params: { limit: 'max' } },
] as const;
/** Whether a paging setting pages by cursor (an envelope's `next` holds its cursor only then). */
function pagesByCursor(p: (typeof WELL_FORMED_PAGING)[number]): boolean {
  return p === undefined || !('style' in p);
}
const exampleText = fc.record({ summary: opt(fc.constantFrom('One.', 'Another one.')), description: opt(fc.constant('Shown in the console.')) }).map(clean);
const responseHeader = fc
  .record({
    type: fc.constantFrom('string', 'integer', 'boolean', 'uuid'),
    description: opt(fc.constantFrom('Set by the handler.', 'What it cost.')),
    optional: opt(fc.boolean()),
    deprecated: opt(fc.constant(true)),
  })
  .map(clean);

export const newShapesSpec = fc
  .record({
    unionField: fc.constantFrom(undefined, TAGGED_UNION, UNTAGGED_UNION),
    unionOptional: fc.boolean(),
    paging: fc.constantFrom(...WELL_FORMED_PAGING),
    quoteRequest: fc.constantFrom('union', 'fields'),
    quoteResponse: fc.constantFrom('union', 'fields', 'resource'),
    // nested roles: the code and message (and the status) in an object of the body (errors.body.code: error.code)
    errorBody: fc.constantFrom('problem', 'string-code', 'integer-code', 'nested', 'nested-status'),
    // the list's own envelope whose `next` (the cursor) is an optional non-nullable string, left out on the last
    // page: at the top or nested (Kubernetes' metadata.continue); taken only where the list pages by cursor
    // page: 'links', JSON:API's links and a page count, taken only where the list answers a bare array by page number
    listEnvelope: fc.constantFrom(undefined, 'top', 'nested', 'links'),
    mediaType: opt(fc.constant('application/vnd.example.error+json')),
    eventBody: fc.constantFrom(undefined, 'raw', 'envelope'),
    examples: opt(fc.tuple(exampleText, exampleText)),
    headers: fc.dictionary(fc.constantFrom('X-Cost', 'X-Trace-Id', 'ETag', 'X-Region'), responseHeader, { maxKeys: 3 }),
    createHeader: fc.boolean(),
    read: fc.boolean(),
    // `resources: {}` with union bodies only: the variants must not come back as resources
    noResources: fc.boolean(),
    // an optional variant field with a default (and a required one with a default)
    variantDefault: fc.constantFrom(undefined, 'optional', 'required'),
    // an empty example map says nothing: it round-trips as no examples
    emptyExamples: fc.constantFrom(undefined, {}, { request: {} }, { response: {}, parameters: {} }),
    // Path parameters bound to fields (bind): the identifier under another name, or a scope and the identifier.
    bound: fc.constantFrom(undefined, 'identifier', 'scoped'),
    // Requests that take some of the fields (request_fields): the create leaves out an optional note, an update takes it only.
    subset: fc.boolean(),
    // A create answering no Location (location: false), or saying the format's default (true).
    location: fc.constantFrom(undefined, false, true),
    // An update taking a JSON merge patch (request_media_type), or a create stating a JSON type of its own.
    requestMediaType: fc.constantFrom(undefined, 'merge-patch', 'vendor'),
    // What the create does with a member it does not name (unknown_fields), stated or the format's refuse.
    unknownFields: fc.constantFrom(undefined, 'refuse', 'ignore'),
    // Whether an answer may carry members Item does not name (answer_members), stated or the format's named.
    answerMembers: fc.constantFrom(undefined, 'named', 'open'),
    // Whether an error answer may carry members the declared body does not name (errors.body.answer_members).
    errorMembers: fc.constantFrom(undefined, 'named', 'open'),
    // A field creates may leave out and every answer holds, its value not stated (optionalInRequests).
    unstated: fc.boolean(),
    // A required read-only field the service sets by a rule the spec does not state (source: service).
    serviceSet: fc.boolean(),
    // A field the service sets to the object's own address (generated: address), where there is a read to address.
    selfAddress: fc.boolean(),
    // A delete answering nothing, or the object it deleted (response), with the default or a stated status.
    deleteAnswer: fc.constantFrom(undefined, 'none', 'object', 'object-202'),
    // Rails-style request wrappers (request_envelope): on the create, or on every create and update.
    requestEnvelope: fc.constantFrom(undefined, 'create', 'all'),
    // A resource of several shapes (variants), created, listed and read: a variant's own tag or its name, and a
    // field two of the three variants declare alike (one every variant declares alike is a shared field, as the
    // import reads it: docs/import.md).
    severalShapes: fc.constantFrom(undefined, 'tagged', 'named'),
  })
  .map((g) => {
    const itemFields: Record<string, unknown> = { id: { type: 'uuid', readOnly: true }, name: { type: 'string', maxLength: 40 } };
    if (g.unstated) itemFields.label = { type: 'string', maxLength: 12, optionalInRequests: true };
    if (g.serviceSet) itemFields.number = { type: 'integer', readOnly: true, source: 'service' };
    if (g.selfAddress && g.read) itemFields.url = { type: 'uri', readOnly: true, generated: 'address' };
    if (g.unionField) itemFields.method = g.unionOptional ? { ...g.unionField, optional: true } : g.unionField;
    const operations: Record<string, Record<string, unknown>> = {
      createItem: clean({
        method: 'POST',
        path: '/items',
        action: 'create',
        resource: 'Item',
        response_headers: g.createHeader ? { 'Cache-Control': { type: 'string', default: 'no-store' } } : undefined,
      }),
      listItems: clean({
        method: 'GET',
        path: '/items',
        action: 'list',
        resource: 'Item',
        paging: g.paging,
        envelope:
          g.listEnvelope === 'links'
            ? g.paging !== undefined && 'style' in g.paging && g.paging.style === 'page' && 'body' in g.paging && g.paging.body === 'array'
              ? {
                  data: 'result',
                  fields: {
                    links: { type: 'object', fields: { self: { type: 'uri' }, next: { type: 'uri', nullable: true }, prev: { type: 'uri', nullable: true } } },
                    meta: { type: 'object', fields: { pages: { type: 'integer' } } },
                  },
                  pages: 'meta.pages',
                  self_link: 'links.self',
                  next_link: 'links.next',
                  previous_link: 'links.prev',
                }
              : undefined
            : g.listEnvelope === undefined || !pagesByCursor(g.paging)
              ? undefined
              : g.listEnvelope === 'top'
                ? { data: 'result', fields: { continue: { type: 'string', optional: true } }, next: 'continue' }
                : {
                    data: 'result',
                    fields: { metadata: { type: 'object', optional: true, fields: { continue: { type: 'string', optional: true } } } },
                    next: 'metadata.continue',
                  },
      }),
    };
    if (g.read) operations.readItem = { method: 'GET', path: '/items/{id}', action: 'read', resource: 'Item' };
    if (g.bound === 'identifier') operations.readBound = { method: 'GET', path: '/by-id/{item}', action: 'read', resource: 'Item', bind: { item: 'id' } };
    if (g.bound === 'scoped') {
      itemFields.shelf = { type: 'string', maxLength: 20 };
      const bind = { shelf: 'shelf' };
      operations.createShelved = { method: 'POST', path: '/shelves/{shelf}/items', action: 'create', resource: 'Item', bind };
      operations.listShelved = { method: 'GET', path: '/shelves/{shelf}/items', action: 'list', resource: 'Item', bind };
      operations.readShelved = { method: 'GET', path: '/shelves/{shelf}/items/{id}', action: 'read', resource: 'Item', bind: { ...bind, id: 'id' } };
    }
    const currency =
      g.variantDefault === undefined
        ? {}
        : { currency: g.variantDefault === 'optional' ? { type: 'string', optional: true, default: 'EUR' } : { type: 'string', default: 'EUR' } };
    // a nested object's optional field with a default, as a variant's
    if (g.variantDefault !== undefined) itemFields.address = { type: 'object', optional: true, fields: { street: { type: 'string' }, ...currency } };
    if (g.location !== undefined) operations.createItem!.location = g.location;
    if (g.deleteAnswer !== undefined)
      operations.deleteItem = clean({
        method: 'DELETE',
        path: '/deletable-items/{id}',
        action: 'delete',
        resource: 'Item',
        response: g.deleteAnswer === 'none' ? undefined : { resource: 'Item' },
        status: g.deleteAnswer === 'object-202' ? 202 : undefined,
      });
    if (g.requestMediaType === 'merge-patch')
      operations.patchItem = {
        method: 'PATCH',
        path: '/patchable-items/{id}',
        action: 'update',
        resource: 'Item',
        request_media_type: 'application/merge-patch+json',
      };
    if (g.requestMediaType === 'vendor') operations.createItem!.request_media_type = 'application/vnd.items+json';
    if (g.unknownFields !== undefined) operations.createItem!.unknown_fields = g.unknownFields;
    if (g.requestEnvelope !== undefined) operations.createItem!.request_envelope = { data: 'item' };
    if (g.subset) {
      itemFields.note = { type: 'string', optional: true, maxLength: 20 };
      operations.createItem!.request_fields = Object.keys(itemFields).filter((n) => n !== 'id' && n !== 'note' && n !== 'number' && n !== 'url');
      operations.editItem = { method: 'PATCH', path: '/items/{id}', action: 'update', resource: 'Item', request_fields: ['note'] };
    }
    if (g.requestEnvelope === 'all') for (const o of [operations.patchItem, operations.editItem]) if (o !== undefined) o.request_envelope = { data: 'item' };
    const quoteRequest =
      g.quoteRequest === 'union'
        ? { variants: { ...UNTAGGED_UNION.variants, by_volume: { fields: { litres: { type: 'number' }, ...currency } } } }
        : { fields: { grams: { type: 'integer', minimum: 1 } } };
    const quoteResponse =
      g.quoteResponse === 'union' || (g.noResources && g.quoteResponse === 'resource')
        ? {
            discriminator: 'type',
            variants: {
              Quote: { tag: 'quote', fields: { price: { type: 'integer' }, ...currency } },
              Refusal: { tag: 'refusal', fields: { reason: { type: 'string' } } },
            },
          }
        : g.quoteResponse === 'resource'
          ? { resource: 'Item' }
          : { fields: { price: { type: 'integer' } } };
    const answer =
      g.quoteResponse === 'union' || (g.noResources && g.quoteResponse === 'resource')
        ? { type: 'quote', price: 12 }
        : g.quoteResponse === 'resource'
          ? { id: '0190a7e4-5b0c-7000-8000-000000000001', name: 'a' }
          : { price: 12 };
    operations.quote = clean({
      method: 'POST',
      path: '/quotes',
      action: 'custom',
      handler: 'quote',
      request: quoteRequest,
      response: quoteResponse,
      response_headers: Object.keys(g.headers).length > 0 ? g.headers : undefined,
      examples: g.examples
        ? { request: { small: { ...g.examples[0], value: { grams: 3 } } }, response: { priced: { ...g.examples[1], value: answer } } }
        : g.emptyExamples,
    });
    if (g.noResources) {
      // nothing but the union bodies: no resource, so no resource operation, event or union field
      return clean({
        servicespec: 1,
        resources: {},
        endpoints: { operations: { quote: operations.quote } },
        authentication: { default: 'none' },
        errors: { codes: { invalid: { status: 400, when: ['validation', 'malformed_request', 'unsupported_media_type'] } } },
      });
    }
    const nestedErrorBody = {
      fields: {
        error: {
          type: 'object',
          fields: clean({
            code: { type: 'string' },
            message: { type: 'string' },
            status: g.errorBody === 'nested-status' ? { type: 'integer' } : undefined,
            request_id: { type: 'string', optional: true },
          }),
        },
      },
      code: 'error.code',
      message: 'error.message',
      status: g.errorBody === 'nested-status' ? 'error.status' : undefined,
      media_type: g.mediaType,
      answer_members: g.errorMembers,
    };
    const errorBody =
      g.errorBody === 'problem'
        ? 'problem'
        : g.errorBody === 'nested' || g.errorBody === 'nested-status'
          ? clean(nestedErrorBody)
          : clean({
              fields: {
                [g.errorBody === 'string-code' ? 'code' : 'status_code']: { type: g.errorBody === 'string-code' ? 'string' : 'integer' },
                message: { type: 'string' },
                detail: { type: 'string', optional: true },
              },
              code: g.errorBody === 'integer-code' ? 'status_code' : undefined,
              media_type: g.mediaType,
              answer_members: g.errorMembers,
            });
    const pets =
      g.severalShapes === undefined
        ? {}
        : {
            Pet: {
              discriminator: 'kind',
              fields: { id: { type: 'uuid', readOnly: true }, name: { type: 'string', maxLength: 30 } },
              variants: {
                Cat: {
                  ...(g.severalShapes === 'tagged' ? { tag: 'cat' } : {}),
                  fields: { indoor: { type: 'boolean', optional: true }, lives: { type: 'integer', minimum: 0 } },
                },
                Dog: { ...(g.severalShapes === 'tagged' ? { tag: 'dog' } : {}), fields: { breed: { type: 'string' }, lives: { type: 'integer', minimum: 0 } } },
                Bird: { ...(g.severalShapes === 'tagged' ? { tag: 'bird' } : {}), fields: { wingspan: { type: 'number', minimum: 0 } } },
              },
            },
          };
    if (g.severalShapes !== undefined) {
      operations.createPet = { method: 'POST', path: '/pets', action: 'create', resource: 'Pet' };
      operations.listPets = { method: 'GET', path: '/pets', action: 'list', resource: 'Pet' };
      operations.readPet = { method: 'GET', path: '/pets/{id}', action: 'read', resource: 'Pet' };
    }
    return clean({
      servicespec: 1,
      resources: { Item: clean({ plural: 'items', answer_members: g.answerMembers, fields: itemFields }), ...pets },
      endpoints: { operations },
      authentication: { default: 'none' },
      events:
        g.eventBody === undefined
          ? undefined
          : { kinds: { 'item.created': clean({ payload: { resource: 'Item' }, on: ['create'], body: g.eventBody === 'raw' ? 'raw' : undefined }) } },
      errors: {
        body: errorBody,
        codes: {
          invalid: { status: 400, when: ['validation', 'malformed_request', 'unsupported_media_type'] },
          missing: { status: 404, when: ['missing_resource', 'route_not_found'] },
          other: { status: 405, when: ['method_not_allowed'] },
          broken: { status: 500, when: ['internal', 'not_implemented'] },
        },
      },
    });
  });
