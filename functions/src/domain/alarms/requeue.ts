/**
 * A calendar's timezone moves every event's alarm instants, yet writes no event, so the queue's
 * `due_at`s (computed in the old zone) are stale: an alarm moved earlier would fire late, at its
 * old instant. The calendar PATCH queues `alarm_requeues/{id}`; here each of the calendar's
 * queue entries is made due now, so the tick that follows settles it in the new zone: what fell
 * due in the meantime is recorded at once, the rest is queued at its new instant. Bounded: one
 * batch of entries per call, in `event_id` order from where the last batch stopped.
 */
import type { Deps } from "../deps.js";
import { paths } from "../paths.js";

export const REQUEUE_BATCH = 200;

/** One batch of the oldest requeue; how many entries it made due, and whether requeues are left. */
export async function requeueMovedAlarms(
  deps: Pick<Deps, "store">,
  now: Date,
): Promise<{ requeued: number; more: boolean }> {
  const [job] = await deps.store.query(paths.alarmRequeues(), { orderBy: [["requested_at", "asc"]], limit: 1 });
  if (!job) return { requeued: 0, more: false };
  const { calendar_id: calendarId, after_event_id: after } = job.data;
  const entries = await deps.store.query(paths.alarmQueue(), {
    where: [["calendar_id", "==", calendarId]],
    orderBy: [["event_id", "asc"]],
    ...(after ? { startAfter: after } : {}),
    limit: REQUEUE_BATCH,
  });
  const nowIso = now.toISOString();
  const requeued = await deps.store.runTransaction(async (tx) => {
    const [current, stored] = await Promise.all([tx.get(job.path), tx.getAll(entries.map((entry) => entry.path))]);
    // Another change of zone since the query starts it over; it is read again next time.
    if (current?.data.requested_at !== job.data.requested_at) return 0;
    const moved = stored.filter((entry) => entry !== null).filter((entry) => entry.data.due_at > nowIso);
    for (const entry of moved) tx.update(entry.path, { due_at: nowIso });
    if (entries.length < REQUEUE_BATCH) tx.delete(job.path);
    else tx.update(job.path, { after_event_id: entries[entries.length - 1].data.event_id });
    return moved.length;
  });
  return { requeued, more: true };
}
