/**
 * A tick's settling of one due entry (docs/decisions/alarms.md), in the transaction the alarms
 * job opens for it (jobs/alarms.ts, which finds the entries lane by lane: lanes.ts).
 *
 * Settling an entry reads its alarm shard (queue.ts, `readAlarmShard`) and the entry, and
 * records the entry's due alarms as changes at the shard's next numbers. Both stores serialize
 * these transactions: a settling that another commits ahead of is run again, finds the entry
 * moved on, and writes nothing, so each alarm is recorded once.
 */
import type { Transaction } from "../../storage/port.js";
import type { Deps } from "../deps.js";
import { paths } from "../paths.js";
import type { AlarmQueueRecord } from "../records.js";
import { touchShard } from "../revision.js";
import { dueAlarms, nextEntry, readAlarmEntry, readAlarmShard, recordAlarms, writeEntry } from "./queue.js";

/** What a settling did: how many alarms fired, and where the entry stands after it. */
export interface Settled {
  fired: number;
  /** The entry's instant as it wrote it, or as it found it when it had nothing to settle; null when there is none. */
  next: string | null;
}

/**
 * The entry a settling takes: as a query saw it (its `due_at` too), or named by its lane's head
 * (its event only, settled when due).
 */
export type EntrySeen = Pick<AlarmQueueRecord, "calendar_id" | "event_id"> & { due_at?: string };

/**
 * One entry (`seen`): its alarms due by `now` recorded, its next one stored. Nothing when the
 * entry has gone or moved since the query saw it, or is not due: another tick, or a write of the
 * event, has settled it.
 */
export async function settleDueEntry(
  tx: Transaction,
  deps: Pick<Deps, "clock" | "config">,
  seen: EntrySeen,
  now: Date,
): Promise<Settled> {
  const { calendar_id: calendarId, event_id: eventId } = seen;
  const shard = await readAlarmShard(tx, deps, calendarId, eventId);
  const entry = await readAlarmEntry(tx, calendarId, eventId);
  if (!entry) return { fired: 0, next: null };
  const moved = seen.due_at !== undefined && entry.data.due_at !== seen.due_at;
  if (moved || Date.parse(entry.data.due_at) > now.getTime()) return { fired: 0, next: entry.data.due_at };
  const [event, calendar, exceptions] = await Promise.all([
    tx.get(paths.event(calendarId, eventId)),
    tx.get(paths.calendar(calendarId)),
    tx.query(paths.exceptions(calendarId), { where: [["event_id", "==", eventId]] }),
  ]);
  const source =
    event && calendar
      ? { calendar: calendar.data, event: event.data, exceptions: exceptions.map((e) => e.data) }
      : null;
  const alarms = dueAlarms(entry, source, now.getTime());
  recordAlarms(tx, deps, calendarId, shard, alarms);
  // Later than now, in the lane the entry was found in: its head needs no change here.
  const next = nextEntry(calendarId, eventId, entry, source, now);
  writeEntry(tx, shard, entry, next);
  if (alarms.length > 0 || shard.alarmDelta) touchShard(tx, shard);
  return { fired: alarms.length, next: next?.due_at ?? null };
}
