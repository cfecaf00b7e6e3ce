import type { TimedOccurrence } from "../domain/queries/events.js";
import type { EventRecord } from "../domain/records.js";
import type { Recur } from "../domain/types.js";
import type { PresentedEvent, PresentedOccurrence, PresentedRecur } from "../routes/schemas/events.js";

/** Every key of the rule, null where it does not apply, so clients can rely on one shape. */
export const presentRecur = (recur: Recur): PresentedRecur => ({
  type: recur.type,
  day: recur.day ?? null,
  month: recur.month ?? null,
  interval: recur.interval ?? 1,
  starts: recur.starts ?? null,
  until: recur.until ?? null,
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
  category: event.category,
  notes: event.notes,
  art: event.art,
  created_by: { id: event.created_by.id, name: event.created_by.name },
  created_at: event.created_at,
  updated_at: event.updated_at,
});

export const presentOccurrence = (o: TimedOccurrence): PresentedOccurrence => ({
  event_id: o.event_id,
  layer: o.layer,
  date: o.date,
  start_time: o.start_time,
  end_time: o.end_time,
  start: o.start,
  end: o.end,
  name: o.name,
  category: o.category,
});
