/**
 * Quotas (docs/api.md#quotas): how many records an agent or a calendar may hold, answered
 * `403 quota_exceeded` with `details: {quota, limit}`.
 *
 * Each quota is a counter on the parent document (the agent or the calendar record), read and
 * written in the transaction that creates or removes the record, so concurrent creates
 * conflict on that one document and cannot overshoot, and no create scans a collection.
 * A record written before its counter existed has none: the first create counts the existing
 * records once, reading at most limit + 1 of them, and stores the count. Removing a record
 * (a deleted event, a revoked credential or view) gives its place back; a missing counter is
 * left missing, so the one-off count stays exact.
 *
 * Counters are internal fields: presenters pick the fields they show, so none reaches a caller.
 *
 * Events are the exception: event writes must not queue on the calendar record, so a
 * calendar's event count is spread over its shards (domain/revision.ts), read before the
 * write's transaction (reading every shard inside it would make all writes to the calendar
 * conflict). Far from the limit that count decides. Within EXACT_EVENT_MARGIN of it, a create
 * reads the shards again inside its transaction, so the last places are taken exactly:
 * concurrent creates then conflict on the shards, and only near a full calendar. There, the
 * creates of one instance all take the lease of shard 0 (domain/shard-leases.ts) and write to
 * it, so they count and write one after another in memory instead of each holding the shards
 * another wants to write and waiting for the store to abort one of them.
 */
import type { DocRef, StoredDoc, Transaction } from "../storage/port.js";
import type { Deps } from "./deps.js";
import { errors } from "./errors.js";
import { paths } from "./paths.js";
import type { QuotaLimits, QuotaName } from "./quota-limits.js";
import type { AgentCounters, CalendarCounters } from "./records.js";
import { readShards } from "./revision.js";
import { leaseShard } from "./shard-leases.js";

export const DEFAULT_QUOTAS: QuotaLimits = {
  calendars_per_agent: 100,
  events_per_calendar: 10_000,
  credentials_per_agent: 10,
  slugs_per_calendar: 50,
  retired_slugs_per_agent: 100,
  views_per_calendar: 100,
  exceptions_per_event: 100,
  webhooks_per_agent: 20,
  events_with_alarms_per_calendar: 2_000,
};

/** The quotas in force: `QUOTA_*`, read at start (functions/src/config.ts), else DEFAULT_QUOTAS. */
export const quotaLimits = (deps: Pick<Deps, "config">): QuotaLimits => deps.config.quotas;

/** The counter field of each quota and, for records older than it, how to count them once. */
/** Quotas counted on their owner's record; events are counted on the calendar's shards (below). */
type RecordQuota = Exclude<
  QuotaName,
  | "events_per_calendar"
  | "exceptions_per_event"
  | "webhooks_per_agent"
  | "events_with_alarms_per_calendar"
  | "retired_slugs_per_agent"
>;

/** Every counter field, on the agent (AgentCounters) or the calendar record (CalendarCounters). */
type Counters = AgentCounters & CalendarCounters;

const COUNTERS: Record<
  RecordQuota,
  { field: keyof Counters; countExisting: (tx: Transaction, ownerId: string, max: number) => Promise<number> }
> = {
  calendars_per_agent: {
    field: "calendar_count",
    // Calendars have no creator field; the calendars the agent owns stand in for the ones it created.
    countExisting: async (tx, agentId, max) =>
      (await tx.query(paths.memberships(agentId), { where: [["role", "==", "owner"]], limit: max })).length,
  },
  credentials_per_agent: {
    field: "live_credential_count",
    countExisting: async (tx, agentId, max) =>
      (await tx.query(paths.credentials(agentId), { where: [["revoked_at", "==", null]], limit: max })).length,
  },
  slugs_per_calendar: {
    field: "slug_count",
    countExisting: async (tx, calendarId, max) =>
      (await tx.query(paths.slugs(), { where: [["owner_id", "==", calendarId]], limit: max })).length,
  },
  views_per_calendar: {
    field: "live_view_count",
    countExisting: async (tx, calendarId, max) =>
      (await tx.query(paths.views(calendarId), { where: [["revoked_at", "==", null]], limit: max })).length,
  },
};

