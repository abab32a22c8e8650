import { DEFAULT_ANSWER_MEMBERS, DEFAULT_IDENTIFIER_SOURCE, DEFAULT_PAGING, getPagingParamName } from '../model/model-defaults.js';
import { getNamedShape, getNamedShapeDescription } from '../model/model-named-shapes.js';
import { getDeclaredFields } from '../model/model-lookup.js';
import type {
  AuthRequirement,
  EnvelopeModel,
  EventKindModel,
  FieldModel,
  NamedExampleModel,
  OperationExamplesModel,
  OperationModel,
  PagingModel,
  ParameterModel,
  RateLimitModel,
  ResourceModel,
  SchemeModel,
  ServiceModel,
  ShapeModel,
  Size,
  StateMachineModel,
  SupportedVersionModel,
  UnionModel,
  VersionChangeModel,
  VersionPlacementModel,
} from '../model/model-types.js';
import type {
  AuthenticationSpec,
  CallbackSpec,
  EnvelopeSpec,
  ErrorsSpec,
  EventKindSpec,
  EventsSpec,
  FieldSpec,
  LimitsSpec,
  NamedExampleSpec,
  NamedShapeSpec,
  OperationExamplesSpec,
  OperationAuthSpec,
  OperationSpec,
  PagingParamsSpec,
  PageMembersSpec,
  PageMemberRole,
  PagingRole,
  PagingSpec,
  ParameterSpec,
  RateLimitSpec,
  ResourceSpec,
  SchemeSpec,
  ShapeSpec,
  SpecDocument,
  StateMachineSpec,
  SupportedVersionSpec,
  VariantSpec,
  VersionChangeSpec,
  VersionPlacement,
  VersioningSpec,
} from '../spec/spec-types.js';

// The model written back in the spec format. The exporters put the parts OpenAPI has no words for into
// `x-servicespec-*` extensions in exactly this form, and the importer reads them back with the same loader
// as a spec file, so the extensions are documented once: "the part, as in a spec" (docs/extensions.md).

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function clean<T extends object>(value: T): T {
  for (const k of Object.keys(value) as (keyof T)[]) if (value[k] === undefined) delete value[k];
  return value;
}

/** Model keys that are bookkeeping, not part of what the spec says. */
const FIELD_BOOKKEEPING = new Set(['name', 'pointer', 'ofVariants', 'hasDefault', 'hasExample', 'default', 'example', 'items', 'fields', 'values']);
const FIELD_FLAGS = new Set(['optional', 'nullable', 'readOnly', 'writeOnce', 'unique']);

/** `renamedFrom` as a spec writes it: one name as a name, several as a list. */
function earlierNamesToSpec(names: readonly string[] | undefined): string | string[] | undefined {
  return names === undefined ? undefined : names.length === 1 ? names[0] : [...names];
}

/** One field as written in a spec. Keys the model gains later are carried over as they are. */
export function fieldToSpec(f: FieldModel): FieldSpec {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(f)) {
    if (FIELD_BOOKKEEPING.has(k) || v === undefined) continue;
    if (FIELD_FLAGS.has(k) && v === false) continue;
    out[k] = v;
  }
  if (f.nullableInAnswersOnly === true) {
    out.nullable = 'answers';
    delete out.nullableInAnswersOnly;
  }
  if (f.values !== undefined) out.values = [...f.values];
  if (f.renamedFrom !== undefined) out.renamedFrom = earlierNamesToSpec(f.renamedFrom);
  if (f.hasDefault) out.default = f.default;
  if (f.hasExample) out.example = f.example;
  if (f.items) out.items = fieldToSpec(f.items);
  delete out.union;
  // A named shape's use says its name (its fields or variants are the shape's: namedShapesToSpec).
  const shape = getNamedShape(f.fields) ?? getNamedShape(f.union);
  if (shape !== undefined) out.shape = shape;
  else {
    if (f.fields) out.fields = fieldsToSpec(f.fields);
    if (f.union) Object.assign(out, unionToSpec(f.union));
  }
  return out as unknown as FieldSpec;
}

