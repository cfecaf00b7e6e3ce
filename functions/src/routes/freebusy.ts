import { z } from "zod";
import { freeSlots } from "../domain/freebusy/intervals.js";
import { parseDays, parseHours, workingWindows } from "../domain/freebusy/hours.js";
import { MAX_RANGE_DAYS, parseBound, rangeProblem, type TimeBound } from "../domain/freebusy/range.js";
import { MINUTE_MS } from "../domain/freebusy/zone.js";
import { isIdOf } from "../domain/ids.js";
import {
  busyTime,
  freeBusyScope,
  MAX_FREEBUSY_CALENDARS,
  type FreeBusyRequest,
  type FreeBusyScope,
} from "../domain/queries/freebusy.js";
import { answerKey } from "../http/response-cache.js";
import { defineRoute } from "../http/route.js";
import { presentFreeBusy, presentSlots } from "../presenters/freebusy.js";
import { timezone } from "./common.js";
import { freeBusyAnswer, slotsAnswer } from "../presenters/schemas/freebusy.js";

/** Most slots one answer lists. */
const MAX_SLOTS = 100;

/** `cal_a,cal_b`, or the same as a JSON list (`["cal_a","cal_b"]`), which agents often send. */
function calendarIds(list: string): string[] {
  const trimmed = list.trim();
  if (trimmed.startsWith("[")) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (Array.isArray(parsed) && parsed.every((id) => typeof id === "string")) return [...new Set(parsed)];
    } catch {
      // Not JSON after all: judged below as a comma-separated list, and refused with its format.
    }
  }
  return [...new Set(list.split(","))];
}

const calendars = z
  .string()
  .refine((list) => calendarIds(list).every((id) => isIdOf("cal", id)), {
    message:
      'must be calendar ids as the API returned them, separated by commas (`cal_a,cal_b`) or as a JSON list (`["cal_a","cal_b"]`)',
    abort: true,
  })
  .refine((list) => calendarIds(list).length <= MAX_FREEBUSY_CALENDARS, {
    message: `must name at most ${MAX_FREEBUSY_CALENDARS} calendars; split the request`,
  })
  .describe(`Calendar ids separated by commas, at most ${MAX_FREEBUSY_CALENDARS}`);

const BOUND_MESSAGE =
  "must be a date (`2026-07-06`) or an instant with its UTC offset (`2026-07-06T09:00:00+02:00` or `...Z`)";
const bound = (description: string) =>
  z
    .string()
    .refine((text) => parseBound(text) !== null, { message: BOUND_MESSAGE })
    .describe(description);

const rangeFields = {
  calendars,
  from: bound("Start: a date, or an instant with offset"),
  to: bound(`End: a date (included), or an instant; at most ${MAX_RANGE_DAYS} days on`),
};

/** The 62-day rule, once both ends read as dates or instants. */
const checkRange = (query: { from: string; to: string }, ctx: z.RefinementCtx) => {
  const from = parseBound(query.from);
  const to = parseBound(query.to);
  const problem = from && to ? rangeProblem(from, to) : null;
  if (problem) ctx.addIssue({ code: "custom", message: problem, path: ["to"] });
};

const freeBusyQuery = z
  .strictObject({
    ...rangeFields,
    timezone: timezone.optional().describe("IANA zone of dates and answer; default the first calendar's"),
  })
  .superRefine(checkRange);

