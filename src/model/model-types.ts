import type {
  Action,
  Condition,
  EnvelopeSource,
  ErrorStatusRange,
  EventBody,
  EventTrigger,
  FieldType,
  HttpMethod,
  ListStyle,
  PagingRole,
  PageMemberRole,
  PartName,
  RequestMediaType,
  SchemeType,
  SuccessStatusRange,
} from '../spec/spec-types.js';

// The ServiceModel: one frozen, normalised view of a spec that every renderer, the runtime and the
// tester read. Anything the spec does not state is `undefined` here (never a guessed value); the only
// defaults applied are the ones the format itself defines (docs/format.md lists them).

import type { Duration, Size } from '../util/util-units.js';

export type { Duration, Size };

export interface FieldModel {
  name: string;
  pointer: string;
  type: FieldType;
  description?: string;
  optional: boolean;
  /** Answers may hold null (`nullable: true` or `answers`). */
  nullable: boolean;
  /** `nullable: answers`: requests may not send null (set only when true). */
  nullableInAnswersOnly?: true;
  readOnly: boolean;
  writeOnce: boolean;
  /** Sent in requests, stored, never answered (set only when true). */
  writeOnly?: true;
  /** `address`: the object's read path, filled in each answer (never stored). */
  generated?: 'create_time' | 'update_time' | 'address';
  unique: boolean;
  hasDefault: boolean;
  default?: unknown;
  /** `service`: the service sets this required read-only field by a rule the spec does not state (set only when written). */
  source?: 'service';
  /** Create and replace requests must send the field although it has a default (set only when true). */
  requiredInRequests?: boolean;
  /** Create and replace requests (`create`: create requests only) may leave the field out; every answer holds it, with a value the spec does not state. */
  optionalInRequests?: true | 'create';
  hasExample: boolean;
  example?: unknown;
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
  values?: readonly (string | number)[];
  to?: string;
  items?: FieldModel;
  fields?: readonly FieldModel[];
  /** The field's earlier names (`renamedFrom`, one or several): `servicespec migrate` renames the column it finds. */
  renamedFrom?: readonly string[];
  /** union: its variants and the property telling them apart. */
  union?: UnionModel;
  /**
   * A field of a resource of several shapes that only some variants hold (ResourceModel.variants): their names. Its
   * column is nullable; an object of another variant never holds it. Absent for the shared fields and the tag.
   */
  ofVariants?: readonly string[];
}

/** One shape a union may take. */
export interface VariantModel {
  name: string;
  pointer: string;
  description?: string;
  /** The discriminator's value for this variant (the name unless `tag` says otherwise); undefined when untagged. */
  tag?: string;
  fields: readonly FieldModel[];
}

/** A value (field or body) that is one of several object shapes. */
export interface UnionModel {
  /** The tag property, when the union is tagged. */
  discriminator?: string;
  variants: readonly VariantModel[];
}

/** A declared query parameter or request header of a custom operation: a field, and where it travels. */
export interface ParameterModel extends FieldModel {
  in: 'query' | 'header';
  deprecated: boolean;
}

export interface ResourceModel {
  name: string;
  pointer: string;
  description?: string;
  plural?: string;
  /** The identifier field's name, when the resource has one. */
  identifier?: string;
  /** Who gives a created object its identifier: the server makes it (format default), or the create request sends it. */
  identifierSource: 'server' | 'client';
  /**
   * `open`: an implementation's answer may carry members the resource does not name (an OpenAPI response schema left
   * open), at every depth; `named` (format default): only those it names. The runtime answers only named ones either way.
   */
  answerMembers: 'named' | 'open';
  /** `etag: true`: one-object answers carry an ETag; reads honour If-None-Match, one-object changes If-Match. Set only when so. */
  etag?: true;
  owner?: string;
  /** How another subject's object is answered: as if missing (format default) or forbidden. */
  ownerAccess: 'hidden' | 'forbidden';
  /** Scopes whose holders act on every subject's objects. */
  ownerOverrideScopes: readonly string[];
  /** Keys unique together (`unique_keys`): field paths, dotted for a nested field (docs/format.md). */
  uniqueKeys?: readonly (readonly string[])[];
  /**
   * `parent`: the resource each object belongs to, shown by no field (a comment's article): the storage keeps the
   * parent's identifier in a hidden column (PARENT_COLUMN); a binding `Parent.field` names the parent (docs/format.md).
   */
  parent?: string;
  /** The resource's earlier names (`renamedFrom`, one or several): `servicespec migrate` renames the table it finds, keeping its objects. */
  renamedFrom?: readonly string[];
  /**
   * Every field an object may hold: with `variants`, the shared ones, the tag (a required write-once enum of the tags,
   * unless a field of that name is declared: check's resource-discriminator-field) and each variant's own (marked
   * `ofVariants`), flattened as one table stores them.
   */
  fields: readonly FieldModel[];
  /** A resource of several shapes (`discriminator`, `variants`): set only when it has them. */
  variants?: ResourceVariantsModel;
}

