/**
 * A series' exceptions in its feed (docs/api.md#icalendar-feeds), so that a client expands the same
 * occurrences as `/occurrences`:
 * - cancelled: EXDATE at the original date and the series' start time (a DATE for an all-day
 *   series), in the series' zone;
 * - moved or changed: a VEVENT with the series' UID and a RECURRENCE-ID naming the original
 *   occurrence (its date at the series' start time), carrying its own DTSTART, DURATION,
 *   SUMMARY, DESCRIPTION, CATEGORIES, SEQUENCE and the occurrence's alarms.
 * A share view's feed cuts the series to the view's dates and decides on each occurrence by its
 * own category and date: an occurrence the view does not show (moved out of its dates,
 * re-categorised out of it) is an EXDATE. One it shows that no RECURRENCE-ID can name (moved
 * in from a date the cut series does not have), or whose series the view does not show
 * (re-categorised into it, or the series has no date of its own left in the view's), is a
 * VEVENT of its own, UID `{exception id}@host`: clients disagree on a RECURRENCE-ID whose
 * series is absent, and read a plain event alike.
 */
import type { ICalEventData } from "ical-generator";
import { effectiveAlarms } from "../domain/events/alarms.js";
import { firstOccurrenceOnOrAfter } from "../domain/recurrence/index.js";
import type { EventRecord, ExceptionRecord } from "../domain/records.js";
import {
  isUtc,
  occurrenceData,
  WallClock,
  yearsOf,
  zoneOf,
  type IcsEntry,
  type IcsSource,
  type Schedule,
} from "./ics-parts.js";

export interface ExceptionsInFeed {
  /** The EXDATE line of the series, or null. */
  exdate: string | null;
  /** Overrides and moved-in occurrences; `sortKey` orders them after their series. */
  entries: IcsEntry[];
}

interface ExceptionsInput {
  event: EventRecord;
  source: IcsSource;
  uidDomain: string;
  range: { from: string | null; to: string | null } | undefined;
  exceptions: readonly ExceptionRecord[];
  /** Whether the feed shows this occurrence (a share view's filter on its category and date). */
  shows: (e: ExceptionRecord) => boolean;
}

/** Whether an exception is an occurrence the feed shows: not cancelled, in its range, let through. */
function shownIn(input: ExceptionsInput): (e: ExceptionRecord) => boolean {
  const from = input.range?.from ?? null;
  const to = input.range?.to ?? null;
  return (e) => !e.cancelled && (!from || e.date >= from) && (!to || e.date <= to) && input.shows(e);
}

/** The exceptions of a series the feed writes (its VEVENT with RRULE is in the feed). */
export function exceptionEntries(input: ExceptionsInput & { schedule: Schedule }): ExceptionsInFeed {
  const { event, source, uidDomain, schedule } = input;
  const isShown = shownIn(input);
  const { recur, defaultStarts } = schedule;
  const inSeries = (date: string) =>
    recur !== null &&
    defaultStarts !== null &&
    date >= schedule.date &&
    firstOccurrenceOnOrAfter(recur, defaultStarts, date) === date;

  const excluded: string[] = [];
  const entries: IcsEntry[] = [];
  for (const e of [...input.exceptions].sort((a, b) => (a.original_date < b.original_date ? -1 : 1))) {
    const shown = isShown(e);
    const original = inSeries(e.original_date);
    if (original && !shown) excluded.push(e.original_date);
    else if (shown)
      entries.push(original ? override(e, event, source, uidDomain) : movedIn(e, event, source, uidDomain));
  }
  return { exdate: excluded.length > 0 ? exdateLine(excluded, event.start_time, source.timezone) : null, entries };
}

/** EXDATE in the form of the series' DTSTART: DATE values, UTC times, or local times with TZID. */
function exdateLine(dates: string[], startTime: string | null, zone: string): string {
  if (startTime === null) return `EXDATE;VALUE=DATE:${dates.map(compact).join(",")}`;
  const times = dates.map((d) => `${compact(d)}T${startTime.replace(":", "")}00`);
  return isUtc(zone) ? `EXDATE:${times.map((t) => `${t}Z`).join(",")}` : `EXDATE;TZID=${zone}:${times.join(",")}`;
}

/** The VEVENT that replaces one occurrence of the series. */
function override(e: ExceptionRecord, event: EventRecord, source: IcsSource, uidDomain: string): IcsEntry {
  const zone = source.timezone;
  const seriesTimed = event.start_time !== null;
  // RECURRENCE-ID has the value type of the series' DTSTART, whatever the occurrence became.
  const recurrenceDate: Array<[string, string]> = seriesTimed
    ? []
    : [["RECURRENCE-ID;VALUE=DATE", compact(e.original_date)]];
  const data: ICalEventData = {
    ...occurrenceData(source, e, recurrenceDate),
    ...stamps(e, `${event.id}@${uidDomain}`),
  };
  if (seriesTimed) {
    data.recurrenceId = new WallClock(e.original_date, event.start_time, zone);
    // ical-generator writes RECURRENCE-ID with the event's TZID; a day's DTSTART ignores it.
    data.timezone = zoneOf(zone, true);
  }
  return {
    sortKey: e.original_date,
    data,
    zone: zoneOf(zone, seriesTimed || e.start_time !== null),
    years: yearsOf(e.date, e.original_date),
    alarms: effectiveAlarms(event, e),
  };
}

/**
 * The shown occurrences of a series the feed does not write (its own occurrences are not
 * shown, or none is left in the range), each an event of its own.
 */
export function standaloneEntries(input: ExceptionsInput): IcsEntry[] {
  const { event, source, uidDomain } = input;
  return input.exceptions.filter(shownIn(input)).map((e) => ({
    ...movedIn(e, event, source, uidDomain),
    // In the feed's order of events: by its own date and time, as a one-off event.
    sortKey: `${e.date} ${e.start_time ?? ""} ${event.created_at} ${event.id} ${e.original_date}`,
  }));
}

/** An occurrence as an event of its own: no RECURRENCE-ID of the series' can name it. */
function movedIn(e: ExceptionRecord, event: EventRecord, source: IcsSource, uidDomain: string): IcsEntry {
  return {
    sortKey: e.original_date,
    data: { ...occurrenceData(source, e), ...stamps(e, `${e.id}@${uidDomain}`) },
    zone: zoneOf(source.timezone, e.start_time !== null),
    years: yearsOf(e.date),
    alarms: effectiveAlarms(event, e),
  };
}

const stamps = (
  e: ExceptionRecord,
  uid: string,
): Pick<ICalEventData, "id" | "sequence" | "stamp" | "created" | "lastModified"> => ({
  id: uid,
  sequence: e.sequence,
  stamp: new Date(e.updated_at),
  created: new Date(e.created_at),
  lastModified: new Date(e.updated_at),
});

const compact = (date: string): string => date.replaceAll("-", "");