/** A union's discriminator and variants as written in a spec (a tag equal to the variant's name left out: the default). */
export function unionToSpec(u: UnionModel): { discriminator?: string; variants?: Record<string, VariantSpec> } {
  const variants: Record<string, VariantSpec> = {};
  for (const v of u.variants) {
    const shape = getNamedShape(v.fields);
    variants[v.name] = clean<VariantSpec>({
      description: v.description,
      tag: v.tag !== undefined && (u.discriminator === undefined || v.tag !== v.name) ? v.tag : undefined,
      shape,
      fields: shape === undefined && v.fields.length > 0 ? fieldsToSpec(v.fields) : undefined,
    });
  }
  // No variants (check's union-needs-variants) is written as it was: without `variants`, which the format says has one at least.
  if (u.variants.length === 0) return u.discriminator !== undefined ? { discriminator: u.discriminator } : {};
  return u.discriminator !== undefined ? { discriminator: u.discriminator, variants } : { variants };
}

export function fieldsToSpec(fields: readonly FieldModel[]): Record<string, FieldSpec> {
  const out: Record<string, FieldSpec> = {};
  for (const f of fields) out[f.name] = fieldToSpec(f);
  return out;
}

/** A custom operation's declared parameters as written in a spec (`in` is where they are listed). */
export function parametersToSpec(params: readonly ParameterModel[]): Record<string, ParameterSpec> | undefined {
  if (params.length === 0) return undefined;
  const out: Record<string, ParameterSpec> = {};
  for (const p of params) {
    const { in: _in, deprecated, ...field } = p;
    out[p.name] = { ...(fieldToSpec(field) as ParameterSpec), ...(deprecated ? { deprecated: true } : {}) };
  }
  return out;
}

export function shapeToSpec(s: ShapeModel): ShapeSpec {
  const shape = getNamedShape(s.fields) ?? getNamedShape(s.union);
  return clean<ShapeSpec>({
    resource: s.resource,
    shape,
    fields: s.fields && shape === undefined ? fieldsToSpec(s.fields) : undefined,
    ...(s.union && shape === undefined ? unionToSpec(s.union) : {}),
    list: s.list ? true : undefined,
    media_type: s.mediaType,
  });
}

const RESOURCE_HANDLED = new Set([
  'name',
  'variants',
  'pointer',
  'description',
  'plural',
  'identifier',
  'identifierSource',
  'answerMembers',
  'owner',
  'ownerAccess',
  'renamedFrom',
  'fields',
]);

function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** One resource as written in a spec. Keys the model gains later are carried over, in the spec's snake_case. */
export function resourceToSpec(r: ResourceModel): ResourceSpec {
  const out: Record<string, unknown> = clean({
    description: r.description,
    plural: r.plural,
    identifier: r.identifier,
    identifier_source: r.identifierSource !== DEFAULT_IDENTIFIER_SOURCE ? r.identifierSource : undefined,
    answer_members: r.answerMembers !== DEFAULT_ANSWER_MEMBERS ? r.answerMembers : undefined,
    owner: r.owner,
    owner_access: r.owner !== undefined || r.ownerAccess !== 'hidden' ? r.ownerAccess : undefined,
    // Written as the format spells it (as a field's is), not in the resource keys' snake_case.
    renamedFrom: earlierNamesToSpec(r.renamedFrom),
  });
  for (const [k, v] of Object.entries(r)) {
    if (RESOURCE_HANDLED.has(k) || v === undefined || v === false || (Array.isArray(v) && v.length === 0)) continue;
    out[snakeCase(k)] = Array.isArray(v) ? [...(v as unknown[])] : v;
  }
  if (r.variants === undefined) out.fields = fieldsToSpec(r.fields);
  else {
    // A resource of several shapes: its shared fields (not the tag, which it holds itself, nor a variant's), then its
    // variants as a union's are written (the tag left out where it is the variant's name).
    out.fields = fieldsToSpec(getDeclaredFields(r));
    Object.assign(out, unionToSpec({ ...r.variants, variants: r.variants.variants }));
  }
  return out as ResourceSpec;
}

const TRANSITION_BOOKKEEPING = new Set(['name', 'pointer', 'from', 'requires']);

export function stateMachineToSpec(m: StateMachineModel): StateMachineSpec {
  const declared = m.states.some((s) => s.declared);
  const transitions: NonNullable<StateMachineSpec['transitions']> = {};
  for (const t of m.transitions) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(t)) if (!TRANSITION_BOOKKEEPING.has(k) && v !== undefined) out[k] = v;
    out.from = t.from.length === 1 ? t.from[0] : [...t.from];
    if (t.requires.length > 0) out.requires = [...t.requires];
    transitions[t.name] = out as unknown as NonNullable<StateMachineSpec['transitions']>[string];
  }
  const terminal = m.states.filter((s) => s.terminal).map((s) => s.name);
  return clean<StateMachineSpec>({
    field: m.field,
    initial: m.initial,
    // Written out when declared, and when empty (`states: {}` names no state, unlike leaving `states` out).
    states:
      declared || m.states.length === 0
        ? Object.fromEntries(m.states.map((s) => [s.name, clean({ description: s.description, terminal: s.terminal ? true : undefined })]))
        : undefined,
    terminal: terminal.length > 0 ? terminal : undefined,
    transitions: m.transitions.length > 0 ? transitions : undefined,
  });
}

