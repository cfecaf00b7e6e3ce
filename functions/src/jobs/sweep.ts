/**
 * The local server's sweep of expired records as a job: what Firestore's TTL policies do
 * deployed (domain/retention.ts). A pass deletes every record of the expiring collections whose
 * `purge_at` has passed, through the SQLite store's own method (storage/sqlite/sweep.ts); the
 * local driver runs one at start and then every SWEEP_INTERVAL_MS. Deployed there is no sweep.
 */
import { EXPIRING_COLLECTIONS, PURGE_FIELD } from "../domain/retention.js";
import type { SqliteStore } from "../storage/sqlite/index.js";
import { SWEEP_INTERVAL_MS, sweepExpired, type Expiring } from "../storage/sqlite/sweep.js";
import type { Job, JobDeps } from "./pass.js";

/** What the sweep deletes: the records that expire (domain/retention.ts). */
export const EXPIRING: Expiring = { collections: EXPIRING_COLLECTIONS, field: PURGE_FIELD };

/** The sweep needs the SQLite store itself: its `purgeExpired` is no part of the port. */
export type SweepDeps = JobDeps & { store: SqliteStore };

export const sweepJob: Job<SweepDeps> = {
  name: "sweep",
  idleMs: SWEEP_INTERVAL_MS,
  passMs: 5_000,
  async run(deps) {
    const removed = sweepExpired(deps.store, EXPIRING, deps.clock());
    if (removed > 0) deps.log(`sweep: purged ${removed} expired records`);
    return { done: removed, more: false, nextDueAt: null };
  },
};
