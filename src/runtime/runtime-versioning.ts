import type { FastifyReply, FastifyRequest } from 'fastify';
import { PAGE_FIELDS } from '../model/model-routes.js';
import type { ServiceModel, VersionChangeModel } from '../model/model-types.js';
import { getResourceSchema, isWritable } from '../model/model-schemas.js';
import { getChangesSince, getFieldsAddedSince, getVersionModel } from '../model/model-versions.js';
import { ServiceError } from './runtime-errors.js';
import type { ValidatorFactory } from './runtime-validation.js';

export interface VersionResolver {
  /** The version a request asks for (or the declared default); undefined when the spec is not versioned. */
  resolve(request: FastifyRequest): string | undefined;
  annotate(reply: FastifyReply, version: string): void;
  /** A request body of an older version, in the current version's shape (renamed fields renamed, removed ones dropped). */
  upgrade(resource: string, version: string, body: unknown): unknown;
  /** A response object of the current version, in an older version's shape. */
  downgrade(resource: string, version: string, body: unknown): unknown;
  /** Whether any served version rewrites this resource's fields (else upgrade and downgrade change nothing). */
  rewrites(resource: string): boolean;
}

type Rewrite = (obj: Record<string, unknown>) => void;

function rename(from: string, to: string): Rewrite {
  return (obj) => {
    if (Object.prototype.hasOwnProperty.call(obj, from)) {
      obj[to] = obj[from];
      delete obj[from];
    }
  };
}

/** Per resource and version: the rewrites from that version up to the current one, and back down. */
function buildRewrites(changes: readonly VersionChangeModel[], resource: string): { up: Rewrite[]; down: Rewrite[] } {
  const up: Rewrite[] = [];
  const down: Rewrite[] = [];
  for (const c of changes) {
    if (c.resource !== resource || c.kind === 'other') continue;
    if (c.kind === 'rename_field' && c.from !== undefined && c.to !== undefined) {
      up.push(rename(c.from, c.to));
      down.unshift(rename(c.to, c.from));
    } else if (c.kind === 'add_field' && c.field !== undefined) {
      const field = c.field;
      down.unshift((obj) => delete obj[field]);
    } else if (c.kind === 'remove_field' && c.field !== undefined) {
      const field = c.field;
      // An older client may still send a field the current version removed: it is accepted and ignored.
      up.push((obj) => delete obj[field]);
    }
  }
  return { up, down };
}

function apply(rewrites: readonly Rewrite[], body: unknown): unknown {
  if (rewrites.length === 0 || body === null || typeof body !== 'object') return body;
  const each = (o: unknown) => {
    if (o === null || typeof o !== 'object' || Array.isArray(o)) return o;
    const copy = { ...(o as Record<string, unknown>) };
    for (const r of rewrites) r(copy);
    return copy;
  };
  const b = body as Record<string, unknown>;
  // A list page rewrites its items.
  const items = b[PAGE_FIELDS.items];
  if (Array.isArray(items) && PAGE_FIELDS.next in b) return { ...b, [PAGE_FIELDS.items]: items.map(each) };
  return each(body);
}

