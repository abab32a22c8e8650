import { joinPointer } from '../util/util-json-pointer.js';
import { parseDuration, parseSize } from '../util/util-units.js';
import {
  CONDITIONS,
  PART_NAMES,
  type Condition,
  type FieldSpec,
  type NamedExampleSpec,
  type OperationAuthSpec,
  type PageMembersSpec,
  type ParameterSpec,
  type PartName,
  type ShapeSpec,
  type SpecDocument,
  type VariantSpec,
  type VersionChangeSpec,
} from '../spec/spec-types.js';
import type {
  AuthRequirement,
  CallbackModel,
  Duration,
  EventKindModel,
  EventTriggerModel,
  FieldModel,
  NamedExampleModel,
  OperationModel,
  PageMemberModel,
  PagingModel,
  ParameterModel,
  ResourceModel,
  ServiceModel,
  ShapeModel,
  StateMachineModel,
  StateModel,
  UnionModel,
  ResourceVariantModel,
  ResourceVariantsModel,
  VariantModel,
  VersionChangeModel,
  VersionPlacementModel,
} from './model-types.js';
import { noteNamedShape } from './model-named-shapes.js';
import { getShapeDescriptionOf, getShapeOf } from '../spec/spec-shapes.js';
import { buildEnvelope, resolveEnvelope } from './model-envelope.js';
import {
  DEFAULT_IDENTIFIER_FIELD,
  DEFAULT_ANSWER_MEMBERS,
  DEFAULT_IDENTIFIER_SOURCE,
  DEFAULT_PAGING,
  PAGE_MEMBER_ROLES,
  getDefaultSuccessStatus,
  getRangeStatus,
  isDefaultIdentifier,
} from './model-defaults.js';

/** One frozen empty list for every empty list of the model (most operations have no parameters, filters, errors). */
const EMPTY: readonly never[] = Object.freeze([]);

function entries<T>(record: Record<string, T> | undefined): [string, T][] {
  return record ? Object.entries(record) : [];
}

/** `paging.members` as the model holds them: one entry per path, roles in the format's order; undefined when none. */
function buildPageMembers(spec: PageMembersSpec | undefined): readonly PageMemberModel[] | undefined {
  if (spec === undefined) return undefined;
  const out: PageMemberModel[] = [];
  for (const role of PAGE_MEMBER_ROLES) {
    const named = spec[role];
    if (named === undefined) continue;
    for (const path of typeof named === 'string' ? [named] : named) out.push(Object.freeze({ role, path: Object.freeze(path.split('.')) }));
  }
  return out.length > 0 ? Object.freeze(out) : undefined;
}

/** A copy without the undefined keys (a copy, not `delete`: deleting keys leaves V8 objects slow to read). */
function omitUndefined<T extends object>(value: T): T {
  const out = {} as T;
  for (const k in value) if (value[k] !== undefined) out[k] = value[k];
  return out;
}

function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
      Object.freeze(v);
      if (Array.isArray(v)) {
        for (const child of v) if (child !== null && typeof child === 'object') stack.push(child);
      } else {
        for (const k in v) {
          const child = (v as Record<string, unknown>)[k];
          if (child !== null && typeof child === 'object') stack.push(child);
        }
      }
    }
  }
  return value;
}

function duration(text: string | undefined): Duration | undefined {
  return text === undefined ? undefined : parseDuration(text);
}

/** Freezes a value taken from the document (a default, an example) with all it holds. */
function freezeValue(value: unknown): unknown {
  return value !== null && typeof value === 'object' ? deepFreeze(value) : value;
}

/**
 * A field, deeply frozen as it is built (bottom-up, so `deepFreeze` of the model skips it): fields are most of a
 * model's objects. Keys in the order of the interface, absent rather than undefined.
 */
