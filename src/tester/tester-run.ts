import type { ServiceModel } from '../model/model-types.js';
import { checkAuth } from './tester-checks-auth.js';
import { checkEndpoints } from './tester-checks-endpoints.js';
import { checkEvents } from './tester-checks-events.js';
import { checkIdempotency } from './tester-checks-idempotency.js';
import { checkLimits, checkRateLimit } from './tester-checks-limits.js';
import { checkStates } from './tester-checks-states.js';
import { checkVersions } from './tester-checks-versions.js';
import { TestClient, type VersionNaming } from './tester-http.js';
import { TestContext } from './tester-context.js';
import { Judge } from './tester-judge.js';
import { getRunDefaults, REAL_CLOCK } from './tester-pacing.js';
import { summarizeParts } from './tester-report.js';
import type { TestOptions, TestReport } from './tester-types.js';

// `testService`: holds a running implementation at `baseUrl` to the spec's nine parts. Every request is
// derived from the model's routes (getRoutes), shapes (model-schemas) and declared codes.

export const DEFAULT_MAX_REQUESTS = 3000;
export const DEFAULT_TIME_LIMIT_MS = 60_000;
export const DEFAULT_RUNS = 10;

/** Replaces each credential in the failures by a placeholder naming whose it is. */
function redact(ctx: TestContext): void {
  const pairs = [ctx.main, ctx.other, ctx.limited].flatMap((s) => s.secrets().map((secret) => [secret, `<${s.role} credential>`] as const)).sort((a, b) => b[0].length - a[0].length);
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

/** The query parameters that carry API keys (`in: query`). */
function queryCredentials(model: ServiceModel): string[] {
  return (model.authentication?.schemes ?? []).filter((s) => s.type === 'api_key' && s.in === 'query' && s.credentialName !== undefined).map((s) => s.credentialName!);
}

export async function testService(model: ServiceModel, options: TestOptions): Promise<TestReport> {
  const clock = options.clock ?? REAL_CLOCK;
  const started = clock.now();
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  // A declared rate budget sets the defaults: fewer generated cases, a time limit that waits for its refills.
  const paced = getRunDefaults(model, options.runs ?? DEFAULT_RUNS, options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS);
  const credentialHeaders = (model.authentication?.schemes ?? []).flatMap((s) => (s.type === 'api_key' && s.credentialName !== undefined ? [s.credentialName] : []));
  const client = new TestClient({ baseUrl: options.baseUrl, maxRequests: options.maxRequests ?? DEFAULT_MAX_REQUESTS, deadline: started + (options.timeLimitMs ?? paced.timeLimitMs), version: currentVersion(model), queryCredentials: queryCredentials(model), credentialHeaders, clock });
  const ctx = new TestContext(model, client, options, seed);
  const runs = options.runs ?? paced.runs;
  const judge = new Judge(ctx);
  client.onAnswer = (req, res) => judge.see(req, res);
  client.routeKey = (req) => judge.routeKey(req);

  ctx.skip('purpose', 'purpose.prose', 'purpose', 'the purpose is prose for people: nothing in it can be checked over HTTP');
  // The spec-level checks first and the generated requests per operation after them: when the service's own
  // rate budget or a bound cuts a run short, every part has been looked at. Rate limits last: spending the
  // budget would throttle the other checks.
  await checkStates(ctx, runs);
  await checkAuth(ctx);
  await checkEvents(ctx);
  await checkVersions(ctx);
  await checkLimits(ctx);
  await checkIdempotency(ctx);
  await checkEndpoints(ctx, runs);
  await checkRateLimit(ctx);

  // The errors part: every error answer seen during the run, by route; the resources part: every body seen.
  if (ctx.selected('errors', 'errors.declared-codes')) for (const key of ctx.errorRoutes) {
    const f = ctx.errorViolations.get(key);
    ctx.results.push(f ? { part: 'errors', check: 'errors.declared-codes', target: key, outcome: 'failed', failure: f, requests: 0 } : { part: 'errors', check: 'errors.declared-codes', target: key, outcome: 'passed', requests: 0 });
  }
  if (ctx.selected('resources', 'resources.response-shape')) for (const name of ctx.shapeResources) {
    const f = ctx.shapeViolations.get(name);
    ctx.results.push(f ? { part: 'resources', check: 'resources.response-shape', target: name, outcome: 'failed', failure: f, requests: 0 } : { part: 'resources', check: 'resources.response-shape', target: name, outcome: 'passed', requests: 0 });
  }
  ctx.results.push(...judge.results());
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
    ok: !ctx.results.some((r) => r.outcome === 'failed'),
  };
  if (ctx.stoppedBy) report.stoppedBy = ctx.stoppedBy;
  if (client.waits.count > 0 || (paced.reason !== undefined && options.runs === undefined)) report.waited = { ...client.waits, ...(paced.reason !== undefined ? { defaults: paced.reason } : {}) };
  return report;
}
