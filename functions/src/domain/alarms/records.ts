/**
 * The records of the alarm queue's index (docs/decisions/alarms.md), apart from
 * domain/records.ts so that alarms keep their own file; domain/paths.ts maps them to their
 * collections like every other record. The queue entries themselves are `AlarmQueueRecord`.
 */

/**
 * alarm_heads/{calendarId}-{lane}: one lane of one calendar's queue entries, as the tick takes
 * them in turn. `due_at` orders the heads: the lane's earliest entry's instant, never later
 * (an event write lowers it in its transaction); after a turn that left entries due, a turn
 * mark, `<instant>#<turn>`, which sorts after every head due at that instant and before the
 * next millisecond, so the heads not yet served go first. Absent: the lane has no entry.
 * Internal.
 */
export interface AlarmHeadRecord {
  calendar_id: string;
  lane: number;
  /** Whose calendar it is (lanes.ts `tenantOf`): the tenant head it is found by. */
  tenant: string;
  due_at: string;
  /**
   * The event whose entry it was set to, when known: a turn settles that entry beside its query
   * of the lane, so that a lane's one alarm waits for no query.
   */
  event_id?: string;
  /**
   * While a tick's turn moves it on: that turn's token (turns.ts). A write that finds it writes
   * the head without it, so the turn sees the write and leaves the head due.
   */
  claim?: string;
}

/**
 * alarm_tenants/{tenant}: the heads of one tenant's calendars, as the tick takes tenants in
 * turn: `due_at` is never later than the tenant's earliest head, and is a turn mark after a turn
 * that left heads due, like a head's. Absent: the tenant has no head. Internal.
 */
export interface AlarmTenantRecord {
  tenant: string;
  due_at: string;
  /** While a tick's turn moves it on: that turn's token, as a head's. */
  claim?: string;
}

/**
 * alarm_backfills/lanes: how far the one pass over entries queued before lanes existed has
 * come (jobs/alarms.ts). Internal.
 */
export interface AlarmBackfillRecord {
  /** The last entry looked at, in `event_id` order, or null before the first. */
  after_event_id: string | null;
  /** When the pass reached the end of the queue; null while it goes on. */
  done_at: string | null;
}