export function buildField(name: string, spec: FieldSpec, pointer: string): FieldModel {
  const has = (k: string) => Object.prototype.hasOwnProperty.call(spec, k);
  const f: { -readonly [K in keyof FieldModel]?: FieldModel[K] } = { name, pointer, type: spec.type };
  if (spec.description !== undefined) f.description = spec.description;
  f.optional = spec.optional ?? false;
  f.nullable = spec.nullable === true || spec.nullable === 'answers';
  if (spec.nullable === 'answers') f.nullableInAnswersOnly = true;
  f.readOnly = spec.readOnly ?? false;
  f.writeOnce = spec.writeOnce ?? false;
  if (spec.writeOnly === true) f.writeOnly = true;
  if (spec.generated !== undefined) f.generated = spec.generated;
  f.unique = spec.unique ?? false;
  f.hasDefault = has('default');
  if (spec.default !== undefined) f.default = freezeValue(spec.default);
  if (spec.source === 'service') f.source = 'service';
  if (spec.requiredInRequests === true) f.requiredInRequests = true;
  if (spec.optionalInRequests === true || spec.optionalInRequests === 'create') f.optionalInRequests = spec.optionalInRequests;
  f.hasExample = has('example');
  if (spec.example !== undefined) f.example = freezeValue(spec.example);
  if (spec.minLength !== undefined) f.minLength = spec.minLength;
  if (spec.maxLength !== undefined) f.maxLength = spec.maxLength;
  if (spec.pattern !== undefined) f.pattern = spec.pattern;
  if (spec.minimum !== undefined) f.minimum = spec.minimum;
  if (spec.maximum !== undefined) f.maximum = spec.maximum;
  if (spec.exclusiveMinimum !== undefined) f.exclusiveMinimum = spec.exclusiveMinimum;
  if (spec.exclusiveMaximum !== undefined) f.exclusiveMaximum = spec.exclusiveMaximum;
  if (spec.multipleOf !== undefined) f.multipleOf = spec.multipleOf;
  if (spec.minItems !== undefined) f.minItems = spec.minItems;
  if (spec.maxItems !== undefined) f.maxItems = spec.maxItems;
  if (spec.uniqueItems !== undefined) f.uniqueItems = spec.uniqueItems;
  if (spec.values) f.values = Object.freeze([...spec.values]);
  if (spec.to !== undefined) f.to = spec.to;
  if (spec.items) f.items = buildField('items', spec.items, joinPointer(pointer, 'items'));
  if (spec.fields) f.fields = buildFields(spec.fields, joinPointer(pointer, 'fields'));
  if (spec.renamedFrom !== undefined) f.renamedFrom = earlierNames(spec.renamedFrom);
  if (spec.variants || spec.discriminator !== undefined) f.union = buildUnion(spec.discriminator, spec.variants ?? {}, pointer);
  return Object.freeze(f) as FieldModel;
}

/** A union's variants in the order written; each tag is the variant's name unless it says otherwise (a format default). */
function buildUnion(discriminator: string | undefined, variants: Record<string, VariantSpec>, pointer: string): UnionModel {
  const at = joinPointer(pointer, 'variants');
  const out: VariantModel[] = [];
  for (const [name, v] of entries(variants)) {
    const vp = joinPointer(at, name);
    const m: { -readonly [K in keyof VariantModel]?: VariantModel[K] } = { name, pointer: vp };
    if (v.description !== undefined) m.description = v.description;
    // Untagged, a `tag` is kept so that check can say it has no discriminator to hold it.
    const tag = v.tag ?? (discriminator !== undefined ? name : undefined);
    if (tag !== undefined) m.tag = tag;
    m.fields = buildFields(v.fields ?? {}, joinPointer(vp, 'fields'));
    out.push(Object.freeze(m) as VariantModel);
  }
  const union = Object.freeze(omitUndefined<UnionModel>({ discriminator, variants: Object.freeze(out) }));
  const shape = getShapeOf(variants);
  if (shape !== undefined) noteNamedShape(union, shape, getShapeDescriptionOf(variants));
  return union;
}

/** A resource's variants in the order written; each tag is the variant's name unless it says otherwise (a format default). */
function buildResourceVariants(discriminator: string | undefined, variants: Record<string, VariantSpec>, pointer: string): ResourceVariantsModel {
  const at = joinPointer(pointer, 'variants');
  const out = entries(variants).map(([name, v]) => {
    const vp = joinPointer(at, name);
    return Object.freeze(
      omitUndefined<ResourceVariantModel>({
        name,
        pointer: vp,
        description: v.description,
        tag: v.tag ?? name,
        fields: buildFields(v.fields ?? {}, joinPointer(vp, 'fields')),
      }),
    );
  });
  return Object.freeze(omitUndefined<ResourceVariantsModel>({ discriminator, variants: Object.freeze(out) }));
}

