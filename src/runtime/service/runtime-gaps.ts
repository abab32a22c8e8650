import { getRoutes, getUndeclaredConditions } from '../../model/model-routes.js';
import { getOperationRefusalCode, getUnfilledErrorFields } from '../../model/model-defaults.js';
import { getPageSize } from '../../model/model-lookup.js';
import type { ServiceModel } from '../../model/model-types.js';
import { getServiceSetFields, getServiceSetMembers, getUnsourcedFields, getUnstatedValueFields } from '../../model/model-schemas.js';
import { BUILT_IN, type RuntimeGap } from '../runtime-built-in.js';
import { getEventRuntimeGaps } from '../events/events-options.js';
import { getFailedAuthGaps } from '../auth/auth-attempts.js';
import { FALLBACK_STATUS } from '../runtime-errors.js';

/** How a custom operation without a handler is answered: the declared code for not_implemented, or the built-in. */
export function getNotImplementedAnswer(model: ServiceModel, subject = 'it'): string {
  const name = model.errors?.byCondition.not_implemented;
  const code = model.errors?.codes.find((c) => c.name === name);
  return code
    ? `answer ${subject} ${code.status} with the declared code "${code.name}" (not_implemented)`
    : `answer ${subject} ${FALLBACK_STATUS.not_implemented} with code "not_implemented"`;
}

/**
 * The gaps `serve` would have to fill. The runtime refuses to start on any of them unless the
 * operator allows gaps, and then logs each with the built-in behaviour it used.
 */
