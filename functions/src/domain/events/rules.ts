/**
 * Event rules (docs/api.md#events) that span fields (the routes' zod schemas check each
 * field's shape): schedule kind, the PATCH transitions (docs/api.md#schedule-kinds), times, and recurrence.
 * Pure functions; every violation is `400 invalid_event` naming the field.
 */
import { errors } from "../errors.js";
import { eventAlarms, normalizeAlarms } from "./alarms.js";
import { dayNumber, firstOccurrenceOnOrAfter, LAST_DATE, recurError } from "../recurrence/index.js";
import type { EventRecord } from "../records.js";
import { daysOf } from "./span.js";
import type { EventKind, Recur, RecurType } from "../types.js";

/** `recur` as a client sends it: null inside means absent. */
export interface RecurInput {
  type: RecurType;
  day?: number | number[] | null;
  week?: number | null;
  month?: number | null;
  interval?: number | null;
  starts?: string | null;
  until?: string | null;
  count?: number | null;
}

/** Fields of a create or PATCH body after the schema; undefined = not sent, null = clear. */
export interface EventInput {
  name?: string;
  date?: string | null;
  recur?: RecurInput | null;
  start_time?: string | null;
  end_time?: string | null;
  /** 1..366 after the schema; null = 1. */
  days?: number | null;
  category?: string | null;
  notes?: string | null;
  art?: string | null;
  /** A list the schema let through; its values are checked here (events/alarms.ts). */
  alarms?: readonly unknown[] | null;
}

export type EventFields = Pick<
  EventRecord,
  "kind" | "name" | "date" | "recur" | "start_time" | "end_time" | "category" | "notes" | "art"
> & { alarms: number[]; days: number };

/** The fields as read from the store, where events written before alarms or spans have none stored. */
type StoredFields = Omit<EventFields, "alarms" | "days"> & Pick<EventRecord, "alarms" | "days">;

const EMPTY: EventFields = {
  kind: "someday",
  name: "",
  date: null,
  recur: null,
  start_time: null,
  end_time: null,
  category: null,
  notes: null,
  art: null,
  alarms: [],
  days: 1,
};

/** A series repeats at most every 1,000 days, weeks, months or years: every step stays in 0001-9999. */
export const MAX_RECUR_INTERVAL = 1000;

/** A counted series holds at most 10,000 occurrences (27 years of a daily one): its end is found in bounded steps. */
export const MAX_RECUR_COUNT = 10_000;

export const invalidEvent = (field: string, message: string) => errors.invalidField("invalid_event", field, message);

export const kindOf = (e: Pick<EventRecord, "date" | "recur">): EventKind =>
  e.date !== null ? "one-off" : e.recur !== null ? "recurring" : "someday";

/** The fields of a new event. `defaultStarts`: the creation date in the calendar's timezone. */
export function eventFieldsFromCreate(input: EventInput & { name: string }, defaultStarts: string): EventFields {
  return applyEventPatch(EMPTY, input, defaultStarts);
}

/**
 * docs/api.md#schedule-kinds: a non-null `recur` clears `date` and a non-null `date` clears `recur` (both
 * at once is an error); `date: null` and `recur: null` leave a someday event;
 * `start_time: null` clears both times; null clears category, notes and art, and null or [] the alarms;
 * `days` stays until sent (null is 1), and a someday event has one.
 */
export function applyEventPatch(current: StoredFields, patch: EventInput, defaultStarts: string): EventFields {
  if (patch.date != null && patch.recur != null) {
    throw invalidEvent(
      "recur",
      "cannot be sent with `date`: send `date` for a one-off event or `recur` for a recurring one",
    );
  }
  let { date, recur, start_time, end_time } = current;
  if (patch.recur !== undefined) {
    recur = patch.recur === null ? null : normalizeRecur(patch.recur, defaultStarts);
    if (recur) date = null;
  }
  if (patch.date !== undefined) {
    date = patch.date;
    if (date) recur = null;
  }
  if (patch.start_time !== undefined) {
    start_time = patch.start_time;
    if (start_time === null) end_time = null;
  }
  if (patch.end_time !== undefined) end_time = patch.end_time;
  const days = spanOf(date, recur, patch.days, daysOf(current));
  checkTimes(start_time, end_time, days, patch.end_time !== undefined ? "end_time" : "start_time");

  const next: EventFields = {
    kind: "someday",
    name: patch.name ?? current.name,
    date,
    recur,
    start_time,
    end_time,
    days,
    category: patch.category !== undefined ? patch.category : current.category,
    notes: patch.notes !== undefined ? patch.notes : current.notes,
    art: patch.art !== undefined ? patch.art : current.art,
    alarms: patch.alarms === undefined ? eventAlarms(current) : normalizeAlarms(patch.alarms ?? []),
  };
  next.kind = kindOf(next);
  return next;
}

