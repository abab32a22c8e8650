import { isSuccessAnswer, type OperationRoute } from '../model/model-routes.js';
import { heldAsSent } from './tester-arbitraries.js';
import { getPageItems } from './tester-checks-lists.js';
import type { JsonSchema } from '../model/model-schemas.js';
import { objectKey } from './tester-context.js';
import { getChangesSince } from '../model/model-versions.js';
import { createMediaTypeReader, fillMediaType, parseMediaTypeTemplate } from '../model/model-media-type.js';
import type { OperationModel, ResourceModel } from '../model/model-types.js';
import type { TestRequest, TestResponse } from './tester-http.js';
import { describe, type TestContext } from './tester-context.js';

// The versioning part: each served version, at its placement, answers in its own shape with a JSON content
// type; an older version's requests are taken in its shape; an unsupported version gets the declared code;
// Deprecation and Sunset are sent where declared.

/** A resource's response schema as an older version shows it: the changes since, undone newest first. */
function schemaAt(ctx: TestContext, resource: ResourceModel, version: string, list?: Pick<OperationModel, 'answerFields'>): JsonSchema {
  // The current answer schema as the run holds it (the fields serve says it leaves out not required: unsetFields); a
  // list's objects, its answer_fields only.
  const s = JSON.parse(JSON.stringify(ctx.answerSchema(resource, list))) as {
    properties: Record<string, JsonSchema>;
    required?: string[];
    additionalProperties?: unknown;
  };
  for (const c of [...getChangesSince(ctx.model, version)].reverse()) {
    if (c.resource !== resource.name) continue;
    const rename = (from: string, to: string) => {
      if (s.properties[to] === undefined) return;
      s.properties[from] = s.properties[to]!;
      delete s.properties[to];
      s.required = s.required?.map((r) => (r === to ? from : r));
    };
    if (c.kind === 'rename_field' && c.from !== undefined && c.to !== undefined) rename(c.from, c.to);
    if (c.kind === 'add_field' && c.field !== undefined) {
      delete s.properties[c.field];
      s.required = s.required?.filter((r) => r !== c.field);
    }
    if (c.kind === 'remove_field' && c.field !== undefined) s.properties[c.field] = {};
    if (c.kind === 'other') s.additionalProperties = true;
  }
  return s;
}

/** A body in an older version's request shape: the changes since, undone (a field added since is left out). */
function bodyAt(ctx: TestContext, resource: ResourceModel, version: string, body: Record<string, unknown>): Record<string, unknown> {
  const out = { ...body };
  for (const c of [...getChangesSince(ctx.model, version)].reverse()) {
    if (c.resource !== resource.name) continue;
    if (c.kind === 'add_field' && c.field !== undefined) delete out[c.field];
    if (c.kind !== 'rename_field' || c.from === undefined || c.to === undefined || !(c.to in out)) continue;
    out[c.from] = out[c.to];
    delete out[c.to];
  }
  return out;
}

/** The first second of a declared date (UTC) and the first of the day after. */
function dayOf(date: string): [number, number] {
  const start = Date.parse(`${date}T00:00:00Z`) / 1000;
  return [start, start + 86_400];
}

/**
 * Why a Deprecation or Sunset header an answer carries does not say the date its version declares, or undefined:
 * Deprecation is a Structured Fields Date, `@` and seconds since the epoch (RFC 9745 §2.1), Sunset an HTTP-date (RFC
 * 8594 §3), each a moment of the declared day (UTC). A header absent is not judged here.
 */
