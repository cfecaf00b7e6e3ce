/**
 * A few places per instance for anonymous reads that compute over many events: occurrences,
 * free/busy, pages and feeds, on a cache miss. Rate limits count requests per address over a
 * minute; this bounds how much of the server anonymous callers hold at one moment, however
 * many addresses they come from. Past the places the answer is `429 rate_limited` with
 * `Retry-After: 1` at once, never a queue. An agent's reads carry its token and its own rate
 * budget, and do not take places. Off with `RATE_LIMITS=off`, like every limit.
 */
import { errors } from "../domain/errors.js";
import type { HttpConfig } from "./config.js";

export { DEFAULT_ANONYMOUS_READS_AT_ONCE } from "./config.js";

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

/**
 * The gate of one instance of the service, from its configuration: none to take (unbounded)
 * when rate limits are off. The composition root builds it once and puts it on `HttpDeps`, so
 * the API and the pages share it when one process serves both.
 */
export function expensiveReadGateFor(config: Pick<HttpConfig, "anonymousReadsAtOnce">): ExpensiveReadGate {
  const places = config.anonymousReadsAtOnce;
  return places === null ? (_anonymous, work) => work() : expensiveReadGate(places);
}
