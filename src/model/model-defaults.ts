// The defaults the format itself defines (docs/format.md lists them): the one place each is written.

import { STATUS_CODES } from 'node:http';
import type { Action, Condition, PageMemberRole, PagingRole } from '../spec/spec-types.js';
import { getFieldAt } from './model-path-bindings.js';
import type {
  DeclaredErrorBodyModel,
  ErrorBodyModel,
  ErrorCodeModel,
  EventKindModel,
  FieldModel,
  OperationModel,
  PagingModel,
  SchemeModel,
  ServiceModel,
} from './model-types.js';

/** Response field names the format defines for a list page (the envelope's, when `paging` names none). */
export const PAGE_FIELDS = { items: 'items', next: 'next_cursor' } as const;

/** A list's paging when the spec states none: the cursor envelope `{ items, next_cursor }`, no total, no Link header. */
export const DEFAULT_PAGING: Omit<PagingModel, 'declared'> = Object.freeze({
  style: 'cursor',
  body: 'envelope',
  items: PAGE_FIELDS.items,
  next: PAGE_FIELDS.next,
  link: false,
  params: Object.freeze({}),
});

/** Query parameter names the format defines for list operations, by paging style (docs/format.md). */
export const LIST_PARAMS = { limit: 'limit', cursor: 'cursor', sort: 'sort', offset: 'offset', page: 'page', perPage: 'per_page' } as const;

/** The query parameter names the format gives each paging role when `paging.params` names none (docs/format.md). */
export const PAGING_PARAM_DEFAULTS: Readonly<Record<PagingRole, string>> = Object.freeze({
  limit: LIST_PARAMS.limit,
  cursor: LIST_PARAMS.cursor,
  offset: LIST_PARAMS.offset,
  page: LIST_PARAMS.page,
});

/** Style after's cursor parameter by default: the identifier of the last object of the page before (Stripe's). */
export const AFTER_PARAM = 'starting_after';

/** The query parameter name a list reads for a paging role: the spec's `paging.params`, else the format's default. */
export function getPagingParamName(p: Pick<PagingModel, 'style' | 'params'> | undefined, role: PagingRole): string {
  const named = p?.params[role];
  if (named !== undefined) return named;
  if (role === 'cursor' && p?.style === 'after') return AFTER_PARAM;
  return role === 'limit' && p?.style === 'page' ? LIST_PARAMS.perPage : PAGING_PARAM_DEFAULTS[role];
}

/** The first page's number of a list paged by style page: 0 (`paging.first_page: 0`) or, by default, 1. */
export function getFirstPage(p: Pick<PagingModel, 'firstPage'> | undefined): number {
  return p?.firstPage ?? 1;
}

/** The page member roles, in the order the format lists them (docs/format.md, "List shapes"). */
export const PAGE_MEMBER_ROLES: readonly PageMemberRole[] = Object.freeze([
  'page',
  'size',
  'pages',
  'last_page',
  'count',
  'first',
  'last',
  'empty',
  'offset',
  'from',
  'to',
] as const);

/** The paging styles a page member role can be answered with (a page number needs style page; a position, a page size). */
export const PAGE_MEMBER_STYLES: Readonly<Record<PageMemberRole, readonly string[]>> = Object.freeze({
  page: ['page'],
  last_page: ['page'],
  pages: ['page', 'offset'],
  size: ['page', 'offset'],
  offset: ['page', 'offset'],
  from: ['page', 'offset'],
  to: ['page', 'offset'],
  first: ['page', 'offset'],
  last: ['page', 'offset', 'cursor', 'after'],
  count: ['page', 'offset', 'cursor', 'after', 'limit', 'none'],
  empty: ['page', 'offset', 'cursor', 'after', 'limit', 'none'],
});

/** Whether a page member is an integer (the others are booleans; from and to are null on an empty page). */
export function isIntegerPageMember(role: PageMemberRole): boolean {
  return role !== 'first' && role !== 'last' && role !== 'empty';
}

