/**
 * Delivering one stream (one webhook, one calendar): take its lease, read the changes after its
 * positions, POST them one by one in feed order, and store how far it got after each batch
 * (domain/webhooks/records.ts, WebhookStreamRecord). A change is delivered at least once: the
 * positions move only after its 2xx (or when the webhook's `types` leave it out), so a crash
 * between a write and its delivery, or in the middle of a batch, only delays or repeats it.
 */
import { randomBytes } from "node:crypto";
import type { LookupFunction } from "node:net";
import { hostname } from "node:os";
import type { Deps } from "../deps.js";
import { paths } from "../paths.js";
import type { ChangeRecord } from "../records.js";
import { readStreamPage } from "./feed.js";
import type { DeliveryAttempt, WebhookRecord, WebhookStreamRecord } from "./records.js";
import { postJson } from "./send.js";
import { retryDelayMs, type WebhookSettings } from "./settings.js";
import { deliveryHeaders, signingSecrets } from "./signing.js";

/** The last attempts a stream keeps (GET .../deliveries answers the newest 100 of all streams). */
export const KEPT_ATTEMPTS = 100;

/** What the delivery body's `data` is: the change as GET .../changes presents it (given by the caller). */
export type PresentChange = (seq: number, change: ChangeRecord) => unknown;

export interface DeliveryContext {
  deps: Pick<Deps, "store" | "clock" | "log">;
  settings: WebhookSettings;
  /** This instance, as it signs its leases. */
  holder: string;
  present: PresentChange;
  /** performance.now() after which no new batch starts. */
  deadline: number;
  lookup?: LookupFunction;
}

export interface StreamOutcome {
  delivered: number;
  failed: boolean;
}

/** The delivery's `webhook-id`: the same for every attempt at one change, so receivers can deduplicate. */
export const deliveryId = (webhookId: string, calendarId: string, change: Pick<ChangeRecord, "shard" | "seq">) =>
  `${webhookId}_${calendarId}_${change.shard}_${change.seq}`;

/** The head of this process's lease holders: on a store one process owns, another's lease is dead. */
export const THIS_PROCESS = `${hostname()}-${process.pid}-${randomBytes(4).toString("hex")}-`;

const leaseFree = (stream: WebhookStreamRecord, holder: string, now: Date, singleProcess: boolean): boolean =>
  !stream.lease_holder ||
  stream.lease_holder === holder ||
  !stream.lease_expires_at ||
  Date.parse(stream.lease_expires_at) <= now.getTime() ||
  // A process that died (SIGKILL, a crash) left it: the store's one owner now is this process.
  (singleProcess && !stream.lease_holder.startsWith(THIS_PROCESS));

export const isDue = (stream: WebhookStreamRecord, holder: string, now: Date, singleProcess = false): boolean =>
  Date.parse(stream.next_attempt_at) <= now.getTime() && leaseFree(stream, holder, now, singleProcess);

/** The stream, leased to this instance; null when it is gone, not due, or another instance holds it. */
async function takeLease(ctx: DeliveryContext, webhookId: string, calendarId: string) {
  const { store, clock } = ctx.deps;
  return store.runTransaction(async (tx) => {
    const doc = await tx.get(paths.webhookStream(webhookId, calendarId));
    const now = clock();
    if (!doc || !isDue(doc.data, ctx.holder, now, Boolean(store.singleProcess))) return null;
    const lease = {
      lease_holder: ctx.holder,
      lease_expires_at: new Date(now.getTime() + ctx.settings.leaseMs).toISOString(),
    };
    tx.update(doc.path, lease);
    return { ...doc.data, ...lease };
  });
}

interface Progress {
  positions: number[];
  attempts: DeliveryAttempt[];
  failures: number;
  failing_since: string | null;
  failed: boolean;
  /** Keep the lease for another batch. */
  more: boolean;
}

/**
 * Stores a batch's outcome if this instance still holds the lease: the positions, the attempts,
 * the retry time after a failure, and the webhook disabled when it has failed too long.
 * False when the lease was lost (taken over after expiry, or the webhook deleted).
 */