function requirementToSpec(r: AuthRequirement): 'none' | OperationAuthSpec {
  return r.kind === 'none' ? 'none' : { schemes: [...r.schemes], scopes: [...r.scopes] };
}

/** A list's paging as a spec writes it: the keys that differ from the format's default; undefined when the spec states none. */
export function pagingToSpec(p: PagingModel | undefined): PagingSpec | undefined {
  if (!p?.declared) return undefined;
  const array = p.body === 'array';
  return clean<PagingSpec>({
    style: p.style !== DEFAULT_PAGING.style ? p.style : undefined,
    body: array ? p.body : undefined,
    items: !array && p.items !== DEFAULT_PAGING.items ? p.items : undefined,
    next: !array && p.style === 'cursor' && p.next !== DEFAULT_PAGING.next ? (p.next ?? false) : undefined,
    next_optional: p.nextOptional,
    total: array ? undefined : p.total,
    has_more: array ? undefined : p.hasMore,
    constants: array || p.constants === undefined ? undefined : { ...p.constants },
    url: array ? undefined : p.url,
    next_link: array ? undefined : p.nextLink,
    previous_link: array ? undefined : p.previousLink,
    first_page: p.firstPage,
    members: array ? undefined : pageMembersToSpec(p),
    total_header: p.totalHeader,
    link: p.link ? true : undefined,
    params: pagingParamsToSpec(p),
    page_size: p.pageSize ? clean({ default: p.pageSize.default, max: p.pageSize.max, over_max: p.pageSize.overMax }) : undefined,
  });
}

/** A page's members as a spec writes them: one path a role, or the list of its paths. */
function pageMembersToSpec(p: PagingModel): PageMembersSpec | undefined {
  if (p.members === undefined) return undefined;
  const out: Partial<Record<PageMemberRole, string[]>> = {};
  for (const m of p.members) (out[m.role] ??= []).push(m.path.join('.'));
  return Object.fromEntries(Object.entries(out).map(([role, paths]) => [role, paths.length === 1 ? paths[0]! : paths])) as PageMembersSpec;
}

