import type { ServiceModel } from '../model/model-types.js';

// What a run's defaults become when the spec declares a rate budget per credential: the run spends it where checks
// need it (fewer generated cases per property) and its time limit follows from the budget, so that a complete run
// fits the declared limits instead of ending INCOMPLETE.

/** Time, injectable: tests run the tester's waits on the same sped-up clock as the service's rate limiter. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const REAL_CLOCK: Clock = { now: () => Date.now(), sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };

/** How long the tester waited for the service's rate budget, and why (summed per reason). */
export interface Waits {
  ms: number;
  count: number;
  byReason: Record<string, { ms: number; count: number }>;
}

/** About how many requests one credential spends per generated case of every property, plus the fixed checks. */
const REQUESTS_PER_OPERATION = 30;

export interface RunDefaults {
  runs: number;
  timeLimitMs: number;
  /** Why the defaults differ from the unlimited ones, for the summary; undefined when they do not. */
  reason?: string;
}

/** The tightest declared rate budget (a run sends from one address, with a few credentials). */
export function getCredentialBudget(model: ServiceModel): { requests: number; perMs: number; name?: string } | undefined {
  // A policy on a few operations (10 loans an hour) paces those alone: the run's defaults follow the ones on all.
  const rates = (model.limits?.rate ?? []).filter((r) => r.per.ms > 0 && (r.operations === undefined || r.operations.length === 0));
  const tightest = rates.sort((a, b) => a.requests / a.per.ms - b.requests / b.per.ms)[0];
  return tightest ? { requests: tightest.requests, perMs: tightest.per.ms, ...(tightest.name !== undefined ? { name: tightest.name } : {}) } : undefined;
}

/**
 * The run's defaults: `runs` and `timeLimitMs` as given when the spec has no budget per credential; otherwise fewer
 * generated cases (down to 3) where the budget is under 100 a minute, and a time limit that waits for as many
 * refills as the run's estimated requests need.
 */
export function getRunDefaults(model: ServiceModel, runs: number, timeLimitMs: number): RunDefaults {
  const budget = getCredentialBudget(model);
  if (!budget) return { runs, timeLimitMs };
  const perMinute = (budget.requests * 60_000) / budget.perMs;
  const paced = perMinute < 100 ? Math.max(3, Math.min(runs, Math.floor(perMinute / 15))) : runs;
  const operations = model.endpoints?.operations.length ?? 10;
  const estimate = operations * (REQUESTS_PER_OPERATION + paced * 2);
  const windows = Math.ceil(estimate / budget.requests) + 1;
  const limit = Math.max(timeLimitMs, windows * budget.perMs);
  if (limit === timeLimitMs && paced === runs) return { runs, timeLimitMs };
  return {
    runs: paced,
    timeLimitMs: limit,
    reason: `the spec allows ${budget.requests} requests per ${budget.perMs / 1000} s per credential${budget.name !== undefined ? ` (${budget.name})` : ''}: ${paced} generated cases per property, a time limit of ${Math.round(limit / 1000)} s`,
  };
}

/** Below this many requests a minute, a run is thrifty: one case per kind of constraint rather than every one. */
const THRIFTY_PER_MINUTE = 100;

/** Whether the declared budget is tight enough that a run samples its many similar cases (see pickThrifty). */
export function isThrifty(model: ServiceModel): boolean {
  const b = getCredentialBudget(model);
  return b !== undefined && (b.requests * 60_000) / b.perMs < THRIFTY_PER_MINUTE;
}

/**
 * At most `max` of `items`, one per kind first (each kind's item rotated by `seed`, so other seeds try other
 * fields), then the rest in order: where the budget is tight, every kind of case is still tried.
 */
export function pickThrifty<T>(items: readonly T[], kindOf: (item: T) => string, max: number, seed: number): T[] {
  if (items.length <= max) return [...items];
  const kinds = new Map<string, T[]>();
  for (const it of items) {
    const k = kindOf(it);
    const list = kinds.get(k) ?? [];
    list.push(it);
    kinds.set(k, list);
  }
  const out: T[] = [];
  for (const list of kinds.values()) {
    if (out.length >= max) break;
    out.push(list[Math.abs(seed) % list.length]!);
  }
  return out;
}
