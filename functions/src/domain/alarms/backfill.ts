/**
 * Entries queued before lanes existed have no lane, so no head finds them: one pass over the
 * queue, in `event_id` order a batch per transaction (the alarms job opens them,
 * jobs/alarms.ts), gives each its lane, brings that lane's head (and its tenant) to it, and counts it in its
 * calendar's events with alarms (quota.ts) on the calendar's first shard. `alarm_backfills/lanes`
 * keeps how far the pass has come; once it reaches the end it is done for good, since every
 * entry written since has a lane.
 */
import type { StoredDoc, Transaction, TransactionReads } from "../../storage/port.js";
import { paths } from "../paths.js";
import { keepTenantAhead, laneOf, tenantOf } from "./lanes.js";
import type { AlarmEntry } from "./queue.js";
import type { AlarmBackfillRecord } from "./records.js";

export const BACKFILL_BATCH = 100;

export type AlarmBackfill = StoredDoc<AlarmBackfillRecord> | null;

/** Where the pass stands, and its next batch; null when it is done. */
export async function nextBackfillBatch(
  reads: TransactionReads,
): Promise<{ state: AlarmBackfill; entries: AlarmEntry[] } | null> {
  const state = await reads.get(paths.alarmBackfill());
  if (state?.data.done_at) return null;
  const after = state?.data.after_event_id ?? null;
  const entries = await reads.query(paths.alarmQueue(), {
    orderBy: [["event_id", "asc"]],
    ...(after ? { startAfter: after } : {}),
    limit: BACKFILL_BATCH,
  });
  return { state, entries };
}

/** Gives the batch's entries without a lane theirs and moves the pass on; answers how many it gave one. */
export async function backfillBatch(
  tx: Transaction,
  batch: { state: AlarmBackfill; entries: AlarmEntry[] },
  nowIso: string,
): Promise<number> {
  // An entry the query saw with a lane keeps it: only the others are read again.
  const [current, stored] = await Promise.all([
    tx.get(paths.alarmBackfill()),
    tx.getAll(batch.entries.filter((entry) => entry.data.lane === undefined).map((entry) => entry.path)),
  ]);
  // Another process moved the pass on since this batch was read: it is read again next time.
  if ((current?.data.after_event_id ?? null) !== (batch.state?.data.after_event_id ?? null) || current?.data.done_at)
    return 0;
  const legacy = stored.filter((entry) => entry !== null).filter((entry) => entry.data.lane === undefined);
  // The earliest entry of each (calendar, lane), and how many each calendar gains.
  const earliest = new Map<string, { calendarId: string; lane: number; dueAt: string }>();
  const gained = new Map<string, number>();
  for (const entry of legacy) {
    const { calendar_id: calendarId, event_id: eventId, due_at: dueAt } = entry.data;
    const lane = laneOf(eventId);
    const key = `${calendarId}/${lane}`;
    const seen = earliest.get(key);
    if (!seen || dueAt < seen.dueAt) earliest.set(key, { calendarId, lane, dueAt });
    gained.set(calendarId, (gained.get(calendarId) ?? 0) + 1);
  }
  const lanes = [...earliest.values()];
  const calendarIds = [...gained.keys()];
  const [heads, shards, calendars] = await Promise.all([
    tx.getAll(lanes.map((l) => paths.alarmHead(l.calendarId, l.lane))),
    tx.getAll(calendarIds.map((calendarId) => paths.shard(calendarId, 0))),
    tx.getAll(calendarIds.map((calendarId) => paths.calendar(calendarId))),
  ]);
  // A deleted calendar's entries go with its purge: they get no head.
  const tenants = new Map<string, string>();
  calendars.forEach((calendar) => calendar && tenants.set(calendar.id, tenantOf(calendar.data)));
  const tenantIds = [...new Set(tenants.values())];
  const tenantHeads = await tx.getAll(tenantIds.map((tenant) => paths.alarmTenant(tenant)));
  for (const entry of legacy) tx.update(entry.path, { lane: laneOf(entry.data.event_id) });
  const tenantDue = new Map<string, string>();
  lanes.forEach(({ calendarId, lane, dueAt }, i) => {
    const tenant = heads[i]?.data.tenant ?? tenants.get(calendarId);
    if (tenant === undefined) return;
    const current = heads[i]?.data.due_at;
    tx.set(paths.alarmHead(calendarId, lane), {
      calendar_id: calendarId,
      lane,
      tenant,
      due_at: current !== undefined && current < dueAt ? current : dueAt,
    });
    const seen = tenantDue.get(tenant);
    if (seen === undefined || dueAt < seen) tenantDue.set(tenant, dueAt);
  });
  tenantIds.forEach((tenant, i) => {
    const dueAt = tenantDue.get(tenant);
    if (dueAt !== undefined) keepTenantAhead(tx, tenantHeads[i], tenant, dueAt, nowIso);
  });
  // A calendar from before shards has no first shard: its entries stay uncounted.
  calendarIds.forEach((calendarId, i) => {
    const shard = shards[i];
    const count = (shard?.data.alarm_event_count ?? 0) + (gained.get(calendarId) ?? 0);
    if (shard) tx.update(shard.path, { alarm_event_count: count });
  });
  const last = batch.entries[batch.entries.length - 1];
  const done = batch.entries.length < BACKFILL_BATCH;
  tx.set(paths.alarmBackfill(), {
    after_event_id: last ? last.data.event_id : (batch.state?.data.after_event_id ?? null),
    done_at: done ? nowIso : null,
  });
  return legacy.length;
}
