import type { SqliteStore } from "./index.js";

/** What expires: collection groups whose records carry `field`, the Date after which nothing reads them. */
export interface Expiring {
  collections: readonly string[];
  field: string;
}

/** Often enough that a busy day's idempotency records never pile up beyond a few minutes' worth. */
export const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/**
 * What Firestore's TTL policies do for the deployed service: deletes the expired records of
 * each expiring collection (idempotency records, claim links, onboard tokens, changes) and
 * answers how many went. The sweep job (jobs/sweep.ts) runs it every SWEEP_INTERVAL_MS.
 */
export function sweepExpired(store: Pick<SqliteStore, "purgeExpired">, expiring: Expiring, now: Date): number {
  return expiring.collections.reduce((sum, collection) => sum + store.purgeExpired(collection, expiring.field, now), 0);
}