/** The paging parameters a spec names, by role: those whose name differs from the format's default for the style. */
function pagingParamsToSpec(p: PagingModel): PagingParamsSpec | undefined {
  const out: PagingParamsSpec = {};
  for (const [role, name] of Object.entries(p.params) as [PagingRole, string][])
    if (name !== getPagingParamName({ style: p.style, params: {} }, role)) out[role] = name;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** A response envelope as written: the data field, the fields, and the field carrying each value. */
export function envelopeToSpec(e: EnvelopeModel): EnvelopeSpec {
  const out: EnvelopeSpec = { data: e.data };
  if (e.fields.length > 0) out.fields = fieldsToSpec(e.fields);
  for (const v of e.values) out[v.source] = v.path.join('.');
  return out;
}

export function operationToSpec(o: OperationModel): OperationSpec {
  return clean<OperationSpec>({
    method: o.method,
    path: o.path,
    action: o.action,
    resource: o.resource,
    transition: o.transition,
    summary: o.summary,
    description: o.description,
    filter: o.filter.length > 0 ? [...o.filter] : undefined,
    required_filters: o.requiredFilters !== undefined ? [...o.requiredFilters] : undefined,
    // A field sorted one way only is written with its direction (`+created_at`, `-score`).
    sort:
      o.sort.length > 0
        ? o.sort.map((f) => {
            const up = o.sortValues.includes(f);
            const down = o.sortValues.includes(`-${f}`);
            return up && down ? f : up ? `+${f}` : `-${f}`;
          })
        : undefined,
    sort_param: o.sortParam,
    request_fields: o.requestFields ? [...o.requestFields] : undefined,
    request_media_type: o.requestMediaType,
    location: o.location,
    unknown_fields: o.unknownFields,
    upsert: o.upsert,
    if_match: o.ifMatch,
    answer_fields: o.answerFields ? [...o.answerFields] : undefined,
    paging: pagingToSpec(o.paging),
    query: parametersToSpec(o.query),
    headers: parametersToSpec(o.headers),
    response_headers: parametersToSpec(o.responseHeaders),
    status: o.statusDeclared ? (o.statusRange ?? o.status) : undefined,
    request: o.takesNoBody ? 'none' : o.request ? shapeToSpec(o.request) : undefined,
    response: o.response ? shapeToSpec(o.response) : undefined,
    handler: o.handler,
    auth: o.authDeclared === 'operation' && o.auth ? requirementToSpec(o.auth) : undefined,
    errors: o.errors.length > 0 ? [...o.errors] : undefined,
    idempotent: o.idempotent,
    deprecated: o.deprecated ? true : undefined,
    examples: o.examples ? examplesToSpec(o.examples) : undefined,
    callbacks: o.callbacks
      ? Object.fromEntries(o.callbacks.map((c) => [c.name, clean<CallbackSpec>({ url: c.url, events: [...c.events], description: c.description })]))
      : undefined,
    envelope: o.envelopeDeclared === undefined ? undefined : o.envelopeDeclared === 'none' ? 'none' : envelopeToSpec(o.envelopeDeclared),
    request_envelope: o.requestEnvelope ? { data: o.requestEnvelope.data } : undefined,
  });
}

function namedToSpec(list: readonly NamedExampleModel[]): Record<string, NamedExampleSpec> | undefined {
  if (list.length === 0) return undefined;
  return Object.fromEntries(list.map((e) => [e.name, clean<NamedExampleSpec>({ summary: e.summary, description: e.description, value: e.value })]));
}

function examplesToSpec(e: OperationExamplesModel): OperationExamplesSpec {
  return clean<OperationExamplesSpec>({
    request: namedToSpec(e.request),
    response: namedToSpec(e.response),
    parameters: e.parameters.length > 0 ? Object.fromEntries(e.parameters.map((p) => [p.name, namedToSpec(p.examples) ?? {}])) : undefined,
  });
}

const SCHEME_HANDLED = new Set([
  'name',
  'pointer',
  'type',
  'description',
  'in',
  'credentialName',
  'prefix',
  'token',
  'algorithms',
  'issuer',
  'audience',
  'lifetime',
  'clockTolerance',
  'tokenPath',
]);

/** One scheme as written in a spec. Keys the model gains later are carried over (snake_case, durations as text). */
export function schemeToSpec(s: SchemeModel): SchemeSpec {
  const out: Record<string, unknown> = clean({
    type: s.type,
    description: s.description,
    in: s.in,
    name: s.credentialName,
    prefix: s.prefix,
    token: s.token,
    algorithms: s.algorithms ? [...s.algorithms] : undefined,
    issuer: s.issuer,
    audience: s.audience,
    lifetime: s.lifetime?.text,
    clock_tolerance: s.clockTolerance?.text,
    token_path: s.tokenPath,
  });
  for (const [k, v] of Object.entries(s)) {
    if (SCHEME_HANDLED.has(k) || v === undefined) continue;
    out[snakeCase(k)] = isDuration(v) ? v.text : Array.isArray(v) ? v.map((x: unknown) => (isDuration(x) ? x.text : x)) : v;
  }
  return out as unknown as SchemeSpec;
}

export function authenticationToSpec(model: ServiceModel): AuthenticationSpec | undefined {
  const a = model.authentication;
  if (!a) return undefined;
  return clean<AuthenticationSpec>({
    schemes: a.schemes.length > 0 ? Object.fromEntries(a.schemes.map((s) => [s.name, schemeToSpec(s)])) : undefined,
    scopes: a.scopes.length > 0 ? Object.fromEntries(a.scopes.map((s) => [s.name, s.description])) : undefined,
    default: a.default ? requirementToSpec(a.default) : undefined,
  });
}

export function eventKindToSpec(k: EventKindModel): EventKindSpec {
  const on = k.triggers.filter((t) => t.action !== 'transition');
  const resource = on[0]?.resource;
  return clean<EventKindSpec>({
    description: k.description,
    payload: k.payload ? shapeToSpec(k.payload) : undefined,
    body: k.body,
    resource: resource !== undefined && resource !== k.payload?.resource ? resource : undefined,
    on: on.length > 0 ? on.map((t) => t.action as 'create' | 'update' | 'delete') : undefined,
  });
}

function isDuration(v: unknown): v is { text: string; ms: number } {
  return typeof v === 'object' && v !== null && typeof (v as { text?: unknown }).text === 'string' && typeof (v as { ms?: unknown }).ms === 'number';
}

/** A delivery mechanism as written: durations as their text, every other key as it is (keys added later too). */
function plainDelivery(d: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(d)) {
    if (v === undefined) continue;
    if (isDuration(v)) out[k] = v.text;
    else if (Array.isArray(v)) out[k] = v.map((x: unknown) => (isDuration(x) ? x.text : x));
    else out[k] = v;
  }
  return out;
}