export function lifecycleHeaderMismatch(declared: { deprecated?: string; sunset?: string }, res: TestResponse): string | undefined {
  const deprecation = res.headers.get('deprecation');
  if (declared.deprecated !== undefined && deprecation !== null) {
    const m = /^@(-?[0-9]{1,15})$/.exec(deprecation.trim());
    const [from, to] = dayOf(declared.deprecated);
    if (!m || Number(m[1]) < from || Number(m[1]) >= to)
      return `Deprecation: ${deprecation}, not @${from} (${declared.deprecated}, a Structured Fields Date: RFC 9745)`;
  }
  const sunset = res.headers.get('sunset');
  if (declared.sunset !== undefined && sunset !== null) {
    const at = /^[A-Z][a-z]{2}, [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$/.test(sunset.trim()) ? Date.parse(sunset) / 1000 : NaN;
    const [from, to] = dayOf(declared.sunset);
    if (!(at >= from && at < to)) return `Sunset: ${sunset}, not ${new Date(from * 1000).toUTCString()} (${declared.sunset}, an HTTP-date: RFC 8594)`;
  }
  return undefined;
}

export async function checkVersions(ctx: TestContext): Promise<void> {
  const v = ctx.model.versioning;
  if (!v?.placement) {
    ctx.skip('versioning', 'versioning.served', 'versions', 'the spec does not show where a version is named (versioning.placement not shown)');
    return;
  }
  const placement = v.placement;
  const media = placement.kind === 'media_type' ? parseMediaTypeTemplate(placement.template) : undefined;
  if (placement.kind === 'media_type' && !media) {
    ctx.skip(
      'versioning',
      'versioning.served',
      'versions',
      `versioning.placement.media_type ${placement.template} is not a usable template (check: version-media-type-invalid)`,
    );
    return;
  }
  const readMedia = media ? createMediaTypeReader(media) : undefined;
  /** The request naming `version` at the placement; with it in the media type, a body is sent as that version's type too. */
  const withVersion = (ctxPath: string, headers: Record<string, string>, version: string, body = false): { path: string; headers: Record<string, string> } => {
    if (placement.kind === 'header') return { path: ctxPath, headers: { ...headers, [placement.name]: version } };
    if (placement.kind === 'media_type') {
      const type = fillMediaType(placement.template, version);
      return { path: ctxPath, headers: { ...headers, accept: type, ...(body ? { 'content-type': type } : {}) } };
    }
    if (placement.kind === 'query')
      return { path: `${ctxPath}${ctxPath.includes('?') ? '&' : '?'}${encodeURIComponent(placement.name)}=${encodeURIComponent(version)}`, headers };
    const current = ctx.versionPrefix() ?? '';
    return { path: `${ctx.versionPrefix(version) ?? ''}${ctxPath.slice(current.length)}`, headers };
  };
  const changed = new Set(v.supported.flatMap((s) => s.changes.map((c) => c.resource)).filter((x): x is string => x !== undefined));
  const reads = ctx.routes.filter((r) => r.operation.action === 'read' && r.resource);
  const read = reads.find((r) => changed.has(r.resource!.name)) ?? reads[0];
  if (!read) {
    ctx.skip('versioning', 'versioning.served', 'versions', 'no read operation to ask in each version');
    return;
  }
  const resource = read.resource!;
  /** A read naming `version` is answered with the declared unsupported_version code. */
  const refused = (check: string, version: string, target: string, why: string, pointer?: string) =>
    ctx.check('versioning', check, target, async (scope) => {
      const headers = await ctx.authFor(read.operation.auth);
      if (!headers) return scope.skip('no credential for the read operation');
      const d = ctx.declared('unsupported_version');
      if (!d) return scope.skip('no error code declared for unsupported_version (not shown)');
      const obj = await ctx.ensureObject(resource);
      if (!obj) return scope.skip(`no ${resource.name} to read`);
      const req: TestRequest = { method: 'GET', ...withVersion(ctx.pathOf(read, objectKey(resource, obj)), headers, version) };
      const res = await ctx.send(read, req);
      const wrong = ctx.expectCondition(res, 'unsupported_version');
      if (wrong !== undefined)
        scope.fail(
          ctx.failure(read.operation.id, `${d.code} (${d.status}) for version ${version}, ${why}`, pointer ?? d.pointer, req, `${wrong}; ${describe(res)}`),
        );
    });
  const versions = [...new Set([...(v.current !== undefined ? [v.current] : []), ...v.supported.map((s) => s.version)])];
  const today = new Date().toISOString().slice(0, 10);
  for (const version of versions) {
    const declared = v.supported.find((s) => s.version === version);
    if (declared?.sunset !== undefined && declared.sunset <= today) {
      // Past its sunset a version is no longer served: it is refused like one never served.
      await refused('versioning.sunset', version, `${version} (${read.operation.id})`, `past its sunset on ${declared.sunset}`, `${declared.pointer}/sunset`);
      continue;
    }
    await ctx.check('versioning', 'versioning.served', `${version} (${read.operation.id})`, async (scope) => {
      const headers = await ctx.authFor(read.operation.auth);
      if (!headers) return scope.skip('no credential for the read operation');
      const obj = await ctx.ensureObject(resource);
      if (!obj) return scope.skip(`no ${resource.name} to read`);
      const at = withVersion(ctx.pathOf(read, objectKey(resource, obj)), headers, version);
      const req: TestRequest = { method: 'GET', ...at };
      const res = await ctx.send(read, req);
      const pointer = declared?.pointer ?? '/versioning/current';
      if (res.status !== 200) return scope.fail(ctx.failure(read.operation.id, `version ${version} is served`, pointer, req, res));
      const ct = res.headers.get('content-type') ?? '';
      if (!/^application\/([a-z0-9.+-]*\+)?json/i.test(ct))
        return scope.fail(ctx.failure(read.operation.id, `a JSON Content-Type in version ${version}`, pointer, req, `Content-Type: ${ct || '(none)'}`));
      if (readMedia && readMedia(ct) !== version)
        return scope.fail(
          ctx.failure(
            read.operation.id,
            `Content-Type ${fillMediaType(media!.template, version)}: the version served, in the media type`,
            '/versioning/placement/media_type',
            req,
            `Content-Type: ${ct}`,
          ),
        );
      const m = ctx.mismatch(schemaAt(ctx, resource, version), res.body);
      if (m !== undefined)
        return scope.fail(
          ctx.failure(read.operation.id, `${resource.name} in the shape of version ${version}`, pointer, req, `${m}; ${describe(res).slice(0, 300)}`),
        );
      if (declared?.deprecated !== undefined && !res.headers.get('deprecation'))
        return scope.fail(
          ctx.failure(
            read.operation.id,
            `a Deprecation header: version ${version} is deprecated since ${declared.deprecated}`,
            `${pointer}/deprecated`,
            req,
            'no Deprecation header',
          ),
        );
      if (declared?.sunset !== undefined && !res.headers.get('sunset'))
        return scope.fail(
          ctx.failure(read.operation.id, `a Sunset header: version ${version} ends on ${declared.sunset}`, `${pointer}/sunset`, req, 'no Sunset header'),
        );
      const dates = declared ? lifecycleHeaderMismatch(declared, res) : undefined;
      if (dates !== undefined)
        return scope.fail(ctx.failure(read.operation.id, `Deprecation and Sunset saying the dates version ${version} declares`, pointer, req, dates));
      if (declared?.deprecated === undefined && res.headers.get('deprecation'))
        return scope.fail(
          ctx.failure(
            read.operation.id,
            `no Deprecation header: version ${version} is not deprecated`,
            pointer,
            req,
            `Deprecation: ${res.headers.get('deprecation') ?? ''}`,
          ),
        );
    });
    if (version === v.current) continue;
    const create = ctx.createRoute(resource.name);
    if (!create) continue;
    await ctx.check('versioning', 'versioning.request-shape', `${version} (${create.operation.id})`, async (scope) => {
      const headers = await ctx.authFor(create.operation.auth);
      if (!headers) return scope.skip('no credential for the create operation');
      // Every field the version has, optional ones too: a renamed optional field the service drops shows.
      const body = bodyAt(ctx, resource, version, await ctx.sampleCreateBody(resource, 0, true));
      const at = withVersion(ctx.pathOf(create), headers, version, true);
      const req: TestRequest = { method: 'POST', ...at, body };
      const res = await ctx.send(create, req);
      if (!isSuccessAnswer(create, res.status))
        return scope.fail(ctx.failure(create.operation.id, `a body in the shape of version ${version} accepted`, declared?.pointer, req, res));
      const m = ctx.mismatch(schemaAt(ctx, resource, version), res.body);
      if (m !== undefined)
        return scope.fail(
          ctx.failure(
            create.operation.id,
            `${resource.name} in the shape of version ${version}`,
            declared?.pointer,
            req,
            `${m}; ${describe(res).slice(0, 300)}`,
          ),
        );
      if (typeof res.body !== 'object' || res.body === null) return;
      const made = res.body as Record<string, unknown>;
      // Each field sent is answered as sent, under the version's names; a read in the current version shows it under
      // the current name, and a field added since holds its default (docs/format.md, "versioning").
      const names = currentNames(ctx, resource, version);
      for (const [k, v] of Object.entries(body)) {
        if (!heldAsSent(resource, names.get(k) ?? k, made[k], v))
          return scope.fail(
            ctx.failure(
              create.operation.id,
              `field ${k} kept as sent in version ${version} (${JSON.stringify(v)})`,
              declared?.pointer,
              req,
              `${k} is ${JSON.stringify(made[k])}`,
            ),
          );
      }
      const readHeaders = await ctx.authFor(read.operation.auth);
      if (!readHeaders || resource.identifier === undefined || made[resource.identifier] === undefined) return;
      const back: TestRequest = { method: 'GET', path: ctx.pathOf(read, objectKey(resource, made)), headers: readHeaders };
      const now = await ctx.send(read, back);
      if (!isSuccessAnswer(read, now.status) || typeof now.body !== 'object' || now.body === null) return;
      const shown = now.body as Record<string, unknown>;
      const lost = Object.entries(body).find(([k, v]) => !heldAsSent(resource, names.get(k) ?? k, shown[names.get(k) ?? k], v));
      const added = getChangesSince(ctx.model, version)
        .filter((c) => c.resource === resource.name && c.kind === 'add_field' && c.field !== undefined)
        .map((c) => resource.fields.find((f) => f.name === c.field))
        .find((f) => f?.hasDefault === true && JSON.stringify(shown[f.name]) !== JSON.stringify(f.default));
      if (lost || added)
        scope.fail({
          ...ctx.failure(
            create.operation.id,
            lost
              ? `field ${names.get(lost[0]) ?? lost[0]} holding what version ${version} sent as ${lost[0]} (${JSON.stringify(lost[1])}), in a read in the current version`
              : `field ${added!.name} holding its default (${JSON.stringify(added!.default)}) after a create in version ${version}, which has no ${added!.name}`,
            declared?.pointer,
            back,
            lost
              ? `${names.get(lost[0]) ?? lost[0]} is ${JSON.stringify(shown[names.get(lost[0]) ?? lost[0]])}`
              : `${added!.name} is ${JSON.stringify(shown[added!.name])}`,
          ),
          curl: ctx.client.curlSequence([{ req }, { note: `then (${read.operation.id})`, req: back }]),
        });
    });
    // A list in the older version answers its items in that version's shape, as the read does.
    const list = ctx.routes.find(
      (r) => r.operation.action === 'list' && r.resource === resource && r.pathParams.length === 0 && (r.operation.requiredFilters ?? []).length === 0,
    );
    if (list) await servedList(ctx, list, version, declared?.pointer, withVersion);
  }
  const bogus = v.scheme === 'integer' ? '999999' : v.scheme === 'semver' ? '999.0.0' : '1900-01-01';
  await refused('versioning.unsupported', bogus, read.operation.id, 'which is not served');
  // A write naming it too: a service reading the version on its reads only serves it as another.
  const create = ctx.createRoute(resource.name);
  if (create)
    await ctx.check('versioning', 'versioning.unsupported', create.operation.id, async (scope) => {
      const headers = await ctx.authFor(create.operation.auth);
      if (!headers) return scope.skip('no credential for the create operation');
      const d = ctx.declared('unsupported_version');
      if (!d) return scope.skip('no error code declared for unsupported_version (not shown)');
      const req: TestRequest = { method: 'POST', ...withVersion(ctx.pathOf(create), headers, bogus, true), body: await ctx.sampleCreateBody(resource) };
      const res = await ctx.send(create, req);
      if (isSuccessAnswer(create, res.status) && typeof res.body === 'object' && res.body !== null) ctx.remember(resource, res.body as Record<string, unknown>);
      const wrong = ctx.expectCondition(res, 'unsupported_version');
      if (wrong !== undefined)
        scope.fail(
          ctx.failure(create.operation.id, `${d.code} (${d.status}) for version ${bogus}, which is not served`, d.pointer, req, `${wrong}; ${describe(res)}`),
        );
    });
  // A request naming no version gets versioning.default: the current version, the oldest one served, or a refusal.
  if (placement.kind !== 'path' && v.default !== undefined)
    await ctx.check('versioning', 'versioning.served', `no version named (${read.operation.id})`, async (scope) => {
      const headers = await ctx.authFor(read.operation.auth);
      if (!headers) return scope.skip('no credential for the read operation');
      const obj = await ctx.ensureObject(resource);
      if (!obj) return scope.skip(`no ${resource.name} to read`);
      const req: TestRequest = { method: 'GET', path: ctx.pathOf(read, objectKey(resource, obj)), headers, noVersion: true };
      const res = await ctx.send(read, req);
      if (v.default === 'required') {
        const d = ctx.declared('unsupported_version');
        const wrong = ctx.expectCondition(res, 'unsupported_version');
        if (d && wrong !== undefined)
          scope.fail(
            ctx.failure(read.operation.id, `${d.code} (${d.status}) for a request naming no version (default: required)`, '/versioning/default', req, wrong),
          );
        return;
      }
      const oldest = [...v.supported]
        .filter((x) => x.version !== v.current && !(x.sunset !== undefined && x.sunset <= today))
        .sort((a, b) => (a.version < b.version ? -1 : a.version > b.version ? 1 : 0))[0];
      const version = v.default === 'oldest' && oldest && v.scheme === 'date' ? oldest.version : v.default === 'oldest' ? undefined : v.current;
      if (version === undefined) return scope.skip('the oldest version served is not told by its identifiers alone (a scheme other than date)');
      if (res.status !== 200)
        return scope.fail(
          ctx.failure(read.operation.id, `version ${version} served to a request naming none (default: ${v.default})`, '/versioning/default', req, res),
        );
      const m = ctx.mismatch(schemaAt(ctx, resource, version), res.body);
      if (m !== undefined)
        scope.fail(
          ctx.failure(
            read.operation.id,
            `${resource.name} in the shape of version ${version}, the default (default: ${v.default}), to a request naming none`,
            '/versioning/default',
            req,
            `${m}; ${describe(res).slice(0, 300)}`,
          ),
        );
    });
}

/** The current name of each field as `version` names it (a field renamed since), by its name there. */
function currentNames(ctx: TestContext, resource: ResourceModel, version: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const c of getChangesSince(ctx.model, version)) {
    if (c.resource !== resource.name || c.kind !== 'rename_field' || c.from === undefined || c.to === undefined) continue;
    // Oldest change first: a name renamed twice ends at its current one.
    const first = [...names.entries()].find(([, to]) => to === c.from)?.[0];
    names.set(first ?? c.from, c.to);
  }
  return names;
}