const slotsQuery = z
  .strictObject({
    ...rangeFields,
    minutes: z.coerce
      .number({ message: "must be a whole number of minutes from 1 to 1440" })
      .int({ message: "must be a whole number of minutes from 1 to 1440" })
      .min(1, { message: "must be a whole number of minutes from 1 to 1440" })
      .max(1440, { message: "must be a whole number of minutes from 1 to 1440" })
      .describe("Meeting length, minutes"),
    hours: z
      .string()
      .refine((text) => parseHours(text) !== null, {
        message:
          "must be local working hours `HH:MM-HH:MM` such as `09:00-17:00` (`24:00` ends at midnight; " +
          "an end before the start runs past midnight: `22:00-06:00`)",
      })
      .default("09:00-17:00")
      .describe("Working hours HH:MM-HH:MM in `timezone`"),
    days: z
      .string()
      .refine((text) => parseDays(text) !== null, {
        message:
          "must be ISO weekdays (Monday = 1, Sunday = 7 or 0) as a list and upward ranges: `1-5`, `1,3,5`, `1-3,6`",
      })
      .default("1-5")
      .describe("Working days (1 Monday, 7 Sunday): `1-5`, `1,3,5`"),
    timezone: timezone.optional().describe("IANA zone of hours, dates and answer; default the first calendar's"),
    limit: z.coerce
      .number({ message: `must be an integer from 1 to ${MAX_SLOTS}` })
      .int({ message: `must be an integer from 1 to ${MAX_SLOTS}` })
      .min(1, { message: `must be an integer from 1 to ${MAX_SLOTS}` })
      .max(MAX_SLOTS, { message: `must be an integer from 1 to ${MAX_SLOTS}` })
      .default(MAX_SLOTS)
      .describe("Most slots, earliest first"),
  })
  .superRefine(checkRange);

/** The request as the domain reads it (the schema has checked every part). */
const requestOf = (query: { calendars: string; from: string; to: string; timezone?: string }): FreeBusyRequest => ({
  ids: calendarIds(query.calendars),
  from: parseBound(query.from) as TimeBound,
  to: parseBound(query.to) as TimeBound,
  timezone: query.timezone,
});

/**
 * A cached answer is keyed by everything it is computed from: the range as instants, the zone,
 * each named calendar's sources and their revisions (none for one the caller may not read),
 * and the rest of the parsed query; hashed, since twenty calendars with layers make a long key.
 */
const cacheKey = (kind: string, scope: FreeBusyScope, rest: unknown[]): string =>
  answerKey(
    kind,
    scope.range.start,
    scope.range.end,
    scope.zone,
    scope.calendars.map((c) => (c.calendar ? `${c.id}=${c.revisions}` : `${c.id}=none`)),
    ...rest,
  );

export const freeBusyRoutes = [
  defineRoute({
    method: "get",
    path: "/v1/freebusy",
    summary:
      "Busy intervals of up to 20 calendars (with their readable layers) in a range of at most 62 days, " +
      "per calendar and merged; a calendar you may not read answers `not_found` in its entry",
    tags: ["freebusy"],
    auth: "optional",
    query: freeBusyQuery,
    response: freeBusyAnswer,
    errors: ["invalid_request", "unauthorized", "insufficient_scope", "too_expensive"],
    handler: async ({ deps, actor, query }) => {
      const scope = await freeBusyScope(deps, actor, requestOf(query), { everyCalendar: false });
      return deps.cache.json(cacheKey("freebusy", scope, []), () =>
        deps.expensiveReads(actor === null, async () => presentFreeBusy(scope, await busyTime(deps, scope))),
      );
    },
  }),
  defineRoute({
    method: "get",
    path: "/v1/freebusy/slots",
    summary:
      "Find free time: the earliest stretches of at least `minutes` in which every named calendar is free, " +
      "inside working hours (`hours` on `days`, in `timezone`), at most 100; use it before proposing a meeting time",
    tags: ["freebusy"],
    auth: "optional",
    query: slotsQuery,
    response: slotsAnswer,
    errors: ["invalid_request", "unauthorized", "insufficient_scope", "not_found", "too_expensive"],
    handler: async ({ deps, actor, query }) => {
      // A calendar left out would look free: every one must be readable (else 404).
      const scope = await freeBusyScope(deps, actor, requestOf(query), { everyCalendar: true });
      const rest = [query.minutes, query.hours, query.days, query.limit];
      return deps.cache.json(cacheKey("slots", scope, rest), () =>
        deps.expensiveReads(actor === null, async () => {
          const windows = workingWindows(scope.clock, scope.range, parseHours(query.hours)!, parseDays(query.days)!);
          const busy = await busyTime(deps, scope);
          return presentSlots(scope.clock, freeSlots(windows, busy.merged, query.minutes * MINUTE_MS, query.limit));
        }),
      );
    },
  }),
];