/** The shapes of a resource of several shapes: an object is the shared fields, the tag and one variant's own fields. */
export interface ResourceVariantsModel {
  /** The tag property; undefined only where the spec names none (check's resource-variants-untagged). */
  discriminator?: string;
  variants: readonly ResourceVariantModel[];
}

export interface ResourceVariantModel {
  name: string;
  pointer: string;
  description?: string;
  /** The tag's value for this variant: its name unless `tag` says otherwise (a format default). */
  tag: string;
  /** The variant's own fields as it writes them (its required ones are required of its objects only). */
  fields: readonly FieldModel[];
}

export interface StateModel {
  name: string;
  description?: string;
  terminal: boolean;
  /** Listed under `states` (rather than only named by a transition or `initial`). */
  declared: boolean;
}

export interface TransitionModel {
  name: string;
  pointer: string;
  description?: string;
  from: readonly string[];
  to: string;
  requires: readonly string[];
  emits?: string;
  stamp?: string;
}

export interface StateMachineModel {
  resource: string;
  pointer: string;
  field?: string;
  initial?: string;
  states: readonly StateModel[];
  transitions: readonly TransitionModel[];
  /** States the machine no longer has → the current state their stored objects move to (`servicespec migrate`). */
  removedStates?: Readonly<Record<string, string>>;
}

export interface ShapeModel {
  resource?: string;
  fields?: readonly FieldModel[];
  /** A union body: one of several shapes. */
  union?: UnionModel;
  list: boolean;
  /** A custom operation's request: its media type as written (undefined: JSON, the format's default). */
  mediaType?: RequestMediaType;
}

export type AuthRequirement = { kind: 'none' } | { kind: 'required'; schemes: readonly string[]; scopes: readonly string[] };

