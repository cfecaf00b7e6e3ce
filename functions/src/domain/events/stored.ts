/**
 * What an event stores besides its fields, derived on every write so that reads can ask the
 * store for a page or a range instead of reading every event:
 * - `sort_key`, its place in the list (docs/api.md#events-list: dated by date then start
 *   time, untimed first, then recurring, then someday; ties by creation);
 * - `series_end`, the last date a series' occurrences can cover, which range reads bound
 *   series by (queries/occurring.ts);
 * - `span_end`, on a one-off event or an exception covering more than one date, its last
 *   day: range reads find by it what began before them and still runs.
 */
import { lastOccurrence, recurError, todayIn } from "../recurrence/index.js";
import type { CalendarRecord, EventRecord, ExceptionRecord } from "../records.js";
import { daysOf, lastDayOf } from "./span.js";
import type { EventKind } from "../types.js";

/** The date of an open-ended series' end: after every date a request can name. */
export const OPEN_END = "9999-12-31";

/** The sort key as its parts: group, date, time, creation, id. */
export type SortKey = readonly [group: number, date: string, time: string, createdAt: string, id: string];

export const KIND_GROUP: Record<EventKind, number> = { "one-off": 0, recurring: 1, someday: 2 };

/** Only dated events order by date and time; recurring and someday ones by creation within their group. */
export const sortKey = (e: EventRecord): SortKey =>
  e.kind === "one-off"
    ? [0, e.date!, e.start_time ?? "", e.created_at, e.id]
    : [KIND_GROUP[e.kind], "", "", e.created_at, e.id];

/**
 * The sort key as one string that orders as the key does: the group digit, then fields of
 * fixed width (a missing date or time is a placeholder that sorts before every real one:
 * `-` is below the digits), then the id.
 */
export const sortKeyText = ([group, date, time, createdAt, id]: SortKey): string =>
  `${group} ${date || "----------"} ${time || "--:--"} ${createdAt} ${id}`;

/** The event's place in the list, as stored. */
export const eventSortKey = (e: EventRecord): string => sortKeyText(sortKey(e));

/** The date a series starts when its rule has none stored: the creation date in the calendar's timezone. */
export const defaultStartsOf = (
  event: Pick<EventRecord, "created_at">,
  calendar: Pick<CalendarRecord, "timezone">,
): string => todayIn(calendar.timezone, new Date(event.created_at));

/** The last date a series' occurrences can cover; undefined for other kinds. */
export function seriesEnd(event: EventRecord, calendar: Pick<CalendarRecord, "timezone">): string | undefined {
  const recur = event.kind === "recurring" ? event.recur : null;
  if (!recur) return undefined;
  if (recur.until == null && recur.count == null) return OPEN_END;
  const starts = recur.starts ?? defaultStartsOf(event, calendar);
  if (recurError(recur) !== null) return recur.until ?? OPEN_END;
  return lastDayOf(lastOccurrence(recur, starts) ?? recur.until ?? starts, daysOf(event));
}

/** A one-off event's last day when it covers more than its date. */
const oneOffSpanEnd = (event: EventRecord): string | undefined =>
  event.kind === "one-off" && daysOf(event) > 1 ? lastDayOf(event.date!, daysOf(event)) : undefined;

/** The event as stored: its fields with the derived ones recomputed (a kind change drops `series_end`). */
export function storedEvent(event: EventRecord, calendar: Pick<CalendarRecord, "timezone">): EventRecord {
  const { series_end: _previous, span_end: _span, ...fields } = event;
  const end = seriesEnd(event, calendar);
  const spanEnd = oneOffSpanEnd(event);
  return {
    ...fields,
    sort_key: eventSortKey(event),
    ...(end === undefined ? {} : { series_end: end }),
    ...(spanEnd === undefined ? {} : { span_end: spanEnd }),
  };
}

/**
 * The exception as stored: `span_end` when its original occurrence (the series' `days` from
 * the original date) or the occurrence itself covers more than one date, the later last day.
 */
export function storedException(exception: ExceptionRecord, seriesDays: number): ExceptionRecord {
  const { span_end: _previous, ...fields } = exception;
  if (seriesDays <= 1 && daysOf(exception) <= 1) return fields;
  const originalEnd = lastDayOf(exception.original_date, seriesDays);
  const ownEnd = lastDayOf(exception.date, daysOf(exception));
  return { ...fields, span_end: originalEnd > ownEnd ? originalEnd : ownEnd };
}
