/**
 * Moved and cancelled occurrences as pages show them. Occurrences (domain/queries/occurrences.ts)
 * drop a cancelled date and show a moved one only where it now is; a page also marks the slot it
 * left: struck through, "Cancelled" or "moved to …" linking to where it went, and the moved
 * occurrence says where it came from. Slots are placed in the page's zone, as occurrences are.
 */
import { DateTime } from "luxon";
import type { LoadedSource } from "../domain/queries/occurrences.js";
import { durationMinutes, MINUTE_MS } from "../domain/events/instants.js";
import type { EventRecord, ExceptionRecord } from "../domain/records.js";
import { placeOccurrence, placerFor, type PagePlace } from "./placement.js";

/** A slot as placed on the page, with its start instant (null when untimed) for ordering. */
export type PlacedSlot = PagePlace & { start: number | null };

/** One occurrence of a series that an exception cancelled or moved. */
export interface ChangedOccurrence {
  layer: string;
  event: EventRecord;
  exception: ExceptionRecord;
  /** Where the series had it. */
  from: PlacedSlot;
  /** Where it is now; null when cancelled. */
  to: PlacedSlot | null;
}

/** `{calendarId}/{eventId}/{originalDate}`: an occurrence's identity across its moves. */
export const occurrenceKey = (calendarId: string, eventId: string, originalDate: string): string =>
  `${calendarId}/${eventId}/${originalDate}`;

/** An exception moved its occurrence when it changed the date or the start time; other changes keep the slot. */
export const isMoved = (event: EventRecord, x: ExceptionRecord): boolean =>
  !x.cancelled && (x.date !== x.original_date || x.start_time !== event.start_time);

/** A wall-clock slot of `zone` placed in the page's zone: the instant of its start, and its length. */
function slotIn(
  zone: string,
  place: ReturnType<typeof placerFor>,
  date: string,
  startTime: string | null,
  endTime: string | null,
): PlacedSlot {
  if (startTime === null) return { date, start_time: null, end_time: null, end_date: null, start: null };
  const start = DateTime.fromISO(`${date}T${startTime}`, { zone }).toMillis();
  const end = endTime === null ? null : start + durationMinutes(startTime, endTime) * MINUTE_MS;
  return { ...placeOccurrence({ date, start, end }, place), start };
}

/**
 * Every cancelled or moved occurrence of the sources' series whose old or new date lies in
 * `near` (dates of their own zones), both slots placed in `pageZone`.
 */
export function changedOccurrences(
  sources: readonly LoadedSource[],
  pageZone: string,
  near: { from: string; to: string },
): ChangedOccurrence[] {
  const within = (date: string) => date >= near.from && date <= near.to;
  const place = placerFor(pageZone);
  const changed: ChangedOccurrence[] = [];
  for (const source of sources) {
    const zone = source.calendar.timezone;
    const series = new Map(source.events.filter((e) => e.kind === "recurring").map((e) => [e.id, e]));
    for (const x of source.exceptions) {
      const event = series.get(x.event_id);
      if (!event || !(within(x.original_date) || within(x.date)) || !(x.cancelled || isMoved(event, x))) continue;
      changed.push({
        layer: source.layer,
        event,
        exception: x,
        from: slotIn(zone, place, x.original_date, event.start_time, event.end_time),
        to: x.cancelled ? null : slotIn(zone, place, x.date, x.start_time, x.end_time),
      });
    }
  }
  return changed;
}