/**
 * One table's fields for a resource of several shapes (single-table inheritance): the shared fields, then the tag (a
 * required enum of the tags, written once: the create says which variant an object is, and nothing changes it), then
 * each variant's own fields, once per name (the first variant's definition; check refuses two that differ), marked
 * with the variants holding them. A name the shared fields hold already is left to them (check says so).
 */
function flattenVariants(shared: readonly FieldModel[], u: ResourceVariantsModel, pointer: string): readonly FieldModel[] {
  const out: FieldModel[] = [...shared];
  const taken = new Set(shared.map((f) => f.name));
  if (u.discriminator !== undefined && u.variants.length > 0 && !taken.has(u.discriminator)) {
    out.push(
      Object.freeze<FieldModel>({
        name: u.discriminator,
        pointer: joinPointer(pointer, 'discriminator'),
        type: 'enum',
        optional: false,
        nullable: false,
        readOnly: false,
        writeOnce: true,
        unique: false,
        hasDefault: false,
        hasExample: false,
        values: Object.freeze([...new Set(u.variants.map((v) => v.tag))]),
      }),
    );
    taken.add(u.discriminator);
  }
  const own = new Map<string, number>();
  for (const v of u.variants)
    for (const f of v.fields) {
      if (taken.has(f.name)) continue;
      const i = own.get(f.name);
      if (i === undefined) {
        own.set(f.name, out.length);
        out.push(Object.freeze({ ...f, ofVariants: Object.freeze([v.name]) }));
      } else out[i] = Object.freeze({ ...out[i]!, ofVariants: Object.freeze([...out[i]!.ofVariants!, v.name]) });
    }
  return Object.freeze(out);
}

function buildParameters(params: Record<string, ParameterSpec> | undefined, where: ParameterModel['in'], pointer: string): readonly ParameterModel[] {
  if (params === undefined) return EMPTY;
  return Object.freeze(
    entries(params).map(([n, p]) => Object.freeze({ ...buildField(n, p, joinPointer(pointer, n)), in: where, deprecated: p.deprecated ?? false })),
  ) as ParameterModel[];
}

/** `renamedFrom` as the model holds it: one name or several, each once, in the spec's order. */
function earlierNames(names: string | readonly string[]): readonly string[] {
  return Object.freeze([...new Set(typeof names === 'string' ? [names] : names)]);
}

function buildFields(fields: Record<string, FieldSpec>, pointer: string): FieldModel[] {
  const out: FieldModel[] = [];
  for (const n in fields) if (Object.hasOwn(fields, n)) out.push(buildField(n, fields[n]!, joinPointer(pointer, n)));
  const shape = getShapeOf(fields);
  if (shape !== undefined) noteNamedShape(out, shape, getShapeDescriptionOf(fields));
  return Object.freeze(out) as FieldModel[];
}

function buildShape(shape: ShapeSpec | undefined, pointer: string): ShapeModel | undefined {
  if (!shape) return undefined;
  return Object.freeze(
    omitUndefined<ShapeModel>({
      resource: shape.resource,
      fields: shape.fields ? buildFields(shape.fields, joinPointer(pointer, 'fields')) : undefined,
      union: shape.variants || shape.discriminator !== undefined ? buildUnion(shape.discriminator, shape.variants ?? {}, pointer) : undefined,
      list: shape.list ?? false,
      mediaType: shape.media_type,
    }),
  );
}

/** An operation that names only scopes takes the default's schemes; with no default, every declared scheme. */
function buildRequirement(spec: 'none' | OperationAuthSpec, allSchemes: readonly string[], fallback?: AuthRequirement): AuthRequirement {
  if (spec === 'none') return Object.freeze({ kind: 'none' });
  const schemes = spec.schemes ?? (fallback?.kind === 'required' ? fallback.schemes : allSchemes);
  return Object.freeze({ kind: 'required', schemes: Object.freeze([...schemes]), scopes: Object.freeze(spec.scopes ? [...spec.scopes] : []) });
}

