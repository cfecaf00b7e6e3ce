/**
 * Lanes and heads: how a tick takes the queue calendar by calendar (docs/decisions/alarms.md,
 * "Fair per calendar"). Each entry is in one of its calendar's ALARM_LANES lanes, a hash of its
 * event id, and each lane that holds an entry has a head, `alarm_heads/{calendarId}-{lane}`,
 * whose `due_at` is never later than the lane's earliest entry. A tick takes the due heads
 * (one single-field query), settles a few entries of each, and moves each head on: to the
 * lane's earliest entry when it is ahead, else to a turn mark after every head still waiting
 * at that instant. So a calendar with thousands of entries due at once takes one turn per lane
 * per round, like a calendar with one.
 *
 * The invariant (a head at or before its lane's earliest entry) holds under concurrency because
 * both sides meet on the head document: an event write that queues an entry reads the lane's
 * head in its transaction and writes it when it must come earlier, or when it is due (a tick may
 * be moving it on); the tick moves a head on in a transaction that reads it and queries the lane.
 * A head earlier than its lane's earliest entry costs one turn that settles nothing, then moves on.
 */
import type { StoredDoc, Transaction, TransactionReads } from "../../storage/port.js";
import { sha256 } from "../ids.js";
import { paths } from "../paths.js";
import type { AlarmQueueRecord } from "../records.js";
import type { AlarmHeadRecord } from "./records.js";

/** Lanes per calendar: how many heads one calendar can hold in a round, and how far its event writes spread. */
export const ALARM_LANES = 8;

export type AlarmHead = StoredDoc<AlarmHeadRecord>;

/** The lane of an event's entry: always the same for the event. */
export const laneOf = (eventId: string): number => Number.parseInt(sha256(eventId).slice(0, 8), 16) % ALARM_LANES;

/**
 * The highest head `due_at` that is due at `nowIso`: every instant up to it and every turn mark
 * taken at it (`<instant>#...` sorts after the instant, `~` after `#`, and both before the next
 * millisecond's instant, ISO instants being of one length).
 */
export const dueBound = (nowIso: string): string => `${nowIso}~`;

/** What a head that keeps entries due after its turn at `nowIso` becomes: after every head waiting at that instant. */
export const turnMark = (nowIso: string, turn: number): string => `${nowIso}#${String(turn).padStart(12, "0")}`;

/** The instant a head's `due_at` stands for (a turn mark's instant). */
export const headInstant = (dueAt: string): number => Date.parse(dueAt.slice(0, 24));

/** The lane's head, read with a write's other reads. */
export const readAlarmHead = (reads: TransactionReads, calendarId: string, lane: number): Promise<AlarmHead | null> =>
  reads.get(paths.alarmHead(calendarId, lane));

/**
 * For a write that stores `entry` (its lane's head read in the same transaction): the head comes
 * to the entry's instant when it is later, and is written unchanged when it is due, so that a
 * tick moving it on meets this write (see the top of this file). Otherwise the head stays.
 */
export function keepHeadAhead(tx: Transaction, head: AlarmHead | null, entry: AlarmQueueRecord, nowIso: string): void {
  const lane = entry.lane ?? laneOf(entry.event_id);
  const ref = paths.alarmHead(entry.calendar_id, lane);
  if (head === null || entry.due_at < head.data.due_at) {
    tx.set(ref, { calendar_id: entry.calendar_id, lane, due_at: entry.due_at });
  } else if (head.data.due_at <= dueBound(nowIso)) {
    tx.set(ref, { ...head.data });
  }
}

/** The heads due at `nowIso`, the longest waiting first: those whose lane has an entry due, or had. */
export const dueHeads = (reads: TransactionReads, nowIso: string, limit: number): Promise<AlarmHead[]> =>
  reads.query(paths.alarmHeads(), {
    where: [["due_at", "<=", dueBound(nowIso)]],
    orderBy: [["due_at", "asc"]],
    limit,
  });

/** When the earliest head falls due (epoch ms), or null when no lane holds an entry. */
export async function earliestHead(reads: TransactionReads): Promise<number | null> {
  const [first] = await reads.query(paths.alarmHeads(), { orderBy: [["due_at", "asc"]], limit: 1 });
  return first ? headInstant(first.data.due_at) : null;
}

/** The lane's entries due at `nowIso`, earliest first, at most `limit` (a composite index: calendar_id, lane, due_at). */
export const dueInLane = (
  reads: TransactionReads,
  head: AlarmHeadRecord,
  nowIso: string,
  limit: number,
): Promise<StoredDoc<AlarmQueueRecord>[]> =>
  reads.query(paths.alarmQueue(), {
    where: [
      ["calendar_id", "==", head.calendar_id],
      ["lane", "==", head.lane],
      ["due_at", "<=", nowIso],
    ],
    orderBy: [["due_at", "asc"]],
    limit,
  });

/** What became of a head after its turn. */
export type HeadAfterTurn = "due" | "ahead" | "gone";

/**
 * After a turn: the head moves to its lane's earliest entry when that is ahead of `nowIso`, to
 * `mark` when an entry is still due, and goes when the lane is empty. In the transaction that
 * reads it, so an event write queueing an entry meanwhile either comes first (and the query
 * sees its entry) or reads what this writes.
 */
export async function moveHeadOn(
  tx: Transaction,
  head: AlarmHeadRecord,
  nowIso: string,
  mark: string,
): Promise<HeadAfterTurn> {
  const ref = paths.alarmHead(head.calendar_id, head.lane);
  const [current, [first]] = await Promise.all([
    tx.get(ref),
    tx.query(paths.alarmQueue(), {
      where: [
        ["calendar_id", "==", head.calendar_id],
        ["lane", "==", head.lane],
      ],
      orderBy: [["due_at", "asc"]],
      limit: 1,
    }),
  ]);
  if (!first) {
    if (current) tx.delete(ref);
    return "gone";
  }
  const due = first.data.due_at <= nowIso;
  const dueAt = due ? mark : first.data.due_at;
  if (current?.data.due_at !== dueAt) tx.set(ref, { calendar_id: head.calendar_id, lane: head.lane, due_at: dueAt });
  return due ? "due" : "ahead";
}
