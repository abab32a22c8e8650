import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import {
  FALLBACK_STATUS,
  FORM_MEDIA_TYPE,
  getErrorBodyRoles,
  getErrorCodeValue,
  getUnfilledErrorFields,
  OPERATION_REFUSALS,
  PROBLEM_MEDIA_TYPE,
} from '../model/model-defaults.js';
import { getField, getResource } from '../model/model-lookup.js';
import { ADDRESSING_ACTIONS, getFieldAt, getParentChain, getPathParent, getValueAt, isNestedPath } from '../model/model-path-bindings.js';
import { getPageItems, REQUEST_ENVELOPED_ACTIONS } from '../model/model-envelope.js';
import { getDeclaredParameters, isSuccessAnswer, getRoutes, type OperationRoute, type Route } from '../model/model-routes.js';
import {
  getListItemSchema,
  getRequestSchema,
  getSchemaMembers,
  getResourceSchema,
  getServiceSetFields,
  getServiceSetMembers,
  getShapeSchema,
  isWritable,
  MULTIPLE_OF_PRECISION,
  type JsonSchema,
} from '../model/model-schemas.js';
import { UNDECLARED_CONDITION_HEADER, UNSET_FIELDS_HEADER } from '../model/model-response-headers.js';
import type { AuthRequirement, ErrorCodeModel, FieldModel, OperationModel, ResourceModel, ServiceModel } from '../model/model-types.js';
import { locate } from '../spec/spec-loader.js';
import { CONDITIONS, type Condition, type PartName } from '../spec/spec-types.js';
import { BoundReached, NotHttp, Subject, Throttled, type TestClient, type TestRequest, type TestResponse } from './tester-http.js';
import { fieldArbitrary, isRefPlaceholder, missingIdentifier, objectArbitrary, parametersArbitrary, type Mutation } from './tester-arbitraries.js';
import type { CheckResult, Failure, TestOptions } from './tester-types.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** What a check reports while it runs. */
export interface CheckScope {
  fail(failure: Failure): void;
  /**
   * Ends the check without a verdict. `kind` says whether it applies and could not run (`not-run`: the run is
   * incomplete) or has nothing to check (`not-applicable`); without it, the reason decides (`isNotApplicable`).
   */
  skip(reason: string, kind?: SkipKind): void;
}

export type SkipKind = 'not-run' | 'not-applicable';

/** An object the run made whose bound key field the service leaves out (UNSET_FIELDS_HEADER): no path names it. */
export class Unaddressable extends Error {
  constructor(resource: string, field: string, unset = true) {
    super(
      unset
        ? `not run: the ${resource} made has no \`${field}\`, which its path is bound to: the service says (${UNSET_FIELDS_HEADER}) it leaves the field out (source: service, a named gap)`
        : `not run: the ${resource} made has no \`${field}\`, which its path is bound to (an optional key its create did not answer): the path would have an empty segment, naming no object`,
    );
    this.name = 'Unaddressable';
  }
}

const isNotRun = (reason: string, kind: SkipKind | undefined): boolean => (kind ?? (isNotApplicable(reason) ? 'not-applicable' : 'not-run')) === 'not-run';

/** Client-error statuses HTTP gives another meaning than a refused request (RFC 9110, RFC 6585). */
const NOT_REFUSALS: readonly number[] = [401, 403, 404, 405, 406, 407, 408, 429];

/**
 * Where the spec shows no error body and no code (TestContext.errorsShown), the refusals HTTP gives a condition a
 * check sends: a request breaking the declared schema, malformed or in another media type refused with a client error
 * that means a bad request (any 4xx but NOT_REFUSALS: Django REST Framework's 400, 415), an object that does not
 * exist not found (404 or 410). `statuses` are the ones a failure names first.
 */
const clientError = (statuses: number[]) => ({
  label: 'a client error (the spec states no error answer)',
  statuses,
  fits: (s: number) => s >= 400 && s < 500 && !NOT_REFUSALS.includes(s),
});
const UNSTATED_REFUSALS: Partial<Record<Condition, { label: string; statuses: number[]; fits: (status: number) => boolean }>> = {
  validation: clientError([400, 422]),
  malformed_request: clientError([400]),
  unsupported_media_type: clientError([415, 400]),
  missing_resource: { label: 'not found, 404 or 410 (the spec states no error answer)', statuses: [404, 410], fits: (s) => s === 404 || s === 410 },
};

const escape = (s: string) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

/** A matcher per route: literal segments win over parameters (`/orders/search` before `/orders/{id}`). */
export function routeMatchers(routes: readonly Route[]): { route: Route; re: RegExp; params: number }[] {
  return routes
    .map((route) => ({ route, re: new RegExp(`^${escape(route.path).replace(/\\?\{[^{}]*\\?\}|\{[^{}]*\}/g, '[^/]+')}/?$`), params: route.pathParams.length }))
    .sort((a, b) => a.params - b.params);
}

/** Everything the checks share: the model, the client, the subjects, the objects made so far. */
export class TestContext {
  readonly results: CheckResult[] = [];
  readonly routes: readonly OperationRoute[];
  readonly main: Subject;
  readonly other: Subject;
  readonly limited: Subject;
  /** Objects the main subject created, by resource. */
  readonly pool = new Map<string, Record<string, unknown>[]>();
  stoppedBy: 'max-requests' | 'time-limit' | undefined;
  private readonly ajv = new Ajv2020({
    allErrors: false,
    strict: false,
    discriminator: true,
    coerceTypes: false,
    useDefaults: false,
    ownProperties: true,
    multipleOfPrecision: MULTIPLE_OF_PRECISION,
  });
  private readonly validators = new Map<string, ValidateFunction>();
  /** The scopes of an operation the running check's requests were refused for (the declared missing_scope answer). */
  private scopeRefused: readonly string[] | undefined;
  /** The scopes of operations the run's credential was answered with success: ones it holds. */
  private readonly heldScopes = new Set<string>();
  private uniqueCounter = 0;
  private readonly specLines: readonly string[] | undefined;
  private readonly usedValues = new Map<string, Set<string>>();
  readonly runId = Math.random().toString(36).slice(2, 8);
  /** Where this run's values for unique fields start: another run (another seed or a replay) draws others. */
  private readonly uniqueSeed = Math.floor(Math.random() * 0x7fff_ffff);
  /** Error responses that did not match a declared code, by route. */
  readonly errorViolations = new Map<string, Failure>();
  /** Operations the service answered 501 Not Implemented: nothing of their answers can be judged (not run). */
  readonly notImplemented = new Set<string>();
  /**
   * Fields the service says its answers leave out, by resource: those of the resource's fields the service sets by a
   * rule the spec does not state (`source: service`) that an answer's UNSET_FIELDS_HEADER names (serve's, with
   * --allow-gaps: it has no value for them). The spec's gap, as a 501 is: not held against the answers (not run).
   */
  readonly unsetFields = new Map<string, Set<string>>();
  readonly errorRoutes = new Set<string>();
  /** Response bodies that did not match their resource's shape, by resource. */
  readonly shapeViolations = new Map<string, Failure>();
  readonly shapeResources = new Set<string>();

  constructor(
    readonly model: ServiceModel,
    readonly client: TestClient,
    readonly options: TestOptions,
    readonly seed: number,
  ) {
    addFormats(this.ajv);
    this.specLines = options.specText?.split(/\r?\n/);
    this.routes = getRoutes(model).filter((r): r is OperationRoute => r.kind === 'operation');
    this.main = new Subject('main', options.credentials, model, client);
    this.other = new Subject('other', options.other, model, client);
    this.limited = new Subject('limited', options.limited, model, client);
    this.operationIds = new Set(this.routes.map((r) => r.operation.id));
  }

  get stopped(): boolean {
    return this.stoppedBy !== undefined || this.client.notHttp !== undefined;
  }

  /** `file:line` of a model pointer, when the source map is known. */
  specRef(pointer: string | undefined): string | undefined {
    if (pointer === undefined) return undefined;
    const pos = this.options.sourceMap ? locate(this.options.sourceMap, pointer) : undefined;
    if (!pos) return `${this.model.file}#${pointer}`;
    const line = this.specLines?.[pos.line - 1]?.trim();
    return line ? `${this.model.file}:${pos.line}: ${line.length > 100 ? `${line.slice(0, 100)}…` : line}` : `${this.model.file}:${pos.line}`;
  }

  /**
   * Whether `--only` selects a check and `--skip` leaves it in. A name is a part, a check or an operation id; an
   * operation id matches the checks run on that operation (without a target, a check may run on it).
   */
  selected(part: PartName, check: string, target?: string): boolean {
    const only = this.options.only;
    const skip = this.options.skip;
    if (skip && skip.length > 0 && skip.some((o) => this.matches(o, part, check, target, false))) return false;
    const replay = this.options.replay;
    if (replay && replay.length > 0 && !replay.some((r) => r.check === check && (target === undefined || r.target === target))) return false;
    return !only || only.length === 0 || only.some((o) => this.matches(o, part, check, target, true));
  }

  private matches(name: string, part: PartName, check: string, target: string | undefined, unknownTarget: boolean): boolean {
    if (name === part || name === check || check.startsWith(`${name}.`)) return true;
    if (!this.operationIds.has(name)) return false;
    // A probe's target written `createOrder: status missing (required)` names its operation before the colon.
    return target === undefined ? unknownTarget : target.split(/[\s(),:]+/).includes(name);
  }

  private readonly operationIds: ReadonlySet<string>;

  /** Requests sent with the main credential outside the authentication checks, and how many got 401. */
  readonly answered = { total: 0, unauthorized: 0 };
  /** Requests to a collection (list, create), and how many got 404: all of them says a wrong base URL. */
  readonly collections = { total: 0, notFound: 0 };
  /** State pairs tried, of all there are (the states check counts them). */
  readonly statePairs = { tried: 0, total: 0 };
  readonly warnings: string[] = [];
  private currentPart: PartName | undefined;

  /**
   * Runs one check: failed with the first failure it reports, skipped with the first reason, else passed.
   * `quiet` records only a failure or a skip (for set-up shared by the checks after it).
   */
  async check(part: PartName, check: string, target: string, fn: (scope: CheckScope) => Promise<void>, options: { quiet?: boolean } = {}): Promise<void> {
    // Not HTTP at the base URL: the report is that one line (tester-run.ts), no check is recorded.
    if (!this.selected(part, check, target) || this.client.notHttp !== undefined) return;
    if (this.stoppedBy) {
      this.results.push({ part, check, target, outcome: 'skipped', reason: `not run: the --${this.stoppedBy} bound was reached`, notRun: true, requests: 0 });
      return;
    }
    this.currentPart = part;
    const before = this.client.requests;
    this.scopeRefused = undefined;
    let failure: Failure | undefined;
    let reason: string | undefined;
    let kind: SkipKind | undefined;
    this.options.onProgress?.({ ...this.counts(), requests: this.client.requests, check: `${check} ${target}` });
    try {
      await fn({
        fail: (f) => void (failure ??= f),
        skip: (r, k) => {
          if (reason !== undefined) return;
          reason = r;
          kind = k;
        },
      });
    } catch (err) {
      if (err instanceof NotHttp) {
        this.currentPart = undefined;
        return;
      }
      if (err instanceof Unaddressable) {
        // A reason the check gave before it met the unaddressable object stands, with its own kind.
        if (reason === undefined) {
          reason = err.message;
          kind = 'not-run';
        }
      } else if (err instanceof BoundReached) {
        this.stoppedBy = err.bound;
        reason ??= `not finished: the --${err.bound} bound was reached`;
      } else if (err instanceof Throttled) {
        reason ??= `not finished: the service's declared rate limit asks to wait ${err.seconds} s (Retry-After)`;
      } else {
        const cause = (err as { cause?: { code?: string; message?: string } } | undefined)?.cause;
        const why = cause?.code ?? cause?.message;
        failure ??= {
          operation: target,
          expected: 'an answer',
          actual: `the request failed: ${err instanceof Error ? err.message : String(err)}${why !== undefined ? ` (${why})` : ''}`,
        };
      }
    }
    // A valid request refused for a scope the tester's own credential lacks says nothing of the service: skipped,
    // naming the scopes (the authentication checks send such requests on purpose, and keep them as failures).
    // Set by send() while fn ran (TypeScript cannot see that through the callback).
    const refused = this.scopeRefused as readonly string[] | undefined;
    if (failure && part !== 'authentication' && refused !== undefined) {
      reason ??= `the credential given lacks a scope this operation requires (${refused.join(', ')}): give one that has them`;
      failure = undefined;
    }
    this.scopeRefused = undefined;
    this.currentPart = undefined;
    const requests = this.client.requests - before;
    if (failure) this.results.push({ part, check, target, outcome: 'failed', failure, requests });
    else if (reason !== undefined)
      this.results.push({ part, check, target, outcome: 'skipped', reason, ...(isNotRun(reason, kind) ? { notRun: true } : {}), requests });
    else if (!options.quiet) this.results.push({ part, check, target, outcome: 'passed', requests });
  }

