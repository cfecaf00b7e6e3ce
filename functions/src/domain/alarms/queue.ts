/**
 * The alarm queue (docs/decisions/alarms.md): `alarm_queue/{calendarId}-{eventId}` holds the
 * next instant one of the event's alarms falls due and `fired_through`, the instant up to which
 * its alarms are settled. Every write of an event or of one of its occurrences settles it in
 * its own transaction, and so does a tick when the entry comes due.
 *
 * Exactly once: between `fired_through` and the next settling nothing changed the event (every
 * change settles), so the alarms in that window are those of the state read, each existed at
 * its instant, and settling records them and moves `fired_through` to now in one transaction.
 * Two settlings of one entry meet on the entry document, so the store serializes them and the
 * second finds the window empty. An alarm added in the past lies before `fired_through`: it
 * never fires. A tick records an event's alarms on one shard of its own (`readAlarmShard`), which
 * keeps them once on a store that does not serialize transactions too (tick.ts).
 */
import type { StoredDoc, Transaction, TransactionReads } from "../../storage/port.js";
import { recordChange } from "../commands/changes.js";
import type { Deps } from "../deps.js";
import { sha256 } from "../ids.js";
import { paths } from "../paths.js";
import type { AlarmQueueRecord } from "../records.js";
import { CHANGE_RETENTION_MS } from "../retention.js";
import { readShard, SHARDS, type DrawnShard } from "../revision.js";
import { alarmsBetween, nextAlarmAfter, type Alarm, type AlarmSource } from "./schedule.js";

export type AlarmEntry = StoredDoc<AlarmQueueRecord>;

/** The event's queue entry, read with the rest of a transaction's reads. */
export const readAlarmEntry = (tx: Transaction, calendarId: string, eventId: string): Promise<AlarmEntry | null> =>
  tx.get(paths.alarmQueueEntry(calendarId, eventId));

/**
 * The alarms that fell due in (fired_through, now] as `source` has them. A window longer than
 * the feed keeps changes (an instance down for days) starts at the retention: older alarms
 * would be purged at once.
 */
export function dueAlarms(entry: AlarmEntry | null, source: AlarmSource | null, nowMs: number): Alarm[] {
  if (!entry || !source) return [];
  const after = Math.max(Date.parse(entry.data.fired_through), nowMs - CHANGE_RETENTION_MS);
  return alarmsBetween(source, after, nowMs);
}

/**
 * The shard a tick records the event's alarms on, read in its transaction: always the same
 * one for an event (a hash of its id), so two settlings of one entry draw the same change
 * numbers. The event's alarms still spread over the calendar's shards with its other events.
 */
export const readAlarmShard = (reads: TransactionReads, calendarId: string, eventId: string): Promise<DrawnShard> =>
  readShard(reads, calendarId, Number.parseInt(sha256(eventId).slice(0, 8), 16) % SHARDS);

/** A change id per (event, occurrence, offset): the same whichever instance records it. */
export const alarmChangeId = (a: Pick<Alarm, "event_id" | "original_date" | "minutes_before">): string =>
  `alm_${sha256(`${a.event_id}/${a.original_date}/${a.minutes_before}`).slice(0, 24)}`;

/** Records each alarm on the drawn shard (before touchShard). */
export function recordAlarms(
  tx: Transaction,
  deps: Pick<Deps, "clock">,
  calendarId: string,
  shard: DrawnShard,
  alarms: readonly Alarm[],
): void {
  for (const { at: _at, original_date: originalDate, ...alarm } of alarms) {
    recordChange(tx, deps, calendarId, shard, {
      type: "alarm",
      id: alarmChangeId({ ...alarm, original_date: originalDate }),
      original_date: originalDate,
      alarm,
    });
  }
}

/**
 * Stores the next alarm of `source` after now (or after `fired_through`, should this clock be
 * behind), or removes the entry when there is none (or no event).
 */
export function scheduleNext(
  tx: Transaction,
  calendarId: string,
  eventId: string,
  entry: AlarmEntry | null,
  source: AlarmSource | null,
  now: Date,
): void {
  // Never back: a writer whose clock is behind the last settling's must not open again a window
  // already settled (its alarms would be recorded twice).
  const through = Math.max(now.getTime(), entry ? Date.parse(entry.data.fired_through) : -Infinity);
  const next = source ? nextAlarmAfter(source, through) : null;
  const ref = paths.alarmQueueEntry(calendarId, eventId);
  if (next !== null) {
    const record: AlarmQueueRecord = {
      calendar_id: calendarId,
      event_id: eventId,
      due_at: new Date(next).toISOString(),
      fired_through: new Date(through).toISOString(),
    };
    tx.set(ref, record);
  } else if (entry) tx.delete(ref);
}

/**
 * For a command that writes an event or an occurrence, after its reads and before it records
 * its own change and touches the shard: the alarms due as the event stood (`before`) are
 * recorded, then the queue follows the event as written (`after`, null when deleted).
 */
export function settleEventAlarms(
  tx: Transaction,
  deps: Pick<Deps, "clock">,
  shard: DrawnShard,
  write: {
    calendarId: string;
    eventId: string;
    entry: AlarmEntry | null;
    before: AlarmSource | null;
    after: AlarmSource | null;
  },
): void {
  const now = deps.clock();
  recordAlarms(tx, deps, write.calendarId, shard, dueAlarms(write.entry, write.before, now.getTime()));
  scheduleNext(tx, write.calendarId, write.eventId, write.entry, write.after, now);
}
