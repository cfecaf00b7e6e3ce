/**
 * A tick's settling of one due entry (docs/decisions/alarms.md), in the transaction the alarms
 * job opens for it (jobs/alarms.ts, which finds the entries lane by lane: lanes.ts).
 *
 * Settling an entry reads its alarm shard (queue.ts, `readAlarmShard`) before the entry, and
 * its first write is the first alarm change, created at the shard's next number. So even on a
 * store that does not serialize transactions and keeps a failed commit's earlier writes (the
 * tests' Firestore stand-in, test/storage/firestore-stand-in.test.ts), a settling that another
 * commits ahead of, after its shard read, either finds the entry moved or fails that first
 * create (DocumentExistsError, which the job counts as a conflict): it writes nothing, and each
 * alarm is recorded once.
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

/**
 * One entry as a query saw it (`seen`): its alarms due by `now` recorded, its next one stored;
 * answers how many fired. Nothing when the entry has gone or moved since the query: another
 * tick, or a write of the event, has settled it.
 */
export async function settleDueEntry(
  tx: Transaction,
  deps: Pick<Deps, "clock" | "config">,
  seen: AlarmEntry,
  now: Date,
): Promise<number> {
  const { calendar_id: calendarId, event_id: eventId } = seen.data;
  // The shard first, the entry after it (see the top of this file).
  const shard = await readAlarmShard(tx, deps, calendarId, eventId);
  const entry = await readAlarmEntry(tx, calendarId, eventId);
  if (!entry || entry.data.due_at !== seen.data.due_at) return 0;
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
  writeEntry(tx, shard, entry, nextEntry(calendarId, eventId, entry, source, now));
  if (alarms.length > 0 || shard.alarmDelta) touchShard(tx, shard);
  return alarms.length;
}