  /** Seconds waited, by why (reported as warnings: a run that waited says so). */
  readonly waited = new Map<string, number>();

  /** Waits `seconds` (a Retry-After) for `why`; past the time limit it ends the run's checks as the bound does. */
  async waitOut(seconds: number, why: string): Promise<void> {
    const ms = seconds * 1000;
    if (this.client.clock.now() + ms >= this.client.options.deadline) throw new BoundReached('time-limit');
    this.waited.set(why, (this.waited.get(why) ?? 0) + seconds);
    await this.client.clock.sleep(ms);
  }

  skip(part: PartName, check: string, target: string, reason: string, kind?: SkipKind): void {
    if (!this.selected(part, check, target)) return;
    this.results.push({ part, check, target, outcome: 'skipped', reason, ...(isNotRun(reason, kind) ? { notRun: true } : {}), requests: 0 });
  }

  counts(): { passed: number; failed: number; skipped: number } {
    const c = { passed: 0, failed: 0, skipped: 0 };
    for (const r of this.results) c[r.outcome]++;
    return c;
  }

  validator(schema: JsonSchema): ValidateFunction {
    const key = JSON.stringify(schema);
    let v = this.validators.get(key);
    if (!v) {
      v = this.ajv.compile(schema);
      this.validators.set(key, v);
    }
    return v;
  }

  /** Undefined when `value` matches `schema`, else the first mismatch in words. */
  mismatch(schema: JsonSchema, value: unknown): string | undefined {
    const v = this.validator(schema);
    if (v(value)) return undefined;
    const e = v.errors?.[0];
    return e
      ? `${e.instancePath || '(body)'} ${e.message ?? 'does not match'}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`
      : 'does not match';
  }

  /** A failure for `req` → `res`. */
  failure(operation: string, expected: string, pointer: string | undefined, req: TestRequest, actual: string | TestResponse): Failure {
    const f: Failure = { operation, expected, actual: typeof actual === 'string' ? actual : describe(actual), curl: this.client.curl(req) };
    const spec = this.specRef(pointer);
    if (spec !== undefined) f.spec = spec;
    return f;
  }

  /** The declared answer to a condition: code, status and where the spec says it; undefined when not declared. */
  declared(condition: Condition): { code: string; status: number; pointer: string } | undefined {
    const name = this.model.errors?.byCondition[condition];
    const code = this.model.errors?.codes.find((c) => c.name === name);
    return code ? { code: code.name, status: code.status, pointer: code.pointer } : undefined;
  }

  /**
   * The answers `route` may give a request meeting `condition`: the code declaring it; else, where no code declares
   * it (an imported OpenAPI document's codes name no condition), the operation's own codes of the status HTTP gives
   * that refusal (RFC 9110): 404 for a missing object, 401 for a credential missing or not issued, and for a request breaking its declared schema any client
   * error but those statuses that mean something else (401, 403, 404, 405, 406, 407, 408, 429), as Schemathesis'
   * negative_data_rejection holds it. Undefined when neither: nothing declared to hold the answer to.
   */
  refusal(route: OperationRoute, condition: Condition): { label: string; pointer: string; codes: ErrorCodeModel[] } | undefined {
    const d = this.declared(condition);
    const all = this.model.errors?.codes ?? [];
    if (d) return { label: `${d.code} (${d.status})`, pointer: d.pointer, codes: all.filter((c) => c.name === d.code) };
    if (!OPERATION_REFUSALS.includes(condition)) return undefined;
    // A spec saying nothing of error answers (no body, no code: an OpenAPI document declaring only its successes, as
    // drf-spectacular writes them) still states its schemas and its paths: a request its schema refuses is not
    // served, whatever client error refuses it (UNSTATED_REFUSALS), and an object that does not exist is not found
    // (RFC 9110's 404, or 410). The status within those, the body and its media type are not judged.
    const unstated = this.errorsShown ? undefined : UNSTATED_REFUSALS[condition];
    if (unstated)
      return {
        label: unstated.label,
        pointer: route.operation.pointer,
        codes: unstated.statuses.map((status) => ({ name: unstated.label, pointer: route.operation.pointer, status, headers: [], when: [condition] })),
      };
    const own = route.operation.errors.map((n) => all.find((c) => c.name === n)).filter((c): c is ErrorCodeModel => c !== undefined);
    const only = condition === 'missing_resource' ? 404 : condition === 'missing_credential' || condition === 'invalid_credential' ? 401 : undefined;
    const codes = own.filter((c) =>
      only !== undefined
        ? c.status === only && c.statusRange === undefined
        : c.statusRange === '4XX' || (c.statusRange === undefined && c.status >= 400 && c.status < 500 && !NOT_REFUSALS.includes(c.status)),
    );
    if (codes.length === 0) return undefined;
    return { label: `${codes.map((c) => `${c.name} (${c.statusRange ?? c.status})`).join(' or ')}, the operation's`, pointer: codes[0]!.pointer, codes };
  }

  /** Undefined when `res` is one of the answers `refusal` gives `route` for `condition`, else what differs. */
  expectRefusal(res: TestResponse, route: OperationRoute, condition: Condition): string | undefined {
    if (this.declared(condition)) return this.expectCondition(res, condition);
    // serve's answer to a condition no code declares (marked UNDECLARED_CONDITION_HEADER) is not judged, as
    // errors.declared-codes leaves it: a refusal all the same.
    if (this.isGapAnswer(res) && res.status >= 400 && res.status < 500) return undefined;
    const r = this.refusal(route, condition);
    // A credential the operation's security requires, left out or never issued: whatever the document lists, the
    // request is not served (Schemathesis' ignored_auth).
    if (!r) return (condition === 'missing_credential' || condition === 'invalid_credential') && res.status < 400 ? `status ${res.status}: served` : undefined;
    const fits = r.codes.filter((c) => (c.statusRange === '4XX' ? res.status >= 400 && res.status < 500 : c.status === res.status));
    if (!this.errorsShown && UNSTATED_REFUSALS[condition]) {
      const ok = UNSTATED_REFUSALS[condition]!.fits(res.status);
      return ok ? undefined : `status ${res.status}, not ${r.label}`;
    }
    if (fits.length === 0) return `status ${res.status}, not ${r.label}`;
    const whys = fits.map((c) => this.expectCode(res, { code: c.name, status: res.status }));
    return whys.includes(undefined) ? undefined : whys[0];
  }

  /** Undefined when `res` is the declared answer to `condition`, else what differs. */
  expectCondition(res: TestResponse, condition: Condition): string | undefined {
    const d = this.declared(condition);
    if (!d) return undefined;
    if (res.status !== d.status) return `status ${res.status}, not ${d.status} (${d.code})`;
    return this.expectCode(res, d);
  }

  /** Undefined when `res`, of `d`'s status, is `d`'s answer in the declared error body, else what differs. */
  private expectCode(res: TestResponse, d: { code: string; status: number }): string | undefined {
    const body = res.body as Record<string, unknown> | undefined;
    const declaredBody = this.model.errors?.body?.kind === 'declared' ? this.model.errors.body : undefined;
    if (!this.errorBodyStated) return undefined;
    if (declaredBody === undefined && body?.code !== undefined && body.code !== d.code) return `code ${String(body.code)}, not ${d.code}`;
    if (declaredBody !== undefined) {
      // The declared body's code field (nested or not) holds the code's name, or its status in a number field.
      const roles = getErrorBodyRoles(declaredBody);
      const expected = getErrorCodeValue(roles.code, { name: d.code, status: d.status });
      const got = roles.at.code ? getValueAt(body, roles.at.code) : undefined;
      // Values the spec does not state (code_values: unstated): the field's type is all there is to hold.
      if (roles.at.code && declaredBody.codeValues === 'unstated') {
        const type = roles.code?.type;
        const fits = type === 'integer' ? Number.isInteger(got) : type === 'number' ? typeof got === 'number' : typeof got === 'string';
        if (got !== undefined && !fits) return `${roles.at.code.join('.')} ${JSON.stringify(got)} is not of the code field's type (${type ?? 'string'})`;
      } else if (roles.at.code && got !== expected) return `${roles.at.code.join('.')} ${JSON.stringify(got)}, not ${JSON.stringify(expected)} (${d.code})`;
    }
    return this.errorBodyMismatch(res);
  }

  /**
   * serve's built-in answer for a condition the spec declares no code for (a named gap): nothing declared to hold it
   * to. serve marks every such answer with UNDECLARED_CONDITION_HEADER naming the condition; the marker counts only
   * where the spec indeed declares no code for that condition and the answer has the condition's built-in status
   * (FALLBACK_STATUS), so no service excuses a declared condition's answer by sending it. Nothing else is guessed: an
   * answer without the marker (a hand-written service's) is judged by the declared codes. With `condition`, only an
   * answer naming that condition.
   */
  isGapAnswer(res: TestResponse, condition?: Condition): boolean {
    const named = res.headers.get(UNDECLARED_CONDITION_HEADER)?.trim();
    if (named === undefined || !(CONDITIONS as readonly string[]).includes(named)) return false;
    if (condition !== undefined && named !== condition) return false;
    return !this.declared(named as Condition) && FALLBACK_STATUS[named as Condition] === res.status;
  }

  /** serve's answers to conditions the spec declares no code for (isGapAnswer), not judged: per condition, how many and where first. */
  readonly gapAnswers = new Map<string, { count: number; first: string }>();

  private noteGapAnswer(condition: string, target: string): void {
    const seen = this.gapAnswers.get(condition);
    if (seen) seen.count++;
    else this.gapAnswers.set(condition, { count: 1, first: target });
  }

  private errorBodyValidator: ValidateFunction | undefined;
  private readonly errorBodyValidators = new Map<string, ValidateFunction>();
  /** The error body's unfilled required fields (a named gap) the service said it leaves out (UNSET_FIELDS_HEADER). */
  readonly unsetErrorFields = new Set<string>();

  /** The declared error body's validator with the fields at `paths` (dotted, under nested objects) not required. */
  private errorBodyValidatorWithout(fields: readonly FieldModel[], paths: readonly string[]): ValidateFunction {
    const key = [...paths].sort().join('\u0000');
    let v = this.errorBodyValidators.get(key);
    if (!v) {
      const schema = structuredClone(getShapeSchema(this.model, { fields, list: false }, 'response', { openAnswers: true })) as JsonSchema;
      for (const path of paths) {
        const parts = path.split('.');
        let at: JsonSchema | undefined = schema;
        for (const part of parts.slice(0, -1)) at = (at?.properties as Record<string, JsonSchema> | undefined)?.[part];
        if (at && Array.isArray(at.required)) {
          const required = (at.required as string[]).filter((n) => n !== parts.at(-1));
          if (required.length > 0) at.required = required;
          else delete at.required;
        }
      }
      v = this.ajv.compile(schema);
      this.errorBodyValidators.set(key, v);
    }
    return v;
  }

  /**
   * Whether the spec says anything of error answers: an error body, or a code. A spec with neither — an OpenAPI
   * document declaring no error response, as drf-spectacular writes most — states no status of an error answer either
   * (UNSTATED_REFUSALS says what HTTP does).
   */
  get errorsShown(): boolean {
    return this.model.errors?.body !== undefined || (this.model.errors?.codes.length ?? 0) > 0;
  }

  /**
   * Whether the spec states the error body (`errors.body`). The format gives it no default (docs/format.md, "What the
   * format never defaults"): without it — an OpenAPI document whose error responses have a description and no
   * content, the commonest kind — no error answer's body nor media type is judged, only its status; RFC 9457's problem
   * details are `serve`'s answer to that gap, not the spec's.
   */
  get errorBodyStated(): boolean {
    return this.model.errors?.body !== undefined;
  }