export interface OperationModel {
  id: string;
  pointer: string;
  method: HttpMethod;
  path: string;
  /** Names of the `{parameters}` in the path, in order. */
  pathParams: readonly string[];
  action: Action;
  resource?: string;
  transition?: string;
  summary?: string;
  description?: string;
  filter: readonly string[];
  /** list (`required_filters`): the filters every request must send, in the order written; absent when none are declared. */
  requiredFilters?: readonly string[];
  /** list: the fields a request may sort by (each once, its direction prefix taken off). */
  sort: readonly string[];
  /** list: the `sort` values a request may send, in the spec's order (`name`, `-name`; one of them for `+name`, `-name`). */
  sortValues: readonly string[];
  /** list (`sort_param`): the query parameter carrying the sort, where the spec names it; absent: `sort` (LIST_PARAMS.sort). */
  sortParam?: string;
  /**
   * create, update, replace (`request_fields`): the resource's writable fields its request takes, in the order written;
   * absent when not declared (the request takes every writable field).
   */
  requestFields?: readonly string[];
  /** create, update, replace (`request_media_type`): the request body's one media type; absent: application/json. */
  requestMediaType?: string;
  /** create (`location`): false when its answer carries no Location header; absent when not written (getCreateLocation). */
  location?: boolean;
  /**
   * create, update, replace (`unknown_fields`): whether a body member its request does not name is refused or dropped;
   * absent when not written (getUnknownFields: the format's `refuse`).
   */
  unknownFields?: 'refuse' | 'ignore';
  /** replace (`upsert: true`): a request naming no object creates it with the path's identifier (201); set only when so. */
  upsert?: true;
  /** update, replace, delete, transition of an etag resource (`if_match: required`): a request without If-Match is refused; set only when so. */
  ifMatch?: 'required';
  /**
   * list (`answer_fields`): the top-level fields of its resource each object of its answer carries, in the order
   * written (a summary: RealWorld's article list without `body`); absent when not declared (every answered field).
   */
  answerFields?: readonly string[];
  /** list: how it pages (the format's cursor envelope unless the spec says otherwise); undefined for other actions. */
  paging?: PagingModel;
  /** custom: the declared query parameters, by their name on the wire (empty when none are declared). */
  query: readonly ParameterModel[];
  /** custom: the declared request headers, by their name as written. */
  headers: readonly ParameterModel[];
  /** The path parameters bound to fields of the resource (`bind`), in the order written; absent when not declared. */
  bindings?: readonly PathBindingModel[];
  /** The declared headers of the success answer, by their name as written (empty when none); `in` is `header`. */
  responseHeaders: readonly ParameterModel[];
  /** The declared success status, or the one the format defines for the action. */
  status: number;
  statusDeclared: boolean;
  /** `status: 2XX`: any success status is the contract; `status` is the one the service answers. */
  statusRange?: SuccessStatusRange;
  request?: ShapeModel;
  /** `request: none`: the operation takes no body (set only when so); `request` is then undefined. */
  takesNoBody?: true;
  response?: ShapeModel;
  handler?: string;
  /** The operation's own requirement, else the default; undefined when neither is shown. */
  auth?: AuthRequirement;
  authDeclared: 'operation' | 'default' | 'none';
  errors: readonly string[];
  idempotent?: boolean;
  deprecated: boolean;
  /** Named examples (endpoints.operations.<id>.examples), in the order written. */
  examples?: OperationExamplesModel;
  /** Callbacks (endpoints.operations.<id>.callbacks), in the order written; absent when none are declared. */
  callbacks?: readonly CallbackModel[];
  /** The operation's own `envelope` as written (`none`, or its own); absent when it takes `endpoints.envelope`. */
  envelopeDeclared?: 'none' | EnvelopeModel;
  /** The envelope its answers are wrapped in (model-envelope.ts: read, list, create, update, replace, transition). */
  envelope?: EnvelopeModel;
  /** create, update, replace, transition (`request_envelope`): the one member the request body is wrapped in. */
  requestEnvelope?: { data: string };
}

/** One envelope value the runtime knows and the field carrying it (`path`: field names from the envelope's top). */
export interface EnvelopeValueModel {
  source: EnvelopeSource;
  path: readonly string[];
}

/** A response envelope (docs/format.md, "Response envelopes"). */
export interface EnvelopeModel {
  pointer: string;
  /** The field carrying the answer. */
  data: string;
  fields: readonly FieldModel[];
  /** In the order of ENVELOPE_SOURCES. */
  values: readonly EnvelopeValueModel[];
}

/** A path parameter bound to a field of the operation's resource (`endpoints.operations.<id>.bind`). */
export interface PathBindingModel {
  /** The path parameter's name. */
  param: string;
  /** The field's name as written; dotted for a nested field; `Parent.field` for a field of the resource's parent. */
  field: string;
  /**
   * Set where `field` names a field of the resource's `parent` (`Article.slug`), or of a resource further up its chain
   * of parents (`Owner.id` on a Visit under a Pet under an Owner): that resource, its field, and the steps up (1: the
   * resource's own parent).
   */
  parent?: { resource: string; field: string; level: number };
  /** Pointer to the binding in the spec. */
  pointer: string;
}

/** Events about the object an operation created, POSTed (signed and retried as webhooks are) to a URL from its request. */
export interface CallbackModel {
  name: string;
  pointer: string;
  description?: string;
  /** The request field holding the subscription URL. */
  url: string;
  /** The event kinds delivered to it. */
  events: readonly string[];
}

export interface NamedExampleModel {
  name: string;
  summary?: string;
  description?: string;
  value: unknown;
}

export interface OperationExamplesModel {
  request: readonly NamedExampleModel[];
  response: readonly NamedExampleModel[];
  /** By the parameter's name on the wire. */
  parameters: readonly { name: string; examples: readonly NamedExampleModel[] }[];
}

