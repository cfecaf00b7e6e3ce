import type { Transaction } from "../../storage/port.js";
import type { CommandDeps } from "../deps.js";
import { errors } from "../errors.js";
import { applyEventPatch, invalidEvent } from "../events/rules.js";
import { normalizeAlarms } from "../events/alarms.js";
import { daysOf } from "../events/span.js";
import { storedException } from "../events/stored.js";
import { exceptionKey, paths } from "../paths.js";
import { isPlannedDate } from "../events/planned.js";
import { quotaLimits } from "../quotas.js";
import { drawShard, touchShard } from "../revision.js";
import { recordChange } from "./changes.js";
import { readAlarmEntry, settleEventAlarms } from "../alarms/queue.js";
import type { CalendarRecord, EventRecord, ExceptionRecord } from "../records.js";

/**
 * Exceptions to a series (docs/api.md#exceptions): one occurrence cancelled, moved or changed, kept apart
 * from the series under its original date. The route has loaded the calendar and applied the
 * access policy (writer or owner) in the transaction each command is given; the command reads
 * the event and the exception through it, reads before writes, and touches a revision shard so
 * cached reads of the calendar move on, and moves the event's entry in the alarm queue
 * (domain/alarms/queue.ts), which is why both read all of the event's exceptions.
 */

/** What a PATCH may change on one occurrence; undefined = not sent. */
export interface ExceptionInput {
  cancelled?: boolean;
  date?: string;
  start_time?: string | null;
  end_time?: string | null;
  /** Dates this occurrence covers; null = 1. */
  days?: number | null;
  name?: string;
  category?: string | null;
  notes?: string | null;
  /** The occurrence's own alarms ([] = none); null = it follows the event's again. */
  alarms?: readonly unknown[] | null;
}

const CHANGES = ["date", "start_time", "end_time", "days", "name", "category", "notes", "alarms"] as const;

/** The series' event, and 404 unless `originalDate` is one of its occurrences (or already excepted). */
async function loadOccurrence(
  tx: Transaction,
  calendar: CalendarRecord,
  eventId: string,
  originalDate: string,
): Promise<{ event: EventRecord; existing: ExceptionRecord | null }> {
  // Both paths first: one that throws (a bad date) must not leave the other's read running.
  const refs = [paths.event(calendar.id, eventId), paths.exception(calendar.id, eventId, originalDate)] as const;
  const [eventDoc, exceptionDoc] = await Promise.all([tx.get(refs[0]), tx.get(refs[1])]);
  if (!eventDoc) throw errors.notFound("event");
  const event = eventDoc.data;
  if (event.kind !== "recurring") {
    throw errors.notFound("occurrence: only a recurring event has exceptions; PATCH a one-off event itself");
  }
  if (!exceptionDoc && !isPlannedDate(event, calendar, originalDate)) {
    throw errors.notFound(`occurrence of this series on ${originalDate}; list them with GET .../occurrences`);
  }
  return { event, existing: exceptionDoc?.data ?? null };
}

