import { joinPointer } from '../util/util-json-pointer.js';
import { parseDuration, parseSize } from '../util/util-units.js';
import {
  CONDITIONS,
  PART_NAMES,
  type Condition,
  type FieldSpec,
  type OperationAuthSpec,
  type ParameterSpec,
  type PartName,
  type ShapeSpec,
  type SpecDocument,
  type VersionChangeSpec,
} from '../spec/spec-types.js';
import type {
  AuthRequirement,
  Duration,
  EventKindModel,
  EventTriggerModel,
  FieldModel,
  OperationModel,
  ParameterModel,
  ResourceModel,
  ServiceModel,
  ShapeModel,
  StateMachineModel,
  StateModel,
  VersionChangeModel,
  VersionPlacementModel,
} from './model-types.js';
import { DEFAULT_IDENTIFIER_FIELD, DEFAULT_SUCCESS_STATUS, isDefaultIdentifier } from './model-defaults.js';

function entries<T>(record: Record<string, T> | undefined): [string, T][] {
  return record ? Object.entries(record) : [];
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

export function buildField(name: string, spec: FieldSpec, pointer: string): FieldModel {
  const has = (k: string) => Object.prototype.hasOwnProperty.call(spec, k);
  return omitUndefined<FieldModel>({
    name,
    pointer,
    type: spec.type,
    description: spec.description,
    optional: spec.optional ?? false,
    nullable: spec.nullable ?? false,
    readOnly: spec.readOnly ?? false,
    writeOnce: spec.writeOnce ?? false,
    generated: spec.generated,
    unique: spec.unique ?? false,
    hasDefault: has('default'),
    default: spec.default,
    hasExample: has('example'),
    example: spec.example,
    minLength: spec.minLength,
    maxLength: spec.maxLength,
    pattern: spec.pattern,
    minimum: spec.minimum,
    maximum: spec.maximum,
    exclusiveMinimum: spec.exclusiveMinimum,
    exclusiveMaximum: spec.exclusiveMaximum,
    multipleOf: spec.multipleOf,
    minItems: spec.minItems,
    maxItems: spec.maxItems,
    uniqueItems: spec.uniqueItems,
    values: spec.values ? [...spec.values] : undefined,
    to: spec.to,
    items: spec.items ? buildField('items', spec.items, joinPointer(pointer, 'items')) : undefined,
    fields: spec.fields ? buildFields(spec.fields, joinPointer(pointer, 'fields')) : undefined,
  });
}

function buildParameters(params: Record<string, ParameterSpec> | undefined, where: ParameterModel['in'], pointer: string): ParameterModel[] {
  return entries(params).map(([n, p]) => ({ ...buildField(n, p, joinPointer(pointer, n)), in: where, deprecated: p.deprecated ?? false }));
}

function buildFields(fields: Record<string, FieldSpec>, pointer: string): FieldModel[] {
  return entries(fields).map(([n, f]) => buildField(n, f, joinPointer(pointer, n)));
}

function buildShape(shape: ShapeSpec | undefined, pointer: string): ShapeModel | undefined {
  if (!shape) return undefined;
  return omitUndefined<ShapeModel>({
    resource: shape.resource,
    fields: shape.fields ? buildFields(shape.fields, joinPointer(pointer, 'fields')) : undefined,
    list: shape.list ?? false,
  });
}

/** An operation that names only scopes takes the default's schemes; with no default, every declared scheme. */
function buildRequirement(spec: 'none' | OperationAuthSpec, allSchemes: readonly string[], fallback?: AuthRequirement): AuthRequirement {
  if (spec === 'none') return { kind: 'none' };
  const schemes = spec.schemes ?? (fallback?.kind === 'required' ? fallback.schemes : allSchemes);
  return { kind: 'required', schemes: [...schemes], scopes: spec.scopes ? [...spec.scopes] : [] };
}

export function getPathParams(path: string): string[] {
  return Array.from(path.matchAll(/\{([^{}]*)\}/g), (m) => m[1] ?? '');
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
    const fields = buildFields(r.fields ?? {}, joinPointer(pointer, 'fields'));
    const identifier = r.identifier ?? (fields.some((f) => isDefaultIdentifier(f)) ? DEFAULT_IDENTIFIER_FIELD : undefined);
    return omitUndefined<ResourceModel>({
      name,
      pointer,
      description: r.description,
      plural: r.plural,
      identifier,
      owner: r.owner,
      ownerAccess: r.owner_access ?? 'hidden',
      ownerOverrideScopes: r.owner_override_scopes ? [...r.owner_override_scopes] : [],
      fields,
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
    return omitUndefined<StateMachineModel>({ resource, pointer, field: m.field, initial: m.initial, states: [...states.values()], transitions });
  });

  const schemeNames = Object.keys(doc.authentication?.schemes ?? {});
  const defaultAuth = doc.authentication?.default !== undefined ? buildRequirement(doc.authentication.default, schemeNames) : undefined;

  const operations: OperationModel[] = entries(doc.endpoints?.operations).map(([id, o]) => {
    const pointer = joinPointer('/endpoints/operations', id);
    const auth = o.auth !== undefined ? buildRequirement(o.auth, schemeNames, defaultAuth) : defaultAuth;
    return omitUndefined<OperationModel>({
      id,
      pointer,
      method: o.method,
      path: o.path,
      pathParams: getPathParams(o.path),
      action: o.action,
      resource: o.resource,
      transition: o.transition,
      summary: o.summary,
      description: o.description,
      filter: o.filter ? [...o.filter] : [],
      sort: o.sort ? [...o.sort] : [],
      query: buildParameters(o.query, 'query', joinPointer(pointer, 'query')),
      headers: buildParameters(o.headers, 'header', joinPointer(pointer, 'headers')),
      status: o.status ?? DEFAULT_SUCCESS_STATUS[o.action],
      statusDeclared: o.status !== undefined,
      request: buildShape(o.request, joinPointer(pointer, 'request')),
      response: buildShape(o.response, joinPointer(pointer, 'response')),
      handler: o.handler,
      auth,
      authDeclared: o.auth !== undefined ? 'operation' : defaultAuth ? 'default' : 'none',
      errors: o.errors ? [...o.errors] : [],
      idempotent: o.idempotent,
      deprecated: o.deprecated ?? false,
    });
  });

  const kinds: EventKindModel[] = entries(doc.events?.kinds).map(([name, k]) => {
    const pointer = joinPointer('/events/kinds', name);
    const payload = buildShape(k.payload, joinPointer(pointer, 'payload'));
    const triggers: EventTriggerModel[] = [];
    const source = k.resource ?? payload?.resource;
    if (source !== undefined) for (const action of k.on ?? []) triggers.push({ action, resource: source });
    for (const m of stateMachines) {
      for (const t of m.transitions) if (t.emits === name) triggers.push({ action: 'transition', resource: m.resource, transition: t.name });
    }
    return omitUndefined<EventKindModel>({ name, pointer, description: k.description, payload, triggers });
  });

  const codes = entries(doc.errors?.codes).map(([name, c]) =>
    omitUndefined({ name, pointer: joinPointer('/errors/codes', name), status: c.status, title: c.title, description: c.description, when: c.when ? [...c.when] : [] }),
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
          : { kind: 'media_type', name: v.placement.media_type };

  const l = doc.limits;
  const wh = doc.events?.delivery?.webhook;
  const st = doc.events?.delivery?.stream;

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
              in: s.in ?? (s.type === 'api_key' ? 'header' : undefined),
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
            ? omitUndefined({ signing: wh.signing, retries: wh.retries?.map((r) => parseDuration(r)!).filter(Boolean), timeout: duration(wh.timeout), path: wh.path, scopes: wh.scopes ? [...wh.scopes] : undefined })
            : undefined,
          stream: st ? omitUndefined({ path: st.path, heartbeat: duration(st.heartbeat) }) : undefined,
          kinds,
        })
      : undefined,
    errors: doc.errors
      ? omitUndefined({
          body: doc.errors.body === undefined
            ? undefined
            : doc.errors.body === 'problem'
              ? ({ kind: 'problem' } as const)
              : ({ kind: 'declared', fields: buildFields(doc.errors.body.fields, '/errors/body/fields') } as const),
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
