/**
 * The alarm queue (docs/decisions/alarms.md): `alarm_queue/{calendarId}-{eventId}` holds the
 * next instant one of the event's alarms falls due and `fired_through`, the instant up to which
 * its alarms are settled. Every write of an event or of one of its occurrences settles it in
 * its own transaction, and so does a tick when the entry comes due (jobs/alarms.ts). An entry is
 * in one lane of its calendar, whose head (and its tenant's) the writes keep at or before it
 * (lanes.ts).
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
import type { AlarmQueueRecord, CalendarRecord } from "../records.js";
import { CHANGE_RETENTION_MS } from "../retention.js";
import { readShard, type DrawnShard } from "../revision.js";
import { leaseShard } from "../shard-leases.js";
import { keepAhead, keepAheadAll, laneOf, readHeads, tenantOf } from "./lanes.js";
import { takeAlarmPlace } from "./quota.js";
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
 * The shard a tick records the event's alarms on, one of the calendar's `revisionShards`, read
 * in its transaction: always the same one for an event (a hash of its id), so two settlings of
 * one entry draw the same change numbers. The event's alarms still spread over the calendar's
 * shards with its other events.
 */
export async function readAlarmShard(
  reads: TransactionReads,
  deps: Pick<Deps, "config">,
  calendarId: string,
  eventId: string,
): Promise<DrawnShard> {
  const shards = deps.config.revisionShards;
  const index = Number.parseInt(sha256(eventId).slice(0, 8), 16) % shards;
  // Settlings of one calendar at once (a tick's) wait here for each other's shard, not in the store.
  await leaseShard(reads, calendarId, shards, index);
  return readShard(reads, calendarId, index);
}

/**
 * A change id per alarm as it falls: (event, occurrence, offset) and the instant it is due at.
 * The same whichever instance records it, or should it be recorded twice; a new one when the
 * event moves and the alarm falls again at another instant.
 */
export const alarmChangeId = (a: Pick<Alarm, "event_id" | "original_date" | "minutes_before" | "due_at">): string =>
  `alm_${sha256(`${a.event_id}/${a.original_date}/${a.minutes_before}/${a.due_at}`).slice(0, 24)}`;

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
 * The entry as it follows `source`: its next alarm after now (or after `fired_through`, should
 * this clock be behind), or null when there is none (or no event).
 */
export function nextEntry(
  calendarId: string,
  eventId: string,
  entry: AlarmEntry | null,
  source: AlarmSource | null,
  now: Date,
): AlarmQueueRecord | null {
  // Never back: a writer whose clock is behind the last settling's must not open again a window
  // already settled (its alarms would be recorded twice).
  const through = Math.max(now.getTime(), entry ? Date.parse(entry.data.fired_through) : -Infinity);
  const next = source ? nextAlarmAfter(source, through) : null;
  if (next === null) return null;
  return {
    calendar_id: calendarId,
    event_id: eventId,
    due_at: new Date(next).toISOString(),
    fired_through: new Date(through).toISOString(),
    lane: laneOf(eventId),
  };
}

/** Whether an entry counts in its calendar's events with alarms: those with a lane (quota.ts). */
const counted = (entry: AlarmEntry | null): boolean => entry !== null && entry.data.lane !== undefined;

/**
 * Stores the entry as `next` (or removes it), and moves the calendar's count of events with an
 * alarm ahead on `shard` by what changed (touchShard writes it).
 */
export function writeEntry(
  tx: Transaction,
  shard: DrawnShard,
  entry: AlarmEntry | null,
  next: AlarmQueueRecord | null,
): void {
  if (next !== null) tx.set(paths.alarmQueueEntry(next.calendar_id, next.event_id), next);
  else if (entry) tx.delete(entry.path);
  const delta = (next !== null ? 1 : 0) - (counted(entry) ? 1 : 0);
  if (delta !== 0) shard.alarmDelta = (shard.alarmDelta ?? 0) + delta;
}

/**
 * For a command that writes an event or an occurrence, after its reads and before its first
 * write (it reads the lane's head, and the calendar's shards when it queues an event's first
 * alarm near the quota), then before it records its own change and touches the shard: the
 * alarms due as the event stood (`before`) are recorded, then the queue follows the event as
 * written (`after`, null when deleted), its lane's head kept at or before it. `alarmEvents`:
 * the calendar's count of events with alarms, when the command read it before its transaction.
 */
export async function settleEventAlarms(
  tx: Transaction,
  deps: Pick<Deps, "clock" | "config">,
  shard: DrawnShard,
  write: {
    calendarId: string;
    eventId: string;
    entry: AlarmEntry | null;
    before: AlarmSource | null;
    after: AlarmSource | null;
    alarmEvents?: number;
  },
): Promise<void> {
  const now = deps.clock();
  const { calendarId, eventId, entry, after } = write;
  const next = nextEntry(calendarId, eventId, entry, after, now);
  const tenant = after ? tenantOf(after.calendar) : null;
  const [heads] = await Promise.all([
    next && tenant ? readHeads(tx, next, tenant) : null,
    // A new entry takes a place; one from before lanes is counted without taking one.
    next && !entry ? takeAlarmPlace(tx, deps, calendarId, write.alarmEvents) : undefined,
  ]);
  recordAlarms(tx, deps, calendarId, shard, dueAlarms(entry, write.before, now.getTime()));
  writeEntry(tx, shard, entry, next);
  if (next && heads && tenant) keepAhead(tx, heads, next, tenant, now.toISOString());
}

/** One event's part in `settleManyEventAlarms`: its entry as read, and the event before and after the write. */
export interface EventAlarmWrite {
  eventId: string;
  entry: AlarmEntry | null;
  before: AlarmSource | null;
  after: AlarmSource | null;
}

/**
 * `settleEventAlarms` for many events of one calendar written by one transaction (an import's
 * batch): every read first (each lane's head once, the places all new entries take at once),
 * then the writes, each head and the tenant written once.
 */
export async function settleManyEventAlarms(
  tx: Transaction,
  deps: Pick<Deps, "clock" | "config">,
  shard: DrawnShard,
  calendar: CalendarRecord,
  writes: readonly EventAlarmWrite[],
  alarmEvents?: number,
): Promise<void> {
  const now = deps.clock();
  const tenant = tenantOf(calendar);
  const nexts = writes.map((w) => nextEntry(calendar.id, w.eventId, w.entry, w.after, now));
  const earliestByLane = new Map<number, AlarmQueueRecord>();
  for (const next of nexts) {
    const lane = next?.lane ?? null;
    if (next === null || lane === null) continue;
    const current = earliestByLane.get(lane);
    if (!current || next.due_at < current.due_at) earliestByLane.set(lane, next);
  }
  const earliest = [...earliestByLane.values()];
  const newPlaces = nexts.filter((next, i) => next !== null && writes[i].entry === null).length;
  const [heads] = await Promise.all([
    Promise.all(earliest.map((entry) => readHeads(tx, entry, tenant))),
    newPlaces > 0 ? takeAlarmPlace(tx, deps, calendar.id, alarmEvents, newPlaces) : undefined,
  ]);
  writes.forEach((w, i) => {
    recordAlarms(tx, deps, calendar.id, shard, dueAlarms(w.entry, w.before, now.getTime()));
    writeEntry(tx, shard, w.entry, nexts[i]);
  });
  keepAheadAll(tx, heads, earliest, tenant, now.toISOString());
}