async function commit(ctx: DeliveryContext, hook: WebhookRecord, calendarId: string, p: Progress): Promise<boolean> {
  const { store, clock } = ctx.deps;
  return store.runTransaction(async (tx) => {
    const [doc, hookDoc] = await Promise.all([
      tx.get(paths.webhookStream(hook.id, calendarId)),
      tx.get(paths.webhook(hook.id)),
    ]);
    if (!doc || !hookDoc || doc.data.lease_holder !== ctx.holder) return false;
    const now = clock();
    const retryAt = p.failed ? now.getTime() + retryDelayMs(ctx.settings, p.failures) : now.getTime();
    const update: Partial<WebhookStreamRecord> = {
      positions: p.positions,
      attempts: [...doc.data.attempts, ...p.attempts].slice(-KEPT_ATTEMPTS),
      failures: p.failures,
      failing_since: p.failing_since,
      next_attempt_at: new Date(retryAt).toISOString(),
      lease_holder: p.more ? ctx.holder : null,
      lease_expires_at: p.more ? new Date(now.getTime() + ctx.settings.leaseMs).toISOString() : null,
    };
    tx.update(doc.path, update);
    const failingFor = p.failing_since ? now.getTime() - Date.parse(p.failing_since) : 0;
    const tooLong = p.failed && failingFor >= ctx.settings.disableAfterMs;
    const tooMany = p.failed && p.failures >= ctx.settings.disableAfterFailures;
    if ((tooLong || tooMany) && hookDoc.data.enabled) {
      const reason = tooMany
        ? `${p.failures} consecutive deliveries to calendar ${calendarId} failed`
        : `deliveries to calendar ${calendarId} failed for more than ${Math.round(ctx.settings.disableAfterMs / 3_600_000)} hours`;
      tx.update(hookDoc.path, {
        enabled: false,
        disabled_reason: `${reason}; fix the receiver, then PATCH enabled: true`,
        updated_at: now.toISOString(),
      });
      ctx.deps.log(`webhook ${hook.id} disabled: ${reason}`, { severity: "WARNING", webhook_id: hook.id });
    }
    return true;
  });
}

/** Delivers what is due on one stream, batch after batch, until it is caught up, fails, or the pass ends. */
export async function deliverStream(
  ctx: DeliveryContext,
  hook: WebhookRecord,
  calendarId: string,
): Promise<StreamOutcome> {
  const outcome: StreamOutcome = { delivered: 0, failed: false };
  const leased = await takeLease(ctx, hook.id, calendarId);
  if (!leased) return outcome;
  let stream: WebhookStreamRecord = leased;
  const { store, clock } = ctx.deps;
  for (;;) {
    const page = await store.runReadOnly((reads) =>
      readStreamPage(reads, hook.agent_id, calendarId, stream.positions, ctx.settings.batch, clock()),
    );
    const p: Progress = {
      positions: [...stream.positions],
      attempts: [],
      failures: stream.failures,
      failing_since: stream.failing_since,
      failed: false,
      more: false,
    };
    const fail = (attempt: Omit<DeliveryAttempt, "attempt" | "at">) => {
      const now = clock();
      p.failures += 1;
      p.failing_since ??= now.toISOString();
      p.failed = true;
      p.attempts.push({ ...attempt, attempt: p.failures, at: now.toISOString() });
    };
    if (!page.allowed) {
      fail({
        change_id: `${hook.id}_${calendarId}`,
        type: "access",
        calendar_id: calendarId,
        status: null,
        latency_ms: 0,
        error: "no longer allowed: the webhook's agent may not read this calendar; nothing was delivered",
      });
    } else if (page.expired) {
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
    } else {
      await deliverBatch(ctx, hook, calendarId, page.changes, p, outcome);
    }
    const behind = page.counters.some((c, n) => c > (p.positions[n] ?? 0));
    p.more = !p.failed && page.allowed && behind && performance.now() < ctx.deadline;
    if (!(await commit(ctx, hook, calendarId, p))) return outcome;
    if (p.failed) outcome.failed = true;
    if (!p.more) return outcome;
    stream = { ...stream, positions: p.positions, failures: p.failures, failing_since: p.failing_since, attempts: [] };
  }
}

async function deliverBatch(
  ctx: DeliveryContext,
  hook: WebhookRecord,
  calendarId: string,
  changes: Array<{ seq: number; change: ChangeRecord }>,
  p: Progress,
  outcome: StreamOutcome,
): Promise<void> {
  const { clock } = ctx.deps;
  const types = new Set<string>(hook.types);
  for (const { seq, change } of changes) {
    if (!types.has(change.type)) {
      p.positions[change.shard] = change.seq;
      continue;
    }
    const id = deliveryId(hook.id, calendarId, change);
    const body = JSON.stringify({
      type: change.type,
      calendar_id: calendarId,
      data: ctx.present(seq, change),
      at: change.at,
    });
    const sentAt = clock();
    const sent = await postJson(hook.url, deliveryHeaders(signingSecrets(hook, sentAt), id, sentAt, body), body, {
      allowLoopback: ctx.settings.allowLoopback,
      timeoutMs: ctx.settings.timeoutMs,
      lookup: ctx.lookup,
    });
    const attempt = {
      change_id: id,
      type: change.type,
      calendar_id: calendarId,
      status: sent.status,
      latency_ms: sent.latencyMs,
      error: sent.error,
    };
    if (!sent.ok) {
      p.failures += 1;
      p.failing_since ??= sentAt.toISOString();
      p.failed = true;
      p.attempts.push({ ...attempt, attempt: p.failures, at: sentAt.toISOString() });
      return;
    }
    p.attempts.push({ ...attempt, attempt: p.failures + 1, at: sentAt.toISOString() });
    p.positions[change.shard] = change.seq;
    p.failures = 0;
    p.failing_since = null;
    outcome.delivered += 1;
  }
}
