/**
 * A calendar's timezone moves every event's alarm instants, yet writes no event, so the queue's
 * `due_at`s (computed in the old zone) are stale: an alarm moved earlier would fire late, at its
 * old instant. The calendar PATCH queues `alarm_requeues/{id}`; the alarms job (jobs/alarms.ts)
 * makes each of the calendar's queue entries due now, a batch per transaction, so the tick that
 * follows settles it in the new zone: what fell due in the meantime is recorded at once, the rest
 * is queued at its new instant. Bounded: one batch of entries per transaction, in `event_id`
 * order from where the last batch stopped.
 */
import type { StoredDoc, Transaction, TransactionReads } from "../../storage/port.js";
import { paths } from "../paths.js";
import type { AlarmRequeueRecord } from "../records.js";
import { ALARM_LANES, keepTenantAhead, tenantOf } from "./lanes.js";
import type { AlarmEntry } from "./queue.js";

export const REQUEUE_BATCH = 200;

export type AlarmRequeue = StoredDoc<AlarmRequeueRecord>;

/** The oldest requeue and its next batch of entries, or null when none is queued. */
export async function nextRequeueBatch(
  reads: TransactionReads,
): Promise<{ requeue: AlarmRequeue; entries: AlarmEntry[] } | null> {
  const [requeue] = await reads.query(paths.alarmRequeues(), { orderBy: [["requested_at", "asc"]], limit: 1 });
  if (!requeue) return null;
  const { calendar_id: calendarId, after_event_id: after } = requeue.data;
  const entries = await reads.query(paths.alarmQueue(), {
    where: [["calendar_id", "==", calendarId]],
    orderBy: [["event_id", "asc"]],
    ...(after ? { startAfter: after } : {}),
    limit: REQUEUE_BATCH,
  });
  return { requeue, entries };
}

/**
 * Makes the batch's entries due at `nowIso` and brings their lanes' heads and their tenant there,
 * and moves the requeue on (or ends it after a short batch); answers how many entries moved.
 */
export async function requeueBatch(
  tx: Transaction,
  batch: { requeue: AlarmRequeue; entries: AlarmEntry[] },
  nowIso: string,
): Promise<number> {
  const { requeue, entries } = batch;
  const calendarId = requeue.data.calendar_id;
  const headRefs = Array.from({ length: ALARM_LANES }, (_, lane) => paths.alarmHead(calendarId, lane));
  const [current, stored, heads, calendar] = await Promise.all([
    tx.get(requeue.path),
    tx.getAll(entries.map((entry) => entry.path)),
    tx.getAll(headRefs),
    tx.get(paths.calendar(calendarId)),
  ]);
  const tenant = calendar ? tenantOf(calendar.data) : null;
  const tenantHead = tenant ? await tx.get(paths.alarmTenant(tenant)) : null;
  // Another change of zone since the query starts it over; it is read again next time.
  if (current?.data.requested_at !== requeue.data.requested_at) return 0;
  const moved = stored.filter((entry) => entry !== null).filter((entry) => entry.data.due_at > nowIso);
  const lanes = new Set<number>();
  for (const entry of moved) {
    tx.update(entry.path, { due_at: nowIso });
    // An entry from before lanes has no head yet: the backfill gives it one (backfill.ts).
    if (entry.data.lane !== undefined) lanes.add(entry.data.lane);
  }
  // Written even when already due, so a tick moving one on meets this write (lanes.ts).
  if (tenant && lanes.size > 0) {
    for (const lane of lanes) {
      const head = heads[lane];
      const dueAt = head && head.data.due_at < nowIso ? head.data.due_at : nowIso;
      tx.set(headRefs[lane], { calendar_id: calendarId, lane, tenant: head?.data.tenant ?? tenant, due_at: dueAt });
    }
    keepTenantAhead(tx, tenantHead, tenant, nowIso, nowIso);
  }
  if (entries.length < REQUEUE_BATCH) tx.delete(requeue.path);
  else tx.update(requeue.path, { after_event_id: entries[entries.length - 1].data.event_id });
  return moved.length;
}
