/**
 * The settings the domain reads, in its own terms: its part of the one configuration object
 * (functions/src/config.ts reads it from the environment once, at start, and the composition
 * roots hand it down on `deps.config`). Nothing below the entry layer reads the environment.
 */
import type { QuotaLimits } from "./quota-limits.js";

/** How long a change-feed request may hold, and how many may hold at once (domain/queries/changes.ts). */
export interface ChangeFeedLimits {
  maxHoldSeconds: number;
  maxWaiters: number;
}

export interface DomainConfig {
  /** Quotas (docs/api.md#quotas, `QUOTA_*`). */
  quotas: QuotaLimits;
  /** Revision shards per calendar, 1 to 64 (`ALMANAC_REVISION_SHARDS`, domain/revision.ts). */
  revisionShards: number;
  /**
   * The key that signs change-feed cursors (`ALMANAC_CHANGE_CURSOR_SECRET`, at least 32
   * characters), or null: a random key kept in the store (domain/cursor-key.ts).
   */
  changeCursorSecret: string | null;
  /** From the deployed function's timeout and concurrency (`ALMANAC_TIMEOUT_SECONDS`, `ALMANAC_CONCURRENCY`). */
  changeFeed: ChangeFeedLimits;
  /** `WEBHOOKS_ALLOW_LOOPBACK=on`: webhooks may use `http:` and loopback receivers, feed layers loopback hosts (https still). */
  webhooks: { allowLoopback: boolean };
}

/** The longest a change-feed request may ask to wait (`wait`, seconds), and how long it holds when nothing bounds it. */
export const MAX_WAIT_SECONDS = 60;

/**
 * How long a request may hold, from the deployed function's options (null where the deployment
 * says nothing, as on the local server): before the function's timeout and Hosting's 60 s limit
 * on a rewrite, with 5 s to spare; at most half of an instance's concurrency holds at once.
 */
export function changeFeedLimits(deployment: {
  timeoutSeconds: number | null;
  concurrency: number | null;
}): ChangeFeedLimits {
  const { timeoutSeconds, concurrency } = deployment;
  return {
    maxHoldSeconds: timeoutSeconds === null ? MAX_WAIT_SECONDS : Math.max(0, Math.min(timeoutSeconds, 60) - 5),
    maxWaiters: concurrency === null ? Infinity : Math.floor(concurrency / 2),
  };
}
