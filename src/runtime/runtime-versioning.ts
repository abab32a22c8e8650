import type { FastifyReply, FastifyRequest } from 'fastify';
import { isMergePatch, mayLeaveOut } from '../model/model-defaults.js';
import { getResource } from '../model/model-lookup.js';
import { PAGE_FIELDS, type OperationRoute } from '../model/model-routes.js';
import type { ResourceModel, ServiceModel } from '../model/model-types.js';
import { getRequestSchema, getSchemaMembers, getShapeSchema, getTransitionSchema, isWritable } from '../model/model-schemas.js';
import { compareVersions, getFieldHistory, getFieldsAddedSince, getVersionModel } from '../model/model-versions.js';
import { createMediaTypeReader, fillMediaType, parseMediaTypeTemplate } from '../model/model-media-type.js';
import { ServiceError } from './runtime-errors.js';
import { checkMergePatchNulls, getMergePatchScalars } from './runtime-merge-patch.js';
import type { ValidatorFactory } from './runtime-validation.js';
import { ownValue } from '../util/util-own.js';

export interface VersionResolver {
  /** The version a request asks for (or the declared default); undefined when the spec is not versioned. */
  resolve(request: FastifyRequest): string | undefined;
  annotate(reply: FastifyReply, version: string): void;
  /** True when the version is in the media type (`placement.media_type`): the event stream's type names none. */
  readonly inMediaType?: boolean;
}

/** Field names from one version to another: a new name, or null for a field the other version does not have. */
type Renames = ReadonlyMap<string, string | null>;

/** `resource`'s renames from `version` up to the current version (`up`) and back down (`down`). */
function getRenames(model: ServiceModel, version: string, resource: string): { up: Renames; down: Renames } | undefined {
  const up = new Map<string, string | null>();
  const down = new Map<string, string | null>();
  for (const e of getFieldHistory(model, version, resource)) {
    if (e.old === e.now) continue;
    if (e.old !== undefined) up.set(e.old, e.now ?? null);
    if (e.now !== undefined) down.set(e.now, e.old ?? null);
  }
  return up.size + down.size > 0 ? { up, down } : undefined;
}

function renameObject(renames: Renames, o: unknown): unknown {
  if (o === null || typeof o !== 'object' || Array.isArray(o)) return o;
  const out: Record<string, unknown> = {};
  for (const [k, value] of Object.entries(o as Record<string, unknown>)) {
    const to = renames.get(k);
    if (to === undefined) out[k] = value;
    else if (to !== null) out[to] = value;
  }
  return out;
}

/**
 * An object, a list of them (`list` shapes), or a list page, with its fields renamed. `page` is true only for an
 * answer that is a list (a list operation, a custom operation answering a list): an object that merely has fields
 * named like the page's (`items`, `next_cursor`) is an object, renamed as one.
 */
function rename(renames: Renames, body: unknown, items?: string, page = false): unknown {
  if (Array.isArray(body)) return body.map((o) => renameObject(renames, o));
  if (body === null || typeof body !== 'object' || !page) return renameObject(renames, body);
  const b = body as Record<string, unknown>;
  // A list's envelope (its objects under paging.items); a custom operation's page, by the format's names.
  if (items !== undefined && Array.isArray(b[items])) return { ...b, [items]: (b[items] as unknown[]).map((o) => renameObject(renames, o)) };
  if (Array.isArray(b[PAGE_FIELDS.items]) && PAGE_FIELDS.next in b)
    return { ...b, [PAGE_FIELDS.items]: (b[PAGE_FIELDS.items] as unknown[]).map((o) => renameObject(renames, o)) };
  return renameObject(renames, body);
}

/** What an operation does for a request of an older version. */
export interface VersionAdapter {
  /**
   * Checks an older version's request body in that version's own shape and returns it in the current shape, with
   * the fields a replace leaves as stored (those that version does not have). Undefined for a version whose
   * request shape is the current one.
   */
  request?(version: string, body: unknown): { body: unknown; keep: readonly string[] };
  /** A success answer in the older version's shape; undefined when that version's shape is the current one. */
  response?(version: string, payload: unknown): unknown;
  /** An error the action raised for an upgraded request, with its field pointers in the older version's names. */
  error?(version: string, error: ServiceError): ServiceError;
}