/** An event's delivery body when its kind states none: the envelope `{ id, type, timestamp, data: { object } }`. */
export const DEFAULT_EVENT_BODY = 'envelope';

/** Whether a kind's deliveries (webhook bodies, stream `data`) are its payload itself rather than the envelope. */
export function isRawEvent(k: Pick<EventKindModel, 'body'>): boolean {
  return (k.body ?? DEFAULT_EVENT_BODY) === 'raw';
}

/** The success status the format defines for each action when an operation does not declare one. */
export const DEFAULT_SUCCESS_STATUS: Readonly<Record<Action, number>> = {
  create: 201,
  read: 200,
  update: 200,
  replace: 200,
  delete: 204,
  list: 200,
  transition: 200,
  custom: 200,
};

/** An operation's success status when it declares none: a delete answering the deleted object (`response`) 200, as a 204 has no body. */
export function getDefaultSuccessStatus(action: Action, answersBody: boolean): number {
  return action === 'delete' && answersBody ? 200 : DEFAULT_SUCCESS_STATUS[action];
}

/** Whether a success status answers no body (RFC 9110: 204 No Content, 205 Reset Content): no response shape to state. */
export function isNoContentStatus(status: number): boolean {
  return status === 204 || status === 205;
}

/**
 * The status a code whose status is a range (`4XX`, `5XX`) is answered with: the range's first. A `2XX` success
 * is answered with the action's own status (DEFAULT_SUCCESS_STATUS), which is in the range.
 */
export function getRangeStatus(range: string): number {
  return Number(range[0]) * 100;
}

/** Whether a status is one a declared status or range (`4XX`) covers. */
export function isStatusIn(status: number, declared: number, range: string | undefined): boolean {
  return range === undefined ? status === declared : Math.floor(status / 100) === Number(range[0]);
}

/** A status as the document shows it: `404`, or a range with the status answered, `4XX (answered 400)`. */
export function getStatusText(status: number, range: string | undefined): string {
  return range === undefined ? String(status) : `${range} (answered ${status})`;
}

/** The format's rule for the identifier when a resource names none: a field called `id` (of an identifier type, required, not nullable). */
export const DEFAULT_IDENTIFIER_FIELD = 'id';

/** Who gives a created object its identifier when a resource does not say: the server. */
export const DEFAULT_IDENTIFIER_SOURCE = 'server';

/** Whether an answer may carry members its resource does not name, when the resource does not say: no (`named`). */
export const DEFAULT_ANSWER_MEMBERS = 'named';

/** The field types an identifier may have. */
export const IDENTIFIER_TYPES: readonly string[] = ['uuid', 'integer', 'string'];

/** Whether a field is the one the format takes as the identifier when a resource names none. */
export function isDefaultIdentifier(f: { name?: string; type?: string; optional?: boolean; nullable?: boolean | 'answers' }, name = f.name): boolean {
  return name === DEFAULT_IDENTIFIER_FIELD && IDENTIFIER_TYPES.includes(f.type ?? '') && f.optional !== true && (f.nullable ?? false) === false;
}

/**
 * Whether a create or replace request may leave the field out: it is optional, or its `default` fills it in — unless
 * `requiredInRequests` says the default only documents the usual value (an OpenAPI `default` on a required property);
 * or `optionalInRequests` says the server gives it a value the spec does not state, in the request of that `view`
 * (create or replace; `create`: a create's only) of a resource's own field — without a view, not.
 */
export function mayLeaveOut(f: Pick<FieldModel, 'optional' | 'hasDefault' | 'requiredInRequests' | 'optionalInRequests'>, view?: string): boolean {
  return f.optional || isLeftOutIn(f, view) || (f.hasDefault && f.requiredInRequests !== true);
}

/** Whether a request may send null for the field: a nullable one's but `nullable: answers` (answers only). */
export function isNullableInRequests(f: Pick<FieldModel, 'nullable' | 'nullableInAnswersOnly'>): boolean {
  return f.nullable && f.nullableInAnswersOnly !== true;
}