/** How a list operation pages: the spec's `paging` with the format's defaults filled in (docs/format.md). */
export interface PagingModel {
  style: ListStyle;
  body: 'envelope' | 'array';
  /** envelope: the field holding the objects. */
  items: string;
  /** envelope, cursor style: the field holding the next cursor; absent with `next: false` (the Link header alone carries it). */
  next?: string;
  /** The next cursor's field is left out on the last page (`next_optional`: optional, not nullable) rather than null. */
  nextOptional?: true;
  /** envelope: the field holding the total, when declared. */
  total?: string;
  /** envelope: the boolean field saying objects follow this page, when declared. */
  hasMore?: string;
  /** envelope: fields holding one text on every page (`paging.constants`), in the spec's order. */
  constants?: Readonly<Record<string, string>>;
  /** envelope: the field holding the request's path, without its query (`paging.url`). */
  url?: string;
  /** envelope: the field holding the next page's whole address, null on the last page (`paging.next_link`). */
  nextLink?: string;
  /** envelope, style offset or page: the field holding the previous page's whole address, null on the first (`paging.previous_link`). */
  previousLink?: string;
  /** Style page: 0 when pages are numbered from 0 (`paging.first_page: 0`, Spring Data's); absent, from 1. */
  firstPage?: 0;
  /** envelope: the page's descriptive members (`paging.members`), one per path, in the spec's order; absent when none. */
  members?: readonly PageMemberModel[];
  /** The response header holding the total (`X-Total-Count`), when declared: sent on every page, either body. */
  totalHeader?: string;
  link: boolean;
  /** The spec's own names of paging parameters, by role (getPagingParamName applies the format's defaults). */
  params: Readonly<Partial<Record<PagingRole, string>>>;
  /** This list's own page sizes (`paging.page_size`), each overriding limits.page_size's; getPageSize merges them. */
  pageSize?: PageSizeModel;
  /** Whether the spec states `paging` (gaps names the format default otherwise). */
  declared: boolean;
}

/** One member of a page object: what it holds, and its field path (nested fields from the outermost). */
export interface PageMemberModel {
  role: PageMemberRole;
  path: readonly string[];
}

/** Page sizes: the default, the most a request may ask for, how a request for more is answered. */
export interface PageSizeModel {
  default?: number;
  max?: number;
  overMax?: 'reject' | 'clamp';
}

export interface EndpointsModel {
  baseUrl?: string;
  idempotency?: { header?: string; retention?: Duration };
  /** endpoints.envelope: the envelope of every operation that declares none of its own. */
  envelope?: EnvelopeModel;
  operations: readonly OperationModel[];
}

export interface SchemeModel {
  name: string;
  pointer: string;
  type: SchemeType;
  description?: string;
  /** Where an api_key scheme's key travels, as the spec states it; getApiKeyPlacement applies the format's default. */
  in?: 'header' | 'query';
  /** The credential's header or query parameter name (api_key). */
  credentialName?: string;
  prefix?: string;
  token?: 'jwt';
  algorithms?: readonly string[];
  issuer?: string;
  audience?: string;
  lifetime?: Duration;
  clockTolerance?: Duration;
  tokenPath?: string;
}

export interface AuthenticationModel {
  schemes: readonly SchemeModel[];
  scopes: readonly { name: string; description: string }[];
  default?: AuthRequirement;
}

export type EventTriggerModel = { action: EventTrigger; resource: string } | { action: 'transition'; resource: string; transition: string };

export interface EventKindModel {
  name: string;
  pointer: string;
  description?: string;
  payload?: ShapeModel;
  /** A delivery's body as written (events.kinds.<kind>.body); `isRawEvent` applies the default (the envelope). */
  body?: EventBody;
  triggers: readonly EventTriggerModel[];
}

export interface EventsModel {
  webhook?: {
    signing?: 'standard-webhooks';
    retries?: readonly Duration[];
    timeout?: Duration;
    /** The path of the built-in registration operations (events.delivery.webhook.path). */
    path?: string;
    /** Scopes the registration operations require instead of the default requirement's. */
    scopes?: readonly string[];
  };
  stream?: { path?: string; heartbeat?: Duration };
  /** events.delivery.broker: subject / routing key templates (model-broker.ts reads them). */
  broker?: {
    nats?: { subject: string; stream?: string };
    amqp?: { exchange: string; routingKey: string };
  };
  kinds: readonly EventKindModel[];
}