/** Reads the version where the spec places it and refuses versions the spec does not list. */
export function createVersionResolver(model: ServiceModel): VersionResolver {
  const v = model.versioning;
  const placement = v?.placement;
  if (!v || !placement) return { resolve: () => undefined, annotate: () => undefined, upgrade: (_r, _v, b) => b, downgrade: (_r, _v, b) => b, rewrites: () => false };
  const known = [...(v.current !== undefined ? [v.current] : []), ...v.supported.map((s) => s.version)];
  const unique = [...new Set(known)];
  const oldest = v.supported.length > 0 ? v.supported[v.supported.length - 1]!.version : v.current;
  const fallback = v.default === 'oldest' ? oldest : v.default === 'required' ? undefined : v.current;
  const sunsets = new Map(v.supported.filter((s) => s.sunset !== undefined).map((s) => [s.version, s.sunset!]));
  const deprecations = new Map(v.supported.filter((s) => s.deprecated !== undefined).map((s) => [s.version, s.deprecated!]));

  const read = (request: FastifyRequest): string | undefined => {
    switch (placement.kind) {
      case 'header': {
        const h = request.headers[placement.name.toLowerCase()];
        return Array.isArray(h) ? h[0] : h;
      }
      case 'query': {
        const q = (request.query as Record<string, unknown>)[placement.name];
        return typeof q === 'string' ? q : undefined;
      }
      case 'path':
        return (request.params as Record<string, string>).version;
      case 'media_type': {
        const accept = request.headers.accept ?? '';
        const m = new RegExp(`${placement.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*=\\s*"?([^";,\\s]+)`).exec(accept);
        return m?.[1];
      }
    }
  };

  const cache = new Map<string, { up: Rewrite[]; down: Rewrite[] }>();
  const rewrites = (resource: string, version: string) => {
    const key = `${resource}\u0000${version}`;
    let r = cache.get(key);
    if (!r) {
      r = buildRewrites(getChangesSince(model, version), resource);
      cache.set(key, r);
    }
    return r;
  };

  return {
    upgrade: (resource, version, body) => apply(rewrites(resource, version).up, body),
    downgrade: (resource, version, body) => apply(rewrites(resource, version).down, body),
    rewrites: (resource) => unique.some((version) => {
      if (version === v.current) return false;
      const r = rewrites(resource, version);
      return r.up.length + r.down.length > 0;
    }),
    resolve(request) {
      const asked = read(request);
      if (asked === undefined || asked === '') {
        if (fallback === undefined) throw new ServiceError('unsupported_version', `name a version (${unique.join(', ')})`);
        return fallback;
      }
      if (!unique.includes(asked)) throw new ServiceError('unsupported_version', `version ${asked.slice(0, 64)} is not served; served: ${unique.join(', ')}`);
      const sunset = sunsets.get(asked);
      if (sunset !== undefined && sunset <= new Date().toISOString().slice(0, 10)) {
        throw new ServiceError('unsupported_version', `version ${asked} reached its sunset on ${sunset}`);
      }
      return asked;
    },
    annotate(reply, version) {
      if (placement.kind === 'header') reply.header(placement.name, version);
      const dep = deprecations.get(version);
      if (dep !== undefined) reply.header('deprecation', `@${Math.floor(Date.parse(dep) / 1000)}`);
      const sunset = sunsets.get(version);
      if (sunset !== undefined) reply.header('sunset', new Date(sunset).toUTCString());
    },
  };
}

/**
 * For a create, replace or update of `resource`: checks an older version's request body against that version's
 * own shape (`getVersionModel`), before it is upgraded, and returns the fields a replace leaves as stored (those
 * added after that version). A field the current version requires, added after that version with no declared
 * default, cannot be sent by its clients: a create is refused naming it (`check` reports it as
 * version-field-required). Undefined when no served version differs for this resource.
 */
export function createVersionBodyCheck(model: ServiceModel, resource: string, view: 'create' | 'replace' | 'update', compile: ValidatorFactory): ((version: string, body: unknown) => readonly string[]) | undefined {
  const v = model.versioning;
  if (!v) return undefined;
  const checks = new Map<string, (body: unknown) => readonly string[]>();
  for (const s of v.supported) {
    if (s.version === v.current) continue;
    const vr = getVersionModel(model, s.version)?.resources.find((r) => r.name === resource);
    if (!vr || getChangesSince(model, s.version).every((c) => c.resource !== resource || c.kind === 'other')) continue;
    const validate = compile(getResourceSchema(model, vr, view, { safeIntegers: true }), vr);
    const added = getFieldsAddedSince(model, s.version, resource);
    const keep = view === 'replace' ? added.map((f) => f.name) : [];
    const unsendable = view === 'create' ? added.filter((f) => !f.optional && !f.hasDefault && isWritable(vr, f, 'create')) : [];
    const version = s.version;
    checks.set(version, (body) => {
      validate(body);
      if (unsendable.length > 0) {
        throw new ServiceError(
          'validation',
          `a version ${version} request cannot create a ${resource}: ${unsendable.map((f) => f.name).join(', ')} came after version ${version}, is required and has no default`,
          unsendable.map((f) => ({ pointer: `/${f.name}`, message: `is required since a later version and has no default; version ${version} does not have it` })),
        );
      }
      return keep;
    });
  }
  if (checks.size === 0) return undefined;
  return (version, body) => {
    // A body that is not an object is the action's to refuse.
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return [];
    return checks.get(version)?.(body) ?? [];
  };
}
