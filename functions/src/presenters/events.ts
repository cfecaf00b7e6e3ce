import { eventAlarms } from "../domain/events/alarms.js";
import { daysOf } from "../domain/events/span.js";
import type { TimedOccurrence } from "../domain/queries/occurrences.js";
import type { EventRecord, ExceptionRecord } from "../domain/records.js";
import type { Recur } from "../domain/types.js";
import type { PresentedEvent, PresentedException, PresentedOccurrence, PresentedRecur } from "./schemas/events.js";

/** Every key of the rule, null where it does not apply, so clients can rely on one shape. */
export const presentRecur = (recur: Recur): PresentedRecur => ({
  type: recur.type,
  day: recur.day ?? null, // a weekday list stays a list, in the order sent
  week: recur.week ?? null,
  month: recur.month ?? null,
  interval: recur.interval ?? 1,
  starts: recur.starts ?? null,
  until: recur.until ?? null,
  count: recur.count ?? null,
});

/** `layer` is added only for lists that mix in layer events (`?layers=all`). */
export const presentEvent = (event: EventRecord, layer?: string): PresentedEvent => ({
  id: event.id,
  calendar_id: event.calendar_id,
  ...(layer !== undefined ? { layer } : {}),
  kind: event.kind,
  name: event.name,
  date: event.date,
  recur: event.recur ? presentRecur(event.recur) : null,
  start_time: event.start_time,
  end_time: event.end_time,
  days: daysOf(event),
  category: event.category,
  notes: event.notes,
  art: event.art,
  alarms: eventAlarms(event),
  ical_uid: event.ical_uid ?? null,
  created_by: { id: event.created_by.id, name: event.created_by.name },
  created_at: event.created_at,
  updated_at: event.updated_at,
});

export const presentOccurrence = (o: TimedOccurrence): PresentedOccurrence => ({
  event_id: o.event_id,
  layer: o.layer,
  date: o.date,
  end_date: o.end_date,
  days: o.days,
  original_date: o.original_date,
  start_time: o.start_time,
  end_time: o.end_time,
  start: o.start,
  end: o.end,
  name: o.name,
  category: o.category,
  alarms: o.alarms,
});

export const presentException = (e: ExceptionRecord): PresentedException => ({
  event_id: e.event_id,
  original_date: e.original_date,
  cancelled: e.cancelled,
  date: e.date,
  start_time: e.start_time,
  end_time: e.end_time,
  days: daysOf(e),
  name: e.name,
  category: e.category,
  notes: e.notes,
  alarms: e.alarms ?? null,
});