/** The `{name}`s of a path template, in order: what `/\{([^{}]*)\}/g` matches, without a regex. */
export function getPathParams(path: string): string[] {
  const out: string[] = [];
  let open = path.indexOf('{');
  while (open >= 0) {
    let i = open + 1;
    while (i < path.length && path.charCodeAt(i) !== 123 && path.charCodeAt(i) !== 125) i++;
    if (i >= path.length) break;
    // A `}` closes the name; another `{` starts over from there.
    if (path.charCodeAt(i) === 125) {
      out.push(path.slice(open + 1, i));
      open = path.indexOf('{', i + 1);
    } else open = i;
  }
  return out;
}

function buildChange(change: VersionChangeSpec): VersionChangeModel {
  if (change.rename_field) return omitUndefined<VersionChangeModel>({ kind: 'rename_field', ...change.rename_field, description: change.description });
  if (change.add_field) return omitUndefined<VersionChangeModel>({ kind: 'add_field', ...change.add_field, description: change.description });
  if (change.remove_field) return omitUndefined<VersionChangeModel>({ kind: 'remove_field', ...change.remove_field, description: change.description });
  return omitUndefined<VersionChangeModel>({ kind: 'other', description: change.description });
}

/**
 * Builds the frozen model from a document that passed structural validation. References are
 * resolved by name; the checker reports the ones that do not resolve.
 */