/** An operation's `unknown_fields` when the spec does not say: a body member the request does not name is refused. */
export const DEFAULT_UNKNOWN_FIELDS = 'refuse';

/**
 * What a create's, update's or replace's request does with a body member it does not name (`unknown_fields`):
 * `refuse` (the format's) or `ignore` (dropped before validation, never stored nor answered); `refuse` for every
 * other action (a transition's or custom shape is closed).
 */
export function getUnknownFields(o: Pick<OperationModel, 'action' | 'unknownFields'>): 'refuse' | 'ignore' {
  return o.unknownFields === 'ignore' && (o.action === 'create' || o.action === 'update' || o.action === 'replace') ? 'ignore' : DEFAULT_UNKNOWN_FIELDS;
}

/** Whether `optionalInRequests` lets a request of this view (create, replace) leave the field out. */
export function isLeftOutIn(f: Pick<FieldModel, 'optionalInRequests'>, view: string | undefined): boolean {
  return (f.optionalInRequests === true && (view === 'create' || view === 'replace')) || (f.optionalInRequests === 'create' && view === 'create');
}

/** Random bytes in a string identifier the server makes: 16, written as 22 base64url characters. */
export const STRING_IDENTIFIER_BYTES = 16;
const STRING_IDENTIFIER_LENGTH = Math.ceil((STRING_IDENTIFIER_BYTES * 4) / 3);

// Identifiers the server could make, at the edges of its alphabet: a pattern must accept every one of them.
const IDENTIFIER_SAMPLES: readonly string[] = ['A', 'z', '0', '9', '-', '_', 'Az09-_', '_-90zA'].map((c) =>
  c.repeat(Math.ceil(STRING_IDENTIFIER_LENGTH / c.length)).slice(0, STRING_IDENTIFIER_LENGTH),
);

/**
 * Why the server cannot make identifiers that keep the field's declared constraints, or undefined when it can. The
 * server makes every identifier (clients never write one): uuid, a UUIDv7; integer, counting from 1; string,
 * STRING_IDENTIFIER_BYTES random bytes in base64url. A constraint those values break would make the server answer
 * outside its own schema, so it is refused rather than a value invented to fit it.
 */
export function getUnmakeableIdentifier(
  f: Pick<FieldModel, 'type' | 'minLength' | 'maxLength' | 'pattern' | 'minimum' | 'exclusiveMinimum' | 'multipleOf'> &
    Partial<Pick<FieldModel, 'hasDefault' | 'default'>>,
): string | undefined {
  const made = f.type === 'integer' ? 'counts from 1' : f.type === 'uuid' ? 'is a UUIDv7' : `is ${STRING_IDENTIFIER_LENGTH} random base64url characters`;
  const refuse = (what: string) => `declares ${what}, but the server makes its values (${f.type === 'integer' ? 'an' : 'a'} ${f.type} identifier ${made})`;
  // A default would be every created object's identifier: the second create would conflict with the first.
  if (f.hasDefault === true) return refuse(`the default ${JSON.stringify(f.default)}`);
  if (f.type === 'string') {
    if (f.minLength !== undefined && f.minLength > STRING_IDENTIFIER_LENGTH) return refuse(`minLength ${f.minLength}`);
    if (f.maxLength !== undefined && f.maxLength < STRING_IDENTIFIER_LENGTH) return refuse(`maxLength ${f.maxLength}`);
    if (f.pattern !== undefined) {
      let re: RegExp | undefined;
      try {
        re = new RegExp(f.pattern, 'u');
      } catch {
        return undefined; // an invalid pattern is reported on its own
      }
      const broken = IDENTIFIER_SAMPLES.find((v) => !re.test(v));
      if (broken !== undefined) return refuse(`pattern ${f.pattern}, which \`${broken}\` breaks`);
    }
  } else if (f.type === 'integer') {
    if (f.minimum !== undefined && f.minimum > 1) return refuse(`minimum ${f.minimum}`);
    if (f.exclusiveMinimum !== undefined && f.exclusiveMinimum >= 1) return refuse(`exclusiveMinimum ${f.exclusiveMinimum}`);
    if (f.multipleOf !== undefined && !Number.isInteger(1 / f.multipleOf)) return refuse(`multipleOf ${f.multipleOf}`);
  }
  return undefined;
}

