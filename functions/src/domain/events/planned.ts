/**
 * An event's planned dates (its series or its one date, before exceptions): the occurrence
 * queries expand them, and the event and exception commands check an original date against them.
 */
import { expandRecurrence, firstOccurrenceOnOrAfter, recurError } from "../recurrence/index.js";
import type { CalendarRecord, EventRecord } from "../records.js";
import type { Recur } from "../types.js";
import { defaultStartsOf } from "./stored.js";

/** A valid series' rule and the date it counts from; null for one-off events and odd records. */
export function ruleOf(event: EventRecord, calendar: CalendarRecord): { recur: Recur; starts: string } | null {
  const recur = event.kind === "recurring" ? event.recur : null;
  if (!recur || recurError(recur) !== null) return null; // every write is validated; never crash on an odd record
  return { recur, starts: recur.starts ?? defaultStartsOf(event, calendar) };
}

/** The event's own occurrences (series dates or its date), before exceptions, first one on or after `from`. */
export function firstPlannedDate(
  event: EventRecord,
  calendar: CalendarRecord,
  from: string,
  to: string,
): string | null {
  // The day after 9999-12-31 has a five-digit year, which would sort before `to` as text.
  if (from.length !== 10 || from > to) return null;
  if (event.kind === "one-off") return event.date! >= from && event.date! <= to ? event.date! : null;
  const rule = ruleOf(event, calendar);
  const date = rule ? firstOccurrenceOnOrAfter(rule.recur, rule.starts, from) : null;
  return date !== null && date <= to ? date : null;
}

/** Whether `date` is an occurrence of the event as planned (before exceptions). */
export function isPlannedDate(event: EventRecord, calendar: CalendarRecord, date: string): boolean {
  return firstPlannedDate(event, calendar, date, date) === date;
}

/** The event's own dates in [from, to], before exceptions. */
export function plannedDates(event: EventRecord, calendar: CalendarRecord, from: string, to: string): string[] {
  if (event.kind === "one-off") return event.date! >= from && event.date! <= to ? [event.date!] : [];
  const rule = ruleOf(event, calendar);
  return rule ? expandRecurrence(rule.recur, rule.starts, from, to) : [];
}
