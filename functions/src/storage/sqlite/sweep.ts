import { EXPIRING_COLLECTIONS, PURGE_FIELD } from "../../domain/retention.js";
import type { SqliteStore } from "./index.js";

/** Often enough that a busy day's idempotency records never pile up beyond a few minutes' worth. */
export const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/**
 * What Firestore's TTL policies do for the deployed service: deletes expired idempotency
 * records, claim links and onboard tokens, now and then every SWEEP_INTERVAL_MS. The timer
 * does not keep the process alive. Returns the function that stops it.
 */
export function startSweeper(store: SqliteStore, clock: () => Date, log: (line: string) => void): () => void {
  const sweep = () => {
    try {
      const now = clock();
      const removed = EXPIRING_COLLECTIONS.reduce(
        (sum, collection) => sum + store.purgeExpired(collection, PURGE_FIELD, now),
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
