import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  DEFAULT_PAGING,
  FALLBACK_STATUS,
  getDefaultSuccessStatus,
  getFirstPage,
  getPagingParamName,
  getUnknownFields,
  FORM_MEDIA_TYPE,
  isMergePatch,
  STRING_IDENTIFIER_BYTES,
  UUID_TEXT,
} from '../../model/model-defaults.js';
import { checkMergePatchNulls, getMergePatchScalars, mergePatchChanges } from '../runtime-merge-patch.js';
import { newUuidV7 as uuidv7 } from '../runtime-ids.js';
import { getField, getPageSize, getResource, getStateField } from '../../model/model-lookup.js';
import { answersETag, getRouteErrors, isConditionalChange, LINK_HEADER, LIST_PARAMS, type OperationRoute } from '../../model/model-routes.js';
import { checkIfMatch, computeETag, matchesIfNoneMatch } from '../runtime-etag.js';
import {
  getFieldSchema,
  getRequestSchema,
  getSchemaMembers,
  getShapeSchema,
  getTransitionSchema,
  getUnsourcedFields,
  getUnstatedValueFields,
  getServiceSetFields,
  getServiceSetMembers,
  isServiceSetField,
} from '../../model/model-schemas.js';
import type { EventKindModel, FieldModel, OperationModel, PageMemberModel, ResourceModel, ServiceModel } from '../../model/model-types.js';
import type { KeyedChange, RouteHandler, RuntimeContext } from '../runtime-context.js';
import type { CallbackHooks } from '../events/events-callbacks.js';
import { createPayloadCheck } from '../events/events-payload.js';
import { getOwnerScope as getPrincipalOwnerScope, isOwnObject } from '../runtime-access.js';
import { boundToDeadline, sendAnswer as sendPlainAnswer, toLateAnswer } from '../runtime-deadline.js';
import { createEnvelopeWriter, type EnvelopeListValues, type EnvelopeWriter } from '../runtime-envelope.js';
import { formatHeaderValue, UNSET_FIELDS_HEADER } from '../../model/model-response-headers.js';
import { createHandlerHeaders, createHeaderSetter, withDefaultHeaders, type HeaderValue } from './runtime-response-headers.js';
import { markUnapplied, ServiceError } from '../runtime-errors.js';
import { getAnswerType } from '../runtime-versioning.js';
import { createParameterReader, parseText, readFormBody } from './runtime-parameters.js';
import type { FormBody } from '../runtime-body.js';
import {
  createParentResolver,
  createPathValues,
  findBoundId,
  getWrittenBindings,
  mergePathValues,
  missingBoundMessage,
  withNestedColumns,
} from './runtime-path-bindings.js';
import {
  ADDRESSING_ACTIONS,
  getNestedPaths,
  getPathColumn,
  getParentAddressSources,
  getParentBinding,
  getParentRefBindings,
  getParentResource,
  getResolvedBindings,
  isIdentifierOnly,
  PARENT_COLUMN,
  type ResolvedBinding,
} from '../../model/model-path-bindings.js';
import { BUILT_IN } from '../runtime-built-in.js';
import type { Validator, ValidatorFactory } from '../runtime-validation.js';
import { StorageConstraintError, StoredJson, type KeysetPosition, type ListQuery, type Row, type Storage, type StorageTx } from '../storage/storage-types.js';
import { getRowKey } from '../storage/storage-plan.js';
import { ownValue } from '../../util/util-own.js';
import type { Condition, PageMemberRole } from '../../spec/spec-types.js';

/** Parses the identifier in the path (`f`, the resource's identifier field); a malformed one names no object, so it is answered as missing. */
function parseId(resource: ResourceModel, f: FieldModel | undefined, raw: string | undefined): string | number {
  if (raw === undefined || raw === '') throw missingObject(resource);
  if (f?.type === 'uuid') {
    if (!UUID_TEXT.test(raw)) throw missingObject(resource);
    return raw.toLowerCase();
  }
  if (f?.type === 'integer') {
    // The server counts from 1; a client may have given 0 or a negative identifier.
    if (!(resource.identifierSource === 'client' ? /^(0|-?[1-9][0-9]{0,15})$/ : /^[1-9][0-9]{0,15}$/).test(raw)) throw missingObject(resource);
    const n = Number(raw);
    if (!Number.isSafeInteger(n)) throw missingObject(resource);
    return n;
  }
  if (raw.length > 256) throw missingObject(resource);
  return raw;
}

interface ModelIndex {
  /** Each resource's first read operation. */
  readOf: Map<string, OperationModel>;
  /** The resources whose create emits an event. */
  createEmitters: Set<string>;
}
const indexes = new WeakMap<ServiceModel, ModelIndex>();

/** Looked up per create route: indexed once per model, not scanned per route (a 1,000-resource spec has 5,000 operations). */
function getModelIndex(model: ServiceModel): ModelIndex {
  let index = indexes.get(model);
  if (!index) {
    const readOf = new Map<string, OperationModel>();
    for (const o of model.endpoints?.operations ?? [])
      if (o.action === 'read' && o.resource !== undefined && !readOf.has(o.resource)) readOf.set(o.resource, o);
    const createEmitters = new Set<string>();
    for (const k of model.events?.kinds ?? []) for (const t of k.triggers) if (t.action === 'create') createEmitters.add(t.resource);
    index = { readOf, createEmitters };
    indexes.set(model, index);
  }
  return index;
}

/** The column a read's bound field is held in (a nested field's own column). */
function boundColumn(resource: ResourceModel, path: string | undefined): string | undefined {
  return path === undefined ? undefined : getPathColumn(resource, path);
}

/** Where one of the read's path parameters is filled from: a column of the object, or a parameter of the answering request. */
type AddressSource = { column: string } | { param: string };

/**
 * The Location of a created object: the read operation's path under the create's prefix (its version segment,
 * say), each of the read's parameters filled from where sourceOf says (undefined: the request's parameter of the same
 * name, a version prefix; null: nothing holds it). Undefined when some parameter has no source: no address rather
 * than an empty segment.
 */
function createLocation(
  route: OperationRoute,
  readPath: string,
  sourceOf: (param: string) => AddressSource | null | undefined,
): ((created: Row, params: Readonly<Record<string, string>>) => string | undefined) | undefined {
  const template = `${route.path.slice(0, route.path.length - route.operation.path.length)}${readPath}`;
  const parts = template.split(/\{([^{}]*)\}/);
  const sources: (AddressSource | undefined)[] = [];
  for (let i = 1; i < parts.length; i += 2) {
    const source = sourceOf(parts[i]!);
    if (source === null) return undefined;
    sources[i] = source ?? { param: parts[i]! };
  }
  return (created, params) => {
    let out = parts[0]!;
    for (let i = 1; i < parts.length; i += 2) {
      const source = sources[i]!;
      // A bound field the object does not hold (an optional one), or a parameter the request lacks: no path names it, so no Location.
      const value = 'column' in source ? created[source.column] : params[source.param];
      if (value === undefined || value === null || value === '') return undefined;
      out += encodeURIComponent(String(value)) + parts[i + 1]!;
    }
    return out;
  };
}

/**
 * Where each of the read's parameters is filled from, for an answer of operation `o`: the field it binds; the
 * parents', by binding (getParentAddressSources: the row's parent column, or `o`'s parameter naming the same
 * `Parent.field`, else null); without `bind`, the identifier in the first.
 */
function readParamSource(
  model: ServiceModel,
  resource: ResourceModel,
  read: OperationModel,
  o: OperationModel,
  idName: string | undefined,
): (param: string) => AddressSource | null | undefined {
  const parents = getParentAddressSources(model, resource, read, o);
  return (p) => {
    const parent = parents.find((x) => x.readParam === p);
    if (parent) return parent.column !== undefined ? { column: parent.column } : parent.param !== undefined ? { param: parent.param } : null;
    const column = read.bindings
      ? boundColumn(resource, read.bindings.find((b) => b.param === p && b.parent === undefined)?.field)
      : p === read.pathParams[0]
        ? idName
        : undefined;
    return column !== undefined ? { column } : undefined;
  };
}

/**
 * The row with its `generated: address` fields set (docs/format.md, "Self addresses"): the reference a create's
 * Location holds, under the answering route's prefix; on a `uri` field a whole address, the request's scheme and Host
 * before it (as paging.next_link's), for a uri is absolute. Undefined for a resource without one, so the presenters
 * do nothing more per row. A copy: the row is the storage's, and the field has no column.
 */
export function createAddresser(model: ServiceModel, route: OperationRoute, resource: ResourceModel): ((row: Row, request: FastifyRequest) => Row) | undefined {
  const fields = resource.fields.filter((f) => f.generated === 'address');
  if (fields.length === 0) return undefined;
  const read = getModelIndex(model).readOf.get(resource.name);
  if (!read) return undefined;
  // The read's path under this route's own prefix; each of the read's parameters filled from the field it binds.
  const locate = createLocation(route, read.path, readParamSource(model, resource, read, route.operation, resource.identifier));
  // A parent this route's answers cannot name (parent-address-unfilled): no address at all.
  if (!locate) return undefined;
  return (row, request) => {
    const path = locate(row, request.params as Readonly<Record<string, string>>);
    if (path === undefined) return row;
    const host = request.host;
    const out: Row = { ...row };
    for (const f of fields) out[f.name] = f.type === 'uri' && host ? `${request.protocol}://${host}${path}` : path;
    return out;
  };
}

function missingObject(resource: ResourceModel): ServiceError {
  return new ServiceError('missing_resource', `no ${resource.name} with that identifier`);
}

