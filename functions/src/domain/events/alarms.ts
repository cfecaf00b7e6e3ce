/**
 * Alarms (docs/api.md#alarms): reminders given as minutes before an occurrence's start. An
 * event carries its list; an exception may carry its own for its one occurrence (absent: it
 * follows the event). Pure functions: what a client may send, the list an occurrence alarms
 * with, and the instants its alarms fall at, which a scheduler can append to the change feed.
 */
import { DateTime } from "luxon";
import { errors } from "../errors.js";
import type { EventRecord, ExceptionRecord } from "../records.js";

export const MAX_ALARMS = 5;

/** Four weeks: the earliest reminder, and a bound on how far ahead a scheduler must look. */
export const MAX_ALARM_MINUTES = 40_320;

const MINUTE_MS = 60_000;

const invalidAlarms = (message: string) => errors.invalidField("invalid_event", "alarms", message);

const EXAMPLE = "such as [1440, 15] for a day and a quarter of an hour before";

/**
 * The list as stored, largest offset first: the schema has checked it is a list; here each
 * value is checked, so every problem is reported on `alarms` itself with what to send. A
 * duplicate is refused rather than dropped, since it usually means a typo in another value.
 */
export function normalizeAlarms(list: readonly unknown[]): number[] {
  if (list.length > MAX_ALARMS) {
    throw invalidAlarms(`holds ${list.length} alarms: send at most ${MAX_ALARMS}, ${EXAMPLE}`);
  }
  const seen = new Set<number>();
  for (const value of list) {
    if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > MAX_ALARM_MINUTES) {
      throw invalidAlarms(
        `holds ${shown(value)}: each alarm is a whole number of minutes before the start, ` +
          `from 0 to ${MAX_ALARM_MINUTES} (four weeks), ${EXAMPLE}`,
      );
    }
    if (seen.has(value)) throw invalidAlarms(`lists ${value} twice: send each number of minutes once`);
    seen.add(value);
  }
  return [...seen].sort((a, b) => b - a);
}

/** A value as the client sent it, cut short: a message names it without echoing a long text. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= 32 ? text : `${text.slice(0, 31)}…`;
}

/** An event's alarms; events written before alarms existed have none stored. */
export const eventAlarms = (event: Pick<EventRecord, "alarms">): number[] => event.alarms ?? [];

/** What one occurrence alarms with: its exception's own list when it has one, else the event's. */
export const effectiveAlarms = (
  event: Pick<EventRecord, "alarms">,
  exception?: Pick<ExceptionRecord, "alarms"> | null,
): number[] => exception?.alarms ?? eventAlarms(event);

/**
 * Where an occurrence starts: its exact start (ISO 8601 with offset, or epoch ms) when timed;
 * for an all-day one, its date and the zone of the event's own calendar.
 */
export type OccurrenceStart = { instant: string | number } | { date: string; timezone: string };

/** Epoch milliseconds of the occurrence's start; an all-day one starts at its date's first instant. */
export function startInstant(start: OccurrenceStart): number {
  if ("instant" in start) return typeof start.instant === "number" ? start.instant : Date.parse(start.instant);
  // A day whose midnight falls in a DST gap starts when the clocks resume, as luxon reads it.
  return DateTime.fromISO(start.date, { zone: start.timezone }).toMillis();
}

/**
 * The instants (epoch milliseconds) at which each alarm of one occurrence falls, in the order
 * of `offsets`: the start minus that many minutes of elapsed time, DST changes in between
 * included.
 */
export function alarmInstants(start: OccurrenceStart, offsets: readonly number[]): number[] {
  const at = startInstant(start);
  return offsets.map((minutes) => at - minutes * MINUTE_MS);
}
