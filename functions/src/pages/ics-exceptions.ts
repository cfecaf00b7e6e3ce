/**
 * A series' exceptions in its feed (DECISIONS 5 and 9), so that a client expands the same
 * occurrences as `/occurrences`:
 * - cancelled: EXDATE at the original date and the series' start time (a DATE for an all-day
 *   series), in the series' zone;
 * - moved or changed: a VEVENT with the series' UID and a RECURRENCE-ID naming the original
 *   occurrence (its date at the series' start time), carrying its own DTSTART, DURATION,
 *   SUMMARY, DESCRIPTION, CATEGORIES and SEQUENCE.
 * A share view's feed cuts the series to the view's dates: an occurrence moved out of them is
 * an EXDATE, and one moved into them from a date the cut series does not have (a
 * RECURRENCE-ID must name one of its occurrences) is a VEVENT of its own, UID
 * `{exception id}@host`.
 */
import type { ICalEventData } from "ical-generator";
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

export function exceptionEntries(input: {
  event: EventRecord;
  source: IcsSource;
  uidDomain: string;
  range: { from: string | null; to: string | null } | undefined;
  schedule: Schedule;
  exceptions: readonly ExceptionRecord[];
}): ExceptionsInFeed {
  const { event, source, uidDomain, schedule } = input;
  const from = input.range?.from ?? null;
  const to = input.range?.to ?? null;
  const inRange = (date: string) => (!from || date >= from) && (!to || date <= to);
  const { recur, defaultStarts } = schedule;
  const inSeries = (date: string) =>
    recur !== null &&
    defaultStarts !== null &&
    date >= schedule.date &&
    firstOccurrenceOnOrAfter(recur, defaultStarts, date) === date;

  const excluded: string[] = [];
  const entries: IcsEntry[] = [];
  for (const e of [...input.exceptions].sort((a, b) => (a.original_date < b.original_date ? -1 : 1))) {
    const shown = !e.cancelled && inRange(e.date);
    const original = inSeries(e.original_date);
    if (original && !shown) excluded.push(e.original_date);
    else if (shown) entries.push(original ? override(e, event, source, uidDomain) : movedIn(e, source, uidDomain));
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
  };
}

/** An occurrence moved into a view's dates from outside the cut series: an event of its own. */
function movedIn(e: ExceptionRecord, source: IcsSource, uidDomain: string): IcsEntry {
  return {
    sortKey: e.original_date,
    data: { ...occurrenceData(source, e), ...stamps(e, `${e.id}@${uidDomain}`) },
    zone: zoneOf(source.timezone, e.start_time !== null),
    years: yearsOf(e.date),
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
