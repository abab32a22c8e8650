import type { PartName } from '../spec/spec-types.js';
import type { SourceMap } from '../spec/spec-loader.js';
import type { Clock, Waits } from './tester-pacing.js';

// What the contract tester is given and what it answers. The tester only contacts `baseUrl`.

/** One subject's credentials: headers per scheme, or client credentials exchanged at the scheme's token path. */
export interface SubjectCredentials {
  /** Extra headers sent as given (e.g. `X-API-Key: …`); matched to api_key schemes by header name. */
  headers?: Readonly<Record<string, string>>;
  bearer?: string;
  basic?: { user: string; password: string };
  clientId?: string;
  clientSecret?: string;
}

export interface TestOptions {
  baseUrl: string;
  /** The main subject: every operation is called with it. */
  credentials?: SubjectCredentials;
  /** A second subject, for ownership checks. */
  other?: SubjectCredentials;
  /** A credential that lacks scopes, and the scopes it does hold (default none). */
  limited?: SubjectCredentials;
  limitedScopes?: readonly string[];
  seed?: number;
  /** Upper bound on requests sent (default 2000). */
  maxRequests?: number;
  /** Upper bound on the run's wall time in ms (default 60 000). */
  timeLimitMs?: number;
  /** How long one request may wait for its whole answer, in ms (default 10 000): past it, the check sending it fails. */
  requestTimeoutMs?: number;
  /** Spend the rate-limit budget to check the declared limits. */
  rateLimits?: boolean;
  /** Listen on this port (0: any free one) for webhooks and check they are signed (needs a webhook registration path). */
  webhookListen?: number;
  /** Read the events the service publishes to this broker (nats://… or amqp://…; events.delivery.broker) and check them. */
  broker?: string;
  /** The service's callback secret (`whsec_…`), to verify callbacks (with webhookListen). */
  callbackSecret?: string;
  /** Generated cases per operation for valid/invalid requests (default 20). */
  runs?: number;
  /** Run only these checks: a part name (`limits`), a check name (`limits.body-size`) or an operation id. */
  only?: readonly string[];
  /** Leave out these checks (the same names as `only`). */
  skip?: readonly string[];
  /** Run only these checks on these targets (the failures of an earlier report: see `getReplay`). */
  replay?: readonly { check: string; target: string }[];
  /** Print credentials in reproductions; by default they are replaced by `<main credential>` and the like. */
  showSecrets?: boolean;
  /** Source positions, to quote the spec's file:line in failures. */
  sourceMap?: SourceMap;
  /** The spec's text, to quote the line a failure's expectation comes from. */
  specText?: string;
  /** The run's clock (tests: the service's sped-up rate-limit clock); default the real one. */
  clock?: Clock;
  /** Called after each request and at each new check. */
  onProgress?: (p: Progress) => void;
}

export interface Progress {
  requests: number;
  passed: number;
  failed: number;
  skipped: number;
  check: string;
}

export type CheckOutcome = 'passed' | 'failed' | 'skipped';

export interface Failure {
  /** The operation (or route) the failing request went to. */
  operation: string;
  /** What the spec says should happen. */
  expected: string;
  /** Where the spec says it: `file:line`. */
  spec?: string;
  /** What came back. */
  actual: string;
  /** The (shrunk) request that shows it, as a curl command. */
  curl?: string;
}

export interface CheckResult {
  part: PartName;
  /** A stable check name, e.g. `operations.valid-requests`. */
  check: string;
  /** What it was run on, e.g. an operation id. */
  target: string;
  outcome: CheckOutcome;
  /** Why it was skipped. */
  reason?: string;
  /**
   * A skipped check that applies but could not run (a credential missing or lacking a scope, a bound reached, a
   * rate limit): the run is incomplete. Unset for a check the spec gives nothing to (a value "not shown").
   */
  notRun?: boolean;
  failure?: Failure;
  requests: number;
}

export interface PartSummary {
  part: PartName;
  passed: number;
  failed: number;
  skipped: number;
}

export interface TestReport {
  baseUrl: string;
  seed: number;
  results: CheckResult[];
  parts: PartSummary[];
  requests: number;
  durationMs: number;
  /** Requests per second the tester sent. */
  requestsPerSecond: number;
  /** Whether a bound (max requests, time limit) stopped the run early. */
  stoppedBy?: 'max-requests' | 'time-limit';
  /** State pairs (a reachable state × a transition of its machine) tried, of all there are. */
  statePairs: { tried: number; total: number };
  /** Things a reader of the verdict must know (most requests refused with 401, a wait for a spent budget). */
  warnings: string[];
  /** Set when nothing answered at the base URL: no check ran. */
  unreachable?: string;
  /**
   * `failed` when any check failed; `incomplete` when none failed but an applicable check could not run (or none
   * passed); `passed` only when every applicable check ran and passed.
   */
  verdict: Verdict;
  /** How long the run waited for the service's rate budget, and why; `defaults`: how the budget set the run's defaults. */
  waited?: Waits & { defaults?: string };
  /** No check failed (the run may still be incomplete: see `verdict`). */
  ok: boolean;
}

export type Verdict = 'passed' | 'failed' | 'incomplete';
