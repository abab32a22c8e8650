import { isSuccessAnswer } from '../model/model-routes.js';
import type { JsonSchema } from '../model/model-schemas.js';
import { objectKey } from './tester-context.js';
import { getChangesSince } from '../model/model-versions.js';
import { createMediaTypeReader, fillMediaType, parseMediaTypeTemplate } from '../model/model-media-type.js';
import type { ResourceModel } from '../model/model-types.js';
import type { TestRequest } from './tester-http.js';
import { describe, type TestContext } from './tester-context.js';

// The versioning part: each served version, at its placement, answers in its own shape with a JSON content
// type; an older version's requests are taken in its shape; an unsupported version gets the declared code;
// Deprecation and Sunset are sent where declared.

/** A resource's response schema as an older version shows it: the changes since, undone newest first. */
function schemaAt(ctx: TestContext, resource: ResourceModel, version: string): JsonSchema {
  // The current answer schema as the run holds it (the fields serve says it leaves out not required: unsetFields).
  const s = JSON.parse(JSON.stringify(ctx.answerSchema(resource))) as {
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
      const body = bodyAt(ctx, resource, version, await ctx.sampleCreateBody(resource));
      const at = withVersion(ctx.pathOf(create), headers, version, true);
      const req: TestRequest = { method: 'POST', ...at, body };
      const res = await ctx.send(create, req);
      if (!isSuccessAnswer(create, res.status))
        return scope.fail(ctx.failure(create.operation.id, `a body in the shape of version ${version} accepted`, declared?.pointer, req, res));
      const m = ctx.mismatch(schemaAt(ctx, resource, version), res.body);
      if (m !== undefined)
        scope.fail(
          ctx.failure(
            create.operation.id,
            `${resource.name} in the shape of version ${version}`,
            declared?.pointer,
            req,
            `${m}; ${describe(res).slice(0, 300)}`,
          ),
        );
    });
  }
  const bogus = v.scheme === 'integer' ? '999999' : v.scheme === 'semver' ? '999.0.0' : '1900-01-01';
  await refused('versioning.unsupported', bogus, read.operation.id, 'which is not served');
}