/** The resource whose shape an operation's request body has: the declared request shape of a custom operation. */
function getRequestResource(model: ServiceModel, route: OperationRoute): ResourceModel | undefined {
  const op = route.operation;
  if (!route.hasBody) return undefined;
  if (op.action === 'custom') return getResource(model, op.request?.resource);
  return op.action === 'create' || op.action === 'replace' || op.action === 'update' || op.action === 'transition' ? route.resource : undefined;
}

/** The resource whose shape an operation answers with: the declared response shape of a custom operation. */
function getResponseResource(model: ServiceModel, route: OperationRoute): ResourceModel | undefined {
  return route.operation.action === 'custom' ? getResource(model, route.operation.response?.resource) : route.resource;
}

/**
 * For one operation, per older served version (`versioning.supported[].changes`): its request body checked in
 * that version's own shape (`getVersionModel`) before it is upgraded to the current one, for a create, replace,
 * update, transition, and a custom operation's declared request shape; its answer downgraded to that version's
 * names; its errors' field pointers in that version's names. A field the current version requires, added after
 * that version with no declared default, cannot be sent by its clients: a create is refused naming it (`check`
 * reports it as version-field-required). Undefined when no served version differs for this operation.
 */
export function createVersionAdapter(model: ServiceModel, route: OperationRoute, compile: ValidatorFactory): VersionAdapter | undefined {
  const v = model.versioning;
  if (!v) return undefined;
  const op = route.operation;
  const inResource = getRequestResource(model, route);
  const outResource = getResponseResource(model, route);
  const requests = new Map<string, (body: unknown) => { body: unknown; keep: readonly string[] }>();
  const responses = new Map<string, Renames>();
  const pointers = new Map<string, Renames>();
  for (const s of v.supported) {
    if (s.version === v.current) continue;
    const version = s.version;
    const outRenames = outResource && getRenames(model, version, outResource.name);
    if (outRenames) responses.set(version, outRenames.down);
    const inRenames = inResource && getRenames(model, version, inResource.name);
    if (!inResource || !inRenames) continue;
    pointers.set(version, inRenames.down);
    const vm = getVersionModel(model, version)!;
    const vr = vm.resources.find((r) => r.name === inResource.name)!;
    let schema: Record<string, unknown>;
    let keep: readonly string[] = [];
    let unsendable: readonly string[] = [];
    if (op.action === 'custom') schema = getShapeSchema(vm, op.request!, 'create', { safeIntegers: true });
    else if (op.action === 'transition') {
      const t = vm.stateMachines.find((m) => m.resource === vr.name)?.transitions.find((x) => x.name === route.transition?.name);
      schema = getTransitionSchema(vm, vr, t?.requires ?? [], { safeIntegers: true });
    } else {
      const view = op.action as 'create' | 'replace' | 'update';
      // The version's own operation: its request_fields name the fields as that version does.
      const vop = vm.endpoints?.operations.find((o) => o.id === op.id) ?? op;
      schema = getRequestSchema(vm, vr, vop, view, { safeIntegers: true });
      const added = getFieldsAddedSince(model, version, vr.name);
      if (view === 'replace') keep = added.map((f) => f.name);
      if (view === 'create') unsendable = added.filter((f) => !mayLeaveOut(f, 'create') && isWritable(inResource, f, 'create')).map((f) => f.name);
    }
    const validate = compile(schema, vr);
    const up = inRenames.up;
    const list = op.action === 'custom' && op.request?.list === true;
    // A merge patch is checked as the update checks the current version's: its nulls, then what is not merged
    // (runtime-merge-patch.ts); the objects it merges are checked merged, upgraded, by the update itself.
    const takes = isMergePatch(op) ? new Set(Object.keys(getSchemaMembers(schema))) : undefined;
    requests.set(version, (body) => {
      // A body of another kind is the action's to refuse.
      if (body === null || typeof body !== 'object' || Array.isArray(body) !== list) return { body, keep: [] };
      if (takes) {
        checkMergePatchNulls(vr, body as Record<string, unknown>);
        validate(getMergePatchScalars(vr, body as Record<string, unknown>, takes));
      } else validate(body);
      if (unsendable.length > 0) {
        throw new ServiceError(
          'validation',
          `a version ${version} request cannot create a ${vr.name}: ${unsendable.join(', ')} came after version ${version}, is required and has no default`,
          unsendable.map((name) => ({
            pointer: `/${name}`,
            message: `is required since a later version and has no default; version ${version} does not have it`,
          })),
        );
      }
      return { body: rename(up, body), keep };
    });
  }
  if (requests.size + responses.size === 0) return undefined;
  const adapter: VersionAdapter = {};
  if (requests.size > 0) {
    adapter.request = (version, body) => requests.get(version)?.(body) ?? { body, keep: [] };
    adapter.error = (version, error) => {
      const down = pointers.get(version);
      if (!down || !error.invalid) return error;
      const invalid = error.invalid.map((x) => {
        const m = x.pointer === undefined ? null : /^\/([^/]*)(.*)$/.exec(x.pointer);
        const to = m ? down.get(m[1]!.replace(/~1/g, '/').replace(/~0/g, '~')) : undefined;
        return typeof to === 'string' ? { ...x, pointer: `/${to.replace(/~/g, '~0').replace(/\//g, '~1')}${m![2]}` } : x;
      });
      return new ServiceError(error.condition, error.detail, invalid, error.headers, error.code);
    };
  }
  if (responses.size > 0) {
    const page = op.action === 'list' || (op.action === 'custom' && op.response?.list === true);
    const items = op.paging?.body === 'envelope' ? op.paging.items : undefined;
    adapter.response = (version, payload) => {
      const down = responses.get(version);
      return down ? rename(down, payload, items, page) : payload;
    };
  }
  return adapter;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The media type of a JSON answer serialised by the action: the one the version's placement set on the reply (the
 * `media_type` template filled with the version served, by `annotate`), else application/json.
 */
