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
import { touchShard } from "../revision.js";
import {
  dueAlarms,
  nextEntry,
  readAlarmEntry,
  readAlarmShard,
  recordAlarms,
  writeEntry,
  type AlarmEntry,
} from "./queue.js";

/** What a settling did: how many alarms fired, and the entry's next instant as it wrote it. */
export interface Settled {
  fired: number;
  /** Null when it removed the entry; absent when it found the entry gone or moved and wrote nothing. */
  next?: string | null;
}

/**
 * One entry as a query saw it (`seen`): its alarms due by `now` recorded, its next one stored.
 * Nothing when the entry has gone or moved since the query: another tick, or a write of the
 * event, has settled it.
 */
export async function settleDueEntry(
  tx: Transaction,
  deps: Pick<Deps, "clock" | "config">,
  seen: AlarmEntry,
  now: Date,
): Promise<Settled> {
  const { calendar_id: calendarId, event_id: eventId } = seen.data;
  const shard = await readAlarmShard(tx, deps, calendarId, eventId);
  const entry = await readAlarmEntry(tx, calendarId, eventId);
  if (!entry || entry.data.due_at !== seen.data.due_at) return { fired: 0 };
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
