/**
 * One stream's state (one webhook, one calendar), read and written in the transactions the jobs
 * layer opens (jobs/webhooks/deliver.ts): taking its lease, and storing how far a batch got.
 * A change is delivered at least once: the positions move only after its 2xx (or when the
 * webhook's `types` leave it out), so a crash between a write and its delivery, or in the middle
 * of a batch, only delays or repeats it.
 */
import type { Transaction } from "../../storage/port.js";
import type { Deps } from "../deps.js";
import { paths } from "../paths.js";
import type { ChangeRecord } from "../records.js";
import type {
  AccessLoss,
  DeliveryAttempt,
  DeliveryQueueRecord,
  WebhookRecord,
  WebhookStreamRecord,
} from "./records.js";
import { retryDelayMs, type WebhookSettings } from "./settings.js";

/** The last attempts a stream keeps (GET .../deliveries answers the newest 100 of all streams). */
export const KEPT_ATTEMPTS = 100;

/** What the delivery body's `data` is: the change as GET .../changes presents it (given by the caller). */
export type PresentChange = (seq: number, change: ChangeRecord) => unknown;

/** The delivery's `webhook-id`: the same for every attempt at one change, so receivers can deduplicate. */
export const deliveryId = (webhookId: string, calendarId: string, change: Pick<ChangeRecord, "shard" | "seq">) =>
  `${webhookId}_${calendarId}_${change.shard}_${change.seq}`;

/** The receiver a URL names, as delivery caps count them: its host and port. */
export const receiverOf = (url: string): string => {
  const target = new URL(url);
  return `${target.hostname.toLowerCase()}:${target.port || (target.protocol === "https:" ? "443" : "80")}`;
};

/** Who delivers, as it signs its leases: `process` names the process, so a dead one's lease can be judged. */
export interface Holder {
  id: string;
  /** On a store one process owns, a lease of any other process belongs to one that died. */
  process: string;
}

const leaseFree = (stream: WebhookStreamRecord, holder: Holder, now: Date, singleProcess: boolean): boolean =>
  !stream.lease_holder ||
  stream.lease_holder === holder.id ||
  !stream.lease_expires_at ||
  Date.parse(stream.lease_expires_at) <= now.getTime() ||
  (singleProcess && !stream.lease_holder.startsWith(holder.process));

/** The queue entry of a stream at `dueAt`, woken (by a fan-out) at `wokenAt`. */
export const queueEntry = (hook: WebhookRecord, calendarId: string, dueAt: string, wokenAt: string) =>
  ({
    webhook_id: hook.id,
    calendar_id: calendarId,
    agent_id: hook.agent_id,
    receiver: receiverOf(hook.url),
    due_at: dueAt,
    woken_at: wokenAt,
  }) satisfies DeliveryQueueRecord;

export type Leased = { hook: WebhookRecord; stream: WebhookStreamRecord } | null;

/**
 * The stream, leased to `holder`; null when there is nothing to deliver now: the stream or its
 * webhook is gone or disabled (its queue entry is removed), its retry is not due (its queue
 * entry waits for it), or another instance holds it.
 */
export async function takeLease(
  tx: Transaction,
  deps: Pick<Deps, "clock">,
  settings: Pick<WebhookSettings, "leaseMs">,
  holder: Holder,
  singleProcess: boolean,
  entry: Pick<DeliveryQueueRecord, "webhook_id" | "calendar_id" | "woken_at">,
): Promise<Leased> {
  const { webhook_id: webhookId, calendar_id: calendarId } = entry;
  const [stream, hook] = await Promise.all([
    tx.get(paths.webhookStream(webhookId, calendarId)),
    tx.get(paths.webhook(webhookId)),
  ]);
  const now = deps.clock();
  if (!stream || !hook || !hook.data.enabled) {
    tx.delete(paths.deliveryQueueEntry(webhookId, calendarId));
    return null;
  }
  if (Date.parse(stream.data.next_attempt_at) > now.getTime()) {
    tx.set(
      paths.deliveryQueueEntry(webhookId, calendarId),
      queueEntry(hook.data, calendarId, stream.data.next_attempt_at, entry.woken_at),
    );
    return null;
  }
  if (!leaseFree(stream.data, holder, now, singleProcess)) return null;
  const lease = {
    lease_holder: holder.id,
    lease_expires_at: new Date(now.getTime() + settings.leaseMs).toISOString(),
  };
  tx.update(stream.path, lease);
  return { hook: hook.data, stream: { ...stream.data, ...lease } };
}