/** The JSON pointer of a column's field: a nested bound field's column (`$metadata.name`) points into its object. */
function columnPointer(column: string): string {
  const path = column.startsWith('$') && column.includes('.') ? column.slice(1).split('.') : [column];
  return `/${path.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
}

function mapStorageError(err: unknown): unknown {
  if (!(err instanceof StorageConstraintError)) return err;
  if (err.kind === 'unique_conflict')
    return new ServiceError(
      'unique_conflict',
      'an object with that value already exists',
      err.column ? [{ pointer: columnPointer(err.column), message: 'must be unique' }] : undefined,
    );
  if (err.kind === 'reference_not_found') return new ServiceError('reference_not_found', 'a referenced object does not exist');
  return new ServiceError(
    'validation',
    'a value breaks a constraint of the resource',
    err.column ? [{ pointer: `/${err.column}`, message: 'breaks a constraint' }] : undefined,
  );
}

/** A parent a create's or a list's path names by a ref (getParentRefBindings) that is not there. */
function missingParent(model: ServiceModel, b: ResolvedBinding): ServiceError {
  return new ServiceError('missing_resource', `no ${getResource(model, b.field.to)?.name ?? b.field.to ?? 'object'} with that ${b.param}`);
}

/**
 * The storage refused a create's row for a reference to nothing: where the path names its parent by a ref (a task's
 * project_id), and that reference is the one, the parent is missing (missing_resource); undefined for another ref's.
 * PostgreSQL names the column; SQLite does not, so where another ref of the row holds a value too, each bound
 * parent is read (after the insert failed: the answer only, no check before it).
 */
async function mapParentError(
  model: ServiceModel,
  storage: Storage,
  parents: readonly ResolvedBinding[],
  refColumns: readonly string[],
  err: StorageConstraintError,
  row: Row,
): Promise<ServiceError | undefined> {
  if (err.column !== undefined) {
    const b = parents.find((p) => p.column === err.column);
    return b && missingParent(model, b);
  }
  const bound = new Set(parents.map((p) => p.column));
  // One bound parent and no other ref holding a value: the reference refused is that parent's.
  if (parents.length === 1 && !refColumns.some((c) => !bound.has(c) && row[c] !== undefined && row[c] !== null)) return missingParent(model, parents[0]!);
  for (const b of parents) {
    const target = getResource(model, b.field.to);
    if (!target || (await storage.read((tx) => tx.get(target.name, row[b.column])))) continue;
    return missingParent(model, b);
  }
  return undefined;
}

/**
 * The storage refused a create's row of a resource under a parent (`parent`) for a reference to nothing: the parent
 * found before the insert was deleted in between (missing_resource), or another ref of the row names nothing
 * (undefined: reference_not_found). PostgreSQL names the column; SQLite does not, so the parent is read again.
 */
async function mapKeptParentError(
  model: ServiceModel,
  storage: Storage,
  resource: ResourceModel,
  err: StorageConstraintError,
  row: Row,
): Promise<ServiceError | undefined> {
  const parent = getParentResource(model, resource);
  if (!parent) return undefined;
  const missing = new ServiceError('missing_resource', `no ${parent.name} with that ${parent.identifier ?? 'key'}`);
  if (err.column !== undefined) return err.column === PARENT_COLUMN ? missing : undefined;
  return (await storage.read((tx) => tx.get(parent.name, row[PARENT_COLUMN]))) ? undefined : missing;
}

const presenters = new WeakMap<ResourceModel, (row: Row) => Record<string, unknown>>();

/** The fields an answer carries: all but the write-only ones (stored, never answered). */
function getAnsweredFields(resource: ResourceModel): readonly FieldModel[] {
  return resource.fields.some((f) => f.writeOnly) ? resource.fields.filter((f) => !f.writeOnly) : resource.fields;
}

/**
 * Whether a stored null is answered as null: a nullable field's, but not one the service sets by a rule the spec does
 * not state (`source: service`): the runtime has no value for it (a named gap), so its column is always NULL and its
 * answers leave it out, null being a value the spec does not state either.
 */
function isNullAnswered(resource: ResourceModel, f: FieldModel): boolean {
  return f.nullable && !isServiceSetField(resource, f);
}

/**
 * The object as clients see it: absent fields are left out (storage reads an optional field never given as
 * undefined), a nullable field set to null is null, a null in a field that is not nullable is absent. Compiled once
 * per resource, with constant property names (see decodeRow in storage-sqlite.ts for why).
 */
export function presentRow(resource: ResourceModel, row: Row): Record<string, unknown> {
  let present = presenters.get(resource);
  if (!present) {
    present = compilePresenter(resource, getAnsweredFields(resource));
    presenters.set(resource, present);
  }
  return present(row);
}

/** presentRow's generated function for these fields of the resource. */
function compilePresenter(resource: ResourceModel, fields: readonly FieldModel[]): (row: Row) => Record<string, unknown> {
  // Field names are snake_case and never __proto__ (the format's schema); quoted anyway.
  const lines = fields.map((f) => {
    const k = JSON.stringify(f.name);
    return `v = r[${k}]; if (v !== null && v !== undefined) o[${k}] = v;${isNullAnswered(resource, f) ? ` else if (v === null) o[${k}] = null;` : ''}`;
  });
  return new Function('r', `const o = {}; let v;\n${lines.join('\n')}\nreturn o;`) as (row: Row) => Record<string, unknown>;
}

/** The plain counterpart of presentRow's generated function (SERVICESPEC_FAST_PATHS=off): the same object, by a loop. */
export function presentRowPlain(resource: ResourceModel, row: Row, only?: ReadonlySet<string>): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const f of resource.fields) {
    if (f.writeOnly || (only !== undefined && !only.has(f.name))) continue;
    const v = row[f.name];
    if (v !== null && v !== undefined) o[f.name] = v;
    else if (v === null && isNullAnswered(resource, f)) o[f.name] = null;
  }
  return o;
}

/**
 * The presenter and stored-text writer of a list that answers some of its resource's fields (`answer_fields`): the
 * presentRow, presentRowPlain and writePresentedRow of those fields alone, made once per route. A list without
 * answer_fields keeps the resource's own (nothing more per request).
 */
export function createSubsetPresenters(
  resource: ResourceModel,
  answerFields: readonly string[],
  fast: boolean,
): { present: (resource: ResourceModel, row: Row) => Record<string, unknown>; write: (resource: ResourceModel, row: Row) => string } {
  const only = new Set(answerFields);
  const fields = getAnsweredFields(resource).filter((f) => only.has(f.name));
  const present = fast ? compilePresenter(resource, fields) : undefined;
  const write = compileWriter(resource, fields);
  return {
    present: present ? (_r, row) => present(row) : (r, row) => presentRowPlain(r, row, only),
    write: (_r, row) => write(row, writeStoredValue),
  };
}

const writers = new WeakMap<ResourceModel, (row: Row, value: (v: unknown) => string) => string>();

/** What JSON.stringify escapes in a string: `"`, `\\`, control characters and surrogates (lone ones are escaped). */
// eslint-disable-next-line no-control-regex -- the control characters are what it looks for
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\ud800-\udfff]/;

/**
 * A stored row's value as JSON text: the bytes JSON.stringify writes of it (test/storage/storage-sqlite-stored.test.ts),
 * without its per-call set-up for the values rows hold (a string with nothing to escape, a number, a boolean):
 * about a third of a page's writing (bench/RESULTS.md).
 */
export function writeStoredValue(v: unknown): string {
  if (typeof v === 'string') return NEEDS_ESCAPE.test(v) ? JSON.stringify(v) : `"${v}"`;
  if (typeof v === 'number') return Number.isFinite(v) ? `${v}` : 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return v instanceof StoredJson ? v.text : JSON.stringify(v);
}

/**
 * `JSON.stringify(presentRow(resource, row))`, the same text, written from a row whose JSON values are their stored
 * text (`SyncReader.getStored`): nothing parsed, no object made. Compiled once per resource, as presentRow.
 */
export function writePresentedRow(resource: ResourceModel, row: Row): string {
  let write = writers.get(resource);
  if (!write) {
    write = compileWriter(resource, getAnsweredFields(resource));
    writers.set(resource, write);
  }
  return write(row, writeStoredValue);
}

/** writePresentedRow's generated function for these fields of the resource. */
function compileWriter(resource: ResourceModel, fields: readonly FieldModel[]): (row: Row, value: (v: unknown) => string) => string {
  // A member's key with its comma, or without one where it comes first (`s` holds only the brace): no slice
  // of the whole text to drop a leading comma, which would flatten it.
  const lines = fields.map((f) => {
    const name = JSON.stringify(f.name);
    const k = `(s.length === 1 ? ${JSON.stringify(`${name}:`)} : ${JSON.stringify(`,${name}:`)})`;
    return `v = r[${name}]; if (v !== null && v !== undefined) s += ${k} + w(v);${isNullAnswered(resource, f) ? ` else if (v === null) s += ${k} + 'null';` : ''}`;
  });
  return new Function('r', 'w', `let s = '{'; let v;\n${lines.join('\n')}\nreturn s + '}';`) as (row: Row, value: (v: unknown) => string) => string;
}

/** A stored row's value as presentRow has it (a JSON value parsed). */
function parsedValue(v: unknown): unknown {
  return v instanceof StoredJson ? JSON.parse(v.text) : v;
}

function nowValue(f: FieldModel, now: Date | string): string {
  const iso = typeof now === 'string' ? now : now.toISOString();
  return f.type === 'date' ? iso.slice(0, 10) : iso;
}

export interface EventEmitter {
  emit(
    tx: StorageTx,
    resource: ResourceModel,
    trigger: { action: 'create' | 'update' | 'delete' } | { action: 'transition'; transition: string },
    data: Record<string, unknown>,
    previous?: Record<string, unknown>,
  ): Promise<void>;
}

/**
 * Writes each event the spec attaches to a change into the outbox, in the change's own transaction; a delete also
 * removes the callback subscriptions about its object there (events-callbacks.ts).
 */
export function createEventEmitter(model: ServiceModel, now: () => Date, compile?: ValidatorFactory): EventEmitter {
  const version = model.versioning?.current;
  const checkPayload = createPayloadCheck(model, compile); // events (issue 5): payloads match their declared shape
  // The kinds each change emits, in declaration order, indexed once (a write no longer scans every kind).
  const byTrigger = new Map<string, EventKindModel[]>();
  for (const k of model.events?.kinds ?? []) {
    for (const key of new Set(k.triggers.map((t) => `${t.resource}|${t.action}|${t.action === 'transition' ? t.transition : ''}`))) {
      const list = byTrigger.get(key) ?? [];
      list.push(k);
      byTrigger.set(key, list);
    }
  }
  // Resources a create with callbacks makes: deleting one of their objects removes its callback subscriptions.
  const subscribed = new Set(
    (model.endpoints?.operations ?? []).flatMap((o) => (o.action === 'create' && o.callbacks?.length && o.resource !== undefined ? [o.resource] : [])),
  );
  return {
    async emit(tx, resource, trigger, data, previous) {
      if (trigger.action === 'delete' && subscribed.has(resource.name) && resource.identifier !== undefined) {
        await tx.deleteObjectSubscriptions(resource.name, data[resource.identifier]);
      }
      for (const k of byTrigger.get(`${resource.name}|${trigger.action}|${trigger.action === 'transition' ? trigger.transition : ''}`) ?? []) {
        let payload: Record<string, unknown> = data;
        let before = previous;
        if (k.payload?.fields) {
          payload = {};
          for (const f of k.payload.fields) if (Object.hasOwn(data, f.name) && data[f.name] !== undefined) payload[f.name] = data[f.name];
          // `previous` too holds only the declared payload's fields.
          if (previous) {
            before = {};
            for (const f of k.payload.fields) if (Object.hasOwn(previous, f.name)) before[f.name] = previous[f.name];
          }
        }
        checkPayload(k, payload);
        const body: Record<string, unknown> = { object: payload };
        if (before) body.previous = before;
        await tx.appendEvent({ id: uuidv7(), type: k.name, timestamp: now().toISOString(), ...(version !== undefined ? { version } : {}), data: body });
      }
    },
  };
}

interface ActionDeps {
  ctx: RuntimeContext;
  compile: (schema: Record<string, unknown>, resource?: ResourceModel) => Validator;
  events: EventEmitter;
  /**
   * The fast paths: answers written from stored text, synchronous reads and writes where the storage has them,
   * generated presenters. False: the plain path, objects built and serialised, every storage call a promise.
   */
  fast: boolean;
  /** A create's callbacks (events-callbacks.ts): the URL checked before the change, subscribed after its commit. */
  callbacks?: CallbackHooks;
}

/** Whether the answer goes out in the current version's shape (an older version's is rewritten from the object). */
function isCurrentShape(model: ServiceModel, request: FastifyRequest): boolean {
  return request.specVersion === undefined || request.specVersion === model.versioning?.current;
}

/**
 * `unknown_fields: ignore`: the body without the members its request schema does not name (an unknown, read-only or
 * write-once field, one outside request_fields), dropped before validation so none is stored or answered; undefined
 * for `refuse`, where the closed schema refuses them.
 */
function createUnknownDropper(
  op: OperationModel,
  schema: Record<string, unknown>,
): ((body: Record<string, unknown>, only?: ReadonlySet<string>) => Record<string, unknown>) | undefined {
  if (getUnknownFields(op) !== 'ignore') return undefined;
  // A resource of several shapes: what any variant names (`only`: what the body's variant names).
  const all = new Set(Object.keys(getSchemaMembers(schema)));
  return (body, only) => {
    const named = only ?? all;
    let out: Record<string, unknown> | undefined;
    for (const k of Object.keys(body))
      if (!named.has(k)) {
        out ??= { ...body };
        delete out[k];
      }
    return out ?? body;
  };
}