/** What every reader (renderers, exporters, the gap report) writes where the spec leaves a value out: never a guess. */
export const NOT_SHOWN = 'not shown' as const;

/** The name a rate limit goes by in RateLimit-Policy: its declared name, else `rate` and its place in limits.rate (from 0). */
export function getRateLimitName(rate: { readonly name?: string }, index: number): string {
  return rate.name ?? `rate${index}`;
}

/** The request header that carries an idempotency key when `endpoints.idempotency.header` names none. */
export const DEFAULT_IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** The header that carries an idempotency key: the one the spec names, else the format's default. */
export function getIdempotencyHeader(model: ServiceModel): string {
  return model.endpoints?.idempotency?.header ?? DEFAULT_IDEMPOTENCY_HEADER;
}

/** Where an api_key scheme's key is sent when the spec does not say (`in`). */
export const DEFAULT_API_KEY_IN = 'header';

/** Where an api_key scheme's key is sent: the spec's `in`, else the format's default. */
export function getApiKeyPlacement(scheme: Pick<SchemeModel, 'in'>): 'header' | 'query' {
  return scheme.in ?? DEFAULT_API_KEY_IN;
}

/** Each webhook retry delay is spread at random within ± this fraction, so receivers are not hit in lockstep. */
export const DEFAULT_RETRY_JITTER = 0.2;

/** The media type of RFC 9457 problem details (`errors.body: problem`, and the runtime's answer when the spec shows no body). */
export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/** The media type of a declared error body whose `media_type` is left out. */
export const DEFAULT_ERROR_MEDIA_TYPE = 'application/json';

/**
 * The fields of a declared error body that carry the code, the HTTP status and the message, when the body does not
 * name them: the first of these names the body has. The other fields filled by name are `ERROR_BODY_EXTRAS`.
 */
export const ERROR_BODY_ROLE_NAMES = { code: ['code', 'error'], status: ['status'], message: ['message', 'detail'] } as const;

/** Further fields of a declared error body the runtime fills by their names (when no role took them and their type holds it): what each holds. */
export const ERROR_BODY_EXTRAS = { title: 'title', detail: 'message', errors: 'invalid', details: 'invalid', request_id: 'request id' } as const;

/** The field types that hold each extra: text, or the list of invalid inputs. */
const EXTRA_TYPES: Readonly<Record<string, readonly string[]>> = {
  title: ['string'],
  message: ['string', 'json'],
  invalid: ['array', 'json'],
  'request id': ['string'],
};

/** The field types that can carry each role: the code as text (or an enum of the codes) or as its status, the status, the message. */
export const ERROR_ROLE_TYPES: Readonly<Record<'code' | 'status' | 'message', readonly string[]>> = {
  code: ['string', 'enum', 'integer', 'number'],
  status: ['integer', 'number'],
  message: ['string', 'json'],
};

export interface ErrorBodyRoles {
  /** The field carrying the error code (its name in a string field, its status in an integer one); undefined when the body has none. */
  code?: FieldModel;
  status?: FieldModel;
  message?: FieldModel;
  /** Where each role's field is: the names from the body down to it (one name for a field of the body itself). */
  at: { code?: readonly string[]; status?: readonly string[]; message?: readonly string[] };
  /** Whether each role was named by the spec (else found by the format's default names). */
  named: { code: boolean; status: boolean; message: boolean };
  /** The other fields filled by name (`ERROR_BODY_EXTRAS`), with what each holds and where it is. */
  extras: readonly (readonly [FieldModel, string, readonly string[]])[];
  /** The object fields a nested role is in (`error` of `{ "error": { "code", "message" } }`), with where each is. */
  containers: readonly (readonly [FieldModel, readonly string[]])[];
  mediaType: string;
}

