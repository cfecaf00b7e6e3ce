import { errors } from "../errors.js";
import type { Actor } from "../actor.js";
import type { CommandDeps } from "../deps.js";
import type { Transaction } from "../../storage/port.js";
import { applyEventPatch, eventFieldsFromCreate, type EventInput } from "../events/rules.js";
import { newId } from "../ids.js";
import { paths } from "../paths.js";
import { releaseEventQuota, takeEventQuota, type EventUsage } from "../quotas.js";
import { defaultStartsOf, storedEvent, storedException } from "../events/stored.js";
import { daysOf } from "../events/span.js";
import { todayIn } from "../recurrence/index.js";
import { drawShard, touchShard } from "../revision.js";
import { isPlannedDate } from "../events/planned.js";
import { exceptionsOf } from "./exceptions.js";
import { recordChange } from "./changes.js";
import { readAlarmEntry, settleEventAlarms } from "../alarms/queue.js";
import type { CalendarRecord, EventRecord } from "../records.js";

/**
 * Event writes, in the caller's transaction: the executor has loaded the calendar and applied
 * the access policy (writer or owner) in it; each command reads what it changes there, reads
 * before writes. None writes the calendar record: the revision and event count go to a shard
 * (domain/revision.ts), so writes to one calendar do not queue on one document. The calendar's
 * event count (`usage`) is read before the transaction, for the same reason (domain/quotas.ts).
 * Each also moves the event's entry in the alarm queue (domain/alarms/queue.ts).
 */
export async function createEvent(
  tx: Transaction,
  deps: CommandDeps,
  actor: Actor,
  calendar: CalendarRecord,
  input: EventInput & { name: string },
  usage: EventUsage,
): Promise<EventRecord> {
  const now = deps.clock();
  const nowIso = now.toISOString();
  const counted = await takeEventQuota(tx, deps, calendar.id, usage);
  const shard = await drawShard(tx, calendar.id, deps.config.revisionShards);
  // A series without `starts` begins on the creation date in the calendar's timezone, stored explicitly.
  const fields = eventFieldsFromCreate(input, todayIn(calendar.timezone, now));
  const event: EventRecord = {
    id: newId("evt"),
    calendar_id: calendar.id,
    ...fields,
    created_by: { id: actor.agentId, name: actor.agentName },
    created_at: nowIso,
    updated_at: nowIso,
  };
  const after = { calendar, event, exceptions: [] };
  // Reads (its lane's head, the alarm quota) before the first write.
  await settleEventAlarms(tx, deps, shard, {
    calendarId: calendar.id,
    eventId: event.id,
    entry: null,
    before: null,
    after,
    alarmEvents: usage.alarmEvents,
  });
  tx.create(paths.event(calendar.id, event.id), storedEvent(event, calendar));
  recordChange(tx, deps, calendar.id, shard, { type: "event.created", id: event.id, event });
  touchShard(tx, shard, counted);
  return event;
}

export async function updateEvent(
  tx: Transaction,
  deps: CommandDeps,
  calendar: CalendarRecord,
  eventId: string,
  patch: EventInput,
): Promise<EventRecord> {
  const nowIso = deps.clock().toISOString();
  const [current, shard, exceptions, entry] = await Promise.all([
    tx.get(paths.event(calendar.id, eventId)),
    drawShard(tx, calendar.id, deps.config.revisionShards),
    exceptionsOf(tx, deps, calendar.id, eventId, true),
    readAlarmEntry(tx, calendar.id, eventId),
  ]);
  if (!current) throw errors.notFound("event");
  const event = current.data;
  // A new rule without `starts` starts on the event's creation date (docs/api.md#recurrence), not today.
  const fields = applyEventPatch(event, patch, defaultStartsOf(event, calendar));
  const timeChanged = TIME_FIELDS.some((f) => JSON.stringify(fields[f]) !== JSON.stringify(event[f]));
  const next: EventRecord = {
    ...event,
    ...fields,
    updated_at: nowIso,
    ...(timeChanged ? { sequence: (event.sequence ?? 0) + 1 } : {}),
  };
  // An exception whose date the series no longer has would change an occurrence that is not there.
  const kept = exceptions.filter(
    (e) => next.kind === "recurring" && isPlannedDate(next, calendar, e.data.original_date),
  );
  await settleEventAlarms(tx, deps, shard, {
    calendarId: calendar.id,
    eventId,
    entry,
    before: { calendar, event, exceptions: exceptions.map((e) => e.data) },
    after: { calendar, event: next, exceptions: kept.map((e) => e.data) },
  });
  tx.set(current.path, storedEvent(next, calendar));
  for (const e of exceptions) if (!kept.includes(e)) tx.delete(e.path);
  // An exception's stored span counts the series' days from its original date.
  if (daysOf(next) !== daysOf(event)) for (const e of kept) tx.set(e.path, storedException(e.data, daysOf(next)));
  recordChange(tx, deps, calendar.id, shard, { type: "event.updated", id: next.id, event: next });
  touchShard(tx, shard);
  return next;
}

/** The fields whose change moves an occurrence: feeds raise SEQUENCE for them (RFC 5545 3.8.7.4). */
const TIME_FIELDS = ["date", "recur", "days", "start_time", "end_time"] as const;

/** Deleting an event (and its exceptions) gives its place in the calendar's event quota back. */
export async function deleteEvent(
  tx: Transaction,
  deps: CommandDeps,
  calendarId: string,
  eventId: string,
  usage: EventUsage,
): Promise<string> {
  const released = releaseEventQuota(usage);
  const [event, shard, exceptions, entry] = await Promise.all([
    tx.get(paths.event(calendarId, eventId)),
    drawShard(tx, calendarId, deps.config.revisionShards),
    exceptionsOf(tx, deps, calendarId, eventId, true),
    readAlarmEntry(tx, calendarId, eventId),
  ]);
  if (!event) throw errors.notFound("event");
  // Alarms that fell due before the delete and no tick has recorded yet still fire: their
  // times need the calendar's zone, read only then (the route passes its id alone).
  const pending = entry !== null && entry.data.due_at <= deps.clock().toISOString();
  const calendar = pending ? (await tx.get(paths.calendar(calendarId)))?.data : undefined;
  await settleEventAlarms(tx, deps, shard, {
    calendarId,
    eventId,
    entry,
    before: calendar ? { calendar, event: event.data, exceptions: exceptions.map((e) => e.data) } : null,
    after: null,
  });
  tx.delete(event.path);
  for (const e of exceptions) tx.delete(e.path);
  recordChange(tx, deps, calendarId, shard, { type: "event.deleted", id: event.id });
  touchShard(tx, shard, released);
  return event.id;
}