export interface ErrorCodeModel {
  name: string;
  pointer: string;
  /** The status answered: the declared one, or a range's first (400 for `4XX`, 500 for `5XX`). */
  status: number;
  /** `status: 4XX` / `5XX`: any status of the range is the contract. */
  statusRange?: ErrorStatusRange;
  /** The declared headers of its answers (`in` is `header`), in the order written; empty when none. */
  headers: readonly ParameterModel[];
  title?: string;
  description?: string;
  when: readonly Condition[];
}

/**
 * The error body. A declared one keeps the fields that carry the code, status and message and its media type as
 * written (undefined when left out: `getErrorBodyRoles` in model-defaults.ts applies the format's defaults).
 */
export type ErrorBodyModel = { kind: 'problem' } | DeclaredErrorBodyModel;

export interface DeclaredErrorBodyModel {
  kind: 'declared';
  fields: readonly FieldModel[];
  code?: string;
  status?: string;
  message?: string;
  mediaType?: string;
  /** errors.body.code_values as written: `unstated` says the spec does not state the code field's value per code. */
  codeValues?: 'names' | 'unstated';
  /** errors.body.answer_members: whether an error answer may carry members the body does not name (`open`). */
  answerMembers: 'named' | 'open';
}

export interface ErrorsModel {
  body?: ErrorBodyModel;
  /** errors.headers: the declared headers of every error answer; empty when none. */
  headers: readonly ParameterModel[];
  codes: readonly ErrorCodeModel[];
  /** Which code each declared condition maps to. */
  byCondition: Readonly<Partial<Record<Condition, string>>>;
}

export interface RateLimitModel {
  pointer: string;
  name?: string;
  requests: number;
  per: Duration;
  by?: 'credential' | 'address' | 'operation' | 'global';
  operations?: readonly string[];
  onStoreFailure?: 'open' | 'closed';
}

export interface LimitsModel {
  rate: readonly RateLimitModel[];
  bodySize?: Size;
  headerSize?: Size;
  nestingDepth?: number;
  pageSize?: PageSizeModel;
  timeout?: Duration;
  concurrency?: number;
  /** Failed credentials allowed per client address and per credential id within `per`. */
  failedAuth?: { attempts: number; per: Duration };
}

export type VersionPlacementModel =
  { kind: 'header'; name: string } | { kind: 'path'; template: string } | { kind: 'query'; name: string } | { kind: 'media_type'; template: string };

export interface VersionChangeModel {
  kind: 'rename_field' | 'add_field' | 'remove_field' | 'other';
  resource?: string;
  field?: string;
  from?: string;
  to?: string;
  description?: string;
}

export interface SupportedVersionModel {
  version: string;
  pointer: string;
  changes: readonly VersionChangeModel[];
  deprecated?: string;
  sunset?: string;
}

export interface VersioningModel {
  scheme?: 'date' | 'semver' | 'integer';
  current?: string;
  placement?: VersionPlacementModel;
  default?: 'current' | 'oldest' | 'required';
  supported: readonly SupportedVersionModel[];
  compatibility: readonly string[];
}

export interface PurposeModel {
  name?: string;
  summary?: string;
  description?: string;
  includes?: readonly string[];
  excludes?: readonly string[];
  audience?: readonly string[];
  contact?: { name?: string; email?: string; url?: string };
}

export interface ServiceModel {
  formatVersion: 1;
  file: string;
  /** Which of the nine parts the file contains at all. */
  present: Readonly<Record<PartName, boolean>>;
  purpose?: PurposeModel;
  resources: readonly ResourceModel[];
  stateMachines: readonly StateMachineModel[];
  endpoints?: EndpointsModel;
  authentication?: AuthenticationModel;
  events?: EventsModel;
  errors?: ErrorsModel;
  limits?: LimitsModel;
  versioning?: VersioningModel;
}

declare const CHECKED: unique symbol;

/**
 * A model the front end (src/program.ts) checked and found without errors (`CompiledSpec.checked`); the runtime's
 * entry points take only this. Made only by model-check-record.ts, for program.ts.
 */
export type CheckedModel = ServiceModel & { readonly [CHECKED]: true };