export function eventsToSpec(model: ServiceModel): EventsSpec | undefined {
  const e = model.events;
  if (!e) return undefined;
  const delivery = clean<NonNullable<EventsSpec['delivery']>>({
    webhook: e.webhook ? (plainDelivery(e.webhook) as NonNullable<EventsSpec['delivery']>['webhook']) : undefined,
    stream: e.stream ? (plainDelivery(e.stream) as NonNullable<EventsSpec['delivery']>['stream']) : undefined,
    broker: e.broker
      ? clean<NonNullable<NonNullable<EventsSpec['delivery']>['broker']>>({
          nats: e.broker.nats ? clean({ subject: e.broker.nats.subject, stream: e.broker.nats.stream }) : undefined,
          amqp: e.broker.amqp ? { exchange: e.broker.amqp.exchange, routing_key: e.broker.amqp.routingKey } : undefined,
        })
      : undefined,
  });
  return clean<EventsSpec>({
    delivery: Object.keys(delivery).length > 0 ? delivery : undefined,
    kinds: e.kinds.length > 0 ? Object.fromEntries(e.kinds.map((k) => [k.name, eventKindToSpec(k)])) : undefined,
  });
}

export function errorsToSpec(model: ServiceModel): ErrorsSpec | undefined {
  const e = model.errors;
  if (!e) return undefined;
  return clean<ErrorsSpec>({
    body:
      e.body === undefined
        ? undefined
        : e.body.kind === 'problem'
          ? 'problem'
          : clean({
              fields: fieldsToSpec(e.body.fields),
              code: e.body.code,
              status: e.body.status,
              message: e.body.message,
              media_type: e.body.mediaType,
              code_values: e.body.codeValues,
              answer_members: e.body.answerMembers !== DEFAULT_ANSWER_MEMBERS ? e.body.answerMembers : undefined,
            }),
    headers: parametersToSpec(e.headers),
    codes:
      e.codes.length > 0
        ? Object.fromEntries(
            e.codes.map((c) => [
              c.name,
              clean({
                status: c.statusRange ?? c.status,
                headers: parametersToSpec(c.headers),
                title: c.title,
                description: c.description,
                when: c.when.length > 0 ? [...c.when] : undefined,
              }),
            ]),
          )
        : undefined,
  });
}

function sizeToSpec(s: Size): string | number {
  return /^[0-9]+(B|KB|KiB|MB|MiB|GB|GiB)$/.test(s.text) ? s.text : s.bytes;
}

export function rateLimitToSpec(r: RateLimitModel): RateLimitSpec {
  return clean<RateLimitSpec>({
    name: r.name,
    requests: r.requests,
    per: r.per.text,
    by: r.by,
    operations: r.operations ? [...r.operations] : undefined,
    on_store_failure: r.onStoreFailure,
  });
}

export function limitsToSpec(model: ServiceModel): LimitsSpec | undefined {
  const l = model.limits;
  if (!l) return undefined;
  return clean<LimitsSpec>({
    rate: l.rate.length > 0 ? l.rate.map(rateLimitToSpec) : undefined,
    body_size: l.bodySize ? sizeToSpec(l.bodySize) : undefined,
    header_size: l.headerSize ? sizeToSpec(l.headerSize) : undefined,
    nesting_depth: l.nestingDepth,
    page_size: l.pageSize ? clean({ default: l.pageSize.default, max: l.pageSize.max, over_max: l.pageSize.overMax }) : undefined,
    timeout: l.timeout?.text,
    concurrency: l.concurrency,
    failed_auth: l.failedAuth ? { attempts: l.failedAuth.attempts, per: l.failedAuth.per.text } : undefined,
  });
}

export function placementToSpec(p: VersionPlacementModel): VersionPlacement {
  switch (p.kind) {
    case 'header':
      return { header: p.name };
    case 'path':
      return { path: p.template };
    case 'query':
      return { query: p.name };
    case 'media_type':
      return { media_type: p.template };
  }
}

