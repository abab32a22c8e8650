import type { ServiceModel } from '../model/model-types.js';
import { PART_NAMES, type PartName } from '../spec/spec-types.js';
import { getProducibleConditions, isIdempotentOperation } from '../model/model-routes.js';
import { getPageSize, getResource, NO_LIMITS } from '../model/model-lookup.js';
import { getServiceSetFields, getServiceSetMembers, getUnsourcedFields, getUnstatedValueFields } from '../model/model-schemas.js';
import {
  DEFAULT_API_KEY_IN,
  DEFAULT_IDEMPOTENCY_HEADER,
  DEFAULT_RETRY_JITTER,
  getErrorBodyRoles,
  getProblemTypeField,
  getUnfilledErrorFields,
  PROBLEM_TYPE_DEFAULT,
  getRateLimitName,
  NOT_SHOWN,
  isNoContentStatus,
} from '../model/model-defaults.js';

export type PartStatus = 'shown' | 'partly shown' | typeof NOT_SHOWN;

export interface GapItem {
  /** What is missing, in the seed's words ("token lifetimes"). */
  item: string;
  /** Where it is missing, when the part has several places it could be ("scheme bearer"). */
  where?: string;
}

/** Something the spec leaves out that the format itself defines (docs/format.md's defaults table). */
export interface DefaultItem {
  item: string;
  where?: string;
  /** What the format defines, in words. */
  value: string;
}

export interface PartGaps {
  part: PartName;
  /** The part's heading in the nine-part document. */
  title: string;
  status: PartStatus;
  /** What the seed calls the part's contents, used when the whole part is not shown. */
  contents: string;
  missing: readonly GapItem[];
  /** Behaviour the spec does not state that the format defines; not a gap, named so a reader knows it applies. */
  defaults: readonly DefaultItem[];
}

export interface GapReport {
  parts: readonly PartGaps[];
  /** Count of parts fully shown. */
  shown: number;
}

export const PART_TITLES: Readonly<Record<PartName, string>> = {
  purpose: 'What the service does',
  resources: 'Resources and their fields',
  states: 'States and transitions',
  endpoints: 'Endpoints',
  authentication: 'Authentication',
  events: 'Events',
  errors: 'Errors',
  limits: 'Limits',
  versioning: 'Versioning',
};

/** The seed's own sentence for each part's contents. */
export const PART_CONTENTS: Readonly<Record<PartName, string>> = {
  purpose: 'The purpose and scope of the service',
  resources: 'Resources, their fields, types, formats and constraints',
  states: 'States and transitions',
  endpoints: 'Methods, path shapes, request payload shapes and response payload shapes',
  authentication: 'Authentication scheme, credential names, header names, token lifetimes and scopes',
  events: 'Event kinds, delivery mechanism and event payloads',
  errors: 'Error codes, error body shape and the conditions that produce errors',
  limits: 'Rate limits, size limits, page sizes and time-outs',
  versioning: 'Version identifiers, their placement in requests and compatibility rules',
};

type Collect = ((item: string, where?: string) => void) & {
  /** A format default that applies where the spec is silent. */
  byDefault: (item: string, where: string | undefined, value: string) => void;
};

function purposeGaps(m: ServiceModel, gap: Collect): void {
  const p = m.purpose!;
  if (p.name === undefined) gap('name');
  if (p.summary === undefined && p.description === undefined) gap('purpose');
  if (p.includes === undefined && p.excludes === undefined) gap('scope');
  if (p.audience === undefined) gap('audience');
  if (p.contact === undefined) gap('contact');
}

function resourceGaps(m: ServiceModel, gap: Collect): void {
  if (m.resources.length === 0) gap('resources');
  const ops = m.endpoints?.operations ?? [];
  const served = ops.length > 0 ? new Set(ops.map((o) => o.resource)) : undefined;
  for (const r of m.resources) {
    if (r.fields.length === 0) gap('fields', `resource ${r.name}`);
    // What identifies an object matters where an operation serves the resource; one no operation of the spec's names
    // (a shape an import keeps by its component name, a union variant's) needs none.
    else if (r.identifier === undefined && (served === undefined || served.has(r.name))) gap('identifier', `resource ${r.name}`);
    // A required read-only field the service sets by a rule the spec does not state (source: service).
    for (const f of getServiceSetFields(m, r)) gap('value of a read-only field the service sets', `${r.name}.${f.name} (source: service)`);
    // The same of a member nested in a field a client sends (read-only and required: a client cannot write it).
    for (const path of getServiceSetMembers(r)) gap('value of a read-only member the service sets', `${r.name}.${path}`);
  }
}

