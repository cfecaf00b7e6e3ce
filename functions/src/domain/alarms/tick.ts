/**
 * A tick (docs/decisions/alarms.md): the queue entries due by now, earliest first, each settled
 * in a transaction of its own. The query reads the due entries only (a range and an order on
 * `due_at`, one single-field index), so a tick costs what is due, not what the store holds.
 *
 * Settling an entry reads its alarm shard (queue.ts, `readAlarmShard`) before the entry, and
 * its first write is the first alarm change, created at the shard's next number. So even on a
 * store that does not serialize transactions and keeps a failed commit's earlier writes (the
 * tests' Firestore stand-in, test/storage/firestore-stand-in.test.ts), a settling that another
 * commits ahead of, after its shard read, either finds the entry moved or fails that first
 * create: it writes nothing, and each alarm is recorded once.
 */
import { setImmediate } from "node:timers";
import { DocumentExistsError, type Transaction } from "../../storage/port.js";
import type { Deps } from "../deps.js";
import { paths } from "../paths.js";
import { touchShard } from "../revision.js";
import { requeueMovedAlarms } from "./requeue.js";
import { dueAlarms, readAlarmEntry, readAlarmShard, recordAlarms, scheduleNext, type AlarmEntry } from "./queue.js";

/** Entries one query takes: a tick works through batches until one comes back short. */
export const ALARM_BATCH = 100;
/** Batches per tick: bounds its work to MAX_BATCHES x ALARM_BATCH events; the next tick goes on. */
export const MAX_BATCHES = 10;
/** Entries settled at once: on Firestore each is a few round trips, so they overlap. */
const AT_ONCE = 8;

export interface TickResult {
  /** Entries taken up. */
  due: number;
  /** Alarm changes recorded. */
  fired: number;
  /**
   * Entries left due because another settling took the change numbers theirs would have:
   * only where the store does not serialize transactions (the tests' stand-in). Never on
   * Firestore or SQLite, which retry the later transaction instead.
   */
  conflicts: number;
  /** True when the last batch was full, or an entry was left to settle again: tick again at once. */
  more: boolean;
}

type TickDeps = Pick<Deps, "store" | "clock">;

/** Batches of requeued entries a tick makes due before it settles (requeue.ts); the next tick goes on. */
const REQUEUE_BATCHES = 5;

/** Settles what is due at `now` (the clock's when absent). */
export async function runAlarmTick(deps: TickDeps, now: Date = deps.clock()): Promise<TickResult> {
  const result: TickResult = { due: 0, fired: 0, conflicts: 0, more: false };
  // Entries of calendars whose timezone changed are made due first, so this tick settles them.
  for (let batch = 0; batch < REQUEUE_BATCHES; batch++) {
    if (!(await requeueMovedAlarms(deps, now)).more) break;
  }
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const due = await deps.store.query(paths.alarmQueue(), {
      where: [["due_at", "<=", now.toISOString()]],
      orderBy: [["due_at", "asc"]],
      limit: ALARM_BATCH,
    });
    let conflicts = 0;
    for (let i = 0; i < due.length; i += AT_ONCE) {
      const settled = await Promise.all(due.slice(i, i + AT_ONCE).map((entry) => settleDue(deps, entry, now)));
      for (const fired of settled) {
        if (fired === CONFLICT) conflicts += 1;
        else result.fired += fired;
      }
    }
    result.due += due.length;
    result.conflicts += conflicts;
    result.more = due.length === ALARM_BATCH || conflicts > 0;
    if (!result.more) break;
    // Let requests of this instance in between batches.
    await new Promise((done) => setImmediate(done));
  }
  return result;
}

/** The earliest `due_at` in the queue, or null when it is empty: when a local timer next wakes. */
export async function nextDue(deps: Pick<Deps, "store">): Promise<number | null> {
  const [first] = await deps.store.query(paths.alarmQueue(), { orderBy: [["due_at", "asc"]], limit: 1 });
  return first ? Date.parse(first.data.due_at) : null;
}

/** What settleDue answers when its first change's number was taken: nothing was written. */
const CONFLICT = "conflict";

/** One entry: its alarms due by `now` recorded, its next one stored; answers how many fired. */
async function settleDue(deps: TickDeps, seen: AlarmEntry, now: Date): Promise<number | typeof CONFLICT> {
  try {
    return await deps.store.runTransaction((tx) => settleInTransaction(tx, deps, seen, now));
  } catch (err) {
    if (err instanceof DocumentExistsError) return CONFLICT;
    throw err;
  }
}

async function settleInTransaction(tx: Transaction, deps: TickDeps, seen: AlarmEntry, now: Date): Promise<number> {
  const { calendar_id: calendarId, event_id: eventId } = seen.data;
  // The shard first, the entry after it (see the top of this file).
  const shard = await readAlarmShard(tx, calendarId, eventId);
  const entry = await readAlarmEntry(tx, calendarId, eventId);
  // Gone or moved since the query: another tick, or a write of the event, has settled it.
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
  if (alarms.length > 0) {
    recordAlarms(tx, deps, calendarId, shard, alarms);
    touchShard(tx, shard);
  }
  scheduleNext(tx, calendarId, eventId, entry, source, now);
  return alarms.length;
}