function changeToSpec(c: VersionChangeModel): VersionChangeSpec {
  const out: Mutable<VersionChangeSpec> = {};
  if (c.kind === 'rename_field') out.rename_field = { resource: c.resource ?? '', from: c.from ?? '', to: c.to ?? '' };
  if (c.kind === 'add_field') out.add_field = { resource: c.resource ?? '', field: c.field ?? '' };
  if (c.kind === 'remove_field') out.remove_field = { resource: c.resource ?? '', field: c.field ?? '' };
  if (c.description !== undefined) out.description = c.description;
  return out;
}

function supportedToSpec(s: SupportedVersionModel): SupportedVersionSpec {
  return clean<SupportedVersionSpec>({
    version: s.version,
    changes: s.changes.length > 0 ? s.changes.map(changeToSpec) : undefined,
    deprecated: s.deprecated,
    sunset: s.sunset,
  });
}

export function versioningToSpec(model: ServiceModel): VersioningSpec | undefined {
  const v = model.versioning;
  if (!v) return undefined;
  return clean<VersioningSpec>({
    scheme: v.scheme,
    current: v.current,
    placement: v.placement ? placementToSpec(v.placement) : undefined,
    default: v.default,
    supported: v.supported.length > 0 ? v.supported.map(supportedToSpec) : undefined,
    compatibility: v.compatibility.length > 0 ? [...v.compatibility] : undefined,
  });
}

/**
 * The named shapes the model's parts (or those given) were written out from (docs/format.md, "Named shapes"), as in
 * a spec: each once, in the order first met, its own uses of shapes by name. Undefined when there are none.
 */
export function namedShapesToSpec(
  model: ServiceModel,
  parts: readonly unknown[] = [model.resources, model.endpoints, model.events, model.errors],
): Record<string, NamedShapeSpec> | undefined {
  const out: Record<string, NamedShapeSpec> = {};
  const seen = new Set<object>();
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    const name = getNamedShape(node);
    if (name !== undefined && out[name] === undefined) {
      const content = Array.isArray(node) ? { fields: fieldsToSpec(node as readonly FieldModel[]) } : unionToSpec(node as UnionModel);
      const description = getNamedShapeDescription(node);
      out[name] = description === undefined ? content : { description, ...content };
    }
    for (const v of Array.isArray(node) ? node : Object.values(node)) visit(v);
  };
  for (const part of parts) visit(part);
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The whole model as a spec document: building a model from it gives the same model (pointers aside). */
export function modelToSpec(model: ServiceModel): SpecDocument {
  const doc: SpecDocument = { servicespec: 1 };
  const p = model.purpose;
  if (model.present.purpose && p) {
    doc.purpose = clean({
      name: p.name,
      summary: p.summary,
      description: p.description,
      scope:
        p.includes !== undefined || p.excludes !== undefined
          ? clean({ includes: p.includes ? [...p.includes] : undefined, excludes: p.excludes ? [...p.excludes] : undefined })
          : undefined,
      audience: p.audience ? [...p.audience] : undefined,
      contact: p.contact ? clean({ ...p.contact }) : undefined,
    });
  }
  if (model.present.resources) doc.resources = Object.fromEntries(model.resources.map((r) => [r.name, resourceToSpec(r)]));
  if (model.present.states) doc.states = Object.fromEntries(model.stateMachines.map((m) => [m.resource, stateMachineToSpec(m)]));
  const e = model.endpoints;
  if (model.present.endpoints && e) {
    doc.endpoints = clean({
      base_url: e.baseUrl,
      idempotency: e.idempotency ? clean({ header: e.idempotency.header, retention: e.idempotency.retention?.text }) : undefined,
      envelope: e.envelope ? envelopeToSpec(e.envelope) : undefined,
      operations: e.operations.length > 0 ? Object.fromEntries(e.operations.map((o) => [o.id, operationToSpec(o)])) : undefined,
    });
  }
  if (model.present.authentication) doc.authentication = authenticationToSpec(model);
  if (model.present.events) doc.events = eventsToSpec(model);
  if (model.present.errors) doc.errors = errorsToSpec(model);
  if (model.present.limits) doc.limits = limitsToSpec(model);
  if (model.present.versioning) doc.versioning = versioningToSpec(model);
  const shapes = namedShapesToSpec(model);
  if (shapes) doc.shapes = shapes;
  return doc;
}