/** The counters a new agent starts with: mint creates its first calendar and credential with it. */
export const newAgentCounters = (): Required<AgentCounters> => ({
  calendar_count: 1,
  live_credential_count: 1,
  retired_slug_count: 0,
});

/** The counters a new calendar starts with: its first slug and no views (its event count is in its first shard). */
export const newCalendarCounters = (): Required<CalendarCounters> => ({ slug_count: 1, live_view_count: 0 });

/**
 * Takes one place of `quota` on `owner` (the agent or calendar document, read in this
 * transaction), or throws 403 quota_exceeded when none is left. Returns the counter update,
 * for the caller to write with its own writes (reads come first in a transaction).
 */
export async function takeQuota(
  deps: Pick<Deps, "config">,
  tx: Transaction,
  quota: RecordQuota,
  owner: StoredDoc<Counters>,
): Promise<Partial<Counters>> {
  const limit = quotaLimits(deps)[quota];
  const { field, countExisting } = COUNTERS[quota];
  const stored = owner.data[field];
  const used = typeof stored === "number" ? stored : await countExisting(tx, owner.id, limit + 1);
  if (used >= limit) throw errors.quotaExceeded(quota, limit);
  return { [field]: used + 1 };
}

/** Gives one place of `quota` back (a record was deleted or revoked): the counter update, if there is a counter. */
export function releaseQuota(quota: RecordQuota, owner: StoredDoc<Counters>): Partial<Counters> {
  const { field } = COUNTERS[quota];
  const stored = owner.data[field];
  return typeof stored === "number" ? { [field]: Math.max(0, stored - 1) } : {};
}

/** Writes a counter update unless it is empty. */
export function writeCounter(tx: Transaction, path: DocRef<Counters>, update: Partial<Counters>): void {
  if (Object.keys(update).length > 0) tx.update(path, update);
}

/** A calendar's event count, read before the write's transaction (module comment, above). */
export interface EventUsage {
  used: number;
  /** What the first write adds to its shard for a calendar from before shards: the events it holds. */
  seed: number;
  /** The calendar's events with an alarm ahead, from the same shards (domain/alarms/quota.ts); absent without shards. */
  alarmEvents?: number;
}

/**
 * The events a calendar holds, from its shards, and what an event write must add to its shard
 * so the sum stays right: a calendar from before shards counts its events once (at most
 * limit + 1 reads), and the first write stores that count.
 */
export async function eventUsage(deps: Pick<Deps, "store" | "config">, calendarId: string): Promise<EventUsage> {
  const shards = await readShards(deps.store, calendarId);
  if (shards) {
    const used = shards.reduce((sum, s) => sum + s.event_count, 0);
    return { used, seed: 0, alarmEvents: shards.reduce((sum, s) => sum + (s.alarm_event_count ?? 0), 0) };
  }
  const limit = quotaLimits(deps).events_per_calendar;
  const existing = await deps.store.query(paths.events(calendarId), { limit: limit + 1 });
  return { used: existing.length, seed: existing.length };
}

/** Within this many events of the limit, a create counts the shards inside its transaction. */
export const EXACT_EVENT_MARGIN = 100;

/** The shard every exact-count create of an instance leases, and so writes to. */
const EXACT_COUNT_SHARD = 0;

/**
 * Takes places for `count` more events (one by default): the count to add to the drawn shard,
 * or 403 quota_exceeded. Near the limit it reads the shards in `tx` (a read: call it before writing).
 */
export async function takeEventQuota(
  tx: Transaction,
  deps: Pick<Deps, "config">,
  calendarId: string,
  usage: EventUsage,
  count = 1,
): Promise<number> {
  const limit = quotaLimits(deps).events_per_calendar;
  let used = usage.used;
  if (used + count > limit - EXACT_EVENT_MARGIN) {
    await leaseShard(tx, calendarId, deps.config.revisionShards, EXACT_COUNT_SHARD);
    const shards = await tx.query(paths.shards(calendarId));
    if (shards.length > 0) used = shards.reduce((sum, s) => sum + s.data.event_count, 0);
  }
  if (used + count > limit) throw errors.quotaExceeded("events_per_calendar", limit);
  return usage.seed + count;
}

/** Gives an event's place back: the count to add to the drawn shard. */
export const releaseEventQuota = (usage: EventUsage): number => usage.seed - 1;