function requireBody(request: FastifyRequest): unknown {
  if (request.body === undefined) throw new ServiceError('malformed_request', 'a JSON body is required');
  return request.body;
}

function requireObjectBody(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  if (body === undefined) throw new ServiceError('malformed_request', 'a JSON body is required');
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ServiceError('validation', 'the body must be a JSON object', [{ pointer: '', message: 'must be an object' }]);
  }
  return body as Record<string, unknown>;
}

/** One variant's view of a request (a resource of several shapes): its validator and the members it names. */
interface VariantRequest {
  validate: Validator;
  named: ReadonlySet<string>;
}

/**
 * A resource of several shapes: by tag, each variant's view of the operation's request (getRequestSchema with
 * `variant`): what an update or replace of a stored object of that variant is validated with (the body does not send
 * the tag, which never changes), and what a create of it names. Undefined for every other resource.
 */
function createVariantRequests(
  model: ServiceModel,
  resource: ResourceModel,
  op: OperationModel,
  view: 'create' | 'replace' | 'update',
  compile: ActionDeps['compile'],
): ReadonlyMap<string, VariantRequest> | undefined {
  const u = resource.variants;
  if (u === undefined || u.discriminator === undefined) return undefined;
  return new Map(
    u.variants.map((v) => {
      const schema = getRequestSchema(model, resource, op, view, { safeIntegers: true, variant: v.name });
      return [v.tag, { validate: compile(schema, resource), named: new Set(Object.keys(schema.properties as Record<string, unknown>)) }] as const;
    }),
  );
}

/** The owner rule for a request (runtime-access.ts; event delivery asks the same function). */
function getOwnerScope(resource: ResourceModel, request: FastifyRequest): string | null | undefined {
  return getPrincipalOwnerScope(resource, request.principal);
}

/** Reads an object the caller may see: another subject's object is missing or forbidden, as the spec says. */
async function getVisible(tx: StorageTx, resource: ResourceModel, id: unknown, request: FastifyRequest): Promise<Row> {
  return checkVisible(resource, await tx.get(resource.name, id), request);
}

function checkVisible(resource: ResourceModel, row: Row | undefined, request: FastifyRequest): Row {
  if (!row) throw missingObject(resource);
  if (!isOwnObject(resource, row, request.principal)) {
    if (resource.ownerAccess === 'forbidden') throw new ServiceError('not_owner', `this ${resource.name} belongs to another subject`);
    throw missingObject(resource);
  }
  return row;
}

function parseFilterValue(f: FieldModel | undefined, raw: string, type = f?.type): unknown {
  if (!f) return raw;
  if (f.nullable && raw === 'null') return null;
  return parseText(f, raw, type);
}

/** The handler for one operation route. Validators are compiled here, once, at startup. */
const NO_HEADERS: Readonly<Record<string, string>> = {};

/**
 * A keyed update, replace, delete or transition: the key claimed, the change made and its answer kept in one
 * transaction (limits/limits-idempotency.ts), as a keyed create's. A COMMIT whose answer is lost then leaves the key
 * with the change's answer (a retry replays it) or free with nothing applied (a retry runs).
 */
function changeKeyed<T>(
  storage: Storage,
  request: FastifyRequest,
  reply: FastifyReply,
  keyed: KeyedChange,
  statusOf: number | (() => number),
  work: (tx: StorageTx) => Promise<T>,
  answerOf: (out: T) => unknown,
  mapError: (err: unknown) => unknown,
  envelope?: EnvelopeWriter,
  locationOf?: (out: T) => string | undefined,
  etagOf?: (out: T) => string,
): Promise<unknown> {
  // An upsert's status is known once the work has found (or not) the object.
  let status = 0;
  let location: string | undefined;
  let etag: string | undefined;
  return storage
    .transaction(async (tx) => {
      await keyed.open?.(tx);
      const out = await work(tx);
      status = typeof statusOf === 'number' ? statusOf : statusOf();
      location = locationOf?.(out);
      etag = etagOf?.(out);
      const payload = answerOf(out);
      // Serialised here, as it will be sent (the status first: the serializer is the status's).
      reply.code(status);
      let text = payload === undefined ? '' : (reply.serialize(payload) as string);
      if (envelope && payload !== undefined) text = envelope(text, request, status);
      let headers: Readonly<Record<string, string>> = payload === undefined ? NO_HEADERS : { 'content-type': getAnswerType(reply) };
      if (location !== undefined) headers = { ...headers, location };
      if (etag !== undefined) headers = { ...headers, etag };
      await keyed.keep(tx, status, headers, text);
      return payload === undefined ? undefined : text;
    }, request.deadline)
    .then(
      (text) => {
        if (location !== undefined) reply.header('location', location);
        if (etag !== undefined) reply.header('etag', etag);
        return text === undefined
          ? sendPlainAnswer(request, reply, status, undefined)
          : sendPlainAnswer(request, reply.type(getAnswerType(reply)), status, text);
      },
      (err: unknown) => {
        const held = keyed.answer(err, request, reply);
        if (held !== undefined) return held;
        throw mapError(err);
      },
    );
}

type Send = (request: FastifyRequest, reply: FastifyReply, status: number, payload: unknown, list?: EnvelopeListValues) => unknown;

/** sendAnswer with the answer wrapped in the envelope: an object serialised first, text (a stored row's) as it is. */
function createEnvelopedSend(envelope: EnvelopeWriter): Send {
  return (request, reply, status, payload, list) => {
    if (payload === undefined) return sendPlainAnswer(request, reply, status, payload);
    const data = typeof payload === 'string' ? payload : JSON.stringify(payload);
    return sendPlainAnswer(request, reply.type(getAnswerType(reply)), status, envelope(data, request, status, list));
  };
}

export function createActionHandler(route: OperationRoute, deps: ActionDeps): RouteHandler {
  if (route.operation.action === 'custom') return createCustomHandler(route, deps);
  // Fields the service sets by a rule the spec does not state (source: service): answers leave them out, and say so.
  // Members nested in a field a client sends, read-only and required (getServiceSetMembers), likewise, by their paths.
  const unset = route.resource ? [...getServiceSetFields(deps.ctx.model, route.resource).map((f) => f.name), ...getServiceSetMembers(route.resource)] : [];
  const handler = withDefaultHeaders(
    route,
    withParent(route, deps, createBuiltInHandler(route, deps)),
    unset.length > 0 ? [[UNSET_FIELDS_HEADER, unset.join(', ')]] : undefined,
  );
  // Declared query parameters and headers (operation.query, operation.headers) are validated as a custom
  // operation's are, then not otherwise used (docs/format.md, "Parameters"); an operation declaring none is as it was.
  const readParameters = createParameterReader(deps.ctx.model, route, deps.compile);
  if (!readParameters) return handler;
  return (request, reply) => {
    readParameters(request);
    return handler(request, reply);
  };
}

/**
 * An operation whose path names its resource's parent (`Article.slug`): the parent is found first (missing_resource
 * when none holds the value), its identifier handed to the action in the params (createParentResolver); every other
 * operation is its handler as it is.
 */
function withParent(route: OperationRoute, deps: ActionDeps, handler: RouteHandler): RouteHandler {
  const resolve = route.resource ? createParentResolver(deps.ctx.model, route.resource, route.operation, deps.compile, deps.ctx.storage, deps.fast) : undefined;
  if (!resolve) return handler;
  return (request, reply) => {
    const pending = resolve(request);
    return pending === undefined ? handler(request, reply) : pending.then(() => handler(request, reply));
  };
}

/**
 * A create or replace leaving out a field whose value the spec does not state (`optionalInRequests`): not
 * implemented (served only with allowGaps), naming the field; undefined when the body gives each.
 */
function unstatedValueError(operation: string, resource: string, fields: readonly string[], body: Record<string, unknown>): ServiceError | undefined {
  const missing = fields.filter((f) => body[f] === undefined);
  if (missing.length === 0) return undefined;
  const list = missing.map((f) => `\`${f}\``).join(', ');
  return new ServiceError(
    'not_implemented',
    `operation ${operation} is not implemented for a request leaving out ${list}: ${resource} holds ${missing.length === 1 ? 'it' : 'them'} in every answer, and the spec does not say what value the service gives ${missing.length === 1 ? 'it' : 'them'}`,
  );
}

/** A create served (allowGaps) although its request_fields leave required fields without a value: not implemented. */
function unsourcedError(operation: string, resource: string, fields: readonly string[]): ServiceError {
  const list = fields.map((f) => `\`${f}\``).join(', ');
  return new ServiceError(
    'not_implemented',
    `operation ${operation} is not implemented: its request_fields leave out ${list}, which ${resource} requires, and the spec gives no value for ${fields.length === 1 ? 'it' : 'them'}`,
  );
}

interface Upsert {
  /** A create's status (201). */
  status: number;
  /** Makes the object the path names, as a create with the body and the path's identifier would. */
  insert(tx: StorageTx, request: FastifyRequest, body: Record<string, unknown>, id: unknown): Promise<Row>;
  location(created: Row, params: Readonly<Record<string, string>>): string | undefined;
}

/**
 * A new object's row from a create's body (a create's, or an upsert's with the path's identifier): defaults first,
 * then the body, the machine's initial state, the owner, the times, the nested columns.
 */
function createRowMaker(
  route: OperationRoute,
  idField: FieldModel | undefined,
  touch: (row: Row, creating: boolean) => void,
  nested: ReturnType<typeof getNestedPaths>,
  stateField: string | undefined,
): (request: FastifyRequest, body: Record<string, unknown>) => Row {
  const resource = route.resource!;
  // The identifier takes no default (check refuses one: identifier-invalid).
  const defaults = resource.fields.filter((f) => f.hasDefault && f !== idField);
  const machineInitial = route.machine?.initial;
  const fillNested = getNestedDefaultsFiller(resource);
  return (request, body) => {
    const row: Row = {};
    for (const f of defaults) row[f.name] = typeof f.default === 'object' && f.default !== null ? structuredClone(f.default) : f.default;
    Object.assign(row, body);
    if (fillNested) fillNested(row);
    if (stateField && machineInitial !== undefined) row[stateField] = machineInitial;
    if (resource.owner !== undefined) row[resource.owner] = request.principal?.subject ?? null;
    touch(row, true);
    if (nested.length > 0) withNestedColumns(nested, row);
    return row;
  };
}

/**
 * Fills the default of each member of a nested object (or of a list's object items) a request leaves out (Shopify's
 * `variants[].requires_shipping: true`), as a create fills a field's: the answers hold it. Undefined where no nested
 * member has a default, so a resource without one pays nothing per request.
 */