/** Where a batch left its stream. */
export interface Progress {
  positions: number[];
  attempts: DeliveryAttempt[];
  failures: number;
  failing_since: string | null;
  failed: boolean;
  /** The agent may no longer read the calendar: the stream ends quietly, counting no failure. */
  lost: AccessLoss | null;
  /** Caught up with the counters the batch read. */
  caughtUp: boolean;
  /** Keep the lease for another batch. */
  more: boolean;
}

/**
 * Stores a batch's outcome if `holder` still holds the lease: the positions, the attempts, the
 * retry time after a failure, the queue entry (due again, at the retry, or removed when caught up
 * and not woken since `wokenAt`), and the webhook disabled when it has failed too long. A stream
 * that lost access is noted on its webhook and leaves the queue; it never counts as failing.
 * False when the lease was lost (taken over after expiry, or the webhook deleted).
 */
export async function commitProgress(
  tx: Transaction,
  deps: Pick<Deps, "clock" | "log">,
  settings: WebhookSettings,
  holder: Holder,
  hookId: string,
  calendarId: string,
  wokenAt: string,
  p: Progress,
): Promise<boolean> {
  const [doc, hookDoc, queued] = await Promise.all([
    tx.get(paths.webhookStream(hookId, calendarId)),
    tx.get(paths.webhook(hookId)),
    tx.get(paths.deliveryQueueEntry(hookId, calendarId)),
  ]);
  if (!doc || !hookDoc || doc.data.lease_holder !== holder.id) return false;
  const hook = hookDoc.data;
  const now = deps.clock();
  const retryAt = p.failed ? now.getTime() + retryDelayMs(settings, p.failures) : now.getTime();
  tx.update(doc.path, {
    positions: p.positions,
    attempts: [...doc.data.attempts, ...p.attempts].slice(-KEPT_ATTEMPTS),
    failures: p.failures,
    failing_since: p.failing_since,
    next_attempt_at: new Date(retryAt).toISOString(),
    lease_holder: p.more ? holder.id : null,
    lease_expires_at: p.more ? new Date(now.getTime() + settings.leaseMs).toISOString() : null,
  });
  const queueRef = paths.deliveryQueueEntry(hookId, calendarId);
  const wokenSince = queued !== null && queued.data.woken_at !== wokenAt;
  if (p.failed) tx.set(queueRef, queueEntry(hook, calendarId, new Date(retryAt).toISOString(), wokenAt));
  else if ((p.caughtUp || p.lost) && !wokenSince) {
    if (queued) tx.delete(queueRef);
  } else tx.set(queueRef, queueEntry(hook, calendarId, now.toISOString(), queued?.data.woken_at ?? wokenAt));

  const lost = hook.lost_access ?? [];
  const wasLost = lost.some((l) => l.calendar_id === calendarId);
  if (p.lost && !wasLost) {
    const entry = { calendar_id: calendarId, reason: p.lost, since: now.toISOString() };
    tx.update(hookDoc.path, { lost_access: [...lost, entry] });
  } else if (!p.lost && wasLost) {
    tx.update(hookDoc.path, { lost_access: lost.filter((l) => l.calendar_id !== calendarId) });
  }
  const failingFor = p.failing_since ? now.getTime() - Date.parse(p.failing_since) : 0;
  const tooLong = p.failed && failingFor >= settings.disableAfterMs;
  const tooMany = p.failed && p.failures >= settings.disableAfterFailures;
  if ((tooLong || tooMany) && hook.enabled) {
    const reason = tooMany
      ? `${p.failures} consecutive deliveries to calendar ${calendarId} failed`
      : `deliveries to calendar ${calendarId} failed for more than ${Math.round(settings.disableAfterMs / 3_600_000)} hours`;
    tx.update(hookDoc.path, {
      enabled: false,
      disabled_reason: `${reason}; fix the receiver, then PATCH enabled: true`,
      updated_at: now.toISOString(),
    });
    deps.log(`webhook ${hook.id} disabled: ${reason}`, { severity: "WARNING", webhook_id: hook.id });
  }
  return true;
}