/**
 * Whether a list field can hold the runtime's invalid inputs, `{ pointer, message }` for the body and
 * `{ parameter, in, message }` for a parameter: items of any JSON, or objects naming each of those members as text
 * and requiring none but `message`.
 */
function holdsInvalidInputs(f: FieldModel): boolean {
  if (f.type === 'json') return true;
  const item = f.items;
  if (item === undefined || item.type === 'json') return true;
  if (item.type !== 'object') return false;
  const fields = item.fields ?? [];
  const written = ['pointer', 'parameter', 'in', 'message'];
  return (
    written.every((n) => fields.some((x) => x.name === n && x.type === 'string')) && fields.every((x) => x.optional || x.hasDefault || x.name === 'message')
  );
}

/** The roles of a declared error body's fields: as the spec names them, else by `ERROR_BODY_ROLE_NAMES`. */
export function getErrorBodyRoles(body: DeclaredErrorBodyModel): ErrorBodyRoles {
  const find = (role: keyof typeof ERROR_BODY_ROLE_NAMES): { field: FieldModel; path: readonly string[] } | undefined => {
    const named = body[role];
    if (named !== undefined) {
      // A field of the body by that name, else one nested by its path (`error.code`), as `bind` reads a path.
      const field = getFieldAt(body, named);
      return field && { field, path: body.fields.some((f) => f.name === named) ? [named] : named.split('.') };
    }
    // A field found by its name only takes the role when its type can hold what is written there.
    for (const name of ERROR_BODY_ROLE_NAMES[role]) {
      const f = body.fields.find((x) => x.name === name);
      if (f && ERROR_ROLE_TYPES[role].includes(f.type)) return { field: f, path: [name] };
    }
    return undefined;
  };
  const code = find('code');
  const status = find('status');
  const message = find('message');
  const taken = new Set([code, status, message].flatMap((r) => (r ? [r.path.join('.')] : [])));
  // The object fields on the way to a nested role, in the order met: their own fields are filled by name too.
  const containers: [FieldModel, readonly string[]][] = [];
  const seen = new Set<string>();
  for (const r of [code, status, message]) {
    if (r === undefined || r.path.length < 2) continue;
    let level: readonly FieldModel[] = body.fields;
    for (let i = 0; i < r.path.length - 1; i++) {
      const f = level.find((x) => x.name === r.path[i])!;
      const path = r.path.slice(0, i + 1);
      if (!seen.has(path.join('.'))) {
        containers.push([f, path]);
        seen.add(path.join('.'));
      }
      level = f.fields ?? [];
    }
  }
  const extras: (readonly [FieldModel, string, readonly string[]])[] = [];
  for (const [fields, under] of [[body.fields, []] as const, ...containers.map(([f, path]) => [f.fields ?? [], path] as const)]) {
    for (const f of fields) {
      const path = [...under, f.name];
      const what = (ERROR_BODY_EXTRAS as Readonly<Record<string, string>>)[f.name];
      if (what === undefined || taken.has(path.join('.')) || seen.has(path.join('.')) || !EXTRA_TYPES[what]!.includes(f.type)) continue;
      // A list whose items are another shape (`{resource, field, code}`) cannot hold the invalid inputs: left out, or
      // written empty where the body requires it, never filled with items its schema refuses.
      if (what === 'invalid' && !holdsInvalidInputs(f)) {
        if (!f.optional) extras.push([f, 'empty list', path]);
      } else extras.push([f, what, path]);
    }
  }
  return {
    ...(code ? { code: code.field } : {}),
    ...(status ? { status: status.field } : {}),
    ...(message ? { message: message.field } : {}),
    at: { ...(code ? { code: code.path } : {}), ...(status ? { status: status.path } : {}), ...(message ? { message: message.path } : {}) },
    extras,
    containers,
    named: { code: body.code !== undefined, status: body.status !== undefined, message: body.message !== undefined },
    mediaType: body.mediaType ?? DEFAULT_ERROR_MEDIA_TYPE,
  };
}