function stateGaps(m: ServiceModel, gap: Collect): void {
  if (m.stateMachines.length === 0) gap('state machines');
  for (const sm of m.stateMachines) {
    const where = `resource ${sm.resource}`;
    if (sm.initial === undefined) gap('initial state', where);
    if (sm.transitions.length === 0) gap('transitions', where);
    if (!sm.states.some((s) => s.terminal)) gap('terminal states', where);
  }
}

function endpointGaps(m: ServiceModel, gap: Collect): void {
  const e = m.endpoints!;
  if (e.baseUrl === undefined) gap('base address');
  if (e.operations.length === 0) gap('operations');
  for (const o of e.operations) {
    // A create whose request_fields leave out a required field nothing fills (serve answers it not_implemented).
    if (o.action === 'create' && o.requestFields !== undefined) {
      const r = getResource(m, o.resource);
      if (r) for (const f of getUnsourcedFields(r, o)) gap('value of a required field', `operation ${o.id}: ${r.name}.${f}, left out of its request_fields`);
    }
    // A field a create or replace may leave out that every answer holds, its value not stated (optionalInRequests).
    const r = o.action === 'create' || o.action === 'replace' ? getResource(m, o.resource) : undefined;
    if (r) for (const f of getUnstatedValueFields(r, o)) gap('value of a field a request leaves out', `operation ${o.id}: ${r.name}.${f} (optionalInRequests)`);
    if (o.action !== 'custom') continue;
    if (!o.request && !o.takesNoBody && o.method !== 'GET' && o.method !== 'DELETE') gap('request payload shape', `operation ${o.id}`);
    if (!o.response && !isNoContentStatus(o.status)) gap('response payload shape', `operation ${o.id}`);
  }
  if (e.idempotency) {
    if (e.idempotency.retention === undefined) gap('idempotency key retention');
    if (e.idempotency.header === undefined) gap.byDefault('idempotency key header', undefined, DEFAULT_IDEMPOTENCY_HEADER);
    const implied = e.operations
      .filter((o) => o.idempotent === undefined && isIdempotentOperation(m, o))
      .map((o) => o.id)
      .sort();
    if (implied.length > 0)
      gap.byDefault('idempotency', `operations ${implied.join(', ')}`, 'a repeated idempotency key gets the first answer (every POST, PUT, PATCH and DELETE)');
  }
}

/** The custom operations a service given `handlers` could not serve (`serve` names each the same way). */
function handlerGaps(m: ServiceModel, handlers: ReadonlySet<string>, gap: Collect): void {
  for (const o of m.endpoints!.operations)
    if (o.action === 'custom' && (o.handler === undefined || !handlers.has(o.handler)))
      gap('handler', `operation ${o.id}: ${o.handler === undefined ? 'the spec names none' : `${o.handler} not given`}`);
}

function authGaps(m: ServiceModel, gap: Collect): void {
  const a = m.authentication!;
  if (a.schemes.length === 0) gap('authentication scheme');
  for (const s of a.schemes) {
    const where = `scheme ${s.name}`;
    if (s.type === 'api_key' && s.credentialName === undefined) gap(s.in === 'query' ? 'credential names' : 'header names', where);
    if (s.type === 'api_key' && s.in === undefined) gap.byDefault('key placement', where, `in ${DEFAULT_API_KEY_IN}`);
    if (s.type === 'bearer' || s.type === 'oauth2_client_credentials') {
      if (s.lifetime === undefined) gap('token lifetimes', where);
      if (s.algorithms === undefined) gap('token algorithms', where);
    }
    if (s.type === 'bearer') {
      if (s.issuer === undefined) gap('token issuer', where);
      if (s.audience === undefined) gap('token audience', where);
    }
  }
  if (a.scopes.length === 0) gap('scopes');
  if (a.default === undefined && (m.endpoints?.operations ?? []).some((o) => o.authDeclared === 'none')) {
    gap(
      'authentication requirement',
      `operations ${(m.endpoints?.operations ?? [])
        .filter((o) => o.authDeclared === 'none')
        .map((o) => o.id)
        .join(', ')}`,
    );
  }
  if (a.default === undefined && m.events?.stream?.path !== undefined) gap('authentication requirement', 'event stream');
  if (a.default === undefined && m.events?.webhook?.path !== undefined) gap('authentication requirement', 'webhook registration');
}

