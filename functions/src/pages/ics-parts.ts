/**
 * The pieces of a feed's VEVENTs that series, one-off events and exceptions share (ics.ts,
 * ics-exceptions.ts): an occurrence's own properties, its length as DURATION (DTEND for
 * all-day ones), and a wall-clock value ical-generator writes as stored.
 */
import { FEED_NOTE_CHARACTERS } from "./budgets.js";
import { markdownText } from "./markdown-text.js";
import type { ICalEventData, ICalLuxonDateTimeStub } from "ical-generator";
import { daysOf, endAfterStart } from "../domain/events/span.js";
import { addDays } from "../domain/recurrence/index.js";
import type { EventRecord, ExceptionRecord } from "../domain/records.js";
import type { Recur } from "../domain/types.js";

export interface IcsSource {
  /** `main` for the calendar's own events, else the layer key. */
  layer: string;
  /** The IANA zone this source's dates and times are local to (its own calendar's). */
  timezone: string;
  events: readonly EventRecord[];
  /** The exceptions of its series (any others are ignored). */
  exceptions: readonly ExceptionRecord[];
}

/** One VEVENT to write, with what orders it and the dates its zone's VTIMEZONE must cover. */
export interface IcsEntry {
  sortKey: string;
  data: ICalEventData;
  /** The TZID its times are written with; null for UTC or DATE values. */
  zone: string | null;
  years: number[];
  /** Its VALARMs: minutes before its start (ics-alarms.ts). */
  alarms: readonly number[];
}

/** When and how a series or one-off event happens within the feed's range. */
export interface Schedule {
  /** The first date (DTSTART). */
  date: string;
  /** `toRRule`'s rule for a series, else null. */
  rrule: string | null;
  /** The series' last allowed date (the range's end at the latest), or null. */
  until: string | null;
  /** For a series: the rule the RRULE says, the range applied, and the date it counts from by default. */
  recur: Recur | null;
  defaultStarts: string | null;
}

/** What one occurrence is: its date, times, text. */
export interface OccurrenceFields {
  date: string;
  start_time: string | null;
  end_time: string | null;
  /** Dates it covers; absent = 1. */
  days?: number;
  name: string;
  category: string | null;
  notes: string | null;
}

/** DTSTART, the length (DURATION, or DTEND for a day), SUMMARY, DESCRIPTION, CATEGORIES and the layer of an occurrence. */
export function occurrenceData(
  source: IcsSource,
  o: OccurrenceFields,
  extra: Array<[string, string]> = [],
): ICalEventData {
  const zone = source.timezone;
  const timed = o.start_time !== null;
  return {
    summary: o.name,
    start: new WallClock(o.date, o.start_time, zone),
    // Timed: DURATION below (without end_time, nothing: RFC 5545 makes it an instant).
    // All-day: DTEND is the day after the last, exclusive (RFC 5545 3.6.1).
    end: timed ? null : new WallClock(addDays(o.date, daysOf(o)), null, zone),
    allDay: !timed,
    timezone: zoneOf(zone, timed),
    description: feedNotes(o.notes),
    categories: o.category ? [{ name: o.category }] : [],
    x: [
      ...durationProperty(o.start_time, o.end_time, daysOf(o)),
      ...extra,
      ...(source.layer === "main" ? [] : [["X-ALMANAC-LAYER", source.layer] as [string, string]]),
    ],
  };
}

/**
 * Notes as a feed carries them: plain text (calendar apps show DESCRIPTION as typed, so
 * Markdown would show its asterisks), links kept as addresses, at most FEED_NOTE_CHARACTERS, so
 * that a feed's size and rendering time are bounded by its event budget (calendar apps show a
 * few lines; the page shows the notes whole). Only the carried part of the notes is parsed.
 */
export function feedNotes(notes: string | null): string | null {
  if (notes === null) return null;
  const text = markdownText(notes.slice(0, FEED_NOTE_CHARACTERS));
  if (notes.length <= FEED_NOTE_CHARACTERS && text.length <= FEED_NOTE_CHARACTERS) return text;
  return `${text.slice(0, FEED_NOTE_CHARACTERS)}… (shortened: the calendar's web page shows the whole notes)`;
}

/** The TZID timed values of `zone` are written with: none for UTC ("Z") or for DATE values. */
export const zoneOf = (zone: string, timed: boolean): string | null => (timed && !isUtc(zone) ? zone : null);

export const yearsOf = (...dates: Array<string | null>): number[] =>
  dates.filter((d): d is string => d !== null).map((d) => Number(d.slice(0, 4)));

export const isUtc = (zone: string): boolean => zone === "UTC";

/**
 * `DURATION:PT{n}M` for a timed occurrence with an end: `end_time - start_time`, +24 h when
 * the end is earlier (overnight), as `/occurrences` counts it; one spanning days first adds
 * whole days, `P{d}DT{n}M`, which RFC 5545 counts on the wall clock, as `/occurrences` does
 * (events/span.ts). ical-generator has no DURATION of its own; it writes each
 * `[name, value]` pair of `x` as `NAME:value`.
 */
function durationProperty(startTime: string | null, endTime: string | null, days: number): Array<[string, string]> {
  if (startTime === null || endTime === null) return [];
  const after = endAfterStart(days, startTime, endTime);
  return [["DURATION", `P${after.days > 0 ? `${after.days}D` : ""}T${after.minutes}M`]];
}

/**
 * A local date (and time) written exactly as stored. ical-generator formats luxon-like
 * values through `setZone(zone).toFormat(...)`; a real luxon DateTime would move a time
 * that falls in a DST gap (02:30 on a spring-forward day), which for a series would move
 * every occurrence. This value keeps the wall-clock reading; clients resolve gaps as
 * RFC 5545 says.
 */
export class WallClock implements ICalLuxonDateTimeStub {
  readonly zone = { type: "wallclock" };
  readonly isValid = true;

  constructor(
    readonly date: string,
    readonly time: string | null,
    private readonly zoneName: string,
  ) {}

  /** Only the own zone (or UTC for a UTC value, or anything for a date) can be asked for. */
  setZone(zone?: string): WallClock {
    const same = zone === this.zoneName || (isUtc(this.zoneName) && zone?.toUpperCase() === "UTC");
    if (this.time !== null && !same) throw new Error(`WallClock in ${this.zoneName} asked for zone ${zone}`);
    return this;
  }

  toFormat(format: string): string {
    if (format === "yyyyLLdd") return this.date.replaceAll("-", "");
    if (format === "HHmmss") return `${(this.time ?? "00:00").replace(":", "")}00`;
    throw new Error(`WallClock cannot format ${format}`);
  }

  /** Only used to order start and end: the reading as if it were UTC is enough. */
  toJSDate(): Date {
    return new Date(`${this.date}T${this.time ?? "00:00"}:00Z`);
  }

  toJSON(): string {
    return this.time === null ? this.date : `${this.date}T${this.time}:00`;
  }
}