function getNestedDefaultsFiller(resource: ResourceModel): ((values: Record<string, unknown>) => void) | undefined {
  const fillerOf = (f: FieldModel): ((v: unknown) => unknown) | undefined => {
    if (f.type === 'array' && f.items) {
      const item = fillerOf(f.items);
      return item && ((v) => (Array.isArray(v) ? v.map(item) : v));
    }
    if (f.type !== 'object' || !f.fields) return undefined;
    const defaults = f.fields.filter((m) => m.hasDefault);
    const inner = f.fields.flatMap((m) => {
      const fill = fillerOf(m);
      return fill ? [[m.name, fill] as const] : [];
    });
    if (defaults.length === 0 && inner.length === 0) return undefined;
    return (v) => {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
      const out: Record<string, unknown> = { ...(v as Record<string, unknown>) };
      for (const m of defaults) if (!Object.hasOwn(out, m.name)) out[m.name] = structuredClone(m.default);
      for (const [name, fill] of inner) if (Object.hasOwn(out, name)) out[name] = fill(out[name]);
      return out;
    };
  };
  const fillers = resource.fields.flatMap((f) => {
    const fill = fillerOf(f);
    return fill ? [[f.name, fill] as const] : [];
  });
  if (fillers.length === 0) return undefined;
  return (values) => {
    for (const [name, fill] of fillers) if (Object.hasOwn(values, name)) values[name] = fill(values[name]);
  };
}

/**
 * A replace with `upsert: true` naming no object: the object is made with the path's identifier, validated as a
 * create's body (its required fields, defaults, initial state, owner and create events), answered 201 with Location.
 */
function createUpsert(
  route: OperationRoute,
  deps: ActionDeps,
  idField: FieldModel,
  touch: (row: Row, creating: boolean) => void,
  nested: ReturnType<typeof getNestedPaths>,
  present: Present,
): Upsert {
  const { ctx, compile, events } = deps;
  const { model } = ctx;
  const op = route.operation;
  const resource = route.resource!;
  // The create view takes the identifier (identifier_source: client); request_fields narrow it as the replace's.
  const asCreate = { action: 'create' as const, requestFields: op.requestFields && [...op.requestFields, idField.name], bindings: op.bindings };
  const validate = compile(getRequestSchema(model, resource, asCreate, 'create', { safeIntegers: true }), resource);
  const unsourced = getUnsourcedFields(resource, asCreate);
  const newRow = createRowMaker(route, idField, touch, nested, route.machine ? getStateField(model, route.machine) : undefined);
  const readRoute = getModelIndex(model).readOf.get(resource.name);
  // `location: false`: the spec says its 201 answers no Location (an imported document's that declares none).
  const locationOf =
    op.location !== false && readRoute && !readRoute.bindings
      ? createLocation(route, readRoute.path, (p) => (p === readRoute.pathParams[0] ? { column: idField.name } : undefined))
      : undefined;
  return {
    status: getDefaultSuccessStatus('create', true),
    async insert(tx, request, body, id) {
      if (unsourced.length > 0) throw unsourcedError(op.id, resource.name, unsourced);
      const given = { ...body, [idField.name]: id };
      validate(given);
      const created = await tx.insert(resource.name, newRow(request, given));
      await events.emit(tx, resource, { action: 'create' }, present(created, request));
      return created;
    },
    location: (created, params) => locationOf?.(created, params),
  };
}

/** An object as answered: its address (if any) under the request's route parameters. */
type Present = (row: Row, request: FastifyRequest) => Record<string, unknown>;