/** versioning.served on a list: its items in the version's shape. */
async function servedList(
  ctx: TestContext,
  list: OperationRoute,
  version: string,
  pointer: string | undefined,
  withVersion: (path: string, headers: Record<string, string>, version: string) => { path: string; headers: Record<string, string> },
): Promise<void> {
  const resource = list.resource!;
  await ctx.check('versioning', 'versioning.served', `${version} (${list.operation.id})`, async (scope) => {
    const headers = await ctx.authFor(list.operation.auth);
    if (!headers) return scope.skip('no credential for the list operation');
    if (!(await ctx.ensureObject(resource))) return scope.skip(`no ${resource.name} to list`);
    const req: TestRequest = { method: 'GET', ...withVersion(ctx.pathOf(list), headers, version) };
    const res = await ctx.send(list, req);
    if (res.status !== 200) return scope.fail(ctx.failure(list.operation.id, `version ${version} is served`, pointer, req, res));
    const items = getPageItems(list, res.body) as unknown[] | undefined;
    const schema = schemaAt(ctx, resource, version, list.operation);
    for (const item of items ?? []) {
      const m = ctx.mismatch(schema, item);
      if (m !== undefined)
        return scope.fail(
          ctx.failure(
            list.operation.id,
            `each ${resource.name} listed in the shape of version ${version}`,
            pointer,
            req,
            `${m}; ${JSON.stringify(item).slice(0, 300)}`,
          ),
        );
    }
  });
}
