/**
 * The fan-out: every write that records a change sets its calendar shard's outbox entry
 * (domain/commands/changes.ts); a pass takes the entries due, wakes the queue entry of every
 * stream that follows the calendar, and removes the outbox entry unless a write set it again
 * meanwhile. So a pass reads what was written since the last one, never every stream.
 */
import { paths } from "../../domain/paths.js";
import type { WebhookRecord } from "../../domain/webhooks/records.js";
import { queueEntry } from "../../domain/webhooks/stream.js";
import { timeLeft, type Budget, type JobDeps } from "../pass.js";

/** Outbox entries one pass takes. */
const OUTBOX_BATCH = 50;
/** Streams woken in one transaction (Firestore takes at most 500 writes in one). */
const WAKE_BATCH = 200;

/** Wakes the followers of what was written; answers how many streams it woke, and whether entries were left. */
export async function fanOut(deps: JobDeps, budget: Budget): Promise<{ woken: number; more: boolean }> {
  const { store, clock } = deps;
  const due = await store.query(paths.webhookOutbox(), {
    where: [["due_at", "<=", clock().toISOString()]],
    orderBy: [["due_at", "asc"]],
    limit: OUTBOX_BATCH,
  });
  let woken = 0;
  const hooks = new Map<string, WebhookRecord | null>();
  for (const [i, outbox] of due.entries()) {
    if (timeLeft(budget) === 0) return { woken, more: true };
    const calendarId = outbox.data.calendar_id;
    let after: string | undefined;
    for (;;) {
      const streams = await store.query(paths.calendarWebhookStreams(calendarId), {
        orderBy: [["webhook_id", "asc"]],
        ...(after === undefined ? {} : { startAfter: after }),
        limit: WAKE_BATCH,
      });
      const unknown = [...new Set(streams.map((s) => s.data.webhook_id))].filter((id) => !hooks.has(id));
      const read = await store.getAll(unknown.map((id) => paths.webhook(id)));
      unknown.forEach((id, n) => hooks.set(id, read[n]?.data ?? null));
      const now = clock().toISOString();
      const wake = streams.flatMap(({ data: stream }) => {
        const hook = hooks.get(stream.webhook_id);
        if (!hook?.enabled) return [];
        const dueAt = stream.next_attempt_at > now ? stream.next_attempt_at : now;
        return [queueEntry(hook, calendarId, dueAt, now)];
      });
      if (wake.length > 0)
        await store.runTransaction(async (tx) => {
          for (const entry of wake) tx.set(paths.deliveryQueueEntry(entry.webhook_id, calendarId), entry);
        });
      woken += wake.length;
      if (streams.length < WAKE_BATCH) break;
      after = streams[streams.length - 1].data.webhook_id;
    }
    await store.runTransaction(async (tx) => {
      const current = await tx.get(outbox.path);
      if (current?.data.due_at === outbox.data.due_at) tx.delete(outbox.path);
    });
    if (i === due.length - 1 && due.length === OUTBOX_BATCH) return { woken, more: true };
  }
  return { woken, more: false };
}