export function buildModel(doc: SpecDocument, file = '<input>'): ServiceModel {
  const present = Object.fromEntries(PART_NAMES.map((p) => [p, doc[p] !== undefined])) as Record<PartName, boolean>;

  const resources: ResourceModel[] = entries(doc.resources).map(([name, r]) => {
    const pointer = joinPointer('/resources', name);
    const shared = buildFields(r.fields ?? {}, joinPointer(pointer, 'fields'));
    const variants = r.variants || r.discriminator !== undefined ? buildResourceVariants(r.discriminator, r.variants ?? {}, pointer) : undefined;
    const fields = variants ? flattenVariants(shared, variants, pointer) : shared;
    const identifier = r.identifier ?? (fields.some((f) => isDefaultIdentifier(f)) ? DEFAULT_IDENTIFIER_FIELD : undefined);
    return omitUndefined<ResourceModel>({
      name,
      pointer,
      description: r.description,
      plural: r.plural,
      identifier,
      identifierSource: r.identifier_source ?? DEFAULT_IDENTIFIER_SOURCE,
      answerMembers: r.answer_members ?? DEFAULT_ANSWER_MEMBERS,
      etag: r.etag === true ? true : undefined,
      owner: r.owner,
      ownerAccess: r.owner_access ?? 'hidden',
      ownerOverrideScopes: r.owner_override_scopes ? [...r.owner_override_scopes] : [],
      uniqueKeys: r.unique_keys ? Object.freeze(r.unique_keys.map((k) => Object.freeze([...k]))) : undefined,
      parent: r.parent,
      renamedFrom: r.renamedFrom === undefined ? undefined : earlierNames(r.renamedFrom),
      fields,
      variants,
    });
  });

  const stateMachines: StateMachineModel[] = entries(doc.states).map(([resource, m]) => {
    const pointer = joinPointer('/states', resource);
    const states = new Map<string, StateModel>();
    const terminalList = new Set(m.terminal ?? []);
    for (const [name, s] of entries(m.states)) {
      states.set(name, omitUndefined<StateModel>({ name, description: s.description, terminal: s.terminal ?? terminalList.has(name), declared: true }));
    }
    const mention = (name: string) => {
      if (!states.has(name)) states.set(name, { name, terminal: terminalList.has(name), declared: false });
    };
    // When `states` is not written out, the states are the ones the machine names.
    if (!m.states) {
      if (m.initial !== undefined) mention(m.initial);
      for (const t of Object.values(m.transitions ?? {})) {
        for (const f of [t.from].flat()) mention(f);
        mention(t.to);
      }
      for (const t of terminalList) mention(t);
    }
    const transitions = entries(m.transitions).map(([name, t]) =>
      omitUndefined({
        name,
        pointer: joinPointer(joinPointer(pointer, 'transitions'), name),
        description: t.description,
        from: [t.from].flat(),
        to: t.to,
        requires: t.requires ? [...t.requires] : [],
        emits: t.emits,
        stamp: t.stamp,
      }),
    );
    return omitUndefined<StateMachineModel>({
      resource,
      pointer,
      field: m.field,
      initial: m.initial,
      states: [...states.values()],
      transitions,
      removedStates: m.removed_states ? { ...m.removed_states } : undefined,
    });
  });

  const schemeNames = Object.keys(doc.authentication?.schemes ?? {});
  const defaultAuth = doc.authentication?.default !== undefined ? buildRequirement(doc.authentication.default, schemeNames) : undefined;

  // Each operation deeply frozen as it is built (its parts are: parameters, shapes, requirements), as fields are.
  const frozenList = <T>(list: readonly T[] | undefined): readonly T[] => (list && list.length > 0 ? Object.freeze([...list]) : EMPTY);
  const endpointsEnvelope = doc.endpoints?.envelope ? buildEnvelope(doc.endpoints.envelope, '/endpoints/envelope', buildFields) : undefined;
  const operations: OperationModel[] = entries(doc.endpoints?.operations).map(([id, o]) => {
    const pointer = joinPointer('/endpoints/operations', id);
    const auth = o.auth !== undefined ? buildRequirement(o.auth, schemeNames, defaultAuth) : defaultAuth;
    // Keys in the order of the interface, absent rather than undefined.
    const op: { -readonly [K in keyof OperationModel]?: OperationModel[K] } = {
      id,
      pointer,
      method: o.method,
      path: o.path,
      pathParams: o.path.includes('{') ? Object.freeze(getPathParams(o.path)) : EMPTY,
      action: o.action,
    };
    if (o.resource !== undefined) op.resource = o.resource;
    if (o.transition !== undefined) op.transition = o.transition;
    if (o.summary !== undefined) op.summary = o.summary;
    if (o.description !== undefined) op.description = o.description;
    op.filter = frozenList(o.filter);
    if (o.required_filters !== undefined && o.required_filters.length > 0) op.requiredFilters = Object.freeze([...o.required_filters]);
    // `name` sorts both ways; `+name` ascending only, `-name` descending only (an OpenAPI enum listing `name, -name, created_at`).
    const sortEntries = o.sort ?? [];
    op.sort = sortEntries.length === 0 ? EMPTY : Object.freeze([...new Set(sortEntries.map((s) => s.replace(/^[+-]/, '')))]);
    op.sortValues =
      sortEntries.length === 0
        ? EMPTY
        : Object.freeze([...new Set(sortEntries.flatMap((s) => (s.startsWith('+') ? [s.slice(1)] : s.startsWith('-') ? [s] : [s, `-${s}`])))]);
    if (o.sort_param !== undefined) op.sortParam = o.sort_param;
    if (o.request_fields !== undefined) op.requestFields = Object.freeze([...o.request_fields]);
    if (o.answer_fields !== undefined) op.answerFields = Object.freeze([...o.answer_fields]);
    if (o.request_media_type !== undefined) op.requestMediaType = o.request_media_type;
    if (o.location !== undefined) op.location = o.location;
    if (o.unknown_fields !== undefined) op.unknownFields = o.unknown_fields;
    if (o.upsert === true) op.upsert = true;
    if (o.if_match === 'required') op.ifMatch = 'required';
    if (o.action === 'list') {
      const p = o.paging ?? {};
      // An array body has no fields: the envelope's names stay the defaults, unused (check refuses them stated).
      op.paging = Object.freeze({
        ...DEFAULT_PAGING,
        ...(omitUndefined({
          style: p.style,
          body: p.body,
          items: p.items,
          next: p.next === false ? undefined : p.next,
          nextOptional: p.next_optional === true ? true : undefined,
          total: p.total,
          totalHeader: p.total_header,
          hasMore: p.has_more,
          constants: p.constants !== undefined && Object.keys(p.constants).length > 0 ? Object.freeze({ ...p.constants }) : undefined,
          url: p.url,
          nextLink: p.next_link,
          previousLink: p.previous_link,
          firstPage: p.first_page === 0 ? 0 : undefined,
          members: buildPageMembers(p.members),
          link: p.link,
        }) as Partial<PagingModel>),
        ...(p.next === false ? { next: undefined } : {}),
        params: Object.freeze({ ...(p.params ?? {}) }),
        ...(p.page_size
          ? { pageSize: Object.freeze(omitUndefined({ default: p.page_size.default, max: p.page_size.max, overMax: p.page_size.over_max })) }
          : {}),
        declared: o.paging !== undefined,
      });
    }
    op.query = o.query === undefined ? EMPTY : buildParameters(o.query, 'query', joinPointer(pointer, 'query'));
    op.headers = o.headers === undefined ? EMPTY : buildParameters(o.headers, 'header', joinPointer(pointer, 'headers'));
    if (o.bind !== undefined)
      op.bindings = Object.freeze(
        Object.entries(o.bind).map(([param, field]) =>
          Object.freeze(omitUndefined({ param, field, parent: parentOf(doc, o.resource, field), pointer: joinPointer(joinPointer(pointer, 'bind'), param) })),
        ),
      );
    op.responseHeaders = o.response_headers === undefined ? EMPTY : buildParameters(o.response_headers, 'header', joinPointer(pointer, 'response_headers'));
    op.status = typeof o.status === 'number' ? o.status : getDefaultSuccessStatus(o.action, o.response !== undefined);
    op.statusDeclared = o.status !== undefined;
    if (o.status === '2XX') op.statusRange = o.status;
    if (o.request === 'none') op.takesNoBody = true;
    else if (o.request) op.request = buildShape(o.request, joinPointer(pointer, 'request'))!;
    if (o.response) op.response = buildShape(o.response, joinPointer(pointer, 'response'))!;
    if (o.handler !== undefined) op.handler = o.handler;
    if (auth !== undefined) op.auth = auth;
    op.authDeclared = o.auth !== undefined ? 'operation' : defaultAuth ? 'default' : 'none';
    op.errors = frozenList(o.errors);
    if (o.idempotent !== undefined) op.idempotent = o.idempotent;
    op.deprecated = o.deprecated ?? false;
    if (o.examples) {
      const named = (m: Record<string, NamedExampleSpec> | undefined): readonly NamedExampleModel[] =>
        Object.freeze(
          entries(m).map(([name, e]) =>
            Object.freeze(omitUndefined<NamedExampleModel>({ name, summary: e.summary, description: e.description, value: e.value })),
          ),
        );
      const examples = {
        request: named(o.examples.request),
        response: named(o.examples.response),
        parameters: Object.freeze(entries(o.examples.parameters).map(([name, m]) => Object.freeze({ name, examples: named(m) }))),
      };
      // An empty map (`examples: {}`, `request: {}`) names no example: the same as none (OpenAPI has nowhere to keep it).
      if (examples.request.length > 0 || examples.response.length > 0 || examples.parameters.some((p) => p.examples.length > 0))
        op.examples = Object.freeze(examples);
    }
    if (o.callbacks) {
      const list = entries(o.callbacks).map(([name, c]) =>
        Object.freeze(
          omitUndefined<CallbackModel>({
            name,
            pointer: joinPointer(joinPointer(pointer, 'callbacks'), name),
            description: c.description,
            url: c.url,
            events: frozenList(c.events),
          }),
        ),
      );
      if (list.length > 0) op.callbacks = Object.freeze(list);
    }
    if (o.envelope !== undefined)
      op.envelopeDeclared = o.envelope === 'none' ? 'none' : buildEnvelope(o.envelope, joinPointer(pointer, 'envelope'), buildFields);
    const envelope = resolveEnvelope(o.action, op.envelopeDeclared, endpointsEnvelope);
    if (envelope) op.envelope = envelope;
    if (o.request_envelope !== undefined) op.requestEnvelope = Object.freeze({ data: o.request_envelope.data });
    return Object.freeze(op) as OperationModel;
  });

  // The transitions that emit each event, in machine and transition order (one pass, not one per kind).
  const emitters = new Map<string, EventTriggerModel[]>();
  for (const m of stateMachines) {
    for (const t of m.transitions) {
      if (t.emits === undefined) continue;
      const list = emitters.get(t.emits) ?? [];
      list.push({ action: 'transition', resource: m.resource, transition: t.name });
      emitters.set(t.emits, list);
    }
  }
  const kinds: EventKindModel[] = entries(doc.events?.kinds).map(([name, k]) => {
    const pointer = joinPointer('/events/kinds', name);
    const payload = buildShape(k.payload, joinPointer(pointer, 'payload'));
    const triggers: EventTriggerModel[] = [];
    const source = k.resource ?? payload?.resource;
    if (source !== undefined) for (const action of k.on ?? []) triggers.push({ action, resource: source });
    for (const t of emitters.get(name) ?? []) triggers.push({ ...t });
    return omitUndefined<EventKindModel>({ name, pointer, description: k.description, payload, body: k.body, triggers });
  });

  const codes = entries(doc.errors?.codes).map(([name, c]) =>
    omitUndefined({
      name,
      pointer: joinPointer('/errors/codes', name),
      status: typeof c.status === 'number' ? c.status : getRangeStatus(c.status),
      statusRange: typeof c.status === 'number' ? undefined : c.status,
      headers: buildParameters(c.headers, 'header', joinPointer(joinPointer('/errors/codes', name), 'headers')),
      title: c.title,
      description: c.description,
      when: c.when ? [...c.when] : [],
    }),
  );
  const byCondition: Partial<Record<Condition, string>> = {};
  for (const c of codes) for (const cond of c.when) if (CONDITIONS.includes(cond) && byCondition[cond] === undefined) byCondition[cond] = c.name;

  const v = doc.versioning;
  const placement: VersionPlacementModel | undefined = !v?.placement
    ? undefined
    : 'header' in v.placement
      ? { kind: 'header', name: v.placement.header }
      : 'path' in v.placement
        ? { kind: 'path', template: v.placement.path }
        : 'query' in v.placement
          ? { kind: 'query', name: v.placement.query }
          : { kind: 'media_type', template: v.placement.media_type };

  const l = doc.limits;
  const wh = doc.events?.delivery?.webhook;
  const st = doc.events?.delivery?.stream;
  const br = doc.events?.delivery?.broker;

  const model: ServiceModel = omitUndefined<ServiceModel>({
    formatVersion: 1,
    file,
    present,
    purpose: doc.purpose
      ? omitUndefined({
          name: doc.purpose.name,
          summary: doc.purpose.summary,
          description: doc.purpose.description,
          includes: doc.purpose.scope?.includes,
          excludes: doc.purpose.scope?.excludes,
          audience: doc.purpose.audience,
          contact: doc.purpose.contact ? omitUndefined({ ...doc.purpose.contact }) : undefined,
        })
      : undefined,
    resources,
    stateMachines,
    endpoints: doc.endpoints
      ? omitUndefined({
          baseUrl: doc.endpoints.base_url,
          idempotency: doc.endpoints.idempotency
            ? omitUndefined({ header: doc.endpoints.idempotency.header, retention: duration(doc.endpoints.idempotency.retention) })
            : undefined,
          envelope: endpointsEnvelope,
          operations,
        })
      : undefined,
    authentication: doc.authentication
      ? omitUndefined({
          schemes: entries(doc.authentication.schemes).map(([name, s]) =>
            omitUndefined({
              name,
              pointer: joinPointer('/authentication/schemes', name),
              type: s.type,
              description: s.description,
              // As written: readers take the format's default through getApiKeyPlacement, and gaps can name it.
              in: s.in,
              credentialName: s.name,
              prefix: s.prefix,
              token: s.token,
              algorithms: s.algorithms,
              issuer: s.issuer,
              audience: s.audience,
              lifetime: duration(s.lifetime),
              clockTolerance: duration(s.clock_tolerance),
              tokenPath: s.token_path,
            }),
          ),
          scopes: entries(doc.authentication.scopes).map(([name, description]) => ({ name, description })),
          default: defaultAuth,
        })
      : undefined,
    events: doc.events
      ? omitUndefined({
          webhook: wh
            ? omitUndefined({
                signing: wh.signing,
                retries: wh.retries?.map((r) => parseDuration(r)!).filter(Boolean),
                timeout: duration(wh.timeout),
                path: wh.path,
                scopes: wh.scopes ? [...wh.scopes] : undefined,
              })
            : undefined,
          stream: st ? omitUndefined({ path: st.path, heartbeat: duration(st.heartbeat) }) : undefined,
          broker: br
            ? omitUndefined({
                nats: br.nats ? omitUndefined({ subject: br.nats.subject, stream: br.nats.stream }) : undefined,
                amqp: br.amqp ? { exchange: br.amqp.exchange, routingKey: br.amqp.routing_key } : undefined,
              })
            : undefined,
          kinds,
        })
      : undefined,
    errors: doc.errors
      ? omitUndefined({
          body:
            doc.errors.body === undefined
              ? undefined
              : doc.errors.body === 'problem'
                ? ({ kind: 'problem' } as const)
                : omitUndefined({
                    kind: 'declared' as const,
                    fields: buildFields(doc.errors.body.fields, '/errors/body/fields'),
                    code: doc.errors.body.code,
                    status: doc.errors.body.status,
                    message: doc.errors.body.message,
                    mediaType: doc.errors.body.media_type,
                    codeValues: doc.errors.body.code_values,
                    answerMembers: doc.errors.body.answer_members ?? DEFAULT_ANSWER_MEMBERS,
                  }),
          headers: buildParameters(doc.errors.headers, 'header', '/errors/headers'),
          codes,
          byCondition,
        })
      : undefined,
    limits: l
      ? omitUndefined({
          rate: (l.rate ?? []).map((r, i) =>
            omitUndefined({
              pointer: `/limits/rate/${i}`,
              name: r.name,
              requests: r.requests,
              per: parseDuration(r.per)!,
              by: r.by,
              operations: r.operations,
              onStoreFailure: r.on_store_failure,
            }),
          ),
          bodySize: l.body_size !== undefined ? parseSize(l.body_size) : undefined,
          headerSize: l.header_size !== undefined ? parseSize(l.header_size) : undefined,
          nestingDepth: l.nesting_depth,
          pageSize: l.page_size ? omitUndefined({ default: l.page_size.default, max: l.page_size.max, overMax: l.page_size.over_max }) : undefined,
          timeout: duration(l.timeout),
          concurrency: l.concurrency,
          failedAuth: l.failed_auth ? { attempts: l.failed_auth.attempts, per: parseDuration(l.failed_auth.per)! } : undefined,
        })
      : undefined,
    versioning: v
      ? omitUndefined({
          scheme: v.scheme,
          current: v.current !== undefined ? String(v.current) : undefined,
          placement,
          default: v.default,
          supported: (v.supported ?? []).map((s, i) =>
            omitUndefined({
              version: String(s.version),
              pointer: `/versioning/supported/${i}`,
              changes: (s.changes ?? []).map(buildChange),
              deprecated: s.deprecated,
              sunset: s.sunset,
            }),
          ),
          compatibility: v.compatibility ?? [],
        })
      : undefined,
  });
  return deepFreeze(model);
}

/**
 * The parent a binding names (`Article.slug`, where the operation's resource says `parent: Article`; `Owner.id` where
 * its parent's parent is Owner): the part before the first dot names the parent or a resource further up the chain
 * of `parent`s, the rest its field; `level` counts the steps up (1: the resource's own parent). A resource field of
 * that name wins (then it is no parent's). A chain that loops is followed once round (check: parent-cycle).
 */
function parentOf(doc: SpecDocument, resourceName: string | undefined, field: string): { resource: string; field: string; level: number } | undefined {
  const dot = field.indexOf('.');
  if (dot <= 0 || resourceName === undefined) return undefined;
  const r = doc.resources?.[resourceName];
  const head = field.slice(0, dot);
  if (r === undefined || Object.hasOwn(r.fields ?? {}, head)) return undefined;
  const seen = new Set([resourceName]);
  let level = 1;
  for (let at = r.parent; at !== undefined && !seen.has(at); at = doc.resources?.[at]?.parent, level++) {
    if (at === head) return Object.freeze({ resource: head, field: field.slice(dot + 1), level });
    seen.add(at);
  }
  return undefined;
}
