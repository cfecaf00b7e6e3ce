/**
 * Delivering one stream (one webhook, one calendar): take its lease, read the changes after its
 * positions, POST them one by one in feed order, and store how far it got after each batch
 * (domain/webhooks/stream.ts). Each attempt has the settings' time limit and ends early when
 * the run's signal aborts: an interrupted attempt counts as neither delivered nor failed.
 */
import { readStreamPage } from "../../domain/webhooks/feed.js";
import type { DeliveryAttempt, DeliveryQueueRecord } from "../../domain/webhooks/records.js";
import type { Sender } from "../../domain/webhooks/sender.js";
import type { WebhookSettings } from "../../domain/webhooks/settings.js";
import { deliveryHeaders, signingSecrets } from "../../domain/webhooks/signing.js";
import {
  commitProgress,
  deliveryId,
  takeLease,
  type Holder,
  type PresentChange,
  type Progress,
} from "../../domain/webhooks/stream.js";
import type { ChangeRecord } from "../../domain/records.js";
import type { WebhookRecord } from "../../domain/webhooks/records.js";
import type { Deps } from "../../domain/deps.js";
import type { JobDeps } from "../pass.js";

/** A delivery reads the change feed with the configured number of revision shards. */
export type DeliveryDeps = JobDeps & Pick<Deps, "config">;

export interface DeliveryContext {
  deps: DeliveryDeps;
  settings: WebhookSettings;
  send: Sender;
  present: PresentChange;
  holder: Holder;
  /** Aborted at the end of the run: the attempt in flight is cut short, no other starts. */
  signal: AbortSignal;
  /** performance.now() after which a stream stops starting batches and gives its place back. */
  streamDeadline: number;
  /** The agents' deliveries a minute (limits.ts). */
  allowance: { take(agentId: string): boolean; left(agentId: string): boolean };
}

export interface StreamOutcome {
  delivered: number;
  failed: boolean;
  /** The stream has more than it delivered: due again at once. */
  more: boolean;
}

const NOTHING: StreamOutcome = { delivered: 0, failed: false, more: false };

export async function deliverStream(ctx: DeliveryContext, entry: DeliveryQueueRecord): Promise<StreamOutcome> {
  const { store, clock } = ctx.deps;
  const singleProcess = Boolean(store.singleProcess);
  const { calendar_id: calendarId, woken_at: wokenAt } = entry;
  const leased = await store.runTransaction((tx) =>
    takeLease(tx, ctx.deps, ctx.settings, ctx.holder, singleProcess, entry),
  );
  if (!leased) return NOTHING;
  const { hook } = leased;
  let stream = leased.stream;
  const outcome: StreamOutcome = { delivered: 0, failed: false, more: false };
  for (;;) {
    const page = await store.runReadOnly((reads) =>
      readStreamPage(reads, hook.agent_id, calendarId, stream.positions, {
        limit: ctx.settings.batch,
        now: clock(),
        shards: ctx.deps.config.revisionShards,
      }),
    );
    const p: Progress = {
      positions: [...stream.positions],
      attempts: [],
      failures: stream.failures,
      failing_since: stream.failing_since,
      failed: false,
      lost: page.allowed ? null : (page.denied ?? "no_access"),
      caughtUp: false,
      more: false,
    };
    if (page.expired) {
      // Changes older than the feed's retention are gone: what is left starts from now.
      p.positions = [...page.counters];
      p.attempts.push({
        change_id: `${hook.id}_${calendarId}`,
        type: "expired",
        calendar_id: calendarId,
        attempt: 1,
        status: null,
        latency_ms: 0,
        error: "changes older than the change feed's 7-day retention were purged before delivery and are skipped",
        at: clock().toISOString(),
      });
    } else if (page.allowed) {
      outcome.delivered += await deliverBatch(ctx, hook, calendarId, page.changes, p);
    }
    const behind = page.counters.some((c, n) => c > (p.positions[n] ?? 0));
    p.caughtUp = page.allowed && !behind;
    const inTime = performance.now() < ctx.streamDeadline && !ctx.signal.aborted;
    p.more = !p.failed && !p.lost && behind && inTime && ctx.allowance.left(hook.agent_id);
    const held = await store.runTransaction((tx) =>
      commitProgress(tx, ctx.deps, ctx.settings, ctx.holder, hook.id, calendarId, wokenAt, p),
    );
    if (!held) return outcome;
    if (p.failed) outcome.failed = true;
    if (!p.more) {
      outcome.more = !p.failed && !p.lost && behind;
      return outcome;
    }
    stream = { ...stream, positions: p.positions, failures: p.failures, failing_since: p.failing_since };
  }
}

/** POSTs the batch's changes in order until one fails or is interrupted; answers how many arrived. */
async function deliverBatch(
  ctx: DeliveryContext,
  hook: WebhookRecord,
  calendarId: string,
  changes: Array<{ seq: number; change: ChangeRecord }>,
  p: Progress,
): Promise<number> {
  const { clock } = ctx.deps;
  const types = new Set<string>(hook.types);
  let delivered = 0;
  for (const { seq, change } of changes) {
    if (!types.has(change.type)) {
      p.positions[change.shard] = change.seq;
      continue;
    }
    if (ctx.signal.aborted || !ctx.allowance.take(hook.agent_id)) return delivered;
    const id = deliveryId(hook.id, calendarId, change);
    const body = JSON.stringify({
      type: change.type,
      calendar_id: calendarId,
      data: ctx.present(seq, change),
      at: change.at,
    });
    const sentAt = clock();
    const sent = await ctx.send(hook.url, deliveryHeaders(signingSecrets(hook, sentAt), id, sentAt, body), body, {
      timeoutMs: ctx.settings.timeoutMs,
      signal: ctx.signal,
    });
    // Cut short by the run's end, not by the receiver: tried again later, no failure counted.
    if (!sent.ok && ctx.signal.aborted) return delivered;
    const attempt: Omit<DeliveryAttempt, "attempt"> = {
      change_id: id,
      type: change.type,
      calendar_id: calendarId,
      status: sent.status,
      latency_ms: sent.latencyMs,
      error: sent.error,
      at: sentAt.toISOString(),
    };
    if (!sent.ok) {
      p.failures += 1;
      p.failing_since ??= sentAt.toISOString();
      p.failed = true;
      p.attempts.push({ ...attempt, attempt: p.failures });
      return delivered;
    }
    p.attempts.push({ ...attempt, attempt: p.failures + 1 });
    p.positions[change.shard] = change.seq;
    p.failures = 0;
    p.failing_since = null;
    delivered += 1;
  }
  return delivered;
}