  /** Whether an error body has the declared shape and agrees with the HTTP status. */
  errorBodyMismatch(res: TestResponse): string | undefined {
    if (!this.errorBodyStated) return undefined;
    const body = res.body as Record<string, unknown> | undefined;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return `an error body that is not a JSON object: ${res.text.slice(0, 120)}`;
    const kind = this.model.errors?.body?.kind ?? 'problem';
    if (kind === 'problem') {
      if (body.status !== res.status) return `problem.status ${String(body.status)} differs from the HTTP status ${res.status}`;
      if (typeof body.title !== 'string') return 'a problem body without a title';
      const code = this.model.errors?.codes.find((c) => c.name === body.code);
      // The format's problem body carries the error code (the export's ProblemDetails requires it): without it a
      // client cannot tell two codes of one status apart.
      if (body.code === undefined) return 'a problem body without the error code (`code`)';
      // serve's answer to a condition no code declares (marked UNDECLARED_CONDITION_HEADER) is a gap's: not
      // judged, as errors.declared-codes leaves it.
      if (!code) return this.isGapAnswer(res) ? undefined : `code ${String(body.code)} is not a declared error code`;
      if (code && code.status !== res.status) return `code ${code.name} is declared with status ${code.status}, answered with ${res.status}`;
      return undefined;
    }
    const declared = this.model.errors?.body?.kind === 'declared' ? this.model.errors.body : undefined;
    // The declared body's status field (where it has one) holds the answer's HTTP status.
    const roles = declared ? getErrorBodyRoles(declared) : undefined;
    if (roles?.at.status) {
      const got = getValueAt(body, roles.at.status);
      if (got !== undefined && got !== res.status) return `${roles.at.status.join('.')} ${JSON.stringify(got)} differs from the HTTP status ${res.status}`;
    }
    // Each declared field in its type, and every required one present on every answer, as serve writes them: the
    // roles, the extras (a required invalid-input list empty where there are none, the request id), the constants,
    // and a required field nothing fills (the spec's gap, which gaps names: the service's own value, and serve
    // --allow-gaps answers without it, so it fails here too). Members it does not name are judged below.
    if (declared && roles) {
      // A required field nothing fills (a named gap) that the answer's UNSET_FIELDS_HEADER says the service leaves
      // out (serve --allow-gaps names it on every error answer) is not held against it, as a resource's service-set
      // fields are not (noteUnsetFields); it is reported not run. Only such fields: the header excuses nothing else.
      const header = res.headers.get(UNSET_FIELDS_HEADER);
      const unfilled = header ? getUnfilledErrorFields(declared, roles).map((f) => f.path) : [];
      const named = header ? header.split(',').map((x) => x.trim()) : [];
      const unset = unfilled.filter((p) => named.includes(p));
      for (const p of unset) this.unsetErrorFields.add(p);
      const validate =
        unset.length > 0
          ? this.errorBodyValidatorWithout(declared.fields, unset)
          : (this.errorBodyValidator ??= this.ajv.compile(
              getShapeSchema(this.model, { fields: declared.fields, list: false }, 'response', { openAnswers: true }),
            ));
      if (!validate(body)) {
        const e = validate.errors?.[0];
        const at = e?.instancePath ? `${e.instancePath.slice(1).replace(/\//g, '.')} ` : '';
        return `the error body ${at}${e?.message ?? 'is not in the declared shape'}`;
      }
    }
    // Problem details may carry extension members (RFC 9457 §3.2): only another media type's body is closed.
    if (roles?.mediaType.toLowerCase() === PROBLEM_MEDIA_TYPE) return undefined;
    // errors.body.answer_members: open: members the body does not name are the service's own.
    if (declared?.answerMembers === 'open') return undefined;
    const fields = declared ? declared.fields.map((f) => f.name) : [];
    const extra = Object.keys(body).filter((k) => !fields.includes(k));
    return extra.length > 0 ? `error body fields ${extra.join(', ')} are not declared` : undefined;
  }

  private matchers: { route: Route; re: RegExp }[] | undefined;

  /** The served path template a concrete path falls under, whatever the method; the path itself when none. */
  templateOf(path: string): string {
    this.matchers ??= routeMatchers(getRoutes(this.model));
    const p = new URL(path.split('?')[0] ?? '', 'http://127.0.0.1').pathname;
    return this.matchers.find((m) => m.re.test(p))?.route.path ?? p;
  }

  /** Sends a request and checks every error answer against the declared codes (the errors part). */
  async send(route: OperationRoute | undefined, req: TestRequest): Promise<TestResponse> {
    return this.judge(route, req, await this.client.send(this.prepare(route, req)));
  }

  /**
   * The request as the route takes it: a form request (request.media_type) as the form the spec declares, its values
   * as text, a list repeated (a copy); a stated JSON type (request_media_type: an update's merge patch, say) as its
   * Content-Type, set on the request itself (its own headers replaced, never shared ones changed) so that a failure's
   * reproduction shows the type that was sent.
   */
  prepare(route: OperationRoute | undefined, req: TestRequest): TestRequest {
    const typed = () => Object.keys(req.headers ?? {}).some((k) => k.toLowerCase() === 'content-type');
    // request_envelope: every JSON body goes wrapped, marked on the request itself so its reproduction sends the
    // same; the text a probe sends as is (malformed JSON), and the probe of an unwrapped body, stay as they are.
    const wrap = route?.operation.requestEnvelope?.data;
    if (wrap !== undefined && REQUEST_ENVELOPED_ACTIONS.has(route!.operation.action) && req.body !== undefined && req.raw === undefined && req.bare !== true)
      req.wrap = wrap;
    if (route?.operation.request?.mediaType === FORM_MEDIA_TYPE && isPlainObject(req.body) && req.raw === undefined) {
      const form = new URLSearchParams();
      for (const [k, v] of Object.entries(req.body)) for (const x of Array.isArray(v) ? v : [v]) if (x !== undefined) form.append(k, String(x));
      return { ...req, raw: form.toString(), headers: { ...(typed() ? {} : { 'content-type': FORM_MEDIA_TYPE }), ...req.headers } };
    }
    // if_match: required (etag: true): a change without If-Match is refused (428), so every request of the run sends
    // `*` (any existing object) but the ones that ask for none or send their own (tester-checks-conditional.ts).
    if (
      route?.operation.ifMatch === 'required' &&
      !route.operation.upsert &&
      req.noIfMatch !== true &&
      !Object.keys(req.headers ?? {}).some((k) => k.toLowerCase() === 'if-match')
    )
      req = { ...req, headers: { ...req.headers, 'if-match': '*' } };
    const stated = route?.operation.requestMediaType;
    if (stated !== undefined && req.body !== undefined && req.raw === undefined && !typed()) req.headers = { ...req.headers, 'content-type': stated };
    const given = route ? this.givenHeaders(route, req) : {};
    if (Object.keys(given).length > 0) req = { ...req, headers: { ...given, ...req.headers } };
    if (route && route.operation.action !== 'custom' && (route.headers.length > 0 || route.query.some((q) => q.kind === 'param')))
      req = this.withDeclared(route, req);
    return req;
  }

  /** Drawn once per route: valid values of a built-in action's required declared parameters, as text. */
  private readonly declaredValues = new Map<OperationRoute, { headers: Record<string, string>; query: Record<string, unknown> }>();

