import { connect } from 'node:net';
import type { ServiceModel } from '../model/model-types.js';
import { checkAuth, checkBadCredentials } from './tester-checks-auth.js';
import { checkEndpoints } from './tester-checks-endpoints.js';
import { checkEvents } from './tester-checks-events.js';
import { checkBroker } from './tester-broker.js';
import { checkIdempotency } from './tester-checks-idempotency.js';
import { checkConditional } from './tester-checks-conditional.js';
import { checkLimits, checkRateLimit } from './tester-checks-limits.js';
import { checkRefusals } from './tester-checks-refusals.js';
import { checkMissingParents, checkScopes } from './tester-checks-scopes.js';
import { checkInUse } from './tester-checks-in-use.js';
import { checkTransitionBodies } from './tester-checks-transition-bodies.js';
import { checkStampsKept } from './tester-checks-stamps.js';
import { checkStates } from './tester-checks-states.js';
import { checkVersions } from './tester-checks-versions.js';
import { BoundReached, NotHttp, TestClient, Throttled, type VersionNaming } from './tester-http.js';
import { notImplemented, TestContext } from './tester-context.js';
import { UNDECLARED_CONDITION_HEADER, UNSET_FIELDS_HEADER } from '../model/model-response-headers.js';
import { Judge } from './tester-judge.js';
import { getRunDefaults, REAL_CLOCK } from './tester-pacing.js';
import { isStatusIn } from '../model/model-defaults.js';
import { summarizeParts } from './tester-report.js';
import type { TestOptions, TestReport, Verdict } from './tester-types.js';

// `testService`: holds a running implementation at `baseUrl` to the spec's nine parts. Every request is
// derived from the model's routes (getRoutes), shapes (model-schemas) and declared codes.

export const DEFAULT_MAX_REQUESTS = 3000;
export const DEFAULT_TIME_LIMIT_MS = 60_000;
export const DEFAULT_RUNS = 10;

/** Every check the tester runs, by its stable name (what `--only` and `--skip` accept besides parts and operations). */
export const CHECK_NAMES = [
  'purpose.prose',
  'resources.response-shape',
  'states.pairs',
  'states.sequences',
  'endpoints.valid-requests',
  'endpoints.invalid-requests',
  'endpoints.input-space',
  'endpoints.union-variants',
  'endpoints.list-paging',
  'endpoints.list-edges',
  'endpoints.idempotency',
  'endpoints.etag',
  'endpoints.if-match',
  'endpoints.method-not-allowed',
  'endpoints.unknown-path',
  'endpoints.status',
  'endpoints.answer-shape',
  'endpoints.media-type',
  'endpoints.location',
  'endpoints.response-headers',
  'endpoints.envelope',
  'endpoints.unique',
  'endpoints.no-server-error',
  'authentication.no-credential',
  'authentication.each-scheme',
  'authentication.bad-credential',
  'authentication.missing-scope',
  'authentication.ownership',
  'events.emitted',
  'events.ownership',
  'events.webhook',
  'events.broker',
  'events.callback',
  'errors.missing-object',
  'errors.other-scope',
  'errors.missing-parent',
  'errors.in-use',
  'errors.malformed-id',
  'errors.declared-codes',
  'errors.answer-shape',
  'errors.answer-headers',
  'errors.media-type',
  'limits.body-size',
  'limits.header-size',
  'limits.page-size',
  'limits.answer-headers',
  'limits.rate-headers',
  'limits.rate-limit',
  'versioning.served',
  'versioning.sunset',
  'versioning.request-shape',
  'versioning.unsupported',
  'versioning.answer-headers',
] as const;

/** How long the tester waits for a connection to the base URL before it says nothing answers there. */
export const REACH_TIMEOUT_MS = 1500;

const CONNECT_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found (DNS lookup failed)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'connection reset',
};

/**
 * Whether something accepts connections at `baseUrl`: undefined when it does, else why not in words. A TCP
 * connection only, so the service sees no request from the probe.
 */
export function reachService(baseUrl: string, timeoutMs = REACH_TIMEOUT_MS): Promise<string | undefined> {
  const url = new URL(baseUrl);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (why: string | undefined) => {
      socket.destroy();
      resolve(why);
    };
    socket.setTimeout(timeoutMs, () => done(`no connection within ${timeoutMs / 1000} s`));
    socket.once('connect', () => done(undefined));
    socket.once('error', (err: NodeJS.ErrnoException) => done(CONNECT_ERRORS[err.code ?? ''] ?? err.code ?? err.message));
  });
}

/**
 * How long the declared failed-credential budget (limits.failed_auth) can take to admit one bad credential per
 * operation that requires a credential, when an earlier run spent it: the default time limit is lengthened by
 * this, so that a second run right after the first still runs its bad-credential checks (waiting, and saying so).
 */
