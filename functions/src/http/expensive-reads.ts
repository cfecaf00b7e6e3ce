/**
 * A few places per instance for anonymous reads that compute over many events: occurrences,
 * free/busy, pages and feeds, on a cache miss. Rate limits count requests per address over a
 * minute; this bounds how much of the server anonymous callers hold at one moment, however
 * many addresses they come from. Past the places the answer is `429 rate_limited` with
 * `Retry-After: 1` at once, never a queue. An agent's reads carry its token and its own rate
 * budget, and do not take places. Off with `RATE_LIMITS=off`, like every limit.
 */
import { errors } from "../domain/errors.js";
import { rateLimitsFromEnv } from "./rate-limit.js";

/** Anonymous expensive reads one instance computes at once (`ANONYMOUS_READS_AT_ONCE`). */
export const DEFAULT_ANONYMOUS_READS_AT_ONCE = 4;

export type ExpensiveReadGate = <T>(anonymous: boolean, work: () => Promise<T>) => Promise<T>;

export function expensiveReadGate(places: number): ExpensiveReadGate {
  let taken = 0;
  return async (anonymous, work) => {
    if (!anonymous) return work();
    if (taken >= places) throw errors.readsBusy(1);
    taken += 1;
    try {
      return await work();
    } finally {
      taken -= 1;
    }
  };
}

type Env = Record<string, string | undefined>;

/** The places from the environment: none to take (unbounded) when rate limits are off. */
export function expensiveReadGateFromEnv(env: Env = process.env): ExpensiveReadGate {
  if (!rateLimitsFromEnv(env).enabled) return (_anonymous, work) => work();
  const raw = env.ANONYMOUS_READS_AT_ONCE?.trim();
  if (raw && !/^[1-9][0-9]*$/.test(raw))
    throw new Error(`ANONYMOUS_READS_AT_ONCE must be a whole number of at least 1, not "${raw}"`);
  return expensiveReadGate(raw ? Number(raw) : DEFAULT_ANONYMOUS_READS_AT_ONCE);
}

let shared: ExpensiveReadGate | null = null;

/** The process's gate: the API and the pages share it when one process serves both. */
export function expensiveReads(): ExpensiveReadGate {
  return (shared ??= expensiveReadGateFromEnv());
}