/**
 * The required fields of a declared error body that nothing the runtime writes fills (no role, no extra by name, no
 * default at the top level), by path: what the spec leaves the service to say, which `check` warns of
 * (`error-body-field-unfilled`) and `gaps` names. The body's own fields, and those of each object a nested role is in.
 */
export function getUnfilledErrorFields(
  body: DeclaredErrorBodyModel,
  roles: ErrorBodyRoles = getErrorBodyRoles(body),
): readonly { field: FieldModel; path: string }[] {
  const filled = new Set(
    [roles.at.code, roles.at.status, roles.at.message, ...roles.extras.map(([, , path]) => path), ...roles.containers.map(([, path]) => path)].flatMap(
      (path) => (path ? [path.join('.')] : []),
    ),
  );
  const levels: [readonly FieldModel[], string][] = [
    [body.fields, ''],
    ...roles.containers.map(([f, path]) => [f.fields ?? [], `${path.join('.')}.`] as [readonly FieldModel[], string]),
  ];
  const problemType = getProblemTypeField(body, roles);
  const out: { field: FieldModel; path: string }[] = [];
  for (const [fields, under] of levels)
    for (const f of fields)
      if (!f.optional && !filled.has(under + f.name) && !(under === '' && (f.hasDefault || f === problemType))) out.push({ field: f, path: under + f.name });
  return out;
}

/** RFC 9457 §3.1.1: a problem's `type`, when absent, is assumed to be `about:blank`. */
export const PROBLEM_TYPE_DEFAULT = 'about:blank';

/**
 * The top-level `type` field of a declared body of media type `application/problem+json` that nothing else fills
 * (no role, no name, no default) and that can hold `about:blank`: written with it, the value RFC 9457 gives a problem
 * without one (Airflow's required `type`), rather than a value the spec leaves unstated.
 */
export function getProblemTypeField(body: DeclaredErrorBodyModel, roles: ErrorBodyRoles = getErrorBodyRoles(body)): FieldModel | undefined {
  if (roles.mediaType !== PROBLEM_MEDIA_TYPE) return undefined;
  const taken = [roles.at.code, roles.at.status, roles.at.message, ...roles.extras.map(([, , path]) => path), ...roles.containers.map(([, path]) => path)];
  if (taken.some((path) => path?.length === 1 && path[0] === 'type')) return undefined;
  const f = body.fields.find((x) => x.name === 'type');
  if (f === undefined || f.hasDefault || f.nullable === true) return undefined;
  const holds =
    f.type === 'enum'
      ? (f.values ?? []).includes(PROBLEM_TYPE_DEFAULT)
      : (f.type === 'string' || f.type === 'uri') &&
        f.pattern === undefined &&
        (f.minLength ?? 0) <= PROBLEM_TYPE_DEFAULT.length &&
        (f.maxLength ?? Infinity) >= PROBLEM_TYPE_DEFAULT.length;
  return holds ? f : undefined;
}

/** A uuid as text, any case: a path segment that can name an object of a uuid identifier (runtime, check). */
export const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The media type every error answer has: problem details unless a declared body says otherwise. */
export function getErrorMediaType(body: ErrorBodyModel | undefined): string {
  return body?.kind === 'declared' ? (body.mediaType ?? DEFAULT_ERROR_MEDIA_TYPE) : PROBLEM_MEDIA_TYPE;
}

/** What a declared error body's code field holds for an error code: its status when the field is an integer, else its name. */
export function getErrorCodeValue(codeField: Pick<FieldModel, 'type'> | undefined, code: { name: string; status: number }): string | number {
  return codeField?.type === 'integer' || codeField?.type === 'number' ? code.status : code.name;
}

