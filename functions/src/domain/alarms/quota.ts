/**
 * The quota of events with an alarm ahead per calendar (docs/api.md#quotas,
 * `events_with_alarms_per_calendar`): what bounds the alarms one agent can have queued, with the
 * 5 alarms an event may carry and the calendars an agent may create.
 *
 * Why per calendar and on the shards: a counter per agent would be one document every alarm
 * write of all the agent's calendars meets on, and a count of the agent's entries inside the
 * write (a query) would make those writes meet on the range it reads. A calendar's count lives
 * on its revision shards (`alarm_event_count`), which every event write already reads and
 * writes one of, and the tick the one it records alarms on: the transaction that creates a queue
 * entry adds 1 to its shard, the one that removes it takes 1 off, so the count moves with the
 * entries and costs no document more. Only a write that creates an entry takes a place: far
 * from the limit the sum read before the transaction (an event create's `prepare` reads the
 * shards anyway) decides; within EXACT_ALARM_MARGIN of it, or when no sum was read (a PATCH that
 * gives an event its first alarm ahead), the write reads every shard in its transaction, so the
 * last places are taken exactly, concurrent writes then meeting on the shards.
 *
 * Entries queued before lanes existed are not counted: the transaction that gives one a lane
 * (any write or tick settling it, or the backfill) adds it, without taking a place.
 */
import type { Transaction } from "../../storage/port.js";
import type { Deps } from "../deps.js";
import { errors } from "../errors.js";
import { paths } from "../paths.js";
import { quotaLimits } from "../quotas.js";

/** Within this many of the limit, a write queueing an event's first alarm counts the shards in its transaction. */
export const EXACT_ALARM_MARGIN = 100;

/**
 * Takes places for `count` more events with an alarm ahead, or throws 403 quota_exceeded.
 * `known` is the calendar's count read before the transaction, when there was one. A read: call
 * it before the transaction's first write.
 */
export async function takeAlarmPlace(
  tx: Transaction,
  deps: Pick<Deps, "config">,
  calendarId: string,
  known: number | undefined,
  count = 1,
): Promise<void> {
  const limit = quotaLimits(deps).events_with_alarms_per_calendar;
  let used = known;
  if (used === undefined || used + count > limit - EXACT_ALARM_MARGIN) {
    const shards = await tx.query(paths.shards(calendarId));
    used = shards.reduce((sum, s) => sum + (s.data.alarm_event_count ?? 0), 0);
  }
  if (used + count > limit) throw errors.quotaExceeded("events_with_alarms_per_calendar", limit);
}