function createBuiltInHandler(route: OperationRoute, deps: ActionDeps): RouteHandler {
  const { ctx, compile, events, fast, callbacks } = deps;
  const { model, storage } = ctx;
  const op = route.operation;
  const resource = route.resource;
  const status = route.successStatus;
  if (!resource) throw new Error(`operation ${op.id} has no resource`);
  const idField = resource.identifier !== undefined ? getField(resource, resource.identifier) : undefined;
  const idParam = route.identifierParam;
  // An object found by fields its path binds besides (or instead of) the identifier: by those fields' values.
  const bySearch = ADDRESSING_ACTIONS.has(op.action) && !isIdentifierOnly(resource, op) ? createPathValues(model, resource, op, compile, 'address') : undefined;
  const stateField = route.machine ? getStateField(model, route.machine) : undefined;
  // The times the server sets (an address is no stored value: the presenters' addresser fills it).
  const generated = resource.fields.filter((f) => f.generated !== undefined && f.generated !== 'address');
  // Nested fields a binding or unique key names: their columns follow their top-level fields on every write.
  const nested = getNestedPaths(model, resource);
  const presentStored = fast ? (row: Row) => presentRow(resource, row) : (row: Row) => presentRowPlain(resource, row);
  const addressed = createAddresser(model, route, resource);
  const present: Present = addressed ? (row, request) => presentStored(addressed(row, request)) : presentStored;
  const writeRow: (row: Row, request: FastifyRequest) => string = addressed
    ? (row, request) => writePresentedRow(resource, addressed(row, request))
    : (row) => writePresentedRow(resource, row);
  // etag: true (docs/format.md, "Conditional requests"): the answer's ETag, and If-Match on a one-object change
  // (whether it is required); undefined for every other resource, which reads no header and hashes nothing. The
  // stored object's: an address is the route's, not the object's.
  const tagOf = (row: Row) => computeETag(presentStored(row));
  const etagOf = answersETag(resource, op) ? tagOf : undefined;
  const ifMatch = isConditionalChange(resource, op) ? op.ifMatch === 'required' : undefined;
  // An enveloped answer is written as text around the data's text (runtime-envelope.ts); none: sendAnswer itself.
  const envelope = op.envelope ? createEnvelopeWriter(op, op.envelope) : undefined;
  const sendAnswer: Send = envelope ? createEnvelopedSend(envelope) : sendPlainAnswer;
  const touch = (row: Row, creating: boolean) => {
    if (generated.length === 0) return;
    // One clock reading, formatted once, for every generated time (created_at and updated_at agree).
    const t = ctx.now().toISOString();
    for (const f of generated) if (creating || f.generated === 'update_time') row[f.name] = nowValue(f, t);
  };

  switch (op.action) {
    case 'create': {
      const schema = getRequestSchema(model, resource, op, 'create', { safeIntegers: true });
      const validate = compile(schema, resource);
      const dropUnknown = createUnknownDropper(op, schema);
      // A resource of several shapes: an ignored member is one the body's variant does not name (its tag says which).
      const variants = dropUnknown ? createVariantRequests(model, resource, op, 'create', compile) : undefined;
      const tagName = resource.variants?.discriminator;
      // Required fields its request_fields leave out with nothing to fill them: a gap (served only with allowGaps),
      // answered not_implemented once the request is valid; the service never makes a value up.
      const unsourced = getUnsourcedFields(resource, op);
      const unstated = getUnstatedValueFields(resource, op);
      const newRow = createRowMaker(route, idField, touch, nested, stateField);
      // A create that emits no event is one statement: where the storage can, it commits at once, in this turn.
      const index = getModelIndex(model);
      const emits = index.createEmitters.has(resource.name);
      const readRoute = index.readOf.get(resource.name);
      // `location: false`: the create answers no Location (getCreateLocation says the same to the export and the tester).
      const locationOf =
        op.location !== false && readRoute && (idField || readRoute.bindings)
          ? createLocation(route, readRoute.path, readParamSource(model, resource, readRoute, op, idField?.name))
          : undefined;
      // A create whose path binds fields (\`bind\`): the path's values are the body's, and a body value must agree.
      const pathValues = createPathValues(model, resource, op, compile, 'scope');
      const bound = pathValues ? getResolvedBindings(resource, op) : EMPTY_BINDINGS;
      // Those the body writes go in before validation (a value it gives must agree); a read-only one the path gives
      // (a task's project_id) after it: the body may not carry it at all, as any read-only field.
      const written = getWrittenBindings(resource, bound, 'create');
      const given = bound.filter((b) => !written.includes(b));
      const answer = (created: Row, request: FastifyRequest, reply: FastifyReply) => {
        const location = locationOf?.(created, request.params as Record<string, string>);
        if (location !== undefined) reply.header('location', location);
        if (etagOf) reply.header('etag', etagOf(created));
        return sendAnswer(request, reply, status, present(created, request));
      };
      const insert = (tx: StorageTx, row: Row, request: FastifyRequest) =>
        tx.insert(resource.name, row).then(async (out) => (await events.emit(tx, resource, { action: 'create' }, present(out, request)), out));
      // The request is valid by now: a failed CHECK on an integer identifier with a maximum is the counter past it,
      // the service's own limit, not the client's mistake.
      const idMax = idField?.type === 'integer' ? (idField.maximum ?? idField.exclusiveMaximum) : undefined;
      const mapCreateError =
        idMax === undefined
          ? mapStorageError
          : (err: unknown) =>
              err instanceof StorageConstraintError && err.kind === 'check_failed' && (err.column === undefined || err.column === idField!.name)
                ? new ServiceError(
                    'internal',
                    `no ${resource.name} identifier is left: they count from 1 ${idField!.maximum !== undefined ? `to ${idField!.maximum}` : `while below ${idMax}`}`,
                  )
                : mapStorageError(err);
      // A path naming its parent by a ref (a task's project_id): the storage's reference error for it is the parent
      // missing (missing_resource), found by the insert itself, never checked before it (a parent deleted between
      // would slip through); mapParentError tells it from another ref's where the storage names no column.
      const parents = pathValues ? getParentRefBindings(resource, op) : EMPTY_BINDINGS;
      const refColumns = parents.length > 0 ? resource.fields.filter((f) => f.type === 'ref').map((f) => f.name) : [];
      const parentKept = getParentBinding(op) !== undefined;
      const failCreate = (err: unknown, row: Row): never | Promise<never> => {
        if (parentKept && err instanceof StorageConstraintError && err.kind === 'reference_not_found')
          return mapKeptParentError(model, storage, resource, err, row).then((e) => {
            throw e ?? mapCreateError(err);
          });
        if (parents.length === 0 || !(err instanceof StorageConstraintError) || err.kind !== 'reference_not_found') throw mapCreateError(err);
        return mapParentError(model, storage, parents, refColumns, err, row).then((e) => {
          throw e ?? mapCreateError(err);
        });
      };
      const create = (request: FastifyRequest, reply: FastifyReply, body: Record<string, unknown>) => {
        const row = newRow(request, body);
        // A client-given identifier is in the body (required, validated); otherwise the server makes it.
        if (idField && resource.identifierSource === 'server') {
          if (idField.type === 'uuid') row[idField.name] = uuidv7();
          else if (idField.type === 'string' && row[idField.name] === undefined) row[idField.name] = randomBytes(STRING_IDENTIFIER_BYTES).toString('base64url');
        }
        const keyed = request.keyedChange;
        // With callbacks, the subscription is stored after the commit: the plain paths below, which wait for it.
        const writer = emits || callbacks || !fast ? undefined : storage.writeNow?.();
        if (keyed && writer) {
          // Claim, change and answer in one transaction run in this turn: no queue, no promise, no timer.
          request.deadline?.throwIfAborted();
          let text: string;
          let location: string | undefined;
          let etag: string | undefined;
          try {
            const stored = writer.insertStored !== undefined && isCurrentShape(model, request);
            writer.transaction(() => {
              const created = stored ? writer.insertStored!(resource.name, row) : writer.insert(resource.name, row);
              location = locationOf?.(created, request.params as Record<string, string>);
              etag = etagOf?.(created);
              reply.code(status);
              text = stored ? writeRow(created, request) : (reply.serialize(present(created, request)) as string);
              if (envelope) text = envelope(text, request, status);
              let headers: Record<string, string> = { 'content-type': getAnswerType(reply) };
              if (location !== undefined) headers = { ...headers, location };
              if (etag !== undefined) headers = { ...headers, etag };
              keyed.keepNow(writer, status, headers, text);
              request.deadline?.throwIfAborted();
            });
          } catch (err) {
            const held = keyed.answer(err, request, reply);
            if (held !== undefined) return held;
            // Rolled back at its time-out: the time-out's answer is not kept for the key, which stays free.
            if (request.deadline?.aborted) request.deadline.answeredBy = 'timeout';
            return failCreate(err, row);
          }
          if (location !== undefined) reply.header('location', location);
          if (etag !== undefined) reply.header('etag', etag);
          return sendPlainAnswer(request, reply.type(getAnswerType(reply)), status, text!);
        }
        if (keyed) {
          // Claim, change and answer in one transaction: the answer is serialised here, as it will be sent.
          return storage
            .transaction(async (tx) => {
              await keyed.open?.(tx);
              const created = await insert(tx, row, request);
              const location = locationOf?.(created, request.params as Record<string, string>);
              const etag = etagOf?.(created);
              reply.code(status);
              let text = reply.serialize(present(created, request)) as string;
              if (envelope) text = envelope(text, request, status);
              await keyed.keep(
                tx,
                status,
                { 'content-type': getAnswerType(reply), ...(location !== undefined ? { location } : {}), ...(etag !== undefined ? { etag } : {}) },
                text,
              );
              return { text, location, etag, created };
            }, request.deadline)
            .then(
              async ({ text, location, etag, created }) => {
                await callbacks?.subscribe(request, body, present(created, request));
                if (location !== undefined) reply.header('location', location);
                if (etag !== undefined) reply.header('etag', etag);
                return sendPlainAnswer(request, reply.type(getAnswerType(reply)), status, text);
              },
              (err: unknown) => {
                const held = keyed.answer(err, request, reply);
                if (held !== undefined) return held;
                return failCreate(err, row);
              },
            );
        }
        if (writer) {
          request.deadline?.throwIfAborted();
          const stored = writer.insertStored !== undefined && isCurrentShape(model, request);
          let created: Row;
          try {
            created = stored ? writer.insertStored!(resource.name, row) : writer.insert(resource.name, row);
          } catch (err) {
            return failCreate(err, row);
          }
          if (!stored) return answer(created, request, reply);
          const location = locationOf?.(created, request.params as Record<string, string>);
          if (location !== undefined) reply.header('location', location);
          if (etagOf) reply.header('etag', etagOf(created));
          return sendAnswer(request, reply.type(getAnswerType(reply)), status, writeRow(created, request));
        }
        return storage
          .transaction((tx) => insert(tx, row, request), request.deadline)
          .then(
            callbacks
              ? async (created) => (await callbacks.subscribe(request, body, present(created, request)), answer(created, request, reply))
              : (created) => answer(created, request, reply),
            (err: unknown) => failCreate(err, row),
          );
      };
      return (request, reply) => {
        let body = requireObjectBody(request);
        if (dropUnknown) body = dropUnknown(body, variants?.get(body[tagName!] as string)?.named);
        const values = pathValues?.(request.params as Record<string, string>);
        if (values && written.length > 0) body = mergePathValues(body, values, written);
        validate(body);
        if (values && given.length > 0) body = mergePathValues(body, values, given);
        // The parent's identifier (its hidden column), found by createParentResolver: after validation, as no body holds it.
        if (parentKept) body = { ...body, [PARENT_COLUMN]: values![PARENT_COLUMN] };
        if (unsourced.length > 0) throw unsourcedError(op.id, resource.name, unsourced);
        if (unstated.length > 0) {
          const e = unstatedValueError(op.id, resource.name, unstated, body);
          if (e) throw e;
        }
        if (callbacks) return callbacks.check(request, body).then(() => create(request, reply, body));
        return create(request, reply, body);
      };
    }
    case 'read': {
      // etag: the object's tag on the answer; If-None-Match naming it (or `*`) is answered 304 with the tag, no body.
      const notModified = (row: Row, request: FastifyRequest, reply: FastifyReply): boolean => {
        const etag = etagOf!(row);
        reply.header('etag', etag);
        return matchesIfNoneMatch(request, etag);
      };
      const answer = etagOf
        ? (row: Row | undefined, request: FastifyRequest, reply: FastifyReply) => {
            const visible = checkVisible(resource, row, request);
            if (notModified(visible, request, reply)) return sendPlainAnswer(request, reply, 304, undefined);
            return sendAnswer(request, reply, status, present(visible, request));
          }
        : (row: Row | undefined, request: FastifyRequest, reply: FastifyReply) =>
            sendAnswer(request, reply, status, present(checkVisible(resource, row, request), request));
      if (bySearch) {
        // Found by its bound fields (\`bind\`): the one row holding the path's values.
        return (request, reply) => {
          const q: ListQuery = { equals: bySearch(request.params as Record<string, string>), limit: 1 };
          // Nothing holds the path's values: said as the update's and the delete's are (findBoundId).
          const found = (row: Row | undefined) => {
            if (!row) throw new ServiceError('missing_resource', missingBoundMessage(resource, q.equals!));
            return answer(row, request, reply);
          };
          const reader = fast ? storage.readNow?.() : undefined;
          if (reader) return found(reader.list(resource.name, q)[0]);
          return storage.read((tx) => tx.list(resource.name, q)).then((rows) => found(rows[0]));
        };
      }
      return (request, reply) => {
        const id = parseId(resource, idField, (request.params as Record<string, string>)[idParam ?? '']);
        const reader = fast ? storage.readNow?.() : undefined;
        if (reader?.getStored && isCurrentShape(model, request)) {
          const visible = checkVisible(resource, reader.getStored(resource.name, id), request);
          if (etagOf && notModified(visible, request, reply)) return sendPlainAnswer(request, reply, 304, undefined);
          const text = writeRow(visible, request);
          return sendAnswer(request, reply.type(getAnswerType(reply)), status, text);
        }
        if (reader) return answer(reader.get(resource.name, id), request, reply);
        return storage.read((tx) => tx.get(resource.name, id)).then((row) => answer(row, request, reply));
      };
    }
    case 'list':
      return createListHandler(route, deps);
    case 'update':
    case 'replace': {
      const view = op.action === 'update' ? 'update' : 'replace';
      const schema = getRequestSchema(model, resource, op, view, { safeIntegers: true });
      const validate = compile(schema, resource);
      const dropUnknown = createUnknownDropper(op, schema);
      const writable = getSchemaMembers(getRequestSchema(model, resource, op, 'replace'));
      // A resource of several shapes: a body is its stored object's variant's (validated once that object is read).
      const variants = createVariantRequests(model, resource, op, view, compile);
      const tagName = resource.variants?.discriminator;
      // A replace sets what a create with the same body would: a field left out takes its default, or is cleared.
      // With request_fields, only the fields it takes: the others are not this operation's to write, and keep theirs.
      const leftOut = Object.keys(writable).map((name) => getField(resource, name)!);
      // An update event's previous values leave write-only fields out, as the object does (empty for most resources).
      const unanswered = new Set(resource.fields.filter((f) => f.writeOnly).map((f) => f.name));
      // Bound fields the body writes (\`bind\`): they must keep the path's values, or the change would move the object.
      const written = bySearch ? getWrittenBindings(resource, getResolvedBindings(resource, op), view) : EMPTY_BINDINGS;
      const fill = view === 'replace' ? 'always' : 'in-sent';
      const unstated = getUnstatedValueFields(resource, op);
      // A JSON merge patch (request_media_type): nulls remove, objects merge into the stored ones (runtime-merge-patch.ts).
      const patching = isMergePatch(op);
      const takes = patching ? new Set(Object.keys(getSchemaMembers(schema))) : new Set<string>();
      const upsert = op.upsert && view === 'replace' && !bySearch && idField ? createUpsert(route, deps, idField, touch, nested, present) : undefined;
      const fillNested = getNestedDefaultsFiller(resource);
      return async (request, reply) => {
        const params = request.params as Record<string, string>;
        const bound = bySearch?.(params);
        const pathId = bound ? undefined : parseId(resource, idField, params[idParam ?? '']);
        let body = requireObjectBody(request);
        if (dropUnknown) body = dropUnknown(body);
        if (patching) checkMergePatchNulls(resource, body);
        if (bound && written.length > 0) body = mergePathValues(body, bound, written, fill);
        // A patch's objects are checked once merged into the stored ones; the rest before anything is read (a resource
        // of several shapes: once its stored object says which variant the body is).
        if (!variants) validate(patching ? getMergePatchScalars(resource, body, takes) : body);
        if (unstated.length > 0) {
          // A field an older version does not know keeps its stored value (request.keepFields): not left out.
          const e = unstatedValueError(op.id, resource.name, request.keepFields ? unstated.filter((f) => !request.keepFields!.includes(f)) : unstated, body);
          if (e) throw e;
        }
        let made = false;
        const work = async (tx: StorageTx) => {
          const id = bound ? await findBoundId(tx, resource, bound) : pathId;
          // upsert: no object has the path's identifier, so the request makes it, as a create would.
          const found = upsert ? await tx.get(resource.name, id) : undefined;
          if (upsert && found === undefined) {
            // If-Match names an object there is not: it does not match (a create by PUT sends none).
            if (ifMatch !== undefined && request.headers['if-match'] !== undefined) checkIfMatch(request, resource, undefined, false, tagOf);
            return ((made = true), await upsert.insert(tx, request, body, id));
          }
          const before = found !== undefined ? checkVisible(resource, found, request) : await getVisible(tx, resource, id, request);
          // Compared with the row as read for this change (held to the commit): of two changes sending one tag, one wins.
          if (ifMatch !== undefined) checkIfMatch(request, resource, before, ifMatch, tagOf);
          let sent = body;
          let check = validate;
          const variant = variants?.get(before[tagName!] as string);
          if (variant) {
            // The stored object's variant: a member of another is an unknown one (refused, or dropped by `ignore`).
            check = variant.validate;
            if (dropUnknown) sent = dropUnknown(sent, variant.named);
            check(patching ? getMergePatchScalars(resource, sent, variant.named) : sent);
          } else if (variants) {
            // A stored tag of no variant (a row written outside the service): the body is still held to the union.
            validate(patching ? getMergePatchScalars(resource, sent, takes) : sent);
          }
          let changes: Row = { ...sent };
          if (patching) {
            const merged = mergePatchChanges(resource, before, sent);
            check(merged.body);
            changes = merged.changes;
          }
          // Cleared: absent (undefined), which storage keeps apart from null.
          if (view === 'replace')
            for (const f of leftOut) if (!Object.hasOwn(sent, f.name)) changes[f.name] = f.hasDefault ? structuredClone(f.default) : undefined;
          for (const name of request.keepFields ?? []) delete changes[name];
          // An object written whole takes its members' defaults; a merge patch's merges into the stored one instead.
          if (fillNested && !patching) fillNested(changes);
          touch(changes, false);
          if (nested.length > 0) withNestedColumns(nested, changes);
          const after = await tx.update(resource.name, id, changes);
          if (!after) throw missingObject(resource);
          const previous: Record<string, unknown> = {};
          for (const k of Object.keys(changes))
            if (JSON.stringify(before[k]) !== JSON.stringify(after[k]) && !(unanswered.size > 0 && unanswered.has(k))) previous[k] = before[k];
          await events.emit(tx, resource, { action: 'update' }, present(after, request), previous);
          return after;
        };
        const keyed = request.keyedChange;
        if (keyed)
          return changeKeyed(
            storage,
            request,
            reply,
            keyed,
            () => (made ? upsert!.status : status),
            work,
            (row) => present(row, request),
            mapStorageError,
            envelope,
            (row) => (made ? upsert!.location(row, params) : undefined),
            etagOf,
          );
        const run = () => storage.transaction(work, request.deadline);
        const updated = await run()
          // Another upsert made the object between this one's read and insert (a unique conflict): it is there now, replaced.
          .catch((err: unknown) =>
            made && err instanceof StorageConstraintError && err.kind === 'unique_conflict' ? ((made = false), run()) : Promise.reject(err),
          )
          .catch((err: unknown) => {
            throw mapStorageError(err);
          });
        if (etagOf) reply.header('etag', etagOf(updated));
        if (!made) return sendAnswer(request, reply, status, present(updated, request));
        const location = upsert!.location(updated, params);
        if (location !== undefined) reply.header('location', location);
        return sendAnswer(request, reply, upsert!.status, present(updated, request));
      };
    }
    case 'delete': {
      const mapDeleteError = (err: unknown) =>
        err instanceof StorageConstraintError && err.kind === 'reference_not_found'
          ? new ServiceError('in_use', `other objects still refer to this ${resource.name}`)
          : mapStorageError(err);
      // The deleted object as it was, where the operation answers it (its \`response\`); else no body, whatever the status.
      const answerOf = op.response !== undefined ? (before: Row, request: FastifyRequest) => present(before, request) : () => undefined;
      return async (request, reply) => {
        const params = request.params as Record<string, string>;
        const bound = bySearch?.(params);
        const pathId = bound ? undefined : parseId(resource, idField, params[idParam ?? '']);
        const work = async (tx: StorageTx) => {
          const id = bound ? await findBoundId(tx, resource, bound) : pathId;
          const before = await getVisible(tx, resource, id, request);
          if (ifMatch !== undefined) checkIfMatch(request, resource, before, ifMatch, tagOf);
          const gone = await tx.delete(resource.name, id);
          if (!gone) throw missingObject(resource);
          await events.emit(tx, resource, { action: 'delete' }, present(before, request));
          return before;
        };
        const keyed = request.keyedChange;
        if (keyed) return changeKeyed(storage, request, reply, keyed, status, work, (before) => answerOf(before, request), mapDeleteError);
        const before = await storage.transaction(work, request.deadline).catch((err: unknown) => {
          throw mapDeleteError(err);
        });
        return sendAnswer(request, reply, status, answerOf(before, request));
      };
    }
    case 'transition': {
      const machine = route.machine;
      const t = route.transition;
      if (!machine || !t || !stateField) throw new Error(`operation ${op.id} has no transition`);
      const validate = compile(getTransitionSchema(model, resource, t.requires, { safeIntegers: true }), resource);
      const stamp = t.stamp !== undefined ? getField(resource, t.stamp) : undefined;
      // A bound field the transition requires keeps the path's value, as in an update.
      const written = bySearch ? getWrittenBindings(resource, getResolvedBindings(resource, op), 'update') : EMPTY_BINDINGS;
      return async (request, reply) => {
        const params = request.params as Record<string, string>;
        const bound = bySearch?.(params);
        const pathId = bound ? undefined : parseId(resource, idField, params[idParam ?? '']);
        let body = request.body === undefined ? {} : requireObjectBody(request);
        if (bound && written.length > 0) body = mergePathValues(body, bound, written, 'in-sent');
        validate(body);
        const work = async (tx: StorageTx) => {
          const id = bound ? await findBoundId(tx, resource, bound) : pathId;
          const before = await getVisible(tx, resource, id, request);
          if (ifMatch !== undefined) checkIfMatch(request, resource, before, ifMatch, tagOf);
          const from = before[stateField] as string;
          if (!t.from.includes(from)) {
            const terminal = machine.states.find((s) => s.name === from)?.terminal;
            throw new ServiceError(
              'illegal_transition',
              `${t.name} is not allowed from state ${from}${terminal ? ' (a terminal state)' : ''}; it needs ${t.from.join(' or ')}`,
            );
          }
          const merged = { ...before, ...body };
          const missing = t.requires.filter((f) => merged[f] === undefined || merged[f] === null);
          if (missing.length > 0) {
            throw new ServiceError(
              'validation',
              `${t.name} needs ${missing.join(', ')}`,
              missing.map((f) => ({ pointer: `/${f}`, message: 'is required by this transition' })),
            );
          }
          const changes: Row = { ...body, [stateField]: t.to };
          if (stamp) changes[stamp.name] = nowValue(stamp, ctx.now());
          touch(changes, false);
          if (nested.length > 0) withNestedColumns(nested, changes);
          // Compare-and-set on the state: of two concurrent transitions from one state, one wins.
          const out = await tx.update(resource.name, id, changes, { column: stateField, value: from });
          if (!out) throw new ServiceError('illegal_transition', `the ${resource.name} changed state while ${t.name} was running`);
          await events.emit(tx, resource, { action: 'transition', transition: t.name }, present(out, request), { [stateField]: from });
          return out;
        };
        const keyed = request.keyedChange;
        if (keyed)
          return changeKeyed(storage, request, reply, keyed, status, work, (row) => present(row, request), mapStorageError, envelope, undefined, etagOf);
        const after = await storage.transaction(work, request.deadline).catch((err: unknown) => {
          throw mapStorageError(err);
        });
        if (etagOf) reply.header('etag', etagOf(after));
        return sendAnswer(request, reply, status, present(after, request));
      };
    }
    default:
      throw new Error(`unknown action ${op.action as string}`);
  }
}