/** What is written in each field of a declared error body, worked out once from `getErrorBodyRoles`. */
export interface DeclaredErrorFill {
  /** Where each filled field is (its names from the body down) and what it holds: a role (code, status, message) or an extra (title, invalid, request id). */
  fields: readonly (readonly [readonly string[], string])[];
  /** The code field holds each code's status (getErrorCodeValue). */
  integerCode: boolean;
  mediaType: string;
  /** The list of invalid inputs when the body requires one and the answer has none. */
  emptyInvalid?: readonly never[];
  /** Top-level fields no role or extra fills that declare a `default` (RFC 9457's `type: about:blank`): written with it. */
  constants?: readonly (readonly [string, unknown])[];
}

/** The fields a declared error body's answers fill: the code, status and message fields, then the others filled by name. */
export function getDeclaredErrorFill(body: DeclaredErrorBodyModel): DeclaredErrorFill {
  const roles = getErrorBodyRoles(body);
  const fields: [readonly string[], string][] = [];
  const taken = new Set<string>();
  for (const role of ['code', 'status', 'message'] as const) {
    const path = roles.at[role];
    if (path && !taken.has(path.join('.'))) {
      fields.push([path, role]);
      taken.add(path.join('.'));
    }
  }
  let requiredList = false;
  for (const [f, what, path] of roles.extras) {
    fields.push([path, what]);
    if (what === 'invalid' && !f.optional) requiredList = true;
  }
  const integerCode = typeof getErrorCodeValue(roles.code, { name: '', status: 0 }) === 'number';
  const filled = new Set(fields.map(([path]) => path[0]));
  const constants: (readonly [string, unknown])[] = body.fields.filter((f) => f.hasDefault && !filled.has(f.name)).map((f) => [f.name, f.default] as const);
  const problemType = getProblemTypeField(body, roles);
  if (problemType !== undefined) constants.unshift([problemType.name, PROBLEM_TYPE_DEFAULT]);
  return {
    fields,
    integerCode,
    mediaType: roles.mediaType,
    ...(requiredList ? { emptyInvalid: [] } : {}),
    ...(constants.length > 0 ? { constants } : {}),
  };
}

/**
 * The one rule for an error answer's body: problem details (no declared fill) or the declared fields. The runtime
 * sends it; the docs console shows it as each error code's example.
 */
export function buildErrorBody(
  fill: DeclaredErrorFill | undefined,
  code: { code: string; status: number; title?: string | undefined },
  answer: { detail?: string | undefined; instance: string; requestId?: string | undefined; invalid?: readonly unknown[] | undefined },
): { status: number; contentType: string; body: Record<string, unknown> } {
  // A code without a title is titled by its status's reason phrase.
  const title = code.title ?? STATUS_CODES[code.status] ?? 'Error';
  if (!fill) {
    const body: Record<string, unknown> = { title, status: code.status, code: code.code };
    if (answer.detail !== undefined) body.detail = answer.detail;
    body.instance = answer.instance;
    if (answer.invalid && answer.invalid.length > 0) body.errors = answer.invalid;
    return { status: code.status, contentType: PROBLEM_MEDIA_TYPE, body };
  }
  const values: Record<string, unknown> = {
    code: fill.integerCode ? code.status : code.code,
    status: code.status,
    message: answer.detail ?? title,
    title,
    invalid: answer.invalid ?? fill.emptyInvalid,
    'empty list': [],
    'request id': answer.requestId,
  };
  const body: Record<string, unknown> = {};
  if (fill.constants) for (const [name, value] of fill.constants) body[name] = value;
  for (const [path, what] of fill.fields) {
    if (values[what] === undefined) continue;
    // A nested field (`error.code`): the objects on the way are made as the first field in them is written.
    let at = body;
    for (let i = 0; i < path.length - 1; i++) at = (at[path[i]!] ??= {}) as Record<string, unknown>;
    at[path[path.length - 1]!] = values[what];
  }
  return { status: code.status, contentType: fill.mediaType, body };
}