export function getFailedAuthAllowanceMs(model: ServiceModel): number {
  const bound = model.limits?.failedAuth;
  if (!bound || bound.attempts <= 0) return 0;
  const operations = (model.endpoints?.operations ?? []).filter((o) => o.auth?.kind === 'required').length;
  return Math.ceil((operations * bound.per.ms) / bound.attempts);
}

/** The checks whose verdict is gathered from every request of the run, not from requests of their own. */
const GATHERED = new Set(['errors.declared-codes', 'resources.response-shape']);

/**
 * What `--replay REPORT.json` runs: the failed checks of an earlier report, on their targets, with its seed. A
 * failure of a gathered check (an error answer or a body seen during another check) re-runs every check, for
 * the whole run is replayed with the seed; a string says why the report cannot be replayed.
 */
export function getReplay(report: unknown): Pick<TestOptions, 'seed' | 'replay'> | string {
  const r = report as Partial<TestReport> | null;
  if (typeof r !== 'object' || r === null || !Array.isArray(r.results) || typeof r.seed !== 'number')
    return 'not a JSON report of servicespec test (written with --format json): it has no results and seed';
  const failed = r.results.filter((x) => x?.outcome === 'failed' && typeof x.check === 'string' && typeof x.target === 'string');
  if (failed.length === 0) return 'the report has no failures to replay';
  const gathered = failed.filter((x) => GATHERED.has(x.check));
  if (gathered.length > 0) return { seed: r.seed };
  return { seed: r.seed, replay: failed.map((x) => ({ check: x.check, target: x.target })) };
}

/** `failed` when any check failed, `incomplete` when an applicable check did not run or none passed, else `passed`. */
export function getVerdict(report: Pick<TestReport, 'results' | 'stoppedBy'>): Verdict {
  if (report.results.some((r) => r.outcome === 'failed')) return 'failed';
  if (report.stoppedBy || report.results.some((r) => r.notRun) || !report.results.some((r) => r.outcome === 'passed')) return 'incomplete';
  return 'passed';
}

/**
 * The answers the run did not judge because they were serve's own to a condition the spec declares no code for (a
 * named gap): said, so that a run that passed does not read as if every refusal had been held to the contract.
 */
function describeGapAnswers(gaps: ReadonlyMap<string, { count: number; first: string }>): string {
  const total = [...gaps.values()].reduce((n, g) => n + g.count, 0);
  const each = [...gaps].map(([condition, g]) => `${condition} ×${g.count} (first: ${g.first})`).join(', ');
  return `${total} answer${total === 1 ? ' was' : 's were'} the service's built-in refusal of a condition the spec declares no error code for (${UNDECLARED_CONDITION_HEADER}), not judged: ${each}; declare a code for each (\`servicespec gaps\` lists them)`;
}

/** Replaces each credential in the failures by a placeholder naming whose it is. */
function redact(ctx: TestContext): void {
  const pairs = [ctx.main, ctx.other, ctx.limited]
    .flatMap((s) => s.secrets().map((secret) => [secret, `<${s.role} credential>`] as const))
    .sort((a, b) => b[0].length - a[0].length);
  if (pairs.length === 0) return;
  const clean = (text: string) => pairs.reduce((t, [secret, name]) => t.split(secret).join(name), text);
  for (const r of ctx.results) {
    if (!r.failure) continue;
    r.failure.actual = clean(r.failure.actual);
    r.failure.expected = clean(r.failure.expected);
    if (r.failure.curl !== undefined) r.failure.curl = clean(r.failure.curl);
  }
}

/**
 * The current version, named on every request where the spec places it (a path prefix is filled by the paths):
 * a request that names none gets the spec's default, which may be the oldest version or a refusal.
 */
function currentVersion(model: ServiceModel): VersionNaming | undefined {
  const v = model.versioning;
  const p = v?.placement;
  if (v?.current === undefined || !p || p.kind === 'path') return undefined;
  return { kind: p.kind, name: p.kind === 'media_type' ? p.template : p.name, value: String(v.current) };
}

/**
 * Whether the spec declares Retry-After on a 429: a required header of every error answer or of a 429 code, or a
 * declared rate budget (the format's service answers its 429 with one).
 */
export function declaresRetryAfter(model: ServiceModel): boolean {
  const retry = (h: { name: string; optional: boolean }) => h.name.toLowerCase() === 'retry-after' && !h.optional;
  const errors = model.errors;
  if ((model.limits?.rate ?? []).length > 0) return true;
  return errors !== undefined && errors.codes.some((c) => isStatusIn(429, c.status, c.statusRange) && [...errors.headers, ...c.headers].some(retry));
}