export function getRuntimeGaps(model: ServiceModel): RuntimeGap[] {
  const gaps: RuntimeGap[] = [];
  const operations = model.endpoints?.operations ?? [];
  for (const c of getUndeclaredConditions(model)) {
    // An operation listing one code of the status HTTP gives the condition answers with that code (runtime-errors.ts).
    const own = operations.filter((o) => getOperationRefusalCode(model.errors, o, c) !== undefined).map((o) => o.id);
    const ops = own.length > 3 ? `${own.slice(0, 3).join(', ')} and ${own.length - 3} more` : own.join(', ');
    const builtIn = `answer ${FALLBACK_STATUS[c]} with code "${c}"${own.length > 0 ? `; where the operation lists one code of the status HTTP gives it, that code (${ops})` : ''}`;
    gaps.push({ part: 'errors', item: `error code for condition ${c}: not shown`, builtIn });
  }
  // A required field of the declared error body nothing fills (GitHub's `documentation_url`): its value is the
  // service's, never made up; error answers leave it out.
  const body = model.errors?.body;
  if (body?.kind === 'declared')
    for (const { path } of getUnfilledErrorFields(body))
      gaps.push({
        part: 'errors',
        item: `value of error body field ${path} (required; no code, status or message role, no default): not shown`,
        builtIn: 'answer every error without it',
      });
  const routes = getRoutes(model);
  const ops = routes.flatMap((r) => (r.kind === 'operation' ? [r] : []));
  // A spec with nothing to serve is not a service: every request would be answered route_not_found.
  if (routes.length === 0)
    gaps.push({
      part: 'endpoints',
      item: 'operations: not shown',
      builtIn: `serve no operation: answer every request ${FALLBACK_STATUS.route_not_found} route_not_found`,
    });
  // A create whose request_fields leave out a required field nothing fills: never made up, answered not_implemented.
  for (const r of ops) {
    const o = r.operation;
    const unsourced = o.action === 'create' && r.resource ? getUnsourcedFields(r.resource, o) : [];
    for (const f of unsourced)
      gaps.push({
        part: 'endpoints',
        item: `value of ${r.resource!.name}.${f} for operation ${o.id} (required, left out of its request_fields): not shown`,
        builtIn: getNotImplementedAnswer(model, o.id),
      });
    for (const f of r.resource ? getUnstatedValueFields(r.resource, o) : [])
      gaps.push({
        part: 'endpoints',
        item: `value of ${r.resource!.name}.${f} for operation ${o.id} when a request leaves it out (optionalInRequests): not shown`,
        builtIn: `${getNotImplementedAnswer(model, o.id)} to a request leaving it out`,
      });
  }
  // A required read-only field the service sets by a rule the spec does not state: the runtime has no value for it
  // where it serves the resource itself (a built-in action); a custom handler answering it gives its own.
  const stored = new Set(ops.filter((r) => r.operation.action !== 'custom').map((r) => r.operation.resource));
  for (const r of model.resources.filter((x) => stored.has(x.name))) {
    for (const f of getServiceSetFields(model, r))
      gaps.push({
        part: 'resources',
        item: `value of a read-only field the service sets (${r.name}.${f.name}, source: service): not shown`,
        builtIn: 'answer without it: the runtime has no value for it, so answers leave it out',
      });
    // A read-only required member of an object a client sends: the runtime stores the object as sent, without it.
    for (const path of getServiceSetMembers(r))
      gaps.push({
        part: 'resources',
        item: `value of a read-only member the service sets (${r.name}.${path}): not shown`,
        builtIn: 'answer without it: the runtime has no value for it, so answers leave it out',
      });
  }
  // No requirement is not "public": a spec says that with `auth: none` (or `authentication.default: none`).
  const open = [
    ...ops.filter((r) => r.operation.auth === undefined).map((r) => `operation ${r.operation.id}`),
    ...routes.filter((r) => r.kind === 'stream' && r.auth === undefined).map(() => 'the event stream'),
  ];
  if (open.length > 0)
    gaps.push({
      part: 'authentication',
      item: `authentication requirement of ${open.join(', ')}: not shown`,
      builtIn: 'serve them without a credential, as if they declared `auth: none`',
    });
  if (model.errors?.body === undefined)
    gaps.push({ part: 'errors', item: 'error body shape: not shown', builtIn: 'answer errors as RFC 9457 problem details (application/problem+json)' });
  if (ops.some((r) => r.operation.action === 'list')) {
    // Per list: a list's own paging.page_size states what limits.page_size leaves out.
    const lists = ops.filter((r) => r.operation.action === 'list').map((r) => ({ id: r.operation.id, size: getPageSize(model, r.operation) }));
    const of = (key: 'default' | 'max' | 'overMax'): string | undefined => {
      const lacking = lists.filter((l) => l.size[key] === undefined).map((l) => l.id);
      return lacking.length === 0 ? undefined : lacking.length === lists.length ? '' : ` of ${lacking.join(', ')}`;
    };
    const [def, max, over] = [of('default'), of('max'), of('overMax')];
    if (def !== undefined) gaps.push({ part: 'limits', item: `default page size${def}: not shown`, builtIn: `use pages of ${BUILT_IN.pageSizeDefault}` });
    if (max !== undefined) gaps.push({ part: 'limits', item: `maximum page size${max}: not shown`, builtIn: `allow at most ${BUILT_IN.pageSizeMax} per page` });
    if (over !== undefined)
      gaps.push({ part: 'limits', item: `answer to a page size over the maximum (page_size.over_max)${over}: not shown`, builtIn: 'refuse it as validation' });
  }
  if (ops.some((r) => r.hasBody) && model.limits?.bodySize === undefined) {
    gaps.push({ part: 'limits', item: 'request body size limit: not shown', builtIn: `refuse bodies over ${BUILT_IN.bodySize} bytes` });
  }
  if (model.endpoints?.idempotency && model.endpoints.idempotency.retention === undefined) {
    gaps.push({ part: 'endpoints', item: 'idempotency key retention: not shown', builtIn: 'keep answers for 24h' });
  }
  const v = model.versioning;
  // With the version in the path a request always names one; elsewhere a request may leave it out.
  if (v?.placement !== undefined && v.placement.kind !== 'path' && v.default === undefined) {
    gaps.push({
      part: 'versioning',
      item: 'default version (versioning.default): not shown',
      builtIn:
        v.current !== undefined
          ? `serve the current version (${v.current}) to requests that name none`
          : 'refuse requests that name no version as unsupported_version',
    });
  }
  (model.limits?.rate ?? []).forEach((r, i) => {
    if (r.by === undefined)
      gaps.push({ part: 'limits', item: `rate limit ${r.name ?? i} partition: not shown`, builtIn: 'count every caller in one shared bucket' });
  });
  gaps.push(...getEventRuntimeGaps(model)); // events (issue 5)
  gaps.push(...getFailedAuthGaps(model)); // failed credentials (issue 12 item 2): src/runtime/auth/auth-attempts.ts
  return gaps;
}
