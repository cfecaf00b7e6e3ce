/**
 * Outside feeds shown as layers, refreshed as a job (docs/decisions/feeds.md). A pass reads the
 * feeds due, earliest first (an indexed query of `feeds` by `due_at`), and refreshes each
 * (jobs/feeds/refresh.ts) with a few fetches at once, at most `perHost` to one server, and at
 * most `perTenant` a pass for one tenant (the host's creator), so another tenant's feed waits
 * for a few fetches, not for all of one tenant's. When the batch read was full (more may wait
 * behind it), a tenant's feeds past its share go to the back of the queue: one tenant's hundred
 * feeds due at once delay another's by a few passes, not by a hundred fetches. Attaching makes a feed due at once; locally the job
 * wakes on this process's changes (an attach is one), deployed the scheduled `feeds` runs
 * within its minute.
 */
import type { Deps } from "../domain/deps.js";
import type { DomainConfig } from "../domain/config.js";
import { deferFeed } from "../domain/feeds/refresh.js";
import type { FeedRecord } from "../domain/feeds/records.js";
import { paths } from "../domain/paths.js";
import { createFeedFetcher, type FeedFetcher } from "../outbound/fetch-feed.js";
import { errorText } from "./local-driver.js";
import { timeLeft, type Budget, type Job, type PassResult } from "./pass.js";
import { refreshFeed } from "./feeds/refresh.js";

export interface FeedLimits {
  /** Fetches at once in this instance. */
  atOnce: number;
  /** Fetches at once to one server (host and port). */
  perHost: number;
  /** Feeds one tenant has refreshed in one pass. */
  perTenant: number;
}

export const DEFAULT_FEED_LIMITS: FeedLimits = { atOnce: 4, perHost: 2, perTenant: 2 };

/** Due feeds one pass reads. */
const QUEUE_BATCH = 50;

export interface FeedJobOptions {
  fetch: FeedFetcher;
  limits?: FeedLimits;
}

export function createFeedJob(options: FeedJobOptions): Job<Deps> {
  return {
    name: "feeds",
    idleMs: 60_000,
    passMs: 30_000,
    wakeOnChange: true,
    run: (deps, budget) => feedPass(deps, budget, options),
  };
}

/** The job as the composition roots start it: the address policy of the configuration. */
export const feedJobFromConfig = (deps: { config: Pick<DomainConfig, "webhooks"> }): Job<Deps> =>
  createFeedJob({ fetch: createFeedFetcher({ allowLoopback: deps.config.webhooks.allowLoopback }) });

export async function feedPass(deps: Deps, budget: Budget, options: FeedJobOptions): Promise<PassResult> {
  const limits = options.limits ?? DEFAULT_FEED_LIMITS;
  const due = await deps.store.query(paths.feeds(), {
    where: [["due_at", "<=", deps.clock().toISOString()]],
    orderBy: [["due_at", "asc"]],
    limit: QUEUE_BATCH,
  });
  const { turns, deferred } = shareByTenant(
    due.map((d) => d.data),
    limits.perTenant,
  );
  // Only a full batch may hide another tenant's feeds behind these: then they queue behind them.
  if (due.length === QUEUE_BATCH) {
    for (const feed of deferred) {
      await deps.store.runTransaction((tx) => deferFeed(tx, deps, feed.calendar_id, feed.due_at));
    }
  }
  const { done, left } = await refreshAll(deps, options.fetch, limits, turns, budget);
  if (left > 0 || deferred.length > 0 || due.length === QUEUE_BATCH) return { done, more: true, nextDueAt: null };
  const [next] = await deps.store.query(paths.feeds(), { orderBy: [["due_at", "asc"]], limit: 1 });
  return { done, more: false, nextDueAt: next ? Date.parse(next.data.due_at) : null };
}

/** The due feeds in order, at most `perTenant` of each tenant; the rest of each tenant's wait their turn. */
export function shareByTenant(
  due: readonly FeedRecord[],
  perTenant: number,
): { turns: FeedRecord[]; deferred: FeedRecord[] } {
  const taken = new Map<string, number>();
  const turns: FeedRecord[] = [];
  const deferred: FeedRecord[] = [];
  for (const feed of due) {
    const count = taken.get(feed.tenant) ?? 0;
    if (count < perTenant) turns.push(feed);
    else deferred.push(feed);
    taken.set(feed.tenant, count + 1);
  }
  return { turns, deferred };
}

/**
 * Refreshes `turns` in order, `atOnce` at a time and `perHost` at a time to one server, starting
 * none past the budget's deadline (each fetch ends within its own time limit). `left`: turns
 * not started, still due for the next pass.
 */
async function refreshAll(
  deps: Deps,
  fetch: FeedFetcher,
  limits: FeedLimits,
  turns: FeedRecord[],
  budget: Budget,
): Promise<{ done: number; left: number }> {
  const waiting = [...turns];
  const perHost = new Map<string, number>();
  let done = 0;
  const worker = async () => {
    while (timeLeft(budget) > 0) {
      const next = waiting.findIndex((feed) => (perHost.get(hostOf(feed)) ?? 0) < limits.perHost);
      if (next < 0) return;
      const [feed] = waiting.splice(next, 1);
      const host = hostOf(feed);
      perHost.set(host, (perHost.get(host) ?? 0) + 1);
      try {
        if (await refreshFeed(deps, fetch, feed)) done += 1;
      } catch (err) {
        // A store failure leaves the feed claimed; it falls due again when the claim lapses.
        deps.log(`feed ${feed.calendar_id} refresh failed: ${errorText(err)}`, { severity: "ERROR" });
      } finally {
        perHost.set(host, perHost.get(host)! - 1);
      }
    }
  };
  await Promise.all(Array.from({ length: limits.atOnce }, worker));
  return { done, left: waiting.length };
}

const hostOf = (feed: Pick<FeedRecord, "url">): string => new URL(feed.url).host;