const FILTERABLE = new Set<FieldModel['type']>(['string', 'integer', 'number', 'boolean', 'date', 'datetime', 'uuid', 'email', 'uri', 'enum', 'state', 'ref']);

type InvalidParameter = { parameter: string; in: 'query'; message: string };

/** A query parameter given at most once; given twice or more, it is listed as invalid. */
function getOneParameter(query: Record<string, unknown>, name: string, invalid: InvalidParameter[]): string | undefined {
  const v = ownValue(query, name);
  if (v === undefined) return undefined;
  if (typeof v !== 'string') {
    invalid.push({ parameter: name, in: 'query', message: 'must be given once' });
    return undefined;
  }
  return v;
}

/** The path the request named, as sent, without its query (a list's `paging.url`). */
function requestPath(request: FastifyRequest): string {
  const at = request.url.indexOf('?');
  return at < 0 ? request.url : request.url.slice(0, at);
}

function createListHandler(route: OperationRoute, deps: ActionDeps): RouteHandler {
  const { ctx } = deps;
  const resource = route.resource!;
  const op = route.operation;
  const pageSize = getPageSize(ctx.model, op);
  const pageDefault = pageSize.default ?? BUILT_IN.pageSizeDefault;
  const pageMax = pageSize.max ?? BUILT_IN.pageSizeMax;
  const clamp = pageSize.overMax === 'clamp';
  const maxName = pageSize.pointers.max.startsWith('/limits/') ? 'limits.page_size.max' : 'paging.page_size.max';
  const known = new Set(route.query.map((q) => q.name));
  const idName = getRowKey(resource);
  // A filter value is checked against the field's schema, the one the export declares for the parameter: a value
  // no object can hold (an unknown state, a malformed UUID) is refused, not answered with an empty page.
  const filters = new Map<string, { type: FieldModel['type']; check: Validator }>();
  for (const q of route.query) {
    if (q.kind !== 'filter' || !q.field || !FILTERABLE.has(q.field.type)) continue;
    const target = q.field.type === 'ref' ? getResource(ctx.model, q.field.to) : undefined;
    const type = target?.identifier !== undefined ? (getField(target, target.identifier)?.type ?? 'string') : q.field.type;
    filters.set(q.name, { type, check: deps.compile(getFieldSchema(ctx.model, { ...q.field, nullable: false }, resource, { safeIntegers: true }), resource) });
  }
  // answer_fields: the list's own presenter and writer of those fields; else the resource's (nothing more per request).
  const subset = op.answerFields !== undefined ? createSubsetPresenters(resource, op.answerFields, deps.fast) : undefined;
  const present = subset?.present ?? (deps.fast ? presentRow : presentRowPlain);
  const writeRow = subset?.write ?? writePresentedRow;
  const addressed = createAddresser(ctx.model, route, resource);
  // A list whose path binds fields (\`bind\`, a scope such as the owner): only the objects holding the path's values.
  const pathValues = createPathValues(ctx.model, resource, op, deps.compile, 'scope');
  // A parent the path names by a ref (a task's project_id): an empty page under a parent that is not there is
  // missing_resource, as a read of it is (an object under it is its being there: only an empty page asks).
  const parents = pathValues ? getParentRefBindings(resource, op) : EMPTY_BINDINGS;
  const paging = op.paging ?? DEFAULT_PAGING;
  // Style page's first number (paging.first_page: 0, Spring Data's), 1 by default.
  const firstPage = getFirstPage(paging);
  // paging.members: the page object's descriptive members, made only when declared (undefined: nothing per request).
  const members = paging.body === 'envelope' && paging.members !== undefined ? createPageMembers(paging.members, firstPage) : undefined;
  const envelope = op.envelope ? createEnvelopeWriter(op, op.envelope) : undefined;
  const sendAnswer: Send = envelope ? createEnvelopedSend(envelope) : sendPlainAnswer;
  // The page count is the total's too: the total is read for either.
  const envelopeTotal = op.envelope?.values.some((v) => v.source === 'total' || v.source === 'pages' || v.source === 'last_link') ?? false;
  const linked = new Set(op.envelope?.values.map((v) => v.source));
  // What an enveloped list answer carries of its page (undefined without an envelope: nothing is made per request).
  const listValues = (page: ListPage, count: number, next: [string, string] | null, request: FastifyRequest): EnvelopeListValues | undefined =>
    envelope && {
      total: page.total,
      count,
      offset: page.skip,
      limit: page.limit,
      page: getPageNumber(page, firstPage),
      nextCursor: paging.style === 'cursor' ? (next?.[1] ?? null) : null,
      pages: Math.ceil(page.total / page.limit),
      // The addresses are made only where the envelope has a field for them.
      // Written as the others are (its query through URLSearchParams): `page[size]` sent unencoded is no URI's.
      selfLink: linked.has('self_link') ? wholeAddress(request, pageReference(request)) : '',
      firstLink: linked.has('first_link') ? pageAddress(request, firstPosition()) : null,
      nextLink: linked.has('next_link') ? pageAddress(request, next) : null,
      previousLink: linked.has('previous_link') ? pageAddress(request, previousPosition(page)) : null,
      lastLink: linked.has('last_link') ? pageAddress(request, lastPosition(page)) : null,
    };
  // The paging parameters by the names the spec gives them (paging.params), else the format's.
  const sizeName = getPagingParamName(paging, 'limit');
  const offsetName = getPagingParamName(paging, 'offset');
  const pageName = getPagingParamName(paging, 'page');
  const cursorName = getPagingParamName(paging, 'cursor');
  const nextCursor = (rows: Row[], limit: number, sort: { column: string } | undefined, queryKey: string): string | null => {
    const last = rows.length > limit ? rows[limit - 1] : undefined;
    return last
      ? ctx.cursors.encode(
          { id: parsedValue(last[idName]), ...(sort && sort.column !== idName ? { value: parsedValue(last[sort.column]) ?? null } : {}) },
          queryKey,
        )
      : null;
  };
  // What the next page is asked with (its query parameter and value), null on the last page.
  const nextPosition = (page: ListPage): [string, string] | null => {
    if (page.rows.length <= page.limit) return null;
    if (paging.style === 'offset') return [offsetName, String(page.skip + page.limit)];
    if (paging.style === 'page') return [pageName, String(getPageNumber(page, firstPage) + 1)];
    if (paging.style === 'cursor') return [cursorName, nextCursor(page.rows, page.limit, page.sort, page.queryKey)!];
    // Style after: the next page starts after this page's last object, named by its identifier.
    if (paging.style === 'after') return [cursorName, String(parsedValue(page.rows[page.limit - 1]![idName]))];
    return null;
  };
  // What the page before is asked with (paging.previous_link: styles offset and page), null on the first page.
  const previousPosition = (page: ListPage): [string, string] | null => {
    if (page.skip === 0) return null;
    if (paging.style === 'offset') return [offsetName, String(Math.max(0, page.skip - page.limit))];
    if (paging.style === 'page') return [pageName, String(getPageNumber(page, firstPage) - 1)];
    return null;
  };
  // What the first page is asked with (an envelope's first_link): the first offset or page number; a cursor left out.
  const firstPosition = (): [string, string | undefined] => {
    if (paging.style === 'offset') return [offsetName, '0'];
    if (paging.style === 'page') return [pageName, String(firstPage)];
    return [cursorName, undefined];
  };
  // What the last page is asked with (an envelope's last_link: styles offset and page), the first's when nothing matches.
  const lastPosition = (page: ListPage): [string, string] | null => {
    const before = Math.max(Math.ceil(page.total / page.limit), 1) - 1;
    if (paging.style === 'offset') return [offsetName, String(before * page.limit)];
    if (paging.style === 'page') return [pageName, String(before + firstPage)];
    return null;
  };
  // Another page's address relative to this request's: its path and query, one value changed (or left out).
  const pageReference = (request: FastifyRequest, position?: [string, string | undefined]): string => {
    const at = request.url.indexOf('?');
    const params = new URLSearchParams(at < 0 ? '' : request.url.slice(at + 1));
    // No position: this page's own address.
    if (position !== undefined) {
      if (position[1] === undefined) params.delete(position[0]);
      else params.set(position[0], position[1]);
    }
    const query = params.toString();
    return query === '' ? requestPath(request) : `${requestPath(request)}?${query}`;
  };
  // A reference made whole: the request's scheme and Host before it; the reference alone for a request naming no host.
  const wholeAddress = (request: FastifyRequest, reference: string): string => {
    const host = request.host;
    return host ? `${request.protocol}://${host}${reference}` : reference;
  };
  // paging.next_link and previous_link: a whole address (Django REST Framework's next and previous), the
  // request's scheme and Host before the reference; the reference alone for a request that names no host.
  const pageAddress = (request: FastifyRequest, position: [string, string | undefined] | null): string | null =>
    position === null ? null : wholeAddress(request, pageReference(request, position));
  // RFC 8288: the next page's address as a reference relative to this request's.
  const setLink = (request: FastifyRequest, reply: FastifyReply, next: [string, string] | null) => {
    if (!paging.link || next === null) return;
    reply.header(LINK_HEADER, `<${pageReference(request, next)}>; rel="next"`);
  };
  // The page's headers: the Link to the next page, and the total (paging.total_header) on every page.
  const totalHeader = paging.totalHeader;
  const setHeaders = (page: ListPage, request: FastifyRequest, reply: FastifyReply, next: [string, string] | null) => {
    setLink(request, reply, next);
    if (totalHeader !== undefined) reply.header(totalHeader, String(page.total));
  };
  // The page count and the last page's number are the total's: the total is read for them.
  const membersCount = members !== undefined && paging.members!.some((m) => m.role === 'pages' || m.role === 'last_page');
  const answer = (page: ListPage, request: FastifyRequest, reply: FastifyReply) => {
    const count = Math.min(page.rows.length, page.limit);
    const items = new Array<Record<string, unknown>>(count);
    if (addressed === undefined) for (let i = 0; i < count; i++) items[i] = present(resource, page.rows[i]!);
    else for (let i = 0; i < count; i++) items[i] = present(resource, addressed(page.rows[i]!, request));
    const next = nextPosition(page);
    setHeaders(page, request, reply, next);
    if (paging.body === 'array') return sendAnswer(request, reply, route.successStatus, items, listValues(page, count, next, request));
    // paging.constants first, as Stripe writes `object` ahead of `data`.
    const body: Record<string, unknown> = { ...paging.constants, [paging.items]: items };
    // next_optional: left out on the last page rather than null.
    if (paging.style === 'cursor' && paging.next !== undefined && (next !== null || !paging.nextOptional)) body[paging.next] = next?.[1] ?? null;
    if (paging.total !== undefined) body[paging.total] = page.total;
    if (paging.hasMore !== undefined) body[paging.hasMore] = page.rows.length > page.limit;
    if (paging.url !== undefined) body[paging.url] = requestPath(request);
    if (paging.nextLink !== undefined) body[paging.nextLink] = pageAddress(request, next);
    if (paging.previousLink !== undefined) body[paging.previousLink] = pageAddress(request, previousPosition(page));
    if (members !== undefined) Object.assign(body, members(page, count));
    return sendAnswer(request, reply, route.successStatus, body, listValues(page, count, next, request));
  };
  // The page as JSON.stringify would write the answer above, from rows whose JSON values are their stored text.
  const itemsKey =
    paging.body === 'array'
      ? '['
      : `{${Object.entries(paging.constants ?? {})
          .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)},`)
          .join('')}${JSON.stringify(paging.items)}:[`;
  const answerStored = (page: ListPage, request: FastifyRequest, reply: FastifyReply) => {
    const count = Math.min(page.rows.length, page.limit);
    let text = itemsKey;
    for (let i = 0; i < count; i++)
      text += (i === 0 ? '' : ',') + writeRow(resource, addressed === undefined ? page.rows[i]! : addressed(page.rows[i]!, request));
    const next = nextPosition(page);
    setHeaders(page, request, reply, next);
    text += ']';
    if (paging.body === 'envelope') {
      if (paging.style === 'cursor' && paging.next !== undefined && (next !== null || !paging.nextOptional))
        text += `,${JSON.stringify(paging.next)}:${JSON.stringify(next?.[1] ?? null)}`;
      if (paging.total !== undefined) text += `,${JSON.stringify(paging.total)}:${page.total}`;
      if (paging.hasMore !== undefined) text += `,${JSON.stringify(paging.hasMore)}:${page.rows.length > page.limit}`;
      if (paging.url !== undefined) text += `,${JSON.stringify(paging.url)}:${JSON.stringify(requestPath(request))}`;
      if (paging.nextLink !== undefined) text += `,${JSON.stringify(paging.nextLink)}:${JSON.stringify(pageAddress(request, next))}`;
      if (paging.previousLink !== undefined) text += `,${JSON.stringify(paging.previousLink)}:${JSON.stringify(pageAddress(request, previousPosition(page)))}`;
      // The members as JSON.stringify writes them after the fields above: their object's text without its braces.
      if (members !== undefined) text += `,${JSON.stringify(members(page, count)).slice(1, -1)}`;
      text += '}';
    }
    return sendAnswer(request, reply.type(getAnswerType(reply)), route.successStatus, text, listValues(page, count, next, request));
  };
  // Reads a non-negative (or, with min 1, positive) integer parameter; undefined when left out or invalid.
  const readCount = (query: Record<string, unknown>, name: string, min: number, invalid: InvalidParameter[]): number | undefined => {
    const raw = getOneParameter(query, name, invalid);
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (!/^[0-9]+$/.test(raw) || n < min)
      invalid.push({ parameter: name, in: 'query', message: min === 0 ? 'must be a non-negative integer' : 'must be a positive integer' });
    else if (!Number.isSafeInteger(n)) invalid.push({ parameter: name, in: 'query', message: 'is too large' });
    else return n;
    return undefined;
  };
  const idField = resource.identifier !== undefined ? getField(resource, resource.identifier) : undefined;
  // Style after names an object of this list (its path's scope and the caller's own; filters aside, as Stripe's
  // starting_after may name an object the filter no longer matches): another is refused, naming the parameter.
  const checkAfter = (row: Row | undefined, scope: Record<string, unknown>) => {
    if (row !== undefined && Object.entries(scope).every(([k, v]) => String(parsedValue(row[k])) === String(v))) return;
    throw new ServiceError('validation', 'the query is not valid', [
      { parameter: cursorName, in: 'query', message: `names no ${resource.name} of this list (the last object of the page before)` },
    ]);
  };
  return (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const invalid: InvalidParameter[] = [];
    for (const name of Object.keys(query))
      if (!known.has(name)) invalid.push({ parameter: name, in: 'query', message: 'is not a parameter of this operation' });
    // Style none answers every matching object at once, at most the largest page: one more is read to tell.
    let limit = paging.style === 'none' ? pageMax : pageDefault;
    if (paging.style !== 'none') {
      const n = readCount(query, sizeName, 1, invalid);
      if (n !== undefined) {
        if (n > pageMax && !clamp) invalid.push({ parameter: sizeName, in: 'query', message: `must be at most ${pageMax}` });
        else limit = Math.min(n, pageMax);
      }
    }
    let skip = 0;
    if (paging.style === 'offset') skip = readCount(query, offsetName, 0, invalid) ?? 0;
    if (paging.style === 'page') {
      const number = readCount(query, pageName, firstPage, invalid) ?? firstPage;
      skip = (number - firstPage) * limit;
      if (!Number.isSafeInteger(skip)) invalid.push({ parameter: pageName, in: 'query', message: 'is too large' });
    }
    const equals: Record<string, unknown> = {};
    for (const q of route.query) {
      if (q.kind !== 'filter') continue;
      const raw = getOneParameter(query, q.name, invalid);
      if (raw === undefined) {
        // A required filter (`required_filters`) left out; only an absent filter asks, so a list declaring none pays nothing.
        if (q.required === true) invalid.push({ parameter: q.name, in: 'query', message: 'is required' });
        continue;
      }
      try {
        const filter = filters.get(q.name);
        const value = parseFilterValue(q.field, raw, filter?.type);
        if (value !== null) filter?.check(value);
        equals[q.name] = value;
      } catch (err) {
        invalid.push({
          parameter: q.name,
          in: 'query',
          message: err instanceof ServiceError ? (err.invalid?.[0]?.message ?? 'is not a valid value') : (err as Error).message,
        });
      }
    }
    let sort: { column: string; descending: boolean } | undefined;
    const sortParam = op.sortParam ?? LIST_PARAMS.sort;
    const rawSort = getOneParameter(query, sortParam, invalid);
    if (rawSort !== undefined) {
      const descending = rawSort.startsWith('-');
      const column = descending ? rawSort.slice(1) : rawSort;
      if (!op.sortValues.includes(rawSort)) invalid.push({ parameter: sortParam, in: 'query', message: `must be one of ${op.sortValues.join(', ')}` });
      else sort = { column, descending };
    }
    // The path's values win over a filter on the same field: the path names the collection.
    const scope: Record<string, unknown> = pathValues ? { ...pathValues(request.params as Record<string, string>) } : {};
    // Owners see only their own objects, whatever the filters say.
    const owner = getOwnerScope(resource, request);
    if (resource.owner !== undefined && owner !== undefined) scope[resource.owner] = owner;
    Object.assign(equals, scope);
    const queryKey = JSON.stringify([sort ?? null, Object.entries(equals).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);
    let after: KeysetPosition | undefined;
    if (paging.style === 'cursor') {
      const rawCursor = getOneParameter(query, cursorName, invalid);
      if (rawCursor !== undefined) {
        after = ctx.cursors.decode(rawCursor, queryKey);
        if (!after) invalid.push({ parameter: cursorName, in: 'query', message: 'is not a cursor this service issued for this query' });
      }
    }
    // Style after: the identifier of the object the page starts after (checked to be one of this list's below).
    let afterId: string | number | undefined;
    if (paging.style === 'after') {
      const raw = getOneParameter(query, cursorName, invalid);
      if (raw !== undefined) {
        try {
          afterId = parseId(resource, idField, raw);
          after = { id: afterId };
        } catch {
          invalid.push({ parameter: cursorName, in: 'query', message: `is not the identifier of a ${resource.name}` });
        }
      }
    }
    if (invalid.length > 0) throw new ServiceError('validation', 'the query is not valid', invalid);
    const q: ListQuery = { equals, ...(sort ? { sort } : {}), ...(after ? { after } : {}), limit: limit + 1, ...(skip > 0 ? { offset: skip } : {}) };
    const counting: ListQuery | undefined =
      (paging.total !== undefined && paging.body === 'envelope') || totalHeader !== undefined || envelopeTotal || membersCount
        ? { equals, limit: 0, count: true }
        : undefined;
    const page = (rows: Row[], counted: Row[] | undefined): ListPage => {
      // Never a silently cut list: more objects than one answer may hold are refused, and nothing is answered.
      if (paging.style === 'none' && rows.length > limit) {
        throw new ServiceError(
          'validation',
          `more than ${limit} objects match: a list without paging answers at most ${limit} (${maxName}); narrow it with its filters`,
        );
      }
      return { rows, limit, skip, sort, queryKey, total: counted ? Number(counted[0]?.count ?? 0) : 0 };
    };
    const reader = deps.fast ? ctx.storage.readNow?.() : undefined;
    if (reader) {
      const stored = reader.listStored !== undefined && isCurrentShape(ctx.model, request);
      if (afterId !== undefined) checkAfter(reader.get(resource.name, afterId), scope);
      const rows = stored ? reader.listStored!(resource.name, q) : reader.list(resource.name, q);
      if (rows.length === 0) for (const b of parents) if (reader.get(b.field.to!, equals[b.column]) === undefined) throw missingParent(ctx.model, b);
      const p = page(rows, counting && reader.list(resource.name, counting));
      return stored ? answerStored(p, request, reply) : answer(p, request, reply);
    }
    return (
      ctx.storage
        // A page and its total from one snapshot: a write committed between them would make them disagree.
        .read(
          async (tx) => {
            if (afterId !== undefined) checkAfter(await tx.get(resource.name, afterId), scope);
            const rows = await tx.list(resource.name, q);
            if (rows.length === 0) for (const b of parents) if ((await tx.get(b.field.to!, equals[b.column])) === undefined) throw missingParent(ctx.model, b);
            return page(rows, counting && (await tx.list(resource.name, counting)));
          },
          counting ? SNAPSHOT : undefined,
        )
        .then((p) => answer(p, request, reply))
    );
  };
}

/** A page's number, counted from `firstPage` (paging.first_page): the envelope's, the members', the neighbours'. */
function getPageNumber(page: ListPage, firstPage: number): number {
  return page.skip / page.limit + firstPage;
}

/**
 * paging.members: the page object's members of one page, as an object of the page's own fields (nested members
 * inside their objects), in the spec's order. Built anew for each page; the writer below is made once per list.
 */
function createPageMembers(members: readonly PageMemberModel[], firstPage: number): (page: ListPage, count: number) => Record<string, unknown> {
  const value = (role: PageMemberRole, page: ListPage, count: number): unknown => {
    switch (role) {
      case 'page':
        return getPageNumber(page, firstPage);
      case 'size':
        return page.limit;
      case 'pages':
        return Math.ceil(page.total / page.limit);
      case 'last_page':
        return Math.max(Math.ceil(page.total / page.limit), 1) - 1 + firstPage;
      case 'count':
        return count;
      case 'first':
        return page.skip === 0;
      case 'last':
        return page.rows.length <= page.limit;
      case 'empty':
        return count === 0;
      case 'offset':
        return page.skip;
      case 'from':
        return count === 0 ? null : page.skip + 1;
      case 'to':
        return count === 0 ? null : page.skip + count;
    }
  };
  return (page, count) => {
    const out: Record<string, unknown> = {};
    for (const m of members) {
      let at = out;
      for (let i = 0; i < m.path.length - 1; i++) at = (at[m.path[i]!] ??= {}) as Record<string, unknown>;
      at[m.path[m.path.length - 1]!] = value(m.role, page, count);
    }
    return out;
  };
}

const SNAPSHOT = { snapshot: true } as const;
const EMPTY_BINDINGS: readonly ResolvedBinding[] = Object.freeze([]);

/** One page read from storage: `limit + 1` rows (the extra one says a next page exists) and how it was asked for. */
interface ListPage {
  rows: Row[];
  limit: number;
  skip: number;
  sort: { column: string } | undefined;
  queryKey: string;
  total: number;
}

const EMPTY_HEADERS: ReadonlyMap<string, { name: string; value: HeaderValue }> = new Map();

/**
 * `ctx.fail(name)`: a condition answers as its declared code; an error code the operation can answer (its `errors:`,
 * getRouteErrors) answers as itself. Another name would reach the client as an answer no document lists: a TypeError,
 * logged and answered `internal`.
 */
function createHandlerFailure(model: ServiceModel, route: OperationRoute): (name: string, detail?: string) => Error {
  const codes = new Map(getRouteErrors(model, route).map((c) => [c.code, model.errors?.codes.find((x) => x.name === c.code)]));
  return (name, detail) => {
    if (Object.hasOwn(FALLBACK_STATUS, name)) return new ServiceError(name as Condition, detail);
    if (codes.has(name)) {
      // The condition is the code's own where it lists one (a metric or a log reads it); the answer is the code's.
      const when = codes.get(name)?.when[0];
      return new ServiceError(when ?? 'validation', detail, undefined, undefined, name);
    }
    return new TypeError(
      `ctx.fail('${name}') in the handler of operation ${route.operation.id}: neither a condition nor one of its error codes (${[...codes.keys()].join(', ') || 'none'})`,
    );
  };
}

function createCustomHandler(route: OperationRoute, deps: ActionDeps): RouteHandler {
  const { ctx, compile } = deps;
  const op = route.operation;
  const handler = op.handler !== undefined ? ctx.handlers[op.handler] : undefined;
  const readParameters = createParameterReader(ctx.model, route, compile);
  const validateIn =
    op.request && route.hasBody
      ? compile(getShapeSchema(ctx.model, op.request, 'create', { safeIntegers: true }), getResource(ctx.model, op.request.resource))
      : undefined;
  const validateOut = op.response ? compile(getShapeSchema(ctx.model, op.response, 'response', { serviceSetAbsent: true })) : undefined;
  const declaredHeaders = op.responseHeaders.length > 0 ? createHandlerHeaders(ctx.model, route, compile) : undefined;
  const failure = createHandlerFailure(ctx.model, route);
  // A form request (request.media_type): its text read as the declared fields, then validated as a JSON body is.
  const form = op.request?.mediaType === FORM_MEDIA_TYPE;
  return async (request, reply) => {
    let body: unknown;
    if (validateIn) {
      // A list request (`request: { list: true }`, a bulk endpoint's array of objects) is an array, its schema's to judge.
      body = form
        ? readFormBody(op.request!.fields ?? [], request.body as FormBody | undefined)
        : op.request!.list
          ? requireBody(request)
          : requireObjectBody(request);
      validateIn(body);
    }
    const declared = readParameters?.(request);
    // Served without its handler only with allowGaps (the service logged it as a gap): a request the spec accepts
    // is answered not_implemented; one it refuses gets its declared error first.
    if (!handler)
      throw new ServiceError(
        'not_implemented',
        `operation ${op.id} is not implemented: ${op.handler === undefined ? 'the spec names no handler' : `no handler ${op.handler} was given`}`,
      );
    // With an Idempotency-Key claimed before the work, whether the handler wrote anything decides what its failure
    // leaves: nothing written, the key is released (a retry runs again); something written, its answer is kept.
    const writes = request.idempotencyClaim !== undefined ? { made: false } : undefined;
    const bound = request.deadline ? boundToDeadline(ctx.storage, request.deadline) : ctx.storage;
    try {
      return await runHandler(request, reply, writes ? noteWrites(bound, writes) : bound, body, declared);
    } catch (err) {
      if (writes && !writes.made && (!(err instanceof ServiceError) || err.condition === 'internal')) markUnapplied(request);
      throw err;
    }
  };

  async function runHandler(
    request: FastifyRequest,
    reply: FastifyReply,
    storage: Storage,
    body: unknown,
    declared: ReturnType<NonNullable<typeof readParameters>> | undefined,
  ): Promise<unknown> {
    // Made on the first ctx.header: a handler that sets none costs nothing.
    let headersSet: Map<string, { name: string; value: HeaderValue }> | undefined;
    const result = await handler!({
      body,
      params: request.params as Record<string, string>,
      query: declared?.query ?? (request.query as Record<string, unknown>),
      headers: declared?.headers ?? {},
      ...(request.principal ? { principal: request.principal } : {}),
      ...(request.specVersion !== undefined ? { version: request.specVersion } : {}),
      storage,
      log: request.log,
      ...(request.deadline ? { signal: request.deadline.signal } : {}),
      fail: (name, detail) => {
        throw failure(name, detail);
      },
      header: (name, value) => createHeaderSetter((headersSet ??= new Map()))(name, value),
    });
    if (reply.sent && request.deadline?.answeredBy !== 'timeout') return reply;
    if (validateOut) {
      try {
        validateOut(result);
      } catch (err) {
        request.log.error(
          { operation: op.id, invalid: (err as ServiceError).invalid },
          'custom handler returned a body that does not match the declared response shape',
        );
        throw new ServiceError('internal', 'the service produced an invalid response');
      }
    }
    if (declaredHeaders) declaredHeaders.apply(headersSet ?? EMPTY_HEADERS, reply, request.log);
    else if (headersSet) for (const { name, value } of headersSet.values()) reply.header(name, formatHeaderValue(value));
    // Answers are JSON: a string the handler returns is a JSON string (Fastify would send it as text/plain, as is).
    const payload = typeof result === 'string' ? JSON.stringify(result) : result;
    if (typeof result === 'string') reply.type(getAnswerType(reply));
    // Past the time-out (it answered, or a handler blocked the event loop past it) the result is late, not sent.
    if (request.deadline?.aborted) return toLateAnswer(reply, route.successStatus, result);
    return sendPlainAnswer(request, reply, route.successStatus, payload);
  }
}

/** Storage methods that change nothing (a transaction counts as a write once it commits). */
const STORAGE_READS = new Set<PropertyKey>([
  'read',
  'readNow',
  'findCredential',
  'findCredentialNow',
  'listCredentials',
  'findRecord',
  'findRecordNow',
  'getSetting',
  'readEvents',
  'readOutbox',
  'lastOutboxSeq',
  'getWebhookEndpoint',
  'listWebhookEndpoints',
  'nextDeliveryAt',
  'listDeliveries',
  'dialect',
]);

/** The handler's storage, noting in `writes` a committed transaction or a call to any method that may write. */
function noteWrites(storage: Storage, writes: { made: boolean }): Storage {
  const transaction: Storage['transaction'] = (work, signal) =>
    storage.transaction(work, signal).then((out) => {
      writes.made = true;
      return out;
    });
  return new Proxy(storage, {
    get(target, prop) {
      if (prop === 'transaction') return transaction;
      const v: unknown = Reflect.get(target, prop, target);
      if (typeof v !== 'function') return v;
      const f = (v as (...args: unknown[]) => unknown).bind(target);
      if (STORAGE_READS.has(prop)) return f;
      return (...args: unknown[]) => {
        writes.made = true;
        return f(...args);
      };
    },
  });
}