  /**
   * A built-in action's required declared parameters (operation.query, operation.headers: validated, not otherwise
   * used) that the request does not carry, each a valid value drawn once from its type and constraints; the values
   * the user gave (--header) first.
   */
  private withDeclared(route: OperationRoute, req: TestRequest): TestRequest {
    let drawn = this.declaredValues.get(route);
    if (drawn === undefined) {
      const needed = getDeclaredParameters(route).filter((p) => !p.optional && !p.hasDefault);
      const values = needed.length > 0 ? (fc.sample(parametersArbitrary(this.model, needed, true), { seed: this.seed, numRuns: 1 })[0] ?? {}) : {};
      drawn = { headers: {}, query: {} };
      for (const p of needed) {
        const v = values[p.name];
        if (v === undefined) continue;
        if (p.in === 'header') drawn.headers[p.name] = Array.isArray(v) ? v.map(String).join(', ') : String(v);
        else drawn.query[p.name] = v;
      }
      this.declaredValues.set(route, drawn);
    }
    const sent = [...Object.keys(req.headers ?? {}), ...(req.omit ?? [])].map((k) => k.toLowerCase());
    const headers = Object.entries(drawn.headers).filter(([k]) => !sent.includes(k.toLowerCase()));
    const search = new URLSearchParams(req.path.includes('?') ? req.path.slice(req.path.indexOf('?') + 1) : '');
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(drawn.query))
      if (!search.has(k) && !req.omit?.includes(k)) for (const x of Array.isArray(v) ? v : [v]) query.append(k, String(x));
    if (headers.length === 0 && query.size === 0) return req;
    const q = query.toString();
    return {
      ...req,
      ...(q !== '' ? { path: `${req.path}${req.path.includes('?') ? '&' : '?'}${q}` } : {}),
      ...(headers.length > 0 ? { headers: { ...Object.fromEntries(headers), ...req.headers } } : {}),
    };
  }

  /**
   * The values the user gave (--header, --other-header, --limited-header) for the route's declared header parameters
   * (a document's own key or user name as a plain parameter: discourse's `Api-Username`, listennotes'
   * `X-ListenAPI-Key`), those the request does not set itself: the subject's whose credential the request carries,
   * else the main subject's.
   */
  givenHeaders(route: OperationRoute, req?: TestRequest): Record<string, string> {
    if (route.headers.length === 0) return {};
    const sent = Object.entries(req?.headers ?? {});
    const carries = (given: Readonly<Record<string, string>> | undefined) =>
      Object.entries(given ?? {}).some(([k, v]) => sent.some(([sk, sv]) => sk.toLowerCase() === k.toLowerCase() && sv === v));
    const subject = [this.options.other, this.options.limited].find((c) => carries(c?.headers)) ?? this.options.credentials;
    const out: Record<string, string> = {};
    for (const h of route.headers) {
      if (sent.some(([k]) => k.toLowerCase() === h.name.toLowerCase()) || req?.omit?.includes(h.name)) continue;
      const value = Object.entries(subject?.headers ?? {}).find(([k]) => k.toLowerCase() === h.name.toLowerCase())?.[1];
      if (value !== undefined) out[h.name] = value;
    }
    return out;
  }

  /** The route's required header parameters the tester has no value for (it does not draw headers; the user may give them). */
  missingHeaders(route: OperationRoute): string[] {
    // A built-in action's are drawn (withDeclared).
    if (route.operation.action !== 'custom') return [];
    const given = this.givenHeaders(route);
    return route.headers.filter((h) => !h.optional && !h.hasDefault && given[h.name] === undefined).map((h) => h.name);
  }

  /** What `send` does with an answer: the pool kept up to date, the answer counted and judged. */
  judge(route: OperationRoute | undefined, req: TestRequest, res: TestResponse): TestResponse {
    if (route?.operation.action === 'delete' && res.status < 300 && route.resource) {
      // A deleted object is no longer the main subject's to use.
      const r = route.resource;
      const list = this.pool.get(r.name);
      if (list)
        this.pool.set(
          r.name,
          list.filter((x) =>
            r.identifier === undefined ? this.pathOfOrUndefined(route, x) !== req.path : !req.path.includes(`/${encodeURIComponent(String(x[r.identifier]))}`),
          ),
        );
    }
    // A request no operation takes is keyed by the path template it falls under (an object's path, not its id).
    const key = route ? route.operation.id : `${req.method} ${this.templateOf(req.path)}`;
    if (this.currentPart !== 'authentication' && route?.operation.auth?.kind === 'required') {
      this.answered.total++;
      if (res.status === 401) this.answered.unauthorized++;
    }
    if (route?.operation.action === 'list' || route?.operation.action === 'create') {
      this.collections.total++;
      if (res.status === 404) this.collections.notFound++;
    }
    if (res.status < 300 && this.currentPart !== 'authentication' && route?.operation.auth?.kind === 'required')
      for (const x of route.operation.auth.scopes) this.heldScopes.add(x);
    if (route) this.noteUnsetFields(route, res);
    if (res.status === 501 && route) {
      // The service says it does not implement the operation (serve answers so for a handler not given).
      this.notImplemented.add(route.operation.id);
      return res;
    }
    const gap = this.isGapAnswer(res);
    if (gap) this.noteGapAnswer(res.headers.get(UNDECLARED_CONDITION_HEADER)!.trim(), key);
    if (res.status >= 400 && !gap) {
      const auth = route?.operation.auth;
      // Not where the run's credential was taken with each of those scopes before: then it holds them, and a 403 for
      // a missing object (an answer that tells of its existence) is the service's, judged as such.
      if (
        auth?.kind === 'required' &&
        auth.scopes.length > 0 &&
        !auth.scopes.every((x) => this.heldScopes.has(x)) &&
        this.declared('missing_scope') &&
        this.expectCondition(res, 'missing_scope') === undefined
      )
        this.scopeRefused ??= auth.scopes;
      this.errorRoutes.add(key);
      const m = this.errorBodyMismatch(res);
      const declared = this.model.errors?.codes.some((c) => c.status === res.status);
      // A spec declaring no code at all states no status of error answers to hold one to (errorsShown).
      const why = m ?? (declared || !this.errorsShown ? undefined : `status ${res.status} matches no declared error code`);
      if (why !== undefined && !this.errorViolations.has(key)) {
        this.errorViolations.set(
          key,
          this.failure(
            key,
            'an error answer that is one of the declared codes, its body in the declared shape',
            this.model.errors?.codes[0]?.pointer.replace(/\/codes\/.*$/, '/codes'),
            req,
            `${why}; ${describe(res)}`,
          ),
        );
      }
    }
    return res;
  }

  /** Records the fields a success answer's UNSET_FIELDS_HEADER names that are its resource's service-set fields (source: service). */
  noteUnsetFields(route: OperationRoute, res: TestResponse): void {
    const resource = route.resource;
    const header = resource && res.status < 300 ? res.headers.get(UNSET_FIELDS_HEADER) : null;
    if (!resource || !header) return;
    // Its own fields (source: service), and members nested in a field a client sends, by path (getServiceSetMembers).
    const own = new Set([...getServiceSetFields(this.model, resource).map((f) => f.name), ...getServiceSetMembers(resource)]);
    for (const name of header.split(',').map((x) => x.trim())) {
      if (!own.has(name)) continue;
      let set = this.unsetFields.get(resource.name);
      if (!set) this.unsetFields.set(resource.name, (set = new Set()));
      set.add(name);
    }
  }

  /** A resource's answer schema, without requiring the fields the service said it leaves out (unsetFields). */
  answerSchema(resource: ResourceModel, list?: Pick<OperationModel, 'answerFields'>): JsonSchema {
    // A list's objects (answer_fields): the fields it answers only, a member outside them refused as an unknown one.
    const s =
      list?.answerFields !== undefined
        ? getListItemSchema(this.model, resource, list, { safeIntegers: false })
        : getResourceSchema(this.model, resource, 'response', { safeIntegers: false });
    const unset = this.unsetFields.get(resource.name);
    if (!unset) return s;
    const out = structuredClone(s);
    for (const path of unset) notRequiredAt(out, path.split('.'));
    return out;
  }

  /**
   * Checks a body against a resource's response shape (a list's objects against its answer_fields where it declares
   * them), recording the resources part's verdict.
   */
  checkShape(resource: ResourceModel, value: unknown, req: TestRequest, operation: string, list?: Pick<OperationModel, 'answerFields'>): string | undefined {
    this.shapeResources.add(resource.name);
    // A write-only field in an answer is a leak (a password), named as such rather than as an unknown property.
    const leaked =
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? resource.fields.find((f) => f.writeOnly && Object.hasOwn(value, f.name))
        : undefined;
    const m = leaked ? `holds the write-only field ${leaked.name}, which no answer carries` : this.mismatch(this.answerSchema(resource, list), value);
    if (m !== undefined && !this.shapeViolations.has(resource.name)) {
      const expected =
        list?.answerFields !== undefined
          ? `a ${resource.name} of the list's answer_fields (${list.answerFields.join(', ')})`
          : `a ${resource.name} in its declared shape`;
      this.shapeViolations.set(resource.name, this.failure(operation, expected, resource.pointer, req, `${m}: ${JSON.stringify(value).slice(0, 300)}`));
    }
    return m;
  }

  /** The headers that authenticate `subject` for a route, {} when it needs none, undefined when it has none. */
  async authFor(auth: AuthRequirement | undefined, subject: Subject = this.main): Promise<Record<string, string> | undefined> {
    if (auth?.kind !== 'required') return {};
    return subject.headersFor(auth.schemes);
  }

  /**
   * The path parameters that name an object (not the version in a path prefix). With \`bind\`: those an addressing
   * action binds to the identifier or a unique field; a scope's (the owner's) name no object, and a create's or
   * list's none.
   */
  idParams(route: OperationRoute): string[] {
    const p = this.model.versioning?.placement;
    const versionParams = p?.kind === 'path' ? Array.from(p.template.matchAll(/\{([^{}]*)\}/g), (m) => m[1]) : [];
    const all = route.pathParams.filter((n) => !versionParams.includes(n));
    const bindings = route.operation.bindings;
    const r = route.resource;
    if (!bindings || !r) return all;
    if (!ADDRESSING_ACTIONS.has(route.operation.action)) return [];
    return all.filter((n) => {
      const f = bindings.find((b) => b.param === n)?.field;
      return f !== undefined && isKeyPath(r, f);
    });
  }

  /**
   * A valid body made to agree with the route's path (\`bind\`): each bound field holds what the path will say —
   * the target object's value (an update or replace leaves the object where its path finds it), else the run's
   * scope value. A create's key field (a unique one) is left as drawn.
   */
  bindBody(route: OperationRoute | undefined, body: Record<string, unknown>, target?: Record<string, unknown>): Record<string, unknown> {
    const r = route?.resource;
    if (!route?.operation.bindings || !r) return body;
    const action = route.operation.action;
    const view = action === 'create' ? 'create' : action === 'replace' ? 'replace' : 'update';
    for (const b of route.operation.bindings) {
      const f = getFieldAt(r, b.field);
      const top = getField(r, b.field) ?? getField(r, b.field.split('.')[0]!);
      // What the request does not write (the identifier, a read-only field) it cannot disagree with.
      if (!f || !top || !isWritable(r, top, view) || f.readOnly) continue;
      // A transition's body holds only the fields it requires: a bound one among them holds the path's value.
      if (action === 'transition' && !Object.hasOwn(body, top.name)) continue;
      const held = target ? getValueAt(target, b.field) : undefined;
      if (held !== undefined) {
        if (action !== 'update' || Object.hasOwn(body, top.name)) setValueAt(r, body, b.field, held);
      } else if (isKeyPath(r, b.field)) {
        // A create's key stays as drawn (fresh per request); the path takes it from here (boundParams).
        let drawn = getValueAt(body, b.field);
        // None drawn (or a null object on its way): the run's scope value, in the body and (createKeys) the path, as
        // the service would set it, so the answer holds what was sent. Not the last key drawn: that one may be a
        // value a service may refuse (NUL).
        if (drawn === undefined && action === 'create') setValueAt(r, body, b.field, (drawn = this.scopeValue(r, f, b.field)));
        // A path segment cannot be empty: a key drawn empty (a string at its lower bound) is drawn again, non-empty.
        if (drawn === '') setValueAt(r, body, b.field, (drawn = this.segmentValue(r, f, this.seed + this.uniqueCounter++)));
        if (action === 'create' && drawn !== undefined)
          this.createKeys.set(route.operation.id, { ...this.createKeys.get(route.operation.id), [b.field]: drawn });
      } else setValueAt(r, body, b.field, this.scopeValue(r, f, b.field));
    }
    return body;
  }

  /** The path of a route with its parameters filled: by name from `params`, else with `id`. */
  pathOf(route: OperationRoute, id?: unknown, query: Record<string, string> = {}, params: Record<string, string> = {}): string {
    // A list's required filters (`required_filters`) go with every request of it, unless the caller names a value.
    if (route.operation.requiredFilters && route.resource) query = { ...this.requiredFilterQuery(route.resource, route.operation.requiredFilters), ...query };
    let p = this.fillVersion(route.path);
    const bound = route.operation.bindings && route.resource ? this.boundParams(route, route.resource, id, params) : undefined;
    // An object itself (objectKey of a resource with no identifier) names it only through its bound fields.
    const rest = isPlainObject(id) ? '' : (id ?? '');
    for (const name of route.pathParams) p = p.replace(`{${name}}`, encodeURIComponent(String(params[name] ?? bound?.[name] ?? rest)));
    const q = new URLSearchParams(query).toString();
    return q === '' ? p : `${p}?${q}`;
  }

  /** pathOf, or undefined for an object with no path (Unaddressable: a key it was not answered). */
  private pathOfOrUndefined(route: OperationRoute, id: unknown): string | undefined {
    try {
      return this.pathOf(route, id);
    } catch (err) {
      if (err instanceof Unaddressable) return undefined;
      throw err;
    }
  }

  /**
   * The values of a route's bound path parameters (\`bind\`): from the object with identifier \`id\` the run made, else
   * the run's scope value for each scope field (every create goes to one scope, so lists and reads find what it
   * made). A key field (the identifier, a unique field) of an object the run did not make is left to \`id\`: a path
   * that names no object, as a missing identifier does.
   */
  private boundParams(route: OperationRoute, r: ResourceModel, id: unknown, given: Record<string, string> = {}): Record<string, string> {
    const out: Record<string, string> = {};
    const made =
      r.identifier === undefined
        ? isPlainObject(id)
          ? id
          : undefined
        : id === undefined
          ? undefined
          : this.pool.get(r.name)?.find((o) => o[r.identifier!] === id);
    for (const b of route.operation.bindings ?? []) {
      if (b.parent) {
        // The parent the objects belong to (`Article.slug`): every object the run makes is under its scope parent
        // (primeScopes), else a value of the parent's field no parent may hold.
        const parent = this.bindingParent(r, b);
        const v = this.scopes.get(`${r.name}\u0000${b.field}`) ?? (parent ? this.scopeValue(parent.resource, parent.field) : undefined);
        if (v !== undefined && v !== null) out[b.param] = String(v);
        continue;
      }
      const f = getFieldAt(r, b.field);
      if (!f) continue;
      const held = made ? getValueAt(made, b.field) : undefined;
      // A key field the service says it leaves out (serve's gap for a `source: service` field): the object it made
      // has no path, so what would be sent there says nothing of the service.
      if (made && (held === undefined || held === null) && isKeyPath(r, b.field) && this.unsetFields.get(r.name)?.has(b.field))
        throw new Unaddressable(r.name, b.field);
      // A key field the object made has no value of (doqs' optional unique `id`, which its create never answers):
      // left empty (`/designer/templates/`), the path would name no object, or the list; not sent as though it did.
      if (made && (held === undefined || held === null) && isKeyPath(r, b.field) && route.operation.action !== 'create' && !Object.hasOwn(given, b.param))
        throw new Unaddressable(r.name, b.field, false);
      if (held !== undefined && held !== null) out[b.param] = String(held);
      else if (route.operation.action === 'create' && isKeyPath(r, b.field)) {
        // A create's key field (\`PUT /things/{id}\` with a client-given identifier): the value its last body drew.
        const drawn = this.createKeys.get(route.operation.id)?.[b.field];
        // A key no body writes (read-only, given by the path alone: Airflow's dag_id of a DAGRun) takes the run's
        // scope value, as the lists under it do: never an empty segment.
        out[b.param] = String(drawn ?? this.scopeValue(r, f, b.field));
      } else if (isKeyPath(r, b.field) && (b.field === r.identifier || id !== undefined)) continue;
      else out[b.param] = String(this.scopeValue(r, f, b.field));
    }
    return out;
  }

  /** The value each of a list's required filters takes in every request of this run, by its name (requiredFilterValue). */
  requiredFilterQuery(r: ResourceModel, names: readonly string[]): Record<string, string> {
    const out: Record<string, string> = {};
    for (const name of names) {
      const f = getField(r, name);
      if (f) out[name] = String(this.requiredFilterValue(r, f));
    }
    return out;
  }

  /**
   * The value a required filter (`required_filters`) takes in every request of this run, and every object
   * createObject makes holds where a create writes it, so that the list has items: for a ref, or an identifier-like
   * field (`project_id` of a uuid beside a Project identified by a uuid), the identifier of an object the run made
   * (primeScopes); otherwise a valid value drawn once.
   */
  requiredFilterValue(r: ResourceModel, f: FieldModel): unknown {
    const key = `${r.name}\u0000${f.name}`;
    if (this.filterValues.has(key)) return this.filterValues.get(key);
    const v = this.segmentValue(r, f, this.seed);
    this.filterValues.set(key, v);
    return v;
  }

  private readonly filterValues = new Map<string, unknown>();

  /** The resource a required filter's values name: a ref's target, else one its name ends in `_id` or `Id` after. */
  private filterTarget(r: ResourceModel, f: FieldModel): ResourceModel | undefined {
    if (f.type === 'ref') return getResource(this.model, f.to);
    const stem = /^(.+?)[_-]?(?:id|Id|ID)$/.exec(f.name)?.[1]?.replace(/[_-]/g, '').toLowerCase();
    if (!stem) return undefined;
    const target = this.model.resources.find((x) => x !== r && x.name.toLowerCase() === stem && x.identifier !== undefined);
    const id = target ? getField(target, target.identifier!) : undefined;
    return id && id.type === f.type ? target : undefined;
  }

  /** Before the checks: each required filter naming another resource's object takes the identifier of one the run made. */
  private async primeRequiredFilters(): Promise<void> {
    for (const o of this.model.endpoints?.operations ?? []) {
      const r = o.action === 'list' && o.requiredFilters ? getResource(this.model, o.resource) : undefined;
      if (!r) continue;
      for (const name of o.requiredFilters!) {
        const f = getField(r, name);
        const key = `${r.name}\u0000${name}`;
        const target = f ? this.filterTarget(r, f) : undefined;
        if (!f || !target || this.filterValues.has(key)) continue;
        const obj = await this.ensureObject(target);
        const v = obj ? obj[target.identifier!] : undefined;
        if (v !== undefined && v !== null) this.filterValues.set(key, v);
      }
    }
  }

  /**
   * A create body with each required filter of the resource's lists holding the run's value (requiredFilterValue),
   * where the create writes the field freely (not bound by its path, not unique, among its request fields).
   */
  withRequiredFilters(resource: ResourceModel, body: Record<string, unknown>): Record<string, unknown> {
    // A resource made by an upsert's PUT (no create) holds them too.
    const create = this.createRoute(resource.name) ?? this.upsertRoute(resource.name);
    if (!create) return body;
    let out = body;
    for (const o of this.model.endpoints?.operations ?? []) {
      if (o.action !== 'list' || o.resource !== resource.name || !o.requiredFilters) continue;
      for (const name of o.requiredFilters) {
        const f = getField(resource, name);
        if (!f || f.unique || !isWritable(resource, f, 'create') || create.operation.bindings?.some((b) => b.field === name)) continue;
        if (!this.requestFields(create).includes(f)) continue;
        if (out === body) out = { ...body };
        out[name] = this.requiredFilterValue(resource, f);
      }
    }
    return out;
  }

  /** Whether `value` is a scope value of the run: a parent its nested requests are all under. */
  isScopeValue(value: unknown): boolean {
    if (value === undefined || value === null) return false;
    for (const v of this.scopes.values()) if (v !== undefined && v !== null && String(v) === String(value)) return true;
    return false;
  }

  /** The value a scope field (one a create's path binds) takes in every request of this run. */
  scopeValue(r: ResourceModel, f: FieldModel, path = f.name): unknown {
    const key = `${r.name}\u0000${path}`;
    if (this.scopes.has(key)) return this.scopes.get(key);
    const target = f.type === 'ref' ? getResource(this.model, f.to) : undefined;
    const pooled = target?.identifier !== undefined ? this.pool.get(target.name)?.at(-1)?.[target.identifier] : undefined;
    const v = pooled ?? this.segmentValue(r, f, this.seed);
    this.scopes.set(key, v);
    if (pooled !== undefined) this.madeScopes.add(key);
    return v;
  }

  /**
   * The parent object a scope field's values name (getPathParent: `{projectId}` of `/projects/{projectId}/tasks`,
   * under a read of a Project), by any operation of the resource binding it; undefined when none reads one there.
   */
  scopeParent(r: ResourceModel, path: string): { resource: ResourceModel; field: string } | undefined {
    for (const o of this.model.endpoints?.operations ?? []) {
      if (o.resource !== r.name) continue;
      const b = o.bindings?.find((x) => x.field === path);
      const parent = b ? getPathParent(this.model, o, b.param) : undefined;
      if (parent && parent.resource !== r) return parent;
    }
    return undefined;
  }

  /** The parent a scope field names: a ref's target by its identifier (a task's project_id), else scopeParent's. */
  private parentOf(r: ResourceModel, path: string, f: FieldModel): { resource: ResourceModel; field: string } | undefined {
    const ref = f.type === 'ref' ? getResource(this.model, f.to) : undefined;
    return ref?.identifier !== undefined ? { resource: ref, field: ref.identifier } : this.scopeParent(r, path);
  }

  /**
   * The parent a binding names (`Article.slug` of a resource whose `parent` is Article; `Owner.id` of a Visit whose
   * Pet's parent is Owner): that resource and its field.
   */
  bindingParent(
    r: ResourceModel,
    b: { parent?: { resource: string; field: string; level: number } },
  ): { resource: ResourceModel; field: FieldModel } | undefined {
    const resource = b.parent ? getParentChain(this.model, r)[b.parent.level - 1] : undefined;
    const field = resource && b.parent ? getField(resource, b.parent.field) : undefined;
    return resource && field ? { resource, field } : undefined;
  }

  /**
   * Before the checks: each scope field whose path names a parent (scopeParent, or a ref's target) takes a parent object's value (made
   * where none is pooled), so that every create goes under a parent that exists, as a service checking it requires
   * (a task's project). Parents of shorter paths first (a project before its tasks' subtasks).
   */
  async primeScopes(): Promise<void> {
    await this.primeRequiredFilters();
    const ops = [...(this.model.endpoints?.operations ?? [])].sort((a, b) => a.path.length - b.path.length);
    for (const o of ops) {
      const r = o.resource !== undefined ? getResource(this.model, o.resource) : undefined;
      if (!r || !o.bindings) continue;
      for (const b of o.bindings) {
        const key = `${r.name}\u0000${b.field}`;
        if (b.parent && b.parent.level > 1) {
          // A parent further up (`Owner.id` of a Visit under a Pet): the one the scope's own parent is under, as the
          // resource below it was made under (its scope, primed first: its paths are shorter).
          const below = getParentChain(this.model, r)[b.parent.level - 2];
          const belowKey = below ? `${below.name}\u0000${b.field}` : undefined;
          const v = belowKey !== undefined ? this.scopes.get(belowKey) : undefined;
          if (this.scopes.has(key) || v === undefined || v === null) continue;
          this.scopes.set(key, v);
          if (this.madeScopes.has(belowKey!)) this.madeScopes.add(key);
          continue;
        }
        if (b.parent) {
          // A resource under a parent (`parent`): one parent object, made first (or one listed), holds every child.
          const parent = this.bindingParent(r, b);
          if (!parent || this.scopes.has(key)) continue;
          const obj = (await this.ensureObject(parent.resource)) ?? (await this.findListed(parent.resource, parent.field.name));
          const v = obj ? obj[parent.field.name] : undefined;
          if (v !== undefined && v !== null) {
            this.scopes.set(key, v);
            this.madeScopes.add(key);
          }
          continue;
        }
        const f = getFieldAt(r, b.field);
        if (!f || isKeyPath(r, b.field) || this.scopes.has(key)) continue;
        const parent = this.parentOf(r, b.field, f);
        if (!parent) continue;
        // A parent the run cannot make (a catalogue's books, no create): one the service already lists.
        const obj = (await this.ensureObject(parent.resource)) ?? (await this.findListed(parent.resource, parent.field));
        const v = obj ? getValueAt(obj, parent.field) : undefined;
        if (v !== undefined && v !== null) {
          this.scopes.set(key, v);
          this.madeScopes.add(key);
        }
      }
    }
  }

  /**
   * Why a request on `route` would name a parent the run has none of: a scope field its path binds names a parent
   * (scopeParent, or a ref's target) and no object of it could be made or found listed (its create not served, or
   * refused), so the value sent is one the tester drew. A service answers that path `missing_resource` (docs/format.md,
   * "A parent named by a ref"), which is no fault of its: the caller skips, saying this. Undefined when every parent
   * the path names is one the run has, or the path names no parent object (a scope value any service answers a page for).
   */
  unmadeParent(route: OperationRoute, refsOnly = false): string | undefined {
    const r = route.resource;
    if (!r || !route.operation.bindings) return undefined;
    for (const b of route.operation.bindings) {
      if (b.parent && !this.madeScopes.has(`${r.name}\u0000${b.field}`))
        return `no ${b.parent.resource} to name by {${b.param}}: the run could not make one (its create is not served, or refused) nor find one listed, and a ${r.name} under one it invents is answered missing_resource`;
      const f = getFieldAt(r, b.field);
      if (!f || isKeyPath(r, b.field) || this.madeScopes.has(`${r.name}\u0000${b.field}`)) continue;
      // `refsOnly` (a create): only a parent named by a ref is looked up, and a create under a missing one refused.
      if (refsOnly && f.type !== 'ref') continue;
      const parent = this.parentOf(r, b.field, f);
      if (parent)
        return `no ${parent.resource.name} to name by {${b.param}}: the run could not make one (its create is not served, or refused) nor find one listed, and a ${r.name} under one it invents is answered missing_resource`;
    }
    return undefined;
  }

  /**
   * An object the service lists (the first page of a list with no path parameters) holding `field`: used only as a
   * parent to name, never changed or deleted, as the run's own objects may be.
   */
  private async findListed(resource: ResourceModel, field: string): Promise<Record<string, unknown> | undefined> {
    const list = this.routes.find((r) => r.operation.action === 'list' && r.resource?.name === resource.name && r.pathParams.length === 0);
    const headers = list ? await this.authFor(list.operation.auth) : undefined;
    if (!list || !headers) return undefined;
    const res = await this.send(list, { method: list.method, path: this.pathOf(list), headers });
    if (res.status !== 200) return undefined;
    return getPageItems(list, res.body)?.find((o): o is Record<string, unknown> => isPlainObject(o) && getValueAt(o, field) != null);
  }

  /**
   * The path parameters naming `obj` (made in the run's scope) in another scope that exists, and the object's bound
   * values as that path gives them: each scope field (bound, no key) gets a second parent's value (scopeParent, or a
   * ref's target), made once per field, else another valid value of the field; its key fields keep the object's.
   * Undefined when no other scope can be had (the second parent could not be made).
   */
  async otherScope(
    route: OperationRoute,
    obj: Record<string, unknown>,
  ): Promise<{ params: Record<string, string>; target: Record<string, unknown> } | undefined> {
    const r = route.resource;
    if (!r || !route.operation.bindings) return undefined;
    const params: Record<string, string> = {};
    const target: Record<string, unknown> = {};
    for (const b of route.operation.bindings) {
      const key = `${r.name}\u0000${b.field}`;
      if (b.parent && b.parent.level > 1) {
        // A parent further up keeps the scope's: the path names the scope's own parent under it, another one of
        // which the object is not under (the parent's own operations are checked under another of theirs).
        const v = this.scopes.get(key);
        if (v === undefined || v === null) return undefined;
        params[b.param] = String(v);
        continue;
      }
      if (b.parent) {
        // Another parent, made once: the object is not under it.
        let other = this.otherScopes.get(key);
        const parent = this.bindingParent(r, b);
        if (other === undefined && parent) {
          const made = await this.createObject(parent.resource);
          const body = made && made.res.status < 300 && isPlainObject(made.res.body) ? made.res.body : undefined;
          other = body?.[parent.field.name];
          if (other !== undefined && other !== null) this.otherScopes.set(key, other);
        }
        if (other === undefined || other === null || other === this.scopes.get(key)) return undefined;
        params[b.param] = String(other);
        continue;
      }
      const f = getFieldAt(r, b.field);
      if (!f) return undefined;
      const held = getValueAt(obj, b.field);
      if (isKeyPath(r, b.field)) {
        if (held === undefined || held === null) return undefined;
        params[b.param] = String(held);
        setValueAt(r, target, b.field, held);
        continue;
      }
      let other = this.otherScopes.get(key);
      if (other === undefined) {
        const parent = this.parentOf(r, b.field, f);
        if (parent) {
          const made = await this.createObject(parent.resource);
          const body = made && made.res.status < 300 && isPlainObject(made.res.body) ? made.res.body : undefined;
          other = body ? getValueAt(body, parent.field) : undefined;
        } else
          for (let i = 1; i <= 20 && (other === undefined || other === held); i++)
            other = this.segmentValue(r, { ...f, unique: false }, this.seed + 104729 * i);
        if (other === undefined || other === null || other === held) return undefined;
        this.otherScopes.set(key, other);
      }
      params[b.param] = String(other);
      setValueAt(r, target, b.field, other);
    }
    return { params, target };
  }

  private readonly otherScopes = new Map<string, unknown>();

  /**
   * For each parent further up a route's chain (`Owner.id` of a Visit under a Pet under an Owner): another object of
   * that parent, made once per parent resource, which the route's inner parent (the run's Pet) is not under. The
   * caller names it in place of the scope's, keeping every other parameter, so that only the chain can be refused.
   * A parent that cannot be made a second time is left out.
   */
  async otherOuterParents(route: OperationRoute): Promise<{ param: string; resource: ResourceModel; value: unknown }[]> {
    const r = route.resource;
    if (!r || !route.operation.bindings) return [];
    const out: { param: string; resource: ResourceModel; value: unknown }[] = [];
    for (const b of route.operation.bindings) {
      if (!b.parent || b.parent.level <= 1) continue;
      const parent = this.bindingParent(r, b);
      const own = this.scopes.get(`${r.name}\u0000${b.field}`);
      if (!parent || own === undefined || own === null) continue;
      const key = `${parent.resource.name}\u0000${parent.field.name}`;
      let other = this.otherOuters.get(key);
      if (other === undefined) {
        const made = await this.createObject(parent.resource);
        const body = made && made.res.status < 300 && isPlainObject(made.res.body) ? made.res.body : undefined;
        other = body?.[parent.field.name];
        if (other === undefined || other === null) continue;
        this.otherOuters.set(key, other);
      }
      if (other !== own) out.push({ param: b.param, resource: parent.resource, value: other });
    }
    return out;
  }

  private readonly otherOuters = new Map<string, unknown>();

  /** A value of a field a path parameter is bound to: not null, and a string not empty (an empty segment is no path). */
  private segmentValue(r: ResourceModel, f: FieldModel, seed: number): unknown {
    // A reference in a path is its target's identifier: drawn in that field's own form (a placeholder object, drawn
    // for bodies, would be sent as '[object Object]').
    if (f.type === 'ref') {
      const target = getResource(this.model, f.to);
      const id = target?.identifier !== undefined ? target.fields.find((x) => x.name === target.identifier) : undefined;
      if (id) return this.segmentValue(target!, id, seed);
    }
    const field = { ...f, nullable: false, ...(f.minLength === undefined || f.minLength < 1 ? { minLength: 1 } : {}) };
    // No NUL either: a service may refuse to store one (it is sent only where a refusal is allowed).
    const drawn = fc.sample(fieldArbitrary(this.model, field, r), { seed, numRuns: 20 });
    return drawn.find((v) => typeof v !== 'string' || !v.includes('\u0000')) ?? drawn[0];
  }

  private readonly scopes = new Map<string, unknown>();
  /** The scopes keys whose value names a parent object the run made or found (primeScopes), not one it drew. */
  private readonly madeScopes = new Set<string>();
  /** The key fields (identifier, unique) the last body drawn for each create binding them held, by operation. */
  private readonly createKeys = new Map<string, Record<string, unknown>>();

  /**
   * A valid body for a route that takes one (create, update, replace, transition), sent to \`pathOf(route, id)\`:
   * each bound field it writes holds what that path says (\`bind\`: a body naming another value is refused). An
   * update's holds one field.
   */
  async validBody(route: OperationRoute, id?: unknown): Promise<Record<string, unknown>> {
    const o = route.operation;
    const r = route.resource;
    if (!r) return {};
    if (o.action === 'create') return this.sampleCreateBody(r);
    if (o.action === 'replace') {
      // With request_fields, drawn from the fields the replace takes (a create's may leave out what it requires).
      // A resource of several shapes: a body of the stored object's variant.
      const stored = this.variantTagOf(r, id);
      const b =
        o.requestFields === undefined
          ? await this.sampleCreateBody(r, 0, false, stored)
          : this.makeUnique(
              r,
              (await this.resolveRefs(
                fc.sample(objectArbitrary(this.model, this.requestFields(route), r, 'replace', false, stored), {
                  seed: this.seed + this.uniqueCounter,
                  numRuns: 1,
                })[0],
              )) as Record<string, unknown>,
            );
      // What a replace cannot write: a write-once field, a client-given identifier (the create's alone).
      for (const f of r.fields) if (!isWritable(r, f, 'replace')) delete b[f.name];
      // A replace keeps the object where its path finds it (else in the run's scope).
      return this.onlyRequestFields(route, this.bindBody(route, b, this.pathTarget(route, id)));
    }
    if (o.action === 'transition') return this.transitionBody(route, id);
    if (o.action === 'update') {
      // One field, not none: an empty update changes nothing, and a service may refuse it (a document's
      // `minProperties: 1`, which the format cannot say), so a probe sent {} would meet that refusal, not its own.
      const drawn = fc.sample(objectArbitrary(this.model, this.requestFields(route), r, 'update', false, this.variantTagOf(r, id)), {
        seed: this.seed + this.uniqueCounter,
        numRuns: 8,
      });
      // A plain value first: a union or object member under a merge patch would need its other members said null.
      const plain = (name: string) => !['union', 'object', 'map', 'array', 'json'].includes(getField(r, name)?.type ?? 'json');
      const pairs = (drawn as Record<string, unknown>[]).flatMap((b) => Object.entries(b));
      const pick = pairs.find(([name]) => plain(name)) ?? pairs[0];
      if (!pick) return {};
      const b = this.makeUnique(r, (await this.resolveRefs({ [pick[0]]: pick[1] })) as Record<string, unknown>);
      // Another value than the object the run made holds (unlike): the update changes it.
      const made = id === undefined ? undefined : this.pool.get(r.name)?.find((x) => objectKey(r, x) === id);
      return this.onlyRequestFields(route, this.bindBody(route, this.unlike(route, b, made), this.pathTarget(route, id)));
    }
    return {};
  }

  /**
   * A value for each field the transition requires, references as identifiers of objects the main subject made; a
   * bound one (\`bind\`) holds what \`pathOf(route, id)\` says.
   */
  async transitionBody(route: OperationRoute, id?: unknown): Promise<Record<string, unknown>> {
    const r = route.resource;
    const b: Record<string, unknown> = {};
    if (!r || !route.transition) return b;
    for (const name of route.transition.requires) {
      const f = r.fields.find((x) => x.name === name);
      if (f) b[name] = await this.resolveRefs(fc.sample(fieldArbitrary(this.model, { ...f, nullable: false }, r), { seed: this.seed, numRuns: 1 })[0]);
    }
    return route.operation.bindings ? this.bindBody(route, b, this.pathTarget(route, id)) : b;
  }

  /**
   * The bound fields' values \`pathOf(route, id)\` puts in the path, as an object holding them (read back as each
   * field's type): what a change's body must agree with, or, for a list, the scope it answers. Undefined without
   * \`bind\`, or without an object named on another action.
   */
  pathTarget(route: OperationRoute, id: unknown): Record<string, unknown> | undefined {
    const r = route.resource;
    if (!r || !route.operation.bindings || (id === undefined && route.operation.action !== 'list')) return undefined;
    const bound = this.boundParams(route, r, id);
    const rest = isPlainObject(id) ? '' : String(id as string);
    const out: Record<string, unknown> = {};
    for (const b of route.operation.bindings) {
      const f = getFieldAt(r, b.field);
      if (f) setValueAt(r, out, b.field, this.segmentAs(f, bound[b.param] ?? rest));
    }
    return out;
  }

  /**
   * A change's body (update, replace) with each plain field it sends (a text, number, boolean, enum, date…: not a
   * reference, object, list, union or JSON value) that holds what `held` (the object it changes) holds drawn again, to
   * another valid value: a change sent to see it take effect must change something, or a service ignoring it passes.
   * A field with no other value (an enum of one) is left as it is: its change cannot show. Fields the path binds
   * (\`bind\`: they keep the object where the path finds it) and unique ones (drawn unique) are left as they are.
   */
  unlike(route: OperationRoute, body: Record<string, unknown>, held: Record<string, unknown> | undefined): Record<string, unknown> {
    const r = route.resource;
    if (!r || held === undefined) return body;
    const bound = new Set((route.operation.bindings ?? []).map((b) => b.field.split('.')[0]!));
    let out = body;
    for (const [name, value] of Object.entries(body)) {
      const f = getField(r, name);
      if (!f || bound.has(name) || f.unique || name === r.identifier || f.readOnly || f.writeOnly) continue;
      if (['ref', 'object', 'map', 'array', 'union', 'json'].includes(f.type) || value === null || JSON.stringify(value) !== JSON.stringify(held[name]))
        continue;
      const drawn = fc.sample(fieldArbitrary(this.model, { ...f, nullable: false, hasExample: false }, r), { seed: this.seed + 7907, numRuns: 40 });
      const other = drawn.find((v) => JSON.stringify(v) !== JSON.stringify(value) && (typeof v !== 'string' || !v.includes('\u0000')));
      if (other === undefined) continue;
      if (out === body) out = { ...body };
      out[name] = other;
    }
    return out;
  }

  /**
   * Mutations of a change's valid body (update, replace) each giving one bound field it writes (\`bind\`) another
   * valid value than the path's, which \`target\` holds: a service refuses each with validation, and so moves no
   * object (docs/format.md, "Path parameters bound to fields").
   */
  pathDisagreements(route: OperationRoute, target: Record<string, unknown>): Mutation[] {
    const r = route.resource;
    const action = route.operation.action;
    if (!r || !route.operation.bindings || (action !== 'update' && action !== 'replace')) return [];
    const out: Mutation[] = [];
    for (const b of route.operation.bindings) {
      const f = getFieldAt(r, b.field);
      const top = getField(r, b.field) ?? getField(r, b.field.split('.')[0]!);
      if (!f || !top || !isWritable(r, top, action) || f.readOnly || (f !== top && f.writeOnce)) continue;
      const held = getValueAt(target, b.field);
      if (held === undefined || held === null || f.type === 'ref') continue;
      let other: unknown;
      for (let i = 1; i <= 20 && (other === undefined || other === held); i++) other = this.segmentValue(r, f, this.seed + 7919 * i);
      if (other === undefined || other === held) continue;
      out.push({
        label: `${b.field} other than the path's {${b.param}}`,
        condition: 'validation',
        apply: (body) => {
          const c = structuredClone(body);
          setValueAt(r, c, b.field, other);
          return c;
        },
      });
    }
    return out;
  }

  /** A path segment read as the value of the field it is bound to (an integer, an enum value, else the text). */
  private segmentAs(f: FieldModel, raw: string): unknown {
    const target = f.type === 'ref' ? getResource(this.model, f.to) : undefined;
    const type = target?.identifier !== undefined ? getField(target, target.identifier)?.type : f.type;
    if (type === 'integer' && /^-?[0-9]+$/.test(raw)) return Number(raw);
    if (type === 'enum') return (f.values ?? []).find((v) => String(v) === raw) ?? raw;
    return raw;
  }

  /** The version prefix as served for `version` (the current one by default), when versions are in the path. */
  versionPrefix(version = this.model.versioning?.current): string | undefined {
    const p = this.model.versioning?.placement;
    if (p?.kind !== 'path') return undefined;
    return p.template.replace(/\/+$/, '').replace(/\{[^{}]*\}/g, encodeURIComponent(version ?? ''));
  }

  /** A served path with its version prefix filled (path placement), else as is. */
  fillVersion(path: string): string {
    const p = this.model.versioning?.placement;
    if (p?.kind !== 'path') return path;
    const template = p.template.replace(/\/+$/, '');
    return path.startsWith(template) ? `${this.versionPrefix() ?? ''}${path.slice(template.length)}` : path;
  }

  /** Why no object of `resource` can be addressed: the spec gives it no create operation, or its create did not succeed. */
  noObject(resource: ResourceModel | undefined, action = 'address'): string {
    const name = resource?.name ?? 'object';
    if (resource && !this.createRoute(resource.name) && this.upsertRoute(resource.name))
      return `no ${name} to ${action}: its upsert (a PUT to a new identifier) did not succeed`;
    if (resource && !this.createRoute(resource.name))
      return `no ${name} to ${action}: the spec has no create operation for ${name}, and the tester makes objects only through one`;
    return `no ${name} to ${action}: its create operation did not succeed`;
  }

  createRoute(resource: string | undefined): OperationRoute | undefined {
    return this.routes.find((r) => r.operation.action === 'create' && r.resource?.name === resource);
  }

  /** A replace with `upsert: true` addressing its object by identifier: a PUT to a new identifier makes the object. */
  upsertRoute(resource: string | undefined): OperationRoute | undefined {
    return this.routes.find(
      (r) =>
        r.operation.action === 'replace' &&
        r.operation.upsert === true &&
        r.resource?.name === resource &&
        r.resource?.identifier !== undefined &&
        !r.operation.bindings,
    );
  }

  /**
   * An upsert's request for a create body (the identifier drawn as a client gives it): the identifier in the path, the
   * body the fields the replace writes.
   */
  upsertRequest(route: OperationRoute, body: Record<string, unknown>): { path: string; body: Record<string, unknown> } {
    const r = route.resource!;
    const writes = new Set(Object.keys(getSchemaMembers(getRequestSchema(this.model, r, route.operation, 'replace'))));
    return { path: this.pathOf(route, body[r.identifier!]), body: Object.fromEntries(Object.entries(body).filter(([k]) => writes.has(k))) };
  }

  /** A unique-per-run value for each `unique` field, so generated bodies never collide. */
  makeUnique(resource: ResourceModel | undefined, body: Record<string, unknown>): Record<string, unknown> {
    if (!resource) return body;
    // A key unique together (unique_keys) is kept apart by its last field: unique in the run as a unique field is.
    // Its last member that is no reference (a registration's attendee_email in [event_id, attendee_email], event_id
    // being the parent the path names).
    const keyed = (resource.uniqueKeys ?? []).flatMap((k) => {
      const last = k.findLast((p) => isNestedPath(resource, p) || getField(resource, p)?.type !== 'ref');
      return last === undefined ? [] : [last];
    });
    const out = keyed.length > 0 ? (structuredClone(body) as Record<string, unknown>) : { ...body };
    for (const path of keyed) {
      const f = getFieldAt(resource, path);
      const v = getValueAt(out, path);
      if (!f || v === undefined || v === null) continue;
      const holder: Record<string, unknown> = { [path]: v };
      this.uniqueValue(resource, { ...f, name: path }, holder);
      setValueAt(resource, out, path, holder[path]);
    }
    const inKey = new Set((resource.uniqueKeys ?? []).flat());
    for (const f of resource.fields) {
      // A client-given identifier is unique as a unique field is: a value sent twice is a conflict, not a create.
      const unique = f.unique || (resource.identifierSource === 'client' && f.name === resource.identifier);
      if (out[f.name] === undefined || out[f.name] === null) continue;
      if (unique) this.uniqueValue(resource, f, out);
      else if (f.type === 'email' && f.pattern === undefined && !inKey.has(f.name) && typeof out[f.name] === 'string')
        out[f.name] = this.freshAddress(out[f.name] as string);
    }
    return out;
  }

  /**
   * The address with its local part's letters and digits drawn afresh, each as a letter or a digit of its own case:
   * its length, its shape and whatever boundary it was drawn at are kept. A service often keeps one object per
   * address without its spec saying so (OpenAPI has no word for it): bodies sharing one drawn address (a sample
   * reused across cases, a shrunk body) would meet a 409 that is no fault of the service.
   */
  private freshAddress(address: string): string {
    const at = address.lastIndexOf('@');
    if (at <= 0) return address;
    let n = (this.uniqueSeed ^ Math.imul(++this.uniqueCounter, 0x9e3779b1)) >>> 0;
    const next = (m: number) => {
      n = (Math.imul(n ^ (n >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
      return n % m;
    };
    const local = address.slice(0, at).replace(/[a-z]|[A-Z]|[0-9]/g, (c) => {
      if (c >= '0' && c <= '9') return String(next(10));
      const letter = String.fromCharCode(97 + next(26));
      return c >= 'a' ? letter : letter.toUpperCase();
    });
    return local + address.slice(at);
  }

  /**
   * Whether `res` is a conflict the operation declares: the declared unique_conflict code, or where none declares the
   * condition (an imported document), a 409 the operation lists. A service keeps values unique that its spec does
   * not say are (OpenAPI has no word for it): such an answer to a drawn body is a value taken, not a fault.
   */
  isConflict(route: OperationRoute, res: TestResponse): boolean {
    if (this.declared('unique_conflict')) return this.expectCondition(res, 'unique_conflict') === undefined;
    return res.status === 409 && route.operation.errors.some((e) => this.model.errors?.codes.find((c) => c.name === e)?.status === 409);
  }

  /**
   * Whether `res` is a declared client error other than a conflict (isConflict, a 409) and those that refuse no body
   * (NOT_REFUSALS): a rule of the service's own that a valid body drawn may meet (a title it keeps unique without the
   * spec saying so, answered 422), which the body sent once more with its text drawn afresh (freshen) may pass.
   */
  isDeclaredRefusal(route: OperationRoute, res: TestResponse): boolean {
    if (res.status < 400 || res.status >= 500 || res.status === 409 || NOT_REFUSALS.includes(res.status) || this.isConflict(route, res)) return false;
    return (this.model.errors?.codes ?? []).some((c) => (c.statusRange === '4XX' ? true : c.statusRange === undefined && c.status === res.status));
  }

  /**
   * The body with each text field of the resource drawn afresh, from the field's own generator, as a value this run
   * has not sent: what is sent again after a conflict (isConflict), unique fields or not.
   */
  freshen(resource: ResourceModel, body: Record<string, unknown>, keep: (name: string) => boolean = () => false): Record<string, unknown> {
    const out = { ...body };
    for (const f of resource.fields) {
      if ((f.type !== 'string' && f.type !== 'email') || typeof out[f.name] !== 'string' || keep(f.name)) continue;
      // The value sent is taken: never drawn again.
      this.unusedValue(resource, f, out, out[f.name]);
    }
    return out;
  }

  /** Replaces `out[f.name]` by a value of the field this run has not sent yet. */
  private uniqueValue(resource: ResourceModel, f: FieldModel, out: Record<string, unknown>): void {
    {
      // Only free text and an address's local part take a prefix: one before a uuid, a date or a URI (Museum's
      // unique eventId) breaks its format, and a faithful service refuses the body.
      if (f.pattern !== undefined || typeof out[f.name] !== 'string' || (f.type !== 'string' && f.type !== 'email')) return this.unusedValue(resource, f, out);
      const n = `${this.runId}${(this.uniqueCounter++).toString(36)}`;
      const v = out[f.name] as string;
      if (f.type === 'email') out[f.name] = `t${n}.${v}`;
      // Cut in code points, as maxLength counts: a cut in UTF-16 units could split a pair (an emoji of the full
      // Unicode edge) and send a lone surrogate, which a service rightly refuses.
      else if (f.pattern === undefined) out[f.name] = [...`${n}${v}`].slice(0, Math.max(f.maxLength ?? 64, n.length)).join('');
    }
  }

  /**
   * Replaces `out[f.name]` by a value the run has not sent yet, drawn from the field's own generator with this run's
   * own seed: drawn with the run's --seed, consecutive seeds' runs would send each other's values to a service that
   * keeps them.
   */
  private unusedValue(resource: ResourceModel, f: FieldModel, out: Record<string, unknown>, taken?: unknown): void {
    let used = this.usedValues.get(`${resource.name}.${f.name}`);
    if (!used) {
      // The value errors.missing-object sends as naming no object is never given to an object the run makes.
      used = new Set<string>([JSON.stringify(missingIdentifier(f))]);
      this.usedValues.set(`${resource.name}.${f.name}`, used);
    }
    if (taken !== undefined) used.add(JSON.stringify(taken));
    const arb = fieldArbitrary(this.model, { ...f, nullable: false, hasExample: false }, resource);
    const draw = () => fc.sample(arb, { seed: (this.uniqueSeed + ++this.uniqueCounter) | 0, numRuns: 1 })[0];
    let v = draw();
    for (let i = 0; used.has(JSON.stringify(v)) && i < 200; i++) v = draw();
    used.add(JSON.stringify(v));
    out[f.name] = v;
  }

  /** Replaces reference placeholders by identifiers of objects the main subject made (making one when needed). */
  async resolveRefs(value: unknown): Promise<unknown> {
    if (isRefPlaceholder(value)) {
      const target = getResource(this.model, value.$ref);
      const obj = target ? await this.ensureObject(target) : undefined;
      return obj && target?.identifier ? obj[target.identifier] : null;
    }
    if (Array.isArray(value)) return Promise.all(value.map((v) => this.resolveRefs(v)));
    if (typeof value === 'object' && value !== null) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = await this.resolveRefs(v);
      return out;
    }
    return value;
  }

  /** A sample valid create body for a resource, refs resolved and unique fields unique (`complete`: see fieldArbitrary). */
  async sampleCreateBody(resource: ResourceModel, seedOffset = 0, complete = false, variantTag?: unknown): Promise<Record<string, unknown>> {
    const route = this.createRoute(resource.name);
    const arb = objectArbitrary(this.model, route ? this.requestFields(route) : resource.fields, resource, 'create', complete, variantTag);
    const [sample] = fc.sample(arb, { seed: this.seed + seedOffset + this.uniqueCounter, numRuns: 1 });
    // A field the create's path binds (\`bind\`) holds the path's value.
    return this.onlyRequestFields(route, this.bindBody(route, this.makeUnique(resource, (await this.resolveRefs(sample)) as Record<string, unknown>)));
  }

  /**
   * A resource of several shapes: the tag of the object the run made with this identifier (or of `object` itself),
   * whose variant a change of it must be; undefined for every other resource, or an object the run does not hold.
   */
  variantTagOf(resource: ResourceModel, id: unknown, object?: Record<string, unknown>): unknown {
    const tag = resource.variants?.discriminator;
    if (tag === undefined) return undefined;
    if (object !== undefined) return object[tag];
    return id === undefined ? undefined : this.pool.get(resource.name)?.find((x) => objectKey(resource, x) === id)?.[tag];
  }

  /**
   * The resource fields a create, update or replace route's request takes: those of the model's request schema (its
   * \`request_fields\`, and the fields its path binds), or every field when it declares none.
   */
  requestFields(route: OperationRoute): readonly FieldModel[] {
    const r = route.resource;
    const o = route.operation;
    if (!r || o.requestFields === undefined || (o.action !== 'create' && o.action !== 'update' && o.action !== 'replace')) return r?.fields ?? [];
    const taken = Object.keys(getSchemaMembers(getRequestSchema(this.model, r, o, o.action)));
    return r.fields.filter((f) => taken.includes(f.name));
  }

  /** The body without the fields the route's request does not take (\`request_fields\`); the same body when it takes all. */
  onlyRequestFields(route: OperationRoute | undefined, body: Record<string, unknown>): Record<string, unknown> {
    if (!route?.resource || route.operation.requestFields === undefined) return body;
    const taken = new Set(this.requestFields(route).map((f) => f.name));
    return Object.fromEntries(Object.entries(body).filter(([k]) => taken.has(k)));
  }

  /**
   * The read to look at an object with after a change on `like`: the one at the change's own path, where there is one,
   * else the resource's first. A read by another field (Ory Kratos' getIdentityByExternalID, first in its document)
   * names the object by a value a replace may clear: read so, the replaced identity was 404 and each field it was sent
   * 'undefined' (fifth sweep).
   */
  readAfter(resource: ResourceModel, like: OperationRoute): OperationRoute | undefined {
    const reads = this.routes.filter((r) => r.operation.action === 'read' && r.resource?.name === resource.name);
    return reads.find((r) => r.operation.path === like.operation.path) ?? reads[0];
  }

  /** Creates an object with the main subject; undefined when it cannot. */
  async createObject(
    resource: ResourceModel,
    body?: Record<string, unknown>,
    subject: Subject = this.main,
  ): Promise<{ req: TestRequest; res: TestResponse } | undefined> {
    const route = this.createRoute(resource.name);
    if (!route) {
      const upsert = this.upsertRoute(resource.name);
      return upsert ? this.upsertObject(upsert, resource, body, subject) : undefined;
    }
    const headers = await this.authFor(route.operation.auth, subject);
    if (!headers) return undefined;
    // The body first: a create whose path binds a key field takes it from the body drawn (boundParams).
    // A list's required filters: the objects the run makes hold the value its list requests send (withRequiredFilters).
    const sent = body ?? this.withRequiredFilters(resource, await this.sampleCreateBody(resource));
    let req: TestRequest = { method: route.method, path: this.pathOf(route), headers, body: sent };
    let res = await this.send(route, req);
    // A value the service already holds (a client-given identifier made before this run, a name it keeps unique
    // without the spec saying so) is a conflict, not a fault: draw again.
    for (let i = 0; i < 10 && body === undefined && this.isConflict(route, res); i++) {
      const again = this.onlyRequestFields(
        route,
        this.bindBody(route, this.withRequiredFilters(resource, this.makeUnique(resource, this.freshen(resource, await this.sampleCreateBody(resource))))),
      );
      req = { ...req, body: again, path: this.pathOf(route) };
      res = await this.send(route, req);
    }
    // A declared refusal of another kind (a rule of the service's own a drawn text may meet): once more, text afresh.
    if (body === undefined && this.isDeclaredRefusal(route, res)) {
      const again = this.onlyRequestFields(
        route,
        this.bindBody(route, this.withRequiredFilters(resource, this.makeUnique(resource, this.freshen(resource, req.body as Record<string, unknown>)))),
      );
      req = { ...req, body: again, path: this.pathOf(route) };
      res = await this.send(route, req);
    }
    if (isSuccessAnswer(route, res.status) && subject === this.main && typeof res.body === 'object' && res.body !== null)
      this.remember(resource, res.body as Record<string, unknown>);
    return { req, res };
  }

  /** No create but an upsert: the object made by a PUT to an identifier this run has not sent (makeUnique draws it). */
  private async upsertObject(
    route: OperationRoute,
    resource: ResourceModel,
    body: Record<string, unknown> | undefined,
    subject: Subject,
  ): Promise<{ req: TestRequest; res: TestResponse } | undefined> {
    const headers = await this.authFor(route.operation.auth, subject);
    if (!headers) return undefined;
    const drawn = body ?? this.withRequiredFilters(resource, await this.sampleCreateBody(resource));
    // A body given without the identifier (or with one taken) still makes a new object: a fresh one is drawn.
    const sent = drawn[resource.identifier!] === undefined ? { ...(await this.sampleCreateBody(resource)), ...drawn } : drawn;
    const { path, body: put } = this.upsertRequest(route, sent);
    const req: TestRequest = { method: route.method, path, headers, body: put };
    const res = await this.send(route, req);
    if (res.status === 201 && subject === this.main && typeof res.body === 'object' && res.body !== null)
      this.remember(resource, res.body as Record<string, unknown>);
    return { req, res };
  }

  remember(resource: ResourceModel, obj: Record<string, unknown>): void {
    const list = this.pool.get(resource.name) ?? [];
    list.push(obj);
    this.pool.set(resource.name, list);
  }

  /**
   * For a custom operation on one object (`POST /bookings/{id}/cancel`, below a read's path): the read's resource
   * and the parameter naming the object; undefined for any other operation, or a resource with no identifier.
   */
  objectActionOf(route: OperationRoute): { resource: ResourceModel; param: string; read: OperationRoute; field: FieldModel } | undefined {
    if (route.operation.action !== 'custom' || route.resource) return undefined;
    const read = this.readAbove(route);
    const param = read ? this.idParams(read).at(-1) : undefined;
    if (!read?.resource || param === undefined || !route.pathParams.includes(param)) return undefined;
    // The field the parameter names: the identifier, or a key field the read binds it to (a per-project issue number).
    const bound = read.operation.bindings?.find((b) => b.param === param)?.field;
    const id = read.resource.identifier;
    const field = bound !== undefined ? getFieldAt(read.resource, bound) : id !== undefined ? read.resource.fields.find((f) => f.name === id) : undefined;
    return field ? { resource: read.resource, param, read, field } : undefined;
  }

  /**
   * The read whose path is the longest one `route`'s path goes on under (`/bookings/{id}` for `/bookings/{id}/cancel`),
   * or is (a custom `PUT /products/{productId}` beside the read: it acts on the object the read names).
   */
  private readAbove(route: OperationRoute): OperationRoute | undefined {
    return this.routes
      .filter(
        (r) =>
          r.operation.action === 'read' &&
          r.resource &&
          r.pathParams.length > 0 &&
          // A read path ending in a slash (Django REST Framework's `/tickets/{id}/`) goes on as `/tickets/{id}/close/`.
          (route.path.startsWith(r.path.endsWith('/') ? r.path : `${r.path}/`) || (route.path === r.path && route !== r)),
      )
      .sort((a, b) => b.path.length - a.path.length)[0];
  }

  /**
   * The path values of a custom operation acting on one object (`POST /projects/{projectId}/tasks/{taskId}/complete`):
   * where a resource's read path is the start of its path, those of an object the run made (made here if need be),
   * by position; undefined when no read path starts it or no object can be made.
   */
  async itemPathValues(route: OperationRoute, fresh = false): Promise<Record<string, string> | undefined> {
    const read = this.readAbove(route);
    if (!read?.resource) return undefined;
    const obj = (fresh ? await this.freshObject(read.resource) : undefined) ?? (await this.ensureObject(read.resource));
    if (!obj) return undefined;
    let concrete: string;
    try {
      concrete = this.pathOf(read, objectKey(read.resource, obj));
    } catch (err) {
      // An object with no path (a key it was not answered): as though none could be made.
      if (err instanceof Unaddressable) return undefined;
      throw err;
    }
    // The read's path as the run fills it: a version prefix in place, each other parameter a segment to read back.
    const parts = this.fillVersion(read.path).split(/\{[^{}]*\}/);
    const values = new RegExp(`^${parts.map((x) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('([^/]+)')}$`).exec(concrete);
    if (!values) return undefined;
    const placement = this.model.versioning?.placement;
    const version = new Set(placement?.kind === 'path' ? Array.from(placement.template.matchAll(/\{([^{}]*)\}/g), (m) => m[1]!) : []);
    const own = route.pathParams.filter((n) => !version.has(n));
    return Object.fromEntries(values.slice(1).flatMap((v, i) => (own[i] !== undefined ? [[own[i]!, decodeURIComponent(v)]] : [])));
  }

  /**
   * A custom operation's path parameters as the fields of an object the run made, where they are all fields of one
   * resource and of no other (`/projects/{project_id}/issues/{number}/lock`, an Issue holding `project_id` and
   * `number`, its read a custom operation too): a request to an object that exists, not to drawn words. Undefined
   * where no one resource has them all, or its object holds none of them as text or a number.
   */
  async fieldPathValues(route: OperationRoute): Promise<Record<string, string> | undefined> {
    const names = this.idParams(route);
    if (names.length === 0 || route.resource) return undefined;
    const holders = this.model.resources.filter((r) => names.every((n) => r.fields.some((f) => f.name === n)));
    if (holders.length !== 1) return undefined;
    const obj = await this.ensureObject(holders[0]!);
    if (!obj) return undefined;
    const values = names.map((n) => obj[n]);
    if (values.some((v) => typeof v !== 'string' && typeof v !== 'number')) return undefined;
    return Object.fromEntries(names.map((n, i) => [n, String(values[i])]));
  }

  /** Values for path parameters that name no object the run made (a custom operation's `{dataset}`): short words drawn with the seed. */
  drawPathValues(names: readonly string[]): Record<string, string> {
    const words = fc.sample(fc.stringMatching(/^[a-z][a-z0-9]{2,11}$/), { seed: this.seed, numRuns: names.length });
    return Object.fromEntries(names.map((n, i) => [n, words[i]!]));
  }

  /** An object of `resource` the main subject owns. */
  /**
   * A new object of `resource`, made for the caller alone (an action's probes: the pool's object may be in a state
   * another check moved it to); undefined where none can be made.
   */
  async freshObject(resource: ResourceModel): Promise<Record<string, unknown> | undefined> {
    const made = await this.createObject(resource, await this.addressableBody(resource));
    return made && made.res.status < 300 && typeof made.res.body === 'object' && made.res.body !== null
      ? (made.res.body as Record<string, unknown>)
      : undefined;
  }

  async ensureObject(resource: ResourceModel): Promise<Record<string, unknown> | undefined> {
    const have = this.pool.get(resource.name);
    // With no identifier, an object is addressed by a key unique together: one that holds every field of a key.
    const keys = resource.identifier === undefined ? (resource.uniqueKeys ?? []) : [];
    const addressable = (o: Record<string, unknown>) => keys.length === 0 || keys.some((k) => k.every((p) => getValueAt(o, p) != null));
    const held = have?.findLast(addressable);
    if (held) return held;
    const made = await this.createObject(resource, await this.addressableBody(resource));
    return made && made.res.status < 300 ? (made.res.body as Record<string, unknown>) : undefined;
  }

  /**
   * A create body whose object a path can name (every optional field given, so every field of a key unique
   * together), for a resource with no identifier and such keys; undefined (the create draws its own) otherwise.
   */
  async addressableBody(resource: ResourceModel): Promise<Record<string, unknown> | undefined> {
    if (resource.identifier !== undefined || (resource.uniqueKeys ?? []).length === 0) return undefined;
    return this.sampleCreateBody(resource, 0, true);
  }
}

/**
 * Skip reasons that mean the check has nothing to hold the service to (the spec does not show the value, declares
 * no such thing, or the user did not ask for an opt-in check): they leave a run complete. Every other skip —
 * a credential missing, a bound reached, a rate limit, an object that could not be made — is a check that applies
 * and did not run, which makes the run INCOMPLETE.
 */
const NOT_APPLICABLE = [
  /\bnot shown\b/,
  /\bthe spec (declares|does not|serves) no\b/,
  /\bthe spec does not\b/,
  /^the purpose is prose/,
  /^not asked for\b/,
  /^no (transition|list|create|read) operations?\b/,
  /^no operation performs\b/,
  /^no event kind fires\b/,
  /holds every scope .* requires/,
  /carries neither the identifier/,
];

/**
 * What names an object the run made: its identifier; for a resource with no identifier (its rows keyed by the
 * storage, which no answer shows), the object itself, whose bound fields fill an addressing path (boundParams).
 */
export function objectKey(resource: ResourceModel | undefined, obj: Record<string, unknown>): unknown {
  if (resource === undefined) return obj['id'];
  return resource.identifier !== undefined ? obj[resource.identifier] : obj;
}

/** Whether a bound path is a key: the identifier, a unique field, or a field of one of the resource's unique keys. */
export function isKeyPath(r: ResourceModel, path: string): boolean {
  if (path === r.identifier || (!isNestedPath(r, path) && getField(r, path)?.unique === true)) return true;
  // A reference in a key unique together (a registration's event_id in [event_id, attendee_email]) is the scope the
  // rest is unique within: the parent a path names, filled as a scope is, not left to an identifier.
  if (!isNestedPath(r, path) && getField(r, path)?.type === 'ref') return false;
  return (r.uniqueKeys ?? []).some((k) => k.includes(path));
}

/** Sets the value at a (nested) path of a body, making the objects on its way. */
export function setValueAt(r: ResourceModel, body: Record<string, unknown>, path: string, value: unknown): void {
  if (!isNestedPath(r, path)) {
    body[path] = value;
    return;
  }
  const parts = path.split('.');
  let holder = body;
  for (const part of parts.slice(0, -1)) {
    const next = holder[part];
    if (!isPlainObject(next)) holder[part] = {};
    holder = holder[part] as Record<string, unknown>;
  }
  holder[parts.at(-1)!] = value;
}

export function isNotApplicable(reason: string): boolean {
  return NOT_APPLICABLE.some((r) => r.test(reason));
}

/** A short description of a response: status, content type, body. */
/** Why an operation the service answers 501 was not checked (the same words as the judge's not-run result). */
export function notImplemented(id: string): string {
  return `the service answers 501 Not Implemented for ${id}: its answers were not checked`;
}

export function describe(res: TestResponse): string {
  const ct = res.headers.get('content-type');
  const text = res.text.length > 400 ? `${res.text.slice(0, 400)}…` : res.text;
  return `${res.status}${ct ? ` (${ct})` : ''} ${text}`.trim();
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * `schema` (changed in place) no longer requiring the member at `path` (`services[].id`: a name, `[]` for each list
 * between, `{}` for each map): down through properties, a list's items, and each choice of a union (`oneOf`) or a nullable (`anyOf`).
 */
function notRequiredAt(schema: JsonSchema, path: readonly string[]): void {
  for (const choice of [...((schema.oneOf as JsonSchema[] | undefined) ?? []), ...((schema.anyOf as JsonSchema[] | undefined) ?? [])])
    notRequiredAt(choice, path);
  const [first, ...rest] = path;
  if (first === undefined) return;
  const m = /^(.*?)((?:\[\]|\{\})*)$/.exec(first)!;
  const name = m[1]!;
  if (rest.length === 0 && m[2] === '' && Array.isArray(schema.required)) {
    const required = (schema.required as string[]).filter((n) => n !== name);
    if (required.length > 0) schema.required = required;
    else delete schema.required;
  }
  let at = (schema.properties as Record<string, JsonSchema> | undefined)?.[name];
  for (let i = 0; at && i < m[2]!.length; i += 2) at = valuesOf(at, m[2]![i] === '[' ? 'items' : 'additionalProperties');
  if (at && rest.length > 0) notRequiredAt(at, rest);
}

/** A list's items or a map's values (`key`), a nullable one's too (`anyOf` of it and null). */
function valuesOf(s: JsonSchema, key: 'items' | 'additionalProperties'): JsonSchema | undefined {
  if (s[key] && typeof s[key] === 'object') return s[key] as JsonSchema;
  const one = ((s.anyOf as JsonSchema[] | undefined) ?? []).find((x) => x[key] && typeof x[key] === 'object');
  return one?.[key] as JsonSchema | undefined;
}