/** Cancels, moves or changes one occurrence; a second PATCH of the same occurrence changes its exception. */
export async function patchOccurrence(
  tx: Transaction,
  deps: CommandDeps,
  calendar: CalendarRecord,
  eventId: string,
  originalDate: string,
  input: ExceptionInput,
): Promise<ExceptionRecord> {
  const changes = CHANGES.filter((field) => input[field] !== undefined);
  if (input.cancelled === undefined && changes.length === 0) {
    throw invalidEvent(
      "cancelled",
      'or a field to change is needed: send {"cancelled": true}, or e.g. {"start_time": "10:00"}',
    );
  }
  if (input.cancelled === true && changes.length > 0) {
    throw invalidEvent(
      "cancelled",
      `cannot be sent with ${changes.map((f) => `\`${f}\``).join(", ")}: cancel alone, or change without cancelling`,
    );
  }
  const nowIso = deps.clock().toISOString();
  const { event, existing } = await loadOccurrence(tx, calendar, eventId, originalDate);
  const [shard, others, entry] = await Promise.all([
    drawShard(tx, calendar.id, deps.config.revisionShards),
    exceptionsOf(tx, deps, calendar.id, eventId, true),
    readAlarmEntry(tx, calendar.id, eventId),
  ]);
  if (!existing && others.length >= quotaLimits(deps).exceptions_per_event) {
    throw errors.quotaExceeded("exceptions_per_event", quotaLimits(deps).exceptions_per_event);
  }
  const next = changedOccurrence(event, calendar.id, originalDate, existing, input, nowIso);
  const before = others.map((e) => e.data);
  const after = [...before.filter((e) => e.original_date !== originalDate), next];
  await settleEventAlarms(tx, deps, shard, {
    calendarId: calendar.id,
    eventId,
    entry,
    before: { calendar, event, exceptions: before },
    after: { calendar, event, exceptions: after },
  });
  tx.set(paths.exception(calendar.id, eventId, originalDate), storedException(next, daysOf(event)));
  recordChange(tx, deps, calendar.id, shard, {
    type: "exception.changed",
    id: eventId,
    event,
    original_date: originalDate,
  });
  touchShard(tx, shard);
  return next;
}

/**
 * The occurrence on `originalDate` as `input` changes it (from its exception when it has one):
 * the fields checked by the one-off rules, exactly as for an event. Throws invalid_event.
 */
export function changedOccurrence(
  event: EventRecord,
  calendarId: string,
  originalDate: string,
  existing: ExceptionRecord | null,
  input: ExceptionInput,
  nowIso: string,
): ExceptionRecord {
  const base = existing ?? seriesOccurrence(event, calendarId, originalDate, nowIso);
  const { cancelled, alarms, ...change } = input;
  const fields = applyEventPatch({ kind: "one-off", recur: null, art: null, ...base }, change, originalDate);
  // Unlike the event's, null here is not "none" but "no list of its own": the field goes, and the
  // occurrence follows the event's alarms again.
  const { alarms: _previous, ...rest } = base;
  const ownAlarms = alarms === undefined ? base.alarms : alarms === null ? undefined : normalizeAlarms(alarms);
  const timeChanged =
    fields.date !== base.date ||
    fields.start_time !== base.start_time ||
    fields.end_time !== base.end_time ||
    fields.days !== daysOf(base);
  return {
    ...rest,
    ...(ownAlarms === undefined ? {} : { alarms: ownAlarms }),
    cancelled: cancelled ?? false,
    date: fields.date!,
    start_time: fields.start_time,
    end_time: fields.end_time,
    days: fields.days,
    name: fields.name,
    category: fields.category,
    notes: fields.notes,
    sequence: base.sequence + (timeChanged ? 1 : 0),
    updated_at: nowIso,
  };
}

/** Restores an occurrence: its exception goes; 404 when it has none. */
export async function restoreOccurrence(
  tx: Transaction,
  deps: CommandDeps,
  calendar: CalendarRecord,
  eventId: string,
  originalDate: string,
): Promise<string> {
  const [exception, shard, event, exceptions, entry] = await Promise.all([
    tx.get(paths.exception(calendar.id, eventId, originalDate)),
    drawShard(tx, calendar.id, deps.config.revisionShards),
    tx.get(paths.event(calendar.id, eventId)), // for the change feed, which shows the series
    exceptionsOf(tx, deps, calendar.id, eventId, true),
    readAlarmEntry(tx, calendar.id, eventId),
  ]);
  if (!exception) throw errors.notFound(`exception on ${originalDate}: this occurrence is as its series has it`);
  if (event) {
    const before = exceptions.map((e) => e.data);
    const after = before.filter((e) => e.original_date !== originalDate);
    await settleEventAlarms(tx, deps, shard, {
      calendarId: calendar.id,
      eventId,
      entry,
      before: { calendar, event: event.data, exceptions: before },
      after: { calendar, event: event.data, exceptions: after },
    });
  }
  tx.delete(exception.path);
  const change = { type: "exception.changed", id: eventId, event: event?.data, original_date: originalDate } as const;
  recordChange(tx, deps, calendar.id, shard, change);
  touchShard(tx, shard);
  return `${eventId}/${originalDate}`;
}

/** The occurrence as the series has it, as an exception not yet changed. */
function seriesOccurrence(event: EventRecord, calendarId: string, date: string, nowIso: string): ExceptionRecord {
  return {
    id: exceptionKey(event.id, date),
    calendar_id: calendarId,
    event_id: event.id,
    original_date: date,
    cancelled: false,
    date,
    start_time: event.start_time,
    end_time: event.end_time,
    days: daysOf(event),
    name: event.name,
    category: event.category,
    notes: event.notes,
    sequence: event.sequence ?? 0,
    created_at: nowIso,
    updated_at: nowIso,
  };
}

/** The event's exceptions: at most one past the quota, or `all` for the commands that drop them. */
export function exceptionsOf(tx: Transaction, deps: CommandDeps, calendarId: string, eventId: string, all = false) {
  return tx.query(paths.exceptions(calendarId), {
    where: [["event_id", "==", eventId]],
    ...(all ? {} : { limit: quotaLimits(deps).exceptions_per_event + 1 }),
  });
}
