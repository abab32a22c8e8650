// The spec format as written in a file: every part optional, nothing defaulted here.
// schema/servicespec.schema.json is the structural truth; these types mirror it.

export const PART_NAMES = ['purpose', 'resources', 'states', 'endpoints', 'authentication', 'events', 'errors', 'limits', 'versioning'] as const;
export type PartName = (typeof PART_NAMES)[number];

export const FIELD_TYPES = [
  'string',
  'integer',
  'number',
  'boolean',
  'date',
  'datetime',
  'uuid',
  'email',
  'uri',
  'enum',
  'ref',
  'array',
  'object',
  'map',
  'state',
  'json',
  'union',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Field types a query or header parameter may have: those written as text, and arrays of them. */
export const PARAMETER_TYPES = [
  'string',
  'integer',
  'number',
  'boolean',
  'date',
  'datetime',
  'uuid',
  'email',
  'uri',
  'enum',
  'array',
] as const satisfies readonly FieldType[];

export const ACTIONS = ['create', 'read', 'update', 'replace', 'delete', 'list', 'transition', 'custom'] as const;
export type Action = (typeof ACTIONS)[number];

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** The closed vocabulary of runtime conditions an error code can be declared for. */
export const CONDITIONS = [
  'validation',
  'malformed_request',
  'unsupported_media_type',
  'missing_resource',
  'route_not_found',
  'method_not_allowed',
  'illegal_transition',
  'missing_credential',
  'invalid_credential',
  'expired_credential',
  'missing_scope',
  'not_owner',
  'rate_limited',
  'body_too_large',
  'headers_too_large',
  'timeout',
  'unique_conflict',
  'in_use',
  'reference_not_found',
  'unsupported_version',
  'idempotency_conflict',
  'idempotency_in_progress',
  'precondition_failed',
  'precondition_required',
  'not_implemented',
  'unavailable',
  'internal',
] as const;
export type Condition = (typeof CONDITIONS)[number];

export interface SpecDocument {
  servicespec: number;
  purpose?: PurposeSpec;
  resources?: Record<string, ResourceSpec>;
  states?: Record<string, StateMachineSpec>;
  endpoints?: EndpointsSpec;
  authentication?: AuthenticationSpec;
  events?: EventsSpec;
  errors?: ErrorsSpec;
  limits?: LimitsSpec;
  versioning?: VersioningSpec;
  /** Named shapes, written once and used by name (`shape: Name`) by fields, variants and payloads. */
  shapes?: Record<string, NamedShapeSpec>;
  /** Settings of `check` for this spec (not a part of the interface). */
  check?: CheckSettingsSpec;
}

/** A named shape: an object's fields, or a union's variants (docs/format.md, "Named shapes"). */
export interface NamedShapeSpec {
  description?: string;
  fields?: Record<string, FieldSpec>;
  discriminator?: string;
  variants?: Record<string, VariantSpec>;
}

/** Warnings a team may turn off for a spec (`check.disable`, `check --disable`): warnings of style only. */
export const DISABLEABLE_WARNINGS = ['name-style'] as const;
export type DisableableWarning = (typeof DISABLEABLE_WARNINGS)[number];

export interface CheckSettingsSpec {
  disable?: DisableableWarning[];
}

export interface PurposeSpec {
  name?: string;
  summary?: string;
  description?: string;
  scope?: { includes?: string[]; excludes?: string[] };
  audience?: string[];
  contact?: { name?: string; email?: string; url?: string };
}

/** The bounds of a field's value (FieldConstraints but `uniqueItems`), in the order the format lists them. */
export const FIELD_BOUND_KEYS = [
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
] as const satisfies readonly (keyof FieldConstraints)[];

export interface FieldConstraints {
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
}

export interface FieldSpec extends FieldConstraints {
  type: FieldType;
  description?: string;
  optional?: boolean;
  /** `answers`: answers may hold null, requests may not send it. */
  nullable?: boolean | 'answers';
  readOnly?: boolean;
  writeOnce?: boolean;
  /** Clients send the field; no answer or event payload ever carries it (a password). */
  writeOnly?: boolean;
  /** The field's previous name, or its earlier names, for `servicespec migrate` (a rename of the stored column). */
  renamedFrom?: string | string[];
  /** The server sets the field: the time of creation or of the last change, or (`address`) the object's own read path; never stored. */
  generated?: 'create_time' | 'update_time' | 'address';
  unique?: boolean;
  default?: unknown;
  /** `service`: a required read-only field the service sets by a rule the spec does not state (a named gap); every answer holds it. */
  source?: 'service';
  /** Create and replace requests must send the field although it has a `default` (the default then only documents it). */
  requiredInRequests?: boolean;
  /** Create and replace requests may leave the field out, and every answer holds it: the server gives it a value the spec does not state (a named gap). */
  optionalInRequests?: boolean | 'create';
  example?: unknown;
  /** enum: the allowed values. */
  values?: (string | number)[];
  /** ref: the resource referred to (stored as its identifier). */
  to?: string;
  /** array: the element shape. */
  items?: FieldSpec;
  /** object: nested fields. */
  fields?: Record<string, FieldSpec>;
  /** union: the property whose value says which variant an object is (a tagged union); untagged when absent. */
  discriminator?: string;
  /** union: the shapes the value may take, by name, in order. */
  variants?: Record<string, VariantSpec>;
  /** object or union: a named shape (`shapes`) giving the fields or the variants. */
  shape?: string;
}

/**
 * One shape of a union: fields written out. In a tagged union the discriminator property holds `tag` (the variant's
 * name when `tag` is absent, a format default); the variant's fields do not list the discriminator itself.
 */
export interface VariantSpec {
  description?: string;
  tag?: string;
  fields?: Record<string, FieldSpec>;
  /** A named shape (`shapes`) giving the fields. */
  shape?: string;
}

/**
 * A query or header parameter of a custom operation, in the vocabulary of fields; required unless `optional`.
 * `type` is any field type here; `check` refuses those outside PARAMETER_TYPES (`param-type-invalid`).
 */
export interface ParameterSpec extends FieldConstraints {
  type: FieldType;
  description?: string;
  optional?: boolean;
  /** The value the handler receives when the request leaves the parameter out. */
  default?: unknown;
  example?: unknown;
  values?: (string | number)[];
  /** array: each value's type (the parameter repeated: name=a&name=b). */
  items?: ParameterSpec;
  deprecated?: boolean;
}

export interface ResourceSpec {
  description?: string;
  plural?: string;
  /** The identifier field; the format defines "id" when absent and a field "id" exists. */
  identifier?: string;
  /** Who gives a created object its identifier: the server (format default) or the client, in the create request. */
  identifier_source?: 'server' | 'client';
  /** Whether an answer may carry members the resource does not name: `named` (format default) or `open`. */
  answer_members?: 'named' | 'open';
  /** Whether the resource takes conditional requests: an ETag on every one-object answer, If-None-Match on reads, If-Match on changes. */
  etag?: boolean;
  /** Keys unique together (field paths, dotted for a nested field): at most one object holds each set of values. */
  unique_keys?: string[][];
  /** The resource each object belongs to, which no field shows: the storage keeps its identifier; a `bind` names it as Parent.field. */
  parent?: string;
  /** A field bound to the authenticated subject, set by the server. */
  owner?: string;
  /** How a request for another subject's object is answered. */
  owner_access?: 'hidden' | 'forbidden';
  /** Scopes whose holders act on every subject's objects, not only their own. */
  owner_override_scopes?: string[];
  /** The resource's previous name, or its earlier names: `servicespec migrate` renames its stored table (the objects are kept). */
  renamedFrom?: string | string[];
  /** The fields every object holds (with `variants`: the fields every variant shares). */
  fields?: Record<string, FieldSpec>;
  /** A resource of several shapes: the property whose value says which variant an object is (its tag). */
  discriminator?: string;
  /** A resource of several shapes: each variant's own fields beside the shared ones, by name, in order. */
  variants?: Record<string, VariantSpec>;
}

export interface StateSpec {
  description?: string;
  terminal?: boolean;
}

export interface TransitionSpec {
  description?: string;
  from: string | string[];
  to: string;
  requires?: string[];
  emits?: string;
  /** A date or datetime field set to the time of the transition. */
  stamp?: string;
}

export interface StateMachineSpec {
  field?: string;
  initial?: string;
  states?: Record<string, StateSpec>;
  terminal?: string[];
  transitions?: Record<string, TransitionSpec>;
  /**
   * States the machine no longer has, each with the current state its stored objects move to when the database is
   * migrated (`servicespec migrate --apply`): `{ shipped_old: shipped }`.
   */
  removed_states?: Record<string, string>;
}

/** A declared payload: the fields of a resource, fields written out, or one of several shapes (a union). */
export interface ShapeSpec {
  resource?: string;
  /** A named shape (`shapes`) giving the fields or the variants. */
  shape?: string;
  fields?: Record<string, FieldSpec>;
  /** A union body: the property telling the variants apart (tagged), absent for an untagged union. */
  discriminator?: string;
  /** A union body: its shapes, by name, in order. */
  variants?: Record<string, VariantSpec>;
  list?: boolean;
  /** A custom operation's request: the body's media type (default application/json). */
  media_type?: RequestMediaType;
}

/** The media types a request body may be sent as (docs/format.md, "Form bodies"). */
export type RequestMediaType = 'application/json' | 'application/x-www-form-urlencoded';

/** How a list operation pages (docs/format.md, "List shapes"); the format's default is the cursor envelope. */
/** Page sizes: the default, the most a request may ask for, and how a request for more is answered. */
export interface PageSizeSpec {
  default?: number;
  max?: number;
  over_max?: 'reject' | 'clamp';
}

export type ListStyle = 'cursor' | 'offset' | 'page' | 'limit' | 'none' | 'after';

export interface PagingSpec {
  /** How a request names its page: cursor (limit, cursor), offset (limit, offset), page (page, per_page), limit (the first page only), none (every object at once). */
  style?: ListStyle;
  /** envelope: an object holding the objects (and the next cursor, the total); array: the objects as a bare JSON array. */
  body?: 'envelope' | 'array';
  /** envelope: the field holding the objects. */
  items?: string;
  /** envelope, cursor style: the field holding the next page's cursor; `false`: none, the Link header alone carries it. */
  next?: string | false;
  /** envelope, cursor style: the next cursor's field is left out on the last page (optional, not nullable), not null there. */
  next_optional?: boolean;
  /** envelope: the field holding the count of every matching object; no total when absent. */
  total?: string;
  /** envelope: a boolean field, true when objects follow this page (Stripe's `has_more`). */
  has_more?: string;
  /** envelope: fields holding one text on every page, by name (Stripe's `object: list`, Google's `kind`). */
  constants?: Record<string, string>;
  /** envelope: a string field holding the list's address as requested: the request's path, without its query (Stripe's `url`). */
  url?: string;
  /** envelope: a string field holding the next page's whole address, null on the last page (Django REST Framework's `next`). */
  next_link?: string;
  /** envelope, style offset or page: a string field holding the previous page's whole address, null on the first (DRF's `previous`). */
  previous_link?: string;
  /** Style page: the first page's number, 0 (Spring Data's `Page`) or 1 (the default). */
  first_page?: 0 | 1;
  /** envelope: the page's descriptive members by role, each a field path (`pageable.pageNumber`) or several (Spring's `Page`, Laravel's paginator). */
  members?: PageMembersSpec;
  /** A response header carrying the count of every matching object (`X-Total-Count`), on every page; none when absent. */
  total_header?: string;
  /** A `Link` header (RFC 8288) with the next page's address as `rel="next"`. */
  link?: boolean;
  /** The names on the wire of the paging parameters the style reads, by role, where they differ from the format's. */
  params?: PagingParamsSpec;
  /** This list's page sizes: each key stated overrides limits.page_size's for this list alone. */
  page_size?: PageSizeSpec;
}

/**
 * A page object's descriptive member, by what it holds (docs/format.md, "List shapes"): `page` the page's number as
 * answered, `size` the page size used, `pages` the number of pages, `last_page` the last page's number, `count` the
 * objects on this page, `first` / `last` / `empty` booleans, `offset` the objects before this page, `from` / `to` the
 * first and last object's positions (from 1; null on an empty page).
 */
export type PageMemberRole = 'page' | 'size' | 'pages' | 'last_page' | 'count' | 'first' | 'last' | 'empty' | 'offset' | 'from' | 'to';

/** `paging.members`: each role's field path, dot-separated for a nested member, or several paths holding one value. */
export type PageMembersSpec = Partial<Record<PageMemberRole, string | string[]>>;

/** A paging parameter's role: the page size (`limit`; style page's `per_page`), the cursor, the offset, the page number. */
export type PagingRole = 'limit' | 'cursor' | 'offset' | 'page';

/** The query parameter name of each paging role (docs/format.md, "List shapes"). */
export type PagingParamsSpec = Partial<Record<PagingRole, string>>;

export interface OperationAuthSpec {
  schemes?: string[];
  scopes?: string[];
}

export interface OperationSpec {
  method: HttpMethod;
  path: string;
  action: Action;
  resource?: string;
  transition?: string;
  summary?: string;
  description?: string;
  filter?: string[];
  /** list: the filters (fields of `filter`) every request must send; a request without one is refused (validation). */
  required_filters?: string[];
  sort?: string[];
  /** list with `sort`: the name on the wire of the query parameter carrying it (`sort` when absent; DRF's `ordering`). */
  sort_param?: string;
  /** create, update, replace: the writable fields of the resource its request takes (every writable one when absent). */
  request_fields?: string[];
  /**
   * create, update, replace: the one media type its request body is sent as (a JSON type; application/json when
   * absent); an update's `application/merge-patch+json` reads the body as a JSON merge patch (RFC 7396).
   */
  request_media_type?: string;
  /** create: false when its answer carries no Location header (the format's default: the read operation's path). */
  location?: boolean;
  /** create, update, replace: a body member the request does not name is refused (`refuse`, the default) or dropped (`ignore`). */
  unknown_fields?: 'refuse' | 'ignore';
  /** replace: a request naming an identifier no object has creates the object with it (201); needs `identifier_source: client`. */
  upsert?: boolean;
  /** update, replace, delete, transition of a resource with `etag: true`: `required` refuses a request without If-Match (precondition_required). */
  if_match?: 'required' | 'optional';
  /** list: how the list pages and the shape of its answer. */
  paging?: PagingSpec;
  /** list: the fields of its resource each object of its answer carries (every answered field when absent). */
  answer_fields?: string[];
  /** custom: the query parameters it reads, by their name on the wire. */
  query?: Record<string, ParameterSpec>;
  /** custom: the request headers it reads, by name (case-insensitive on the wire). */
  headers?: Record<string, ParameterSpec>;
  /** The field of the resource each path parameter names, by parameter (`{ username: owner, slug: slug }`). */
  bind?: Record<string, string>;
  /**
   * The headers of the success answer, by name (compared without regard to case): the service sends one with a
   * `default` itself; a custom operation's handler sets the others (`ctx.header`). Location and Link are the format's.
   */
  response_headers?: Record<string, ParameterSpec>;
  /** The success status, or `2XX`: any success status (served with the action's own, DEFAULT_SUCCESS_STATUS). */
  status?: number | SuccessStatusRange;
  /** The request payload; `none` (a custom operation): it takes no body, as an OpenAPI operation without `requestBody`. */
  request?: ShapeSpec | 'none';
  response?: ShapeSpec;
  handler?: string;
  auth?: 'none' | OperationAuthSpec;
  errors?: string[];
  idempotent?: boolean;
  deprecated?: boolean;
  /** Named examples of the request body, the success answer's body and the parameters (by wire name). */
  examples?: OperationExamplesSpec;
  /** Callbacks: events about the created object POSTed to a URL the request gives (OpenAPI `callbacks`), by name. */
  callbacks?: Record<string, CallbackSpec>;
  /** The operation's own response envelope in place of `endpoints.envelope`, or `none` for a bare answer. */
  envelope?: 'none' | EnvelopeSpec;
  /**
   * create, update, replace, transition: the request body is an object holding one member, `data`, whose value is
   * the body the operation takes without it (Rails-style `{ "product": { … } }`). Answers are the `envelope`'s.
   */
  request_envelope?: RequestEnvelopeSpec;
}

/** A request wrapper (docs/format.md, "Request envelopes"): the one member the body holds. */
export interface RequestEnvelopeSpec {
  data: string;
}

/** The values the runtime knows for an envelope field (docs/format.md, "Response envelopes"): a closed list. */
export const ENVELOPE_SOURCES = [
  'status',
  'status_text',
  'request_id',
  'total',
  'count',
  'offset',
  'limit',
  'page',
  'next',
  'pages',
  'self_link',
  'first_link',
  'next_link',
  'previous_link',
  'last_link',
] as const;
export type EnvelopeSource = (typeof ENVELOPE_SOURCES)[number];

/**
 * A response envelope: the field carrying the answer (`data`), the other fields, and for each value the runtime
 * knows the field (a dotted path into `fields`) that carries it — as a declared error body names its code field.
 */
export type EnvelopeSpec = { data: string; fields?: Record<string, FieldSpec> } & { [K in EnvelopeSource]?: string };

/** A callback: the request field holding the subscription URL and the event kinds delivered to it. */
export interface CallbackSpec {
  url: string;
  events: string[];
  description?: string;
}

/** A named example (OpenAPI's Example Object without externalValue). */
export interface NamedExampleSpec {
  summary?: string;
  description?: string;
  value: unknown;
}

export interface OperationExamplesSpec {
  request?: Record<string, NamedExampleSpec>;
  response?: Record<string, NamedExampleSpec>;
  parameters?: Record<string, Record<string, NamedExampleSpec>>;
}

export interface EndpointsSpec {
  base_url?: string;
  idempotency?: { header?: string; retention?: string };
  /** The response envelope every read, list, create, update, replace and transition answer is wrapped in. */
  envelope?: EnvelopeSpec;
  operations?: Record<string, OperationSpec>;
}

export type SchemeType = 'api_key' | 'basic' | 'bearer' | 'oauth2_client_credentials';

export interface SchemeSpec {
  type: SchemeType;
  description?: string;
  /** api_key: where the key travels and under which name. */
  in?: 'header' | 'query';
  name?: string;
  prefix?: string;
  /** bearer / oauth2: token format and checks. */
  token?: 'jwt';
  algorithms?: string[];
  issuer?: string;
  audience?: string;
  lifetime?: string;
  clock_tolerance?: string;
  /** oauth2_client_credentials: the token endpoint path the service serves. */
  token_path?: string;
}

export interface AuthenticationSpec {
  schemes?: Record<string, SchemeSpec>;
  scopes?: Record<string, string>;
  default?: 'none' | OperationAuthSpec;
}

export type EventTrigger = 'create' | 'update' | 'delete';

export type EventBody = 'envelope' | 'raw';

export interface EventKindSpec {
  description?: string;
  payload?: ShapeSpec;
  /** A delivery's body: the event envelope (the default) or the payload itself, as webhooks of other APIs send it. */
  body?: EventBody;
  /** The resource whose actions in `on` emit this kind; the payload's resource when absent. */
  resource?: string;
  /** Resource actions that emit this kind (transitions emit through their own `emits`). */
  on?: EventTrigger[];
}

export interface EventsSpec {
  delivery?: {
    webhook?: {
      signing?: 'standard-webhooks';
      retries?: string[];
      timeout?: string;
      /** Where subscribers register endpoints (built-in operations under this path); absent: not served. */
      path?: string;
      /** Scopes the registration operations require instead of the default requirement's. */
      scopes?: string[];
    };
    stream?: { path?: string; heartbeat?: string };
    /** Delivery through a message broker the operator runs (served with `serve --broker URL`). */
    broker?: {
      nats?: { subject: string; stream?: string };
      amqp?: { exchange: string; routing_key: string };
    };
  };
  kinds?: Record<string, EventKindSpec>;
}

/** A status range an OpenAPI response may be keyed by (docs/format.md, "Status ranges"). */
export type SuccessStatusRange = '2XX';
export type ErrorStatusRange = '4XX' | '5XX';

export interface ErrorCodeSpec {
  /** The status, or `4XX` / `5XX`: any status of the range (answered with its first, 400 / 500). */
  status: number | ErrorStatusRange;
  /** The headers an answer with this code carries, by name (docs/format.md, "Headers of error answers"). */
  headers?: Record<string, ParameterSpec>;
  title?: string;
  description?: string;
  when?: Condition[];
}

/** A declared error body: its fields, which of them carry the code, status and message, and its media type. */
export interface ErrorBodySpec {
  fields: Record<string, FieldSpec>;
  code?: string;
  status?: string;
  message?: string;
  media_type?: string;
  /** `names` (the default): the code field holds each code's name (its status in an integer field); `unstated`: the spec does not say which value. */
  code_values?: 'names' | 'unstated';
  /** `named` (the default): an error answer carries only the fields named here; `open`: it may carry others too. */
  answer_members?: 'named' | 'open';
}

export interface ErrorsSpec {
  body?: 'problem' | ErrorBodySpec;
  /** The headers every error answer carries, whatever its code (OpenAPI's `default` response's). */
  headers?: Record<string, ParameterSpec>;
  codes?: Record<string, ErrorCodeSpec>;
}

export interface RateLimitSpec {
  name?: string;
  requests: number;
  per: string;
  by?: 'credential' | 'address' | 'operation' | 'global';
  operations?: string[];
  on_store_failure?: 'open' | 'closed';
}

export interface LimitsSpec {
  rate?: RateLimitSpec[];
  body_size?: string | number;
  header_size?: string | number;
  nesting_depth?: number;
  page_size?: PageSizeSpec;
  timeout?: string;
  concurrency?: number;
  failed_auth?: { attempts: number; per: string };
}

export type VersionPlacement = { header: string } | { path: string } | { query: string } | { media_type: string };

export interface VersionChangeSpec {
  rename_field?: { resource: string; from: string; to: string };
  add_field?: { resource: string; field: string };
  remove_field?: { resource: string; field: string };
  description?: string;
}

export interface SupportedVersionSpec {
  version: string | number;
  changes?: VersionChangeSpec[];
  deprecated?: string;
  sunset?: string;
}

export interface VersioningSpec {
  scheme?: 'date' | 'semver' | 'integer';
  current?: string | number;
  placement?: VersionPlacement;
  default?: 'current' | 'oldest' | 'required';
  supported?: SupportedVersionSpec[];
  compatibility?: string[];
}