/**
 * The dates each occurrence covers: as sent, else as stored. A someday event has no date to
 * span from: it keeps one day, and asking it for more is refused.
 */
function spanOf(date: string | null, recur: Recur | null, sent: number | null | undefined, stored: number): number {
  const days = sent === undefined ? stored : (sent ?? 1);
  if (date === null && recur === null) {
    if (sent != null && sent > 1) {
      throw invalidEvent("days", "needs a `date` or a `recur`: a someday event has no date to span from");
    }
    return 1;
  }
  if (date !== null && dayNumber(date) + days - 1 > dayNumber(LAST_DATE)) {
    throw invalidEvent("days", `runs past 9999-12-31 from ${date}: send fewer days or an earlier date`);
  }
  return days;
}

function checkTimes(start: string | null, end: string | null, days: number, blame: "start_time" | "end_time"): void {
  if (end === null) {
    if (start !== null && days > 1) {
      throw invalidEvent(
        "end_time",
        `is needed with \`days\` ${days}: a timed event that spans days ends at \`end_time\` on its last day`,
      );
    }
    return;
  }
  if (start === null)
    throw invalidEvent("end_time", "needs a `start_time`; send both, or neither for an all-day event");
  // Over several days any end time is after the start; in one, an end_time earlier than
  // start_time ends the next day (overnight, 22:00-02:00), and an equal one has no length at all.
  if (end === start && days === 1) {
    throw invalidEvent(
      blame,
      `is ${end}, the same as the other time: send an \`end_time\` after \`start_time\` (${start}), ` +
        "an earlier one for an event that ends the next day (22:00 to 02:00), or `end_time: null`",
    );
  }
}

const RECUR_FIELDS = ["type", "interval", "count", "starts", "until", "month", "week", "day"] as const;

/** recurError's message names the offending field; point `details.field` at it. */
function recurField(message: string): string {
  let best: string = "recur";
  let at = Infinity;
  for (const f of RECUR_FIELDS) {
    const i = message.search(new RegExp(`\\b${f}\\b`));
    if (i >= 0 && i < at) {
      at = i;
      best = `recur.${f}`;
    }
  }
  return best;
}

/**
 * Validates a rule and stores it explicitly: `starts` is filled with its default (the
 * event's creation date in the calendar's timezone) so the series never shifts later, and
 * `interval` with 1. A rule that can never occur (until before starts, yearly Feb 30) is refused.
 */
export function normalizeRecur(input: RecurInput, defaultStarts: string): Recur {
  const { interval } = input;
  if (interval != null && !(Number.isInteger(interval) && interval >= 1 && interval <= MAX_RECUR_INTERVAL)) {
    throw invalidEvent("recur.interval", `must be an integer from 1 to ${MAX_RECUR_INTERVAL}`);
  }
  const { count } = input;
  if (count != null && !(Number.isInteger(count) && count >= 1 && count <= MAX_RECUR_COUNT)) {
    throw invalidEvent("recur.count", `must be an integer from 1 to ${MAX_RECUR_COUNT} (the number of occurrences)`);
  }
  if (count != null && input.until != null) {
    throw invalidEvent(
      "recur.count",
      "cannot be sent with `recur.until`: end the series either after `count` occurrences or on the `until` date",
    );
  }
  const recur: Recur = { type: input.type, interval: input.interval ?? 1, starts: input.starts ?? defaultStarts };
  // Kept as sent (a weekday list in its order, 0 or 7 for Sunday): GET returns what was written.
  if (input.day != null) recur.day = Array.isArray(input.day) ? [...input.day] : input.day;
  if (input.week != null) recur.week = input.week;
  if (input.month != null) recur.month = input.month;
  if (input.until != null) recur.until = input.until;
  if (count != null) recur.count = count;
  const err = recurError(recur);
  if (err) throw invalidEvent(recurField(err), `is invalid: ${err}`);
  if (recur.until !== undefined && recur.until < recur.starts!) {
    throw invalidEvent(
      "recur.until",
      `must be on or after \`recur.starts\` (${recur.starts}` +
        `${input.starts == null ? ", the event's creation date, used when starts is omitted" : ""})`,
    );
  }
  if (firstOccurrenceOnOrAfter(recur, recur.starts!, recur.starts!) === null) {
    throw invalidEvent(
      "recur",
      "never occurs up to 9999-12-31 (e.g. the 30th of February); check `day`, `week`, `month`, `interval` and `until`",
    );
  }
  return recur;
}
