import type { SqliteStore } from "./index.js";

/** What expires: collection groups whose records carry `field`, the Date after which nothing reads them. */
export interface Expiring {
  collections: readonly string[];
  field: string;
}

/** Often enough that a busy day's idempotency records never pile up beyond a few minutes' worth. */
export const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/**
 * What Firestore's TTL policies do for the deployed service: deletes expired idempotency
 * records, claim links and onboard tokens, now and then every SWEEP_INTERVAL_MS. The timer
 * does not keep the process alive. Returns the function that stops it.
 */
export function startSweeper(
  store: SqliteStore,
  expiring: Expiring,
  clock: () => Date,
  log: (line: string) => void,
): () => void {
  const sweep = () => {
    try {
      const now = clock();
      const removed = expiring.collections.reduce(
        (sum, collection) => sum + store.purgeExpired(collection, expiring.field, now),
        0,
      );
      if (removed > 0) log(`sweep: purged ${removed} expired records`);
    } catch (err) {
      log(`sweep failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  sweep();
  const timer = setInterval(sweep, SWEEP_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