/**
 * The conditions an operation's own codes answer where no code declares them (an imported OpenAPI document's codes
 * name no condition): the runtime answers them with the operation's code (`getOperationRefusalCode`), and the tester
 * holds such an answer to the operation's codes (TestContext.refusal).
 */
export const OPERATION_REFUSALS: readonly Condition[] = Object.freeze([
  'missing_resource',
  'missing_credential',
  'invalid_credential',
  'validation',
  'malformed_request',
  'unsupported_media_type',
]);

/**
 * The statuses HTTP gives each of OPERATION_REFUSALS (RFC 9110, RFC 4918), in the order one is taken: a request
 * breaking the declared schema is 422 where the operation lists one, else 400; an unsupported media type 415, else 400.
 */
const REFUSAL_STATUSES: Readonly<Partial<Record<Condition, readonly number[]>>> = Object.freeze({
  missing_resource: [404],
  missing_credential: [401],
  invalid_credential: [401],
  validation: [422, 400],
  malformed_request: [400],
  unsupported_media_type: [415, 400],
});

/**
 * The operation's own code a condition no code declares is answered with: of the first status REFUSAL_STATUSES
 * gives the condition that the operation's codes have, the one code of it (a range does not count). Undefined when
 * the condition is declared, is not one of OPERATION_REFUSALS, or no status has exactly one code: two codes of one
 * status are two answers the document gives, and choosing one would be the runtime's word, not the document's.
 */
export function getOperationRefusalCode(
  errors: Pick<NonNullable<ServiceModel['errors']>, 'byCondition' | 'codes'> | undefined,
  operation: Pick<OperationModel, 'errors'>,
  condition: Condition,
): ErrorCodeModel | undefined {
  if (!errors || errors.byCondition[condition] !== undefined) return undefined;
  for (const status of REFUSAL_STATUSES[condition] ?? []) {
    const codes = errors.codes.filter((c) => c.status === status && c.statusRange === undefined && operation.errors.includes(c.name));
    if (codes.length === 1) return codes[0];
    if (codes.length > 1) return undefined;
  }
  return undefined;
}

/** The status used for a condition the spec declares no code for (only ever with `allowGaps`): the runtime's built-in answer, which the tester recognises too. */
export const FALLBACK_STATUS: Readonly<Record<Condition, number>> = {
  validation: 422,
  malformed_request: 400,
  unsupported_media_type: 415,
  missing_resource: 404,
  route_not_found: 404,
  method_not_allowed: 405,
  illegal_transition: 409,
  missing_credential: 401,
  invalid_credential: 401,
  expired_credential: 401,
  missing_scope: 403,
  not_owner: 403,
  rate_limited: 429,
  body_too_large: 413,
  headers_too_large: 431,
  timeout: 503,
  unique_conflict: 409,
  in_use: 409,
  reference_not_found: 422,
  unsupported_version: 400,
  idempotency_conflict: 422,
  idempotency_in_progress: 409,
  precondition_failed: 412,
  precondition_required: 428,
  not_implemented: 501,
  unavailable: 503,
  internal: 500,
};

/** The form media type a custom operation's request may declare (`request.media_type`); JSON is the default. */
export const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

/** An update's request read as a JSON merge patch (RFC 7396): `request_media_type: application/merge-patch+json`. */
export const MERGE_PATCH_MEDIA_TYPE = 'application/merge-patch+json';

/** The media type an operation's request body is sent as: its `request_media_type`, else JSON (a form: `request.media_type`). */
export function getRequestMediaType(o: { requestMediaType?: string; request?: { mediaType?: string } }): string {
  return o.requestMediaType?.toLowerCase() ?? o.request?.mediaType ?? 'application/json';
}

/** Whether an update reads its body as a JSON merge patch. */
export function isMergePatch(o: { action: string; requestMediaType?: string }): boolean {
  return o.action === 'update' && o.requestMediaType?.toLowerCase() === MERGE_PATCH_MEDIA_TYPE;
}
