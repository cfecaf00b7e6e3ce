/**
 * Writes one batch of an import (domain/import/batches.ts) in the caller's transaction: every
 * read first (the events it updates or deletes, their exceptions and alarm entries, the quota
 * places, the alarm heads), then the writes, one change each on one drawn shard. An event and
 * all its exceptions are always in one batch.
 */
import type { Transaction } from "../../storage/port.js";
import { readAlarmEntry, settleManyEventAlarms, type EventAlarmWrite } from "../alarms/queue.js";
import type { CommandDeps } from "../deps.js";
import { daysOf } from "../events/span.js";
import { storedEvent, storedException } from "../events/stored.js";
import { newId } from "../ids.js";
import type { ImportBatch, ImportCounts, ImportWork, ImportWrite, ResolvedEvent } from "../import/batches.js";
import { paths } from "../paths.js";
import { quotaLimits, takeEventQuota, type EventUsage } from "../quotas.js";
import { errors } from "../errors.js";
import type { CalendarRecord, EventRecord, ExceptionRecord } from "../records.js";
import { drawShard, touchShard } from "../revision.js";
import { recordChange } from "./changes.js";
import { changedOccurrence, exceptionsOf } from "./exceptions.js";

/** Who an imported event is created by: the importing agent, or for a feed the agent that attached it. */
export interface ImportAuthor {
  id: string;
  name: string;
}

/**
 * Refuses, before the first batch, an import whose events would not all fit the calendar's
 * quota: it is stored whole or not at all. Each batch still takes its places exactly.
 */
export function requireRoomFor(deps: Pick<CommandDeps, "config">, usage: EventUsage, work: ImportWork): void {
  const writes = work.batches.flatMap((b) => b.writes);
  const added = writes.filter((w) => w.kind === "create").length - writes.filter((w) => w.kind === "delete").length;
  const limit = quotaLimits(deps).events_per_calendar;
  if (added > 0 && usage.used + added > limit) throw errors.quotaExceeded("events_per_calendar", limit);
}

/** An event of the batch as stored now, with its exceptions and queue entry (null for a create). */
interface Current {
  event: EventRecord | null;
  exceptions: ExceptionRecord[];
  entry: EventAlarmWrite["entry"];
}

export async function applyImportBatch(
  tx: Transaction,
  deps: CommandDeps,
  author: ImportAuthor,
  calendar: CalendarRecord,
  batch: ImportBatch,
  usage: EventUsage,
): Promise<ImportCounts> {
  const nowIso = deps.clock().toISOString();
  const creates = batch.writes.filter((w) => w.kind === "create").length;
  const [shard, counted, read] = await Promise.all([
    drawShard(tx, calendar.id, deps.config.revisionShards),
    creates > 0 ? takeEventQuota(tx, deps, calendar.id, usage, creates) : usage.seed,
    Promise.all(batch.writes.map((w) => readCurrent(tx, deps, calendar.id, w))),
  ]);
  // An event deleted since the plan was made stays deleted: the next import creates it again.
  const writes = batch.writes.filter((w, i) => w.kind === "create" || read[i].event !== null);
  const currents = read.filter((_, i) => batch.writes[i].kind === "create" || read[i].event !== null);
  const deletes = writes.filter((w) => w.kind === "delete").length;
  const written = writes.map((write, i) => nextState(write, currents[i], calendar, author, nowIso));
  await settleManyEventAlarms(
    tx,
    deps,
    shard,
    calendar,
    written.map(({ eventId, after }, i) => ({
      eventId,
      entry: currents[i].entry,
      before: currents[i].event ? { calendar, event: currents[i].event, exceptions: currents[i].exceptions } : null,
      after: after ? { calendar, event: after.event, exceptions: after.exceptions } : null,
    })),
    usage.alarmEvents,
  );
  written.forEach(({ eventId, after }, i) => {
    const { event: before, exceptions } = currents[i];
    const path = paths.event(calendar.id, eventId);
    if (!after) {
      tx.delete(path);
      for (const e of exceptions) tx.delete(paths.exception(calendar.id, eventId, e.original_date));
      recordChange(tx, deps, calendar.id, shard, { type: "event.deleted", id: eventId });
      return;
    }
    tx.set(path, storedEvent(after.event, calendar));
    const kept = new Set(after.exceptions.map((e) => e.original_date));
    for (const e of exceptions) {
      if (!kept.has(e.original_date)) tx.delete(paths.exception(calendar.id, eventId, e.original_date));
    }
    for (const e of after.exceptions) {
      tx.set(paths.exception(calendar.id, eventId, e.original_date), storedException(e, daysOf(after.event)));
    }
    const type = before ? "event.updated" : "event.created";
    recordChange(tx, deps, calendar.id, shard, { type, id: eventId, event: after.event });
  });
  touchShard(tx, shard, counted - deletes);
  return { created: creates, updated: writes.length - creates - deletes, deleted: deletes };
}

async function readCurrent(
  tx: Transaction,
  deps: CommandDeps,
  calendarId: string,
  write: ImportWrite,
): Promise<Current> {
  if (write.kind === "create") return { event: null, exceptions: [], entry: null };
  const [event, exceptions, entry] = await Promise.all([
    tx.get(paths.event(calendarId, write.eventId)),
    exceptionsOf(tx, deps, calendarId, write.eventId, true),
    readAlarmEntry(tx, calendarId, write.eventId),
  ]);
  return { event: event?.data ?? null, exceptions: exceptions.map((e) => e.data), entry };
}

/** The event and its exceptions as the batch leaves them; null `after` for a delete. */
function nextState(
  write: ImportWrite,
  current: Current,
  calendar: CalendarRecord,
  author: ImportAuthor,
  nowIso: string,
): { eventId: string; after: { event: EventRecord; exceptions: ExceptionRecord[] } | null } {
  if (write.kind === "delete") return { eventId: write.eventId, after: null };
  const eventId = write.kind === "update" ? write.eventId : newId("evt");
  const event = importedRecord(eventId, write.event, current.event, calendar, author, nowIso);
  const previous = new Map(current.exceptions.map((e) => [e.original_date, e]));
  const exceptions = [...write.event.exceptions].map(([date, change]) => {
    const next = changedOccurrence(event, calendar.id, date, null, change, nowIso);
    const old = previous.get(date);
    return old ? { ...next, created_at: old.created_at, sequence: old.sequence + 1 } : next;
  });
  return { eventId, after: { event, exceptions } };
}

/** An updated event keeps its id, creator and creation time. */
function importedRecord(
  id: string,
  wanted: ResolvedEvent,
  current: EventRecord | null,
  calendar: CalendarRecord,
  author: ImportAuthor,
  nowIso: string,
): EventRecord {
  return {
    id,
    calendar_id: calendar.id,
    ...wanted.fields,
    ical_uid: wanted.uid,
    created_by: current?.created_by ?? { id: author.id, name: author.name },
    created_at: current?.created_at ?? nowIso,
    updated_at: nowIso,
    ...(current ? { sequence: (current.sequence ?? 0) + 1 } : {}),
  };
}
