import { errors } from "../../http/errors.js";
import type { Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { applyEventPatch, eventFieldsFromCreate, type EventInput } from "../events/rules.js";
import { newId } from "../ids.js";
import { paths } from "../paths.js";
import { releaseQuota, takeQuota } from "../quotas.js";
import { defaultStartsOf } from "../queries/events.js";
import { todayIn } from "../recurrence/index.js";
import { touchCalendar } from "../revision.js";
import type { CalendarRecord, EventRecord } from "../types.js";

/**
 * Event writes. The route has already applied the access policy (writer or owner); each
 * command re-reads what it changes inside one transaction, reads before writes.
 */
export async function createEvent(
  deps: Deps,
  actor: Actor,
  calendarId: string,
  input: EventInput & { name: string },
): Promise<EventRecord> {
  const now = deps.clock();
  const nowIso = now.toISOString();
  return deps.store.runTransaction(async (tx) => {
    const calendar = await tx.get<CalendarRecord>(paths.calendar(calendarId));
    if (!calendar) throw errors.notFound("calendar");
    // A series without `starts` begins on the creation date in the calendar's timezone, stored explicitly.
    const fields = eventFieldsFromCreate(input, todayIn(calendar.data.timezone, now));
    const counted = await takeQuota(deps, tx, "events_per_calendar", calendar);
    const event: EventRecord = {
      id: newId("evt"),
      calendar_id: calendarId,
      ...fields,
      created_by: { id: actor.agentId, name: actor.agentName },
      created_at: nowIso,
      updated_at: nowIso,
    };
    tx.create(paths.event(calendarId, event.id), { ...event });
    touchCalendar(tx, calendarId, counted);
    return event;
  });
}

export async function updateEvent(deps: Deps, calendarId: string, eventId: string, patch: EventInput): Promise<EventRecord> {
  const nowIso = deps.clock().toISOString();
  return deps.store.runTransaction(async (tx) => {
    const [calendar, current] = await tx.getAll<CalendarRecord | EventRecord>([
      paths.calendar(calendarId),
      paths.event(calendarId, eventId),
    ]);
    if (!calendar) throw errors.notFound("calendar");
    if (!current) throw errors.notFound("event");
    const event = current.data as EventRecord;
    // A new rule without `starts` starts on the event's creation date (DECISIONS 5), not today.
    const fields = applyEventPatch(event, patch, defaultStartsOf(event, calendar.data as CalendarRecord));
    const next: EventRecord = { ...event, ...fields, updated_at: nowIso };
    tx.set(current.path, { ...next });
    touchCalendar(tx, calendarId);
    return next;
  });
}

/** Deleting an event gives its place in the calendar's event quota back. */
export async function deleteEvent(deps: Deps, calendarId: string, eventId: string): Promise<string> {
  return deps.store.runTransaction(async (tx) => {
    const [calendar, event] = await tx.getAll<CalendarRecord | EventRecord>([
      paths.calendar(calendarId),
      paths.event(calendarId, eventId),
    ]);
    if (!calendar) throw errors.notFound("calendar");
    if (!event) throw errors.notFound("event");
    tx.delete(event.path);
    touchCalendar(tx, calendarId, releaseQuota("events_per_calendar", calendar));
    return event.id;
  });
}
