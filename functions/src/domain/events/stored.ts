/**
 * What an event stores besides its fields, derived on every write so that reads can ask the
 * store for a page or a range instead of reading every event:
 * - `sort_key`, its place in the list (docs/api.md#events-list: dated by date then start
 *   time, untimed first, then recurring, then someday; ties by creation);
 * - `series_end`, a series' last possible date, which range reads bound series by
 *   (queries/occurring.ts).
 */
import { lastOccurrence, recurError, todayIn } from "../recurrence/index.js";
import type { CalendarRecord, EventRecord } from "../records.js";
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

/** A series' last possible date; undefined for other kinds. */
export function seriesEnd(event: EventRecord, calendar: Pick<CalendarRecord, "timezone">): string | undefined {
  const recur = event.kind === "recurring" ? event.recur : null;
  if (!recur) return undefined;
  if (recur.until == null && recur.count == null) return OPEN_END;
  const starts = recur.starts ?? defaultStartsOf(event, calendar);
  if (recurError(recur) !== null) return recur.until ?? OPEN_END;
  return lastOccurrence(recur, starts) ?? recur.until ?? starts;
}

/** The event as stored: its fields with the derived ones recomputed (a kind change drops `series_end`). */
export function storedEvent(event: EventRecord, calendar: Pick<CalendarRecord, "timezone">): EventRecord {
  const { series_end: _previous, ...fields } = event;
  const end = seriesEnd(event, calendar);
  return { ...fields, sort_key: eventSortKey(event), ...(end === undefined ? {} : { series_end: end }) };
}