function eventGaps(m: ServiceModel, gap: Collect): void {
  const e = m.events!;
  if (e.kinds.length === 0) gap('event kinds');
  if (!e.webhook && !e.stream && !e.broker) gap('delivery mechanism');
  if (e.broker?.nats?.stream !== undefined) {
    gap.byDefault(
      'stream limits',
      'broker delivery (NATS)',
      `stream ${e.broker.nats.stream}, when serve creates it: the server's defaults (no limit on age, messages or bytes; a 2-minute de-duplication window)`,
    );
  }
  if (e.webhook) {
    if (e.webhook.signing === undefined) gap('webhook signing', 'webhook delivery');
    if (e.webhook.retries === undefined) gap('retry schedule', 'webhook delivery');
    if (e.webhook.timeout === undefined) gap('delivery time-out', 'webhook delivery');
    if (e.webhook.path === undefined) gap('webhook registration path', 'webhook delivery');
    gap.byDefault('retry jitter', 'webhook delivery', `each retry delay spread at random within ±${DEFAULT_RETRY_JITTER * 100} %`);
  }
  // Callbacks go out as webhooks do, under events.delivery.webhook's signing, retries and time-out.
  if (!e.webhook && (m.endpoints?.operations ?? []).some((o) => (o.callbacks?.length ?? 0) > 0)) {
    gap('webhook signing', 'callback delivery');
    gap('retry schedule', 'callback delivery');
    gap('delivery time-out', 'callback delivery');
  }
  if (e.stream && e.stream.path === undefined) gap('stream path', 'stream delivery');
  for (const k of e.kinds) if (!k.payload) gap('event payloads', `event ${k.name}`);
}

function errorGaps(m: ServiceModel, gap: Collect): void {
  const e = m.errors!;
  if (e.codes.length === 0) gap('error codes');
  if (e.body === undefined) gap('error body shape');
  if (e.body?.kind === 'declared') {
    // The fields carrying the code, status and message, and the media type, where the body does not name them.
    const roles = getErrorBodyRoles(e.body);
    for (const role of ['code', 'status', 'message'] as const) {
      const path = roles.at[role];
      if (!roles.named[role] && path !== undefined) gap.byDefault(`error ${role} field`, undefined, `${path.join('.')} (by its name)`);
    }
    if (e.body.mediaType === undefined) gap.byDefault('error media type', undefined, roles.mediaType);
    // code_values: unstated: which value each code writes is not shown; the runtime writes its name.
    if (e.body.codeValues === 'unstated' && roles.at.code !== undefined)
      gap.byDefault('error code values', undefined, `each code's name in ${roles.at.code.join('.')}`);
    // A required field nothing fills (GitHub's `documentation_url`): what it holds is not shown (serve leaves it out).
    for (const { path } of getUnfilledErrorFields(e.body, roles)) gap('value of error body field', path);
    // A problem's required type with no value stated: RFC 9457's about:blank, a format default.
    const problemType = getProblemTypeField(e.body, roles);
    if (problemType !== undefined) gap.byDefault('value of error body field', problemType.name, `${PROBLEM_TYPE_DEFAULT} (RFC 9457)`);
  }
  const declared = new Set(e.codes.flatMap((c) => c.when));
  if (e.codes.length > 0 && declared.size === 0) gap('the conditions that produce errors');
  for (const [cond] of getProducibleConditions(m)) if (!declared.has(cond) && declared.size > 0) gap('error code', `condition ${cond}`);
  // A custom operation served without its handler (serve --allow-gaps) is answered not_implemented.
  if (!declared.has('not_implemented') && (m.endpoints?.operations ?? []).some((o) => o.action === 'custom'))
    gap('error code', 'condition not_implemented, for custom operations served without their handler');
  const untitled = e.codes.filter((c) => c.title === undefined).map((c) => c.name);
  if (untitled.length > 0) gap.byDefault('title', `codes ${untitled.join(', ')}`, "the reason phrase of the code's HTTP status");
}

function statesOwnPageSize(m: ServiceModel): boolean {
  return (m.endpoints?.operations ?? []).some((o) => o.action === 'list' && o.paging?.pageSize !== undefined);
}

function limitGaps(m: ServiceModel, gap: Collect): void {
  const l = m.limits ?? NO_LIMITS;
  if (l.rate.length === 0) gap('rate limits');
  if (l.bodySize === undefined) gap('size limits');
  // A list's own paging.page_size states for it what limits.page_size leaves out.
  const lists = (m.endpoints?.operations ?? []).filter((o) => o.action === 'list');
  if (l.pageSize === undefined && !lists.some((o) => o.paging?.pageSize)) gap('page sizes');
  else {
    const lacking = (key: 'default' | 'max' | 'overMax'): boolean =>
      lists.length === 0 ? l.pageSize?.[key] === undefined : lists.some((o) => getPageSize(m, o)[key] === undefined);
    if (lacking('default')) gap('page sizes', 'default');
    if (lacking('max')) gap('page sizes', 'maximum');
    if (lacking('overMax')) gap('page sizes', 'answer over the maximum');
  }
  if (l.timeout === undefined) gap('time-outs');
  l.rate.forEach((r, i) => {
    if (r.by === undefined) gap('rate limit partition', `rate limit ${r.name ?? i}`);
    if (r.name === undefined) gap.byDefault('rate limit name', `rate limit ${i}`, `${getRateLimitName(r, i)} in RateLimit-Policy`);
  });
  // Credentials can be guessed wherever one is required; serve needs the bound on failed ones.
  if (l.failedAuth === undefined && (m.endpoints?.operations ?? []).some((o) => o.auth?.kind === 'required')) gap('failed authentication bound');
}