/** The query parameters that carry API keys (`in: query`). */
function queryCredentials(model: ServiceModel): string[] {
  return (model.authentication?.schemes ?? [])
    .filter((s) => s.type === 'api_key' && s.in === 'query' && s.credentialName !== undefined)
    .map((s) => s.credentialName!);
}

export async function testService(model: ServiceModel, options: TestOptions): Promise<TestReport> {
  const clock = options.clock ?? REAL_CLOCK;
  const started = clock.now();
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const base = options.baseUrl.replace(/\/+$/, '');
  // Nothing answers, or not in HTTP: no check can say anything about the service, so none is run (or counted).
  const noService = (why: string, requests: number): TestReport => ({
    baseUrl: base,
    seed,
    results: [],
    parts: summarizeParts([]),
    requests,
    durationMs: clock.now() - started,
    requestsPerSecond: 0,
    statePairs: { tried: 0, total: 0 },
    warnings: [],
    unreachable: why,
    verdict: 'incomplete',
    ok: false,
  });
  const unreachable = await reachService(options.baseUrl);
  if (unreachable !== undefined) return noService(`cannot reach ${base}: ${unreachable}`, 0);
  // A declared rate budget sets the defaults: fewer generated cases, a time limit that waits for its refills.
  const paced = getRunDefaults(model, options.runs ?? DEFAULT_RUNS, options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS);
  const credentialHeaders = (model.authentication?.schemes ?? []).flatMap((s) =>
    s.type === 'api_key' && s.credentialName !== undefined ? [s.credentialName] : [],
  );
  const client = new TestClient({
    baseUrl: options.baseUrl,
    maxRequests: options.maxRequests ?? DEFAULT_MAX_REQUESTS,
    deadline: started + (options.timeLimitMs ?? paced.timeLimitMs + getFailedAuthAllowanceMs(model)),
    version: currentVersion(model),
    queryCredentials: queryCredentials(model),
    credentialHeaders,
    clock,
    ...(options.requestTimeoutMs !== undefined ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
  });
  const ctx = new TestContext(model, client, options, seed);
  const runs = options.runs ?? paced.runs;
  const judge = new Judge(ctx);
  client.onAnswer = (req, res) => judge.see(req, res);
  // A 429 the run meets is waited out and sent again, the answer under test being the one after it; where the spec
  // declares Retry-After on a 429, the 429 itself is judged as every error answer is (its declared headers, media
  // type and body): else the wait would let one without Retry-After through.
  if (declaresRetryAfter(model)) client.onThrottled = (req, res) => judge.see(req, res);
  client.routeKey = (req) => judge.routeKey(req);

  ctx.skip('purpose', 'purpose.prose', 'purpose', 'the purpose is prose for people: nothing in it can be checked over HTTP');
  // The spec-level checks first and the generated requests per operation after them: when the service's own
  // rate budget or a bound cuts a run short, every part has been looked at. Rate limits last: spending the
  // budget would throttle the other checks.
  // A scope bound to a parent's path (a task's project) takes a parent that exists, before anything is sent under it.
  // Outside a check (priming scopes, what runs between checks) a bound or the service's own rate limit stops
  // the run as a check's would: the report says so, never an internal error.
  const stop = (err: unknown) => {
    if (err instanceof BoundReached) ctx.stoppedBy ??= err.bound;
    else if (err instanceof Throttled) ctx.warnings.push(`stopped: the service's declared rate limit asks to wait ${err.seconds} s (Retry-After)`);
    else if (!(err instanceof NotHttp)) throw err;
  };
  try {
    await ctx.primeScopes();
  } catch (err) {
    stop(err);
  }
  try {
    await checkStates(ctx, runs);
    await checkAuth(ctx);
    await checkEvents(ctx);
    await checkBroker(ctx);
    await checkVersions(ctx);
    await checkLimits(ctx);
    await checkIdempotency(ctx);
    await checkConditional(ctx);
    await checkRefusals(ctx);
    await checkEndpoints(ctx, runs);
    await checkTransitionBodies(ctx);
    await checkStampsKept(ctx);
    await checkScopes(ctx);
    await checkMissingParents(ctx);
    await checkInUse(ctx);
    await checkRateLimit(ctx);
    // Bad credentials spend the service's failed-credential budget (limits.failed_auth): last, so that nothing
    // of this run waits behind it, and paced within the budget so the next run still has one.
    await checkBadCredentials(ctx);
  } catch (err) {
    stop(err);
  }
  if (client.notHttp !== undefined) {
    const parse = client.notHttp.startsWith('HPE_') || client.notHttp === 'HTTPParserError';
    const how = parse ? 'answered bytes that are not HTTP' : 'closed the connection without an answer';
    const tls = base.startsWith('http:') ? ', or does it take https://' : '';
    return noService(
      `${base} accepts connections but gives no HTTP answer: it ${how} (${client.notHttp}). Is it the service's address (not a database's port)${tls}?`,
      client.requests,
    );
  }

  // The errors part: every error answer seen during the run, by route; the resources part: every body seen.
  for (const key of ctx.errorRoutes) {
    if (!ctx.selected('errors', 'errors.declared-codes', key)) continue;
    const f = ctx.errorViolations.get(key);
    ctx.results.push(
      f
        ? { part: 'errors', check: 'errors.declared-codes', target: key, outcome: 'failed', failure: f, requests: 0 }
        : { part: 'errors', check: 'errors.declared-codes', target: key, outcome: 'passed', requests: 0 },
    );
  }
  for (const name of ctx.shapeResources) {
    if (!ctx.selected('resources', 'resources.response-shape', name)) continue;
    const f = ctx.shapeViolations.get(name);
    ctx.results.push(
      f
        ? { part: 'resources', check: 'resources.response-shape', target: name, outcome: 'failed', failure: f, requests: 0 }
        : { part: 'resources', check: 'resources.response-shape', target: name, outcome: 'passed', requests: 0 },
    );
  }
  for (const [name, fields] of ctx.unsetFields) {
    // Not a pass, not a failure: the service says its answers leave these out, the spec not stating their value.
    const list = [...fields].join(', ');
    ctx.skip(
      'resources',
      'resources.response-shape',
      `${name}: ${list}`,
      `the service says (${UNSET_FIELDS_HEADER}) its answers leave out ${list}, which the spec says it sets by a rule not stated (source: service, or a read-only member of an object a client sends: a named gap): not checked`,
      'not-run',
    );
  }
  if (ctx.unsetErrorFields.size > 0) {
    const list = [...ctx.unsetErrorFields].join(', ');
    ctx.skip(
      'errors',
      'errors.answer-shape',
      `error body: ${list}`,
      `the service says (${UNSET_FIELDS_HEADER}) its error answers leave out ${list}, a required field of the error body whose value the spec does not state (a named gap): not checked`,
      'not-run',
    );
  }
  ctx.results.push(...judge.results());
  for (const id of ctx.notImplemented) {
    // Not a pass, not a failure: the service says it has no implementation, so the operation was not checked.
    ctx.skip('endpoints', 'endpoints.no-server-error', id, notImplemented(id), 'not-run');
  }
  if (!options.showSecrets) redact(ctx);
  const durationMs = clock.now() - started;
  const report: TestReport = {
    baseUrl: client.baseUrl,
    seed,
    results: ctx.results,
    parts: summarizeParts(ctx.results),
    requests: client.requests,
    durationMs,
    requestsPerSecond: client.requests / Math.max(durationMs / 1000, 0.001),
    statePairs: { ...ctx.statePairs },
    warnings: [...ctx.warnings],
    verdict: 'passed',
    ok: !ctx.results.some((r) => r.outcome === 'failed'),
  };
  if (ctx.stoppedBy) report.stoppedBy = ctx.stoppedBy;
  for (const [why, seconds] of ctx.waited) report.warnings.push(`waited ${seconds} s: ${why}`);
  if (ctx.gapAnswers.size > 0) report.warnings.push(describeGapAnswers(ctx.gapAnswers));
  const needing = (model.endpoints?.operations ?? []).filter((o) => o.auth?.kind === 'required').length;
  if (needing > 0 && !options.credentials) {
    report.warnings.unshift(
      `no credential given, and ${needing} of ${model.endpoints?.operations.length ?? 0} operations require one: their checks were not run (give --header, --bearer, --basic or --client-id/--client-secret)`,
    );
  }
  const collections = ctx.collections;
  if (collections.total >= 3 && collections.notFound === collections.total) {
    // A path prefix missing from (or added to) the base URL: every failure below is that one mistake.
    const example = ctx.routes.find((r) => r.operation.action === 'list' || r.operation.action === 'create');
    report.warnings.unshift(
      `all ${collections.total} requests to list or create operations${example ? ` (such as ${example.method} ${base}${example.path})` : ''} were answered 404: is the base URL right? It must end where the spec's paths begin (with any prefix such as /api they are served under)`,
    );
  }
  const { total, unauthorized } = ctx.answered;
  if (total >= 4 && unauthorized * 2 > total) {
    // As Schemathesis does: most answers were 401, so most checks said nothing about the operations themselves.
    report.warnings.unshift(
      `${unauthorized} of ${total} requests sent with the main credential were refused with 401: give the credentials the spec's operations need (--header, --bearer, --basic, --client-id/--client-secret)`,
    );
  }
  if (client.waits.count > 0 || (paced.reason !== undefined && options.runs === undefined))
    report.waited = { ...client.waits, ...(paced.reason !== undefined ? { defaults: paced.reason } : {}) };
  report.verdict = getVerdict(report);
  return report;
}