export function getAnswerType(reply: FastifyReply): string {
  const set = reply.getHeader('content-type');
  return typeof set === 'string' ? set : JSON_TYPE;
}

/**
 * Reads the version where the spec places it and refuses versions the spec does not list. `now` is the runtime's
 * clock: a sunset, and with `default: oldest` the version a request naming none gets, are decided per request.
 */
export function createVersionResolver(model: ServiceModel, now: () => Date): VersionResolver {
  const v = model.versioning;
  const placement = v?.placement;
  if (!v || !placement) return { resolve: () => undefined, annotate: () => undefined };
  const known = [...(v.current !== undefined ? [v.current] : []), ...v.supported.map((s) => s.version)];
  const unique = [...new Set(known)];
  const sunsets = new Map(v.supported.filter((s) => s.sunset !== undefined).map((s) => [s.version, s.sunset!]));
  const deprecations = new Map(v.supported.filter((s) => s.deprecated !== undefined).map((s) => [s.version, s.deprecated!]));
  const today = () => now().toISOString().slice(0, 10);
  const isPastSunset = (version: string, day: string) => {
    const sunset = sunsets.get(version);
    return sunset !== undefined && sunset <= day;
  };
  // `oldest`: the oldest version not past its sunset on the day of the request; the current one once every older
  // version is past its sunset (it has none). Oldest first, by the scheme's order (list order among equals).
  const scheme = v.scheme ?? 'date';
  const older = v.supported.map((s) => s.version).filter((x) => x !== v.current);
  const oldestFirst = [...new Set(older)].sort((a, b) => compareVersions(scheme, a, b) || 0);
  const fallback = (): string | undefined => {
    if (v.default === 'required') return undefined;
    if (v.default !== 'oldest') return v.current;
    const day = today();
    return oldestFirst.find((x) => !isPastSunset(x, day)) ?? v.current;
  };
  const media = placement.kind === 'media_type' ? parseMediaTypeTemplate(placement.template) : undefined;
  const readMedia = media ? createMediaTypeReader(media) : undefined;
  const charset = media?.params.some(([name]) => name === 'charset') === true ? '' : '; charset=utf-8';
  const answerType = media ? (version: string) => `${fillMediaType(media.template, version)}${charset}` : undefined;

  const headerName = placement.kind === 'header' ? placement.name.toLowerCase() : '';
  const read = (request: FastifyRequest): string | undefined => {
    switch (placement.kind) {
      case 'header': {
        const h = ownValue(request.headers, headerName) as string | string[] | undefined;
        const value = Array.isArray(h) ? h[0] : h;
        // Node joins a repeated header into one value ("3, 2"), and one line listing several is the same thing
        // (RFC 9110 §5.3): either way a comma that no served version has. Only then are the raw lines counted, to
        // say which it was.
        if (value !== undefined && value.includes(',') && !unique.includes(value)) {
          const raw = request.raw.rawHeaders;
          let seen = 0;
          for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === headerName) seen++;
          throw new ServiceError(
            'malformed_request',
            seen > 1
              ? `the ${placement.name} header is sent more than once; name one version`
              : `the ${placement.name} header names more than one value; name one version`,
          );
        }
        return value;
      }
      case 'query': {
        const q = ownValue(request.query as object, placement.name);
        if (Array.isArray(q)) throw new ServiceError('malformed_request', `the ${placement.name} parameter is sent more than once; name one version`);
        return typeof q === 'string' ? q : undefined;
      }
      case 'path':
        return (request.params as Record<string, string>).version;
      case 'media_type': {
        // Accept names the version of the answer, Content-Type that of the body: one version per request.
        if (!readMedia) return undefined;
        const accepted = readMedia(request.headers.accept);
        const sent = readMedia(request.headers['content-type']);
        if (accepted !== undefined && sent !== undefined && accepted !== sent) {
          // Only served versions are named back (a value not served is never echoed).
          const both =
            unique.includes(accepted) && unique.includes(sent)
              ? `Accept names version ${accepted} and Content-Type version ${sent}`
              : 'Accept and Content-Type name different versions';
          throw new ServiceError('unsupported_version', `${both}; name one version (served: ${unique.join(', ')})`);
        }
        return sent ?? accepted;
      }
    }
  };

  return {
    inMediaType: placement.kind === 'media_type',
    resolve(request) {
      const asked = read(request);
      if (asked === undefined || asked === '') {
        const version = fallback();
        if (version === undefined) {
          if (v.default === 'oldest' && oldestFirst.length > 0) throw new ServiceError('unsupported_version', 'every version is past its sunset');
          throw new ServiceError('unsupported_version', `name a version (${unique.join(', ')})`);
        }
        return version;
      }
      // The value asked is not echoed: clients have sent credentials in the wrong header.
      if (!unique.includes(asked)) throw new ServiceError('unsupported_version', `the version named is not served; served: ${unique.join(', ')}`);
      if (sunsets.has(asked) && isPastSunset(asked, today()))
        throw new ServiceError('unsupported_version', `version ${asked} reached its sunset on ${sunsets.get(asked)!}`);
      return asked;
    },
    annotate(reply, version) {
      // The answer depends on the header that named the version: a cache keeps one per value (after CORS's Origin,
      // where it set one).
      if (placement.kind === 'header') {
        reply.header(placement.name, version);
        addVary(reply, placement.name);
      }
      // The answer's media type is the template filled with the version served, with the charset every JSON answer
      // names (Fastify would add it, rewriting the parameters); errors set their own type.
      else if (answerType) {
        reply.type(answerType(version));
        addVary(reply, 'Accept');
      }
      const dep = deprecations.get(version);
      if (dep !== undefined) reply.header('deprecation', `@${Math.floor(Date.parse(dep) / 1000)}`);
      const sunset = sunsets.get(version);
      if (sunset !== undefined) reply.header('sunset', new Date(sunset).toUTCString());
    },
  };
}

function addVary(reply: FastifyReply, header: string): void {
  const vary = reply.getHeader('vary');
  reply.header('vary', typeof vary === 'string' && vary !== '' ? `${vary}, ${header}` : header);
}