function versionGaps(m: ServiceModel, gap: Collect): void {
  const v = m.versioning!;
  if (v.current === undefined && v.supported.length === 0) gap('version identifiers');
  if (v.placement === undefined) gap('their placement in requests');
  if (v.compatibility.length === 0) gap('compatibility rules');
  // A request may name no version unless the version is part of the path (then every request names one).
  if (v.default === undefined && v.placement?.kind !== 'path' && (v.supported.length > 0 || v.placement !== undefined)) gap('default version selection');
  for (const s of v.supported) if (s.sunset === undefined && s.deprecated !== undefined) gap('sunset date', `version ${s.version}`);
}

const PART_GAPS: Readonly<Record<PartName, (m: ServiceModel, gap: Collect) => void>> = {
  purpose: purposeGaps,
  resources: resourceGaps,
  states: stateGaps,
  endpoints: endpointGaps,
  authentication: authGaps,
  events: eventGaps,
  errors: errorGaps,
  limits: limitGaps,
  versioning: versionGaps,
};

export interface GapReportOptions {
  /**
   * The handlers `serve --handlers` would be given (`gaps --handlers FILE`): each custom operation whose handler is
   * not among them is named in Endpoints (`handler (operation X)`), as `serve` without `--allow-gaps` refuses it.
   * Left out, handlers are not reported on (the spec alone cannot say which a service is given).
   */
  handlers?: ReadonlySet<string>;
}

/** For each of the nine parts: shown, partly shown (naming each item not shown) or not shown. Never fills a gap. */
export function getGapReport(model: ServiceModel, options: GapReportOptions = {}): GapReport {
  const parts = PART_NAMES.map((part): PartGaps => {
    const base = { part, title: PART_TITLES[part], contents: PART_CONTENTS[part] };
    // A list's own paging.page_size states part of the limits even where the file has no `limits`.
    const stated = model.present[part] || (part === 'limits' && statesOwnPageSize(model));
    if (!stated) return { ...base, status: NOT_SHOWN, missing: [], defaults: [] };
    const missing: GapItem[] = [];
    const defaults: DefaultItem[] = [];
    const collect: Collect = Object.assign((item: string, where?: string) => void missing.push(where === undefined ? { item } : { item, where }), {
      byDefault: (item: string, where: string | undefined, value: string) => void defaults.push(where === undefined ? { item, value } : { item, where, value }),
    });
    PART_GAPS[part](model, collect);
    if (part === 'endpoints' && options.handlers) handlerGaps(model, options.handlers, collect);
    return { ...base, status: missing.length === 0 ? 'shown' : 'partly shown', missing, defaults };
  });
  return { parts, shown: parts.filter((p) => p.status === 'shown').length };
}

export function formatGapItem(g: GapItem): string {
  return g.where === undefined ? `${g.item}: not shown` : `${g.item} (${g.where}): not shown`;
}

export function formatDefaultItem(d: DefaultItem): string {
  return `${d.where === undefined ? d.item : `${d.item} (${d.where})`}: format default, ${d.value}`;
}

export function formatGapReport(report: GapReport): string {
  const lines: string[] = [];
  for (const p of report.parts) {
    lines.push(`${p.title}: ${p.status}`);
    if (p.status === NOT_SHOWN) lines.push(`  - ${p.contents}: ${NOT_SHOWN}`);
    for (const g of p.missing) lines.push(`  - ${formatGapItem(g)}`);
    for (const d of p.defaults) lines.push(`  - ${formatDefaultItem(d)}`);
  }
  // The parts not shown in full, by how much: "0 of 9 shown" alone read as if nothing were there.
  const partly = report.parts.filter((p) => p.status === 'partly shown').length;
  const none = report.parts.filter((p) => p.status === NOT_SHOWN).length;
  const rest = [...(partly > 0 ? [`${partly} partly shown`] : []), ...(none > 0 ? [`${none} not shown`] : [])];
  lines.push('', `${report.shown} of 9 parts shown${rest.length > 0 ? ` in full; ${rest.join(', ')}` : ''}`);
  return `${lines.join('\n')}\n`;
}
