// Deployment options for event delivery, and what the runtime does where the spec's `events` part is silent.

import type { Route } from '../../model/model-routes.js';
import { DEFAULT_RETRY_JITTER } from '../../model/model-defaults.js';
import type { ServiceModel } from '../../model/model-types.js';
import type { RuntimeGap } from '../runtime-built-in.js';
import { parseTargetPolicy, TargetPolicyError, type Lookup } from './events-targets.js';
import type { BrokerTarget } from './events-broker-types.js';
import type { SchedulerClock } from './events-scheduler.js';
import { isWebhookSecret } from './events-signing.js';

export interface WebhookOptions {
  /**
   * Address ranges (CIDR) webhooks may be sent to although they are not public unicast addresses, e.g.
   * `['127.0.0.0/8']` for a receiver on the same machine. Everything else non-public is refused.
   */
  allowTargets?: readonly string[];
  /** Resolves target names (dns.lookup by default); tests answer names without DNS. */
  lookup?: Lookup;
  /** The delivery clock, in milliseconds since the epoch (Date.now by default). */
  now?: () => number;
  /**
   * The delivery scheduler's clock with its timers (tests move it by hand); its `now` is the delivery clock when
   * `now` is not given. The system's timers by default.
   */
  clock?: SchedulerClock;
  /** Randomness for retry jitter, in [0, 1) (Math.random by default). */
  random?: () => number;
  /** Each retry delay is scaled by a random factor in [1 - jitter, 1 + jitter] (default 0.2; 0 for none). */
  jitter?: number;
  /** Attempts in flight at once (default 16). */
  concurrency?: number;
  /** How often the outbox and the queue are polled for work written by other processes (default 1000 ms). */
  pollIntervalMs?: number;
  /** How long the previous secret keeps signing after a rotation (default 24 h). */
  rotationGraceMs?: number;
  /** The longest Retry-After honoured (default 24 h); longer ones are cut to it. */
  maxRetryAfterMs?: number;
  /** Run the delivery worker in this process (default true). */
  deliver?: boolean;
  /**
   * The `whsec_` secret callback deliveries are signed with (endpoints.operations.<id>.callbacks): one key for the
   * service, given to receivers out of band. Required when the spec declares callbacks.
   */
  callbackSecret?: string;
  /** Publish every event to this broker (events.delivery.broker; `serve --broker`), parsed by parseBrokerUrl. */
  broker?: BrokerTarget;
}

/** Values used where the spec is silent (only with allowGaps; each is reported as a gap). */
export const EVENTS_BUILT_IN = {
  /** The Standard Webhooks recommended schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
  retriesMs: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
  timeoutMs: 15_000,
  rotationGraceMs: 24 * 3_600_000,
  maxRetryAfterMs: 24 * 3_600_000,
  jitter: DEFAULT_RETRY_JITTER,
  concurrency: 16,
  pollIntervalMs: 1_000,
} as const;

/** The gaps serving the spec's events would have to fill. */
export function getEventRuntimeGaps(model: ServiceModel): RuntimeGap[] {
  const gaps: RuntimeGap[] = [];
  const e = model.events;
  if (!e) return gaps;
  const auth = model.authentication?.default;
  // Callbacks are delivered as webhooks are: with no events.delivery.webhook, its signing, retries and time-out are gaps.
  const webhook = e.webhook ?? (hasCallbacks(model) ? {} : undefined);
  if (webhook) {
    if (webhook.signing === undefined) gaps.push({ part: 'events', item: 'webhook signing: not shown', builtIn: 'sign deliveries per Standard Webhooks' });
    if (webhook.retries === undefined)
      gaps.push({
        part: 'events',
        item: 'webhook retry schedule: not shown',
        builtIn: 'retry after 5s, 5m, 30m, 2h, 5h, 10h, 10h (the Standard Webhooks schedule)',
      });
    if (webhook.timeout === undefined)
      gaps.push({ part: 'events', item: 'webhook delivery time-out: not shown', builtIn: `wait ${EVENTS_BUILT_IN.timeoutMs / 1000}s for each attempt` });
    // Unlike the stream, registering endpoints is never served without a credential unless the spec says so
    // (authentication.default: none) or the operator allows the gap.
    if (webhook.path !== undefined && auth === undefined)
      gaps.push({
        part: 'authentication',
        item: 'authentication of the webhook registration operations: not shown',
        builtIn: 'serve them without a credential',
      });
  }
  // The stream's requirement is the default one; without it, the stream is a gap like any operation with none
  // (runtime-gaps.ts). Without a heartbeat interval it sends no heartbeats.
  return gaps;
}

/** Whether any operation declares callbacks (delivered by the webhook worker). */
export function hasCallbacks(model: ServiceModel): boolean {
  return (model.endpoints?.operations ?? []).some((o) => (o.callbacks?.length ?? 0) > 0);
}

/** What stops the events part from being served with these options (a bad allowed range, no authenticator, no callback secret). */
export function getEventStartProblems(
  routes: readonly Route[],
  options: WebhookOptions | undefined,
  hasAuthenticator: boolean,
  model?: ServiceModel,
): string[] {
  const problems: string[] = [];
  if (model && hasCallbacks(model)) {
    const secret = options?.callbackSecret;
    if (secret === undefined)
      problems.push(
        'callbacks: the spec declares callbacks, but no secret signs them: give one (whsec_…) as webhooks.callbackSecret (serve: the environment variable SERVICESPEC_CALLBACK_SECRET)',
      );
    else if (!isWebhookSecret(secret)) problems.push('callbacks: the callback secret must be whsec_ followed by base64 of 24 to 64 bytes');
  }
  try {
    parseTargetPolicy(options?.allowTargets ?? []);
  } catch (err) {
    if (!(err instanceof TargetPolicyError)) throw err;
    problems.push(`webhooks: ${err.message}`);
  }
  if (!hasAuthenticator) {
    for (const r of routes) {
      if ((r.kind === 'stream' || r.kind === 'webhooks') && r.auth?.kind === 'required') {
        problems.push(
          `${r.kind === 'stream' ? 'the event stream' : 'the webhook registration'} at ${r.path} requires a credential, but no authenticator is configured`,
        );
        break;
      }
    }
  }
  return problems;
}
