import { z } from "zod";
import { createEvent, deleteEvent, updateEvent } from "../domain/commands/events.js";
import { getEvent, listEvents, startSourceReads } from "../domain/queries/events.js";
import { loadOccurring } from "../domain/queries/occurring.js";
import { MAX_OCCURRENCE_DAYS, pageOccurrencesInTurns } from "../domain/queries/occurrences.js";
import { eventSources } from "../domain/queries/sources.js";
import { eventUsage } from "../domain/quotas.js";
import { freshnessFor, revisionsKey } from "../domain/revision.js";
import { daysBetween, isValidDate } from "../domain/recurrence/index.js";
import { EVENT_KINDS, RECUR_TYPES } from "../domain/types.js";
import { answerKey } from "../http/response-cache.js";
import { defineRoute } from "../http/route.js";
import { presentEvent, presentOccurrence } from "../presenters/events.js";
import {
  alarmList,
  calendarParams,
  date,
  deleted,
  freeText,
  idOf,
  pageQuery,
  spanDays,
  time,
  trimmedName,
} from "./common.js";
import { eventRecord, occurrenceRecord } from "../presenters/schemas/events.js";

// Ranges of day, week, month, interval and count depend on the type; domain/events/rules.ts
// checks them with recurError. A `recur` that is not an object at all ("weekly") is shown the shape.
const recur = z
  .strictObject(
    {
      type: z.enum(RECUR_TYPES).describe("Period"),
      day: z
        .union([z.number(), z.array(z.number())], {
          error: "must be a number, or for a weekly rule a list of weekdays such as [1,3,5]",
        })
        .nullable()
        .optional()
        .describe("Weekday 0-7 (1 Monday, 0 or 7 Sunday) or a list of them, or day of month 1-31 (-1 last)"),
      week: z.number().nullable().optional().describe("Monthly, with a weekday `day`: week 1-5 (-1 last)"),
      month: z.number().nullable().optional().describe("Yearly: month 1-12"),
      interval: z.number().nullable().optional().describe("Every n-th period, default 1"),
      starts: date.nullable().optional().describe("First date, default the creation day (calendar's timezone)"),
      until: date.nullable().optional().describe("Last date (not with count)"),
      count: z.number().nullable().optional().describe("Number of occurrences (not with until)"),
    },
    {
      error: (issue) =>
        issue.code === "invalid_type"
          ? 'must be an object such as {"type":"weekly","day":[1,2,3,4,5]} (Monday to Friday), ' +
            "with `type` daily, weekly, monthly or yearly"
          : undefined,
    },
  )
  .meta({
    description: "Rule of a series (/docs/events.md#recurrence)",
    examples: [
      { type: "weekly", day: [1, 2, 3, 4, 5] },
      { type: "monthly", week: 2, day: 2 },
      { type: "monthly", week: -1, day: 5, count: 12 },
      { type: "yearly", month: 3, day: 14, starts: "2027-01-01", until: "2030-12-31" },
    ],
  });

/** An emoji or short text, or an image URL; a URL must be https. */
const art = trimmedName(2048).refine(
  (value) => {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1].toLowerCase();
    if (scheme === "https") return URL.canParse(value);
    return (
      !value.includes("://") &&
      !["http", "javascript", "data", "vbscript", "file", "ftp", "blob"].includes(scheme ?? "")
    );
  },
  { message: "must be an emoji, short text, or an https: image URL" },
);

const fields = {
  date: date.nullable().optional().describe("One-off date YYYY-MM-DD"),
  recur: recur.nullable().optional(),
  start_time: time.nullable().optional().describe("HH:MM; none for all-day"),
  end_time: time.nullable().optional().describe("HH:MM; before start_time ends next day"),
  days: spanDays.nullable().optional().describe("Days it spans, default 1"),
  category: trimmedName(64).nullable().optional().describe("Label to filter by"),
  notes: freeText(10_000).nullable().optional().describe("Free text"),
  art: art.nullable().optional().describe("Emoji, short text or https image URL"),
  alarms: alarmList
    .nullable()
    .optional()
    .meta({
      description: "Reminders, minutes before each start; [] for none",
      examples: [[15], [1440, 60]],
    }),
};

const createBody = z.strictObject({ name: trimmedName(200).describe("Event name"), ...fields }).meta({
  examples: [
    {
      name: "Standup",
      recur: { type: "weekly", day: [1, 2, 3, 4, 5] },
      start_time: "09:30",
      end_time: "09:45",
      category: "team",
      alarms: [10],
    },
    // An end_time earlier than start_time ends the next day.
    { name: "Night deploy window", date: "2027-01-15", start_time: "22:00", end_time: "02:00" },
    { name: "Offsite", date: "2027-03-08", days: 3, category: "team" },
    { name: "Conference", date: "2027-05-10", days: 3, start_time: "09:00", end_time: "17:00" },
    { name: "Release review", recur: { type: "monthly", week: -1, day: 5, count: 6 }, start_time: "15:00" },
    { name: "Public beta" },
  ],
});
const patchBody = z.strictObject({ name: trimmedName(200).optional().describe("Event name"), ...fields });

const eventParams = z.object({
  calendarId: idOf("cal").describe("Calendar id"),
  eventId: idOf("evt").describe("Event id"),
});

const notAfter = (q: { from?: string; to?: string }) => !q.from || !q.to || q.from <= q.to;
const rangeMessage = { message: "must not be before `from`", path: ["to"] };

const listQuery = z
  .strictObject({
    from: date.optional().describe("First date YYYY-MM-DD"),
    to: date.optional().describe("Last date YYYY-MM-DD"),
    category: z.string().optional().describe("Only this category"),
    kind: z.enum(EVENT_KINDS).optional().describe("Only this kind"),
    layers: z.enum(["main", "all"]).default("main").describe("`all` adds layers' events"),
    ...pageQuery,
  })
  .refine(notAfter, rangeMessage);

const occurrencesQuery = z
  .strictObject({
    from: date.describe("First date YYYY-MM-DD"),
    to: date.describe(`Last date, at most ${MAX_OCCURRENCE_DAYS} days on`),
    ...pageQuery,
  })
  .refine(notAfter, rangeMessage)
  // Refinements run even when a field failed: check the dates before counting days.
  .refine((q) => !isValidDate(q.from) || !isValidDate(q.to) || daysBetween(q.from, q.to) < MAX_OCCURRENCE_DAYS, {
    message: `must be at most ${MAX_OCCURRENCE_DAYS} days after \`from\` counting both ends; ask for a shorter range`,
    path: ["to"],
  });

export const eventRoutes = [
  defineRoute({
    method: "get",
    path: "/v1/calendars/{calendarId}/events",
    summary:
      "List events: dated by date and start time, then recurring, then someday; `layers=all` adds readable layers' events",
    tags: ["events"],
    auth: "optional",
    calendar: "calendar.read",
    alongside: ({ deps, actor, query }, calendar) =>
      startSourceReads(deps, calendar, query.layers === "all", freshnessFor(actor)),
    params: calendarParams,
    query: listQuery,
    response: z.object({ events: z.array(eventRecord), next_cursor: z.string().nullable() }),
    errors: ["invalid_request", "unauthorized"],
    handler: async ({ deps, actor, calendar: { calendar }, query }) => {
      const withLayers = query.layers === "all";
      const sources = withLayers ? await eventSources(deps, calendar, actor) : [{ layer: "main", calendar }];
      // The page depends only on the sources' revisions and the query: the parsed one, field by
      // field (defaults applied), so every spelling of a query shares one entry.
      const canonical = [query.from, query.to, query.kind, query.category, query.layers, query.limit, query.cursor];
      // Without a token, revisions this instance read a moment ago may do (domain/revision.ts, `Freshness`).
      const revisions = await revisionsKey(deps, sources, freshnessFor(actor));
      return deps.cache.json(answerKey("events", revisions, canonical), async () => {
        const page = await listEvents(deps, sources, query);
        return {
          events: page.events.map(({ layer, event }) => presentEvent(event, withLayers ? layer : undefined)),
          next_cursor: page.nextCursor,
        };
      });
    },
  }),
  defineRoute({
    method: "post",
    path: "/v1/calendars/{calendarId}/events",
    summary: "Create an event: one-off (`date`), recurring (`recur`) or someday (neither); writer or owner",
    tags: ["events"],
    auth: "required",
    calendar: "event.write",
    params: calendarParams,
    body: createBody,
    invalidCode: "invalid_event",
    response: eventRecord,
    errors: ["invalid_event", "unauthorized", "quota_exceeded"],
    prepare: ({ deps, params }) => eventUsage(deps, params.calendarId),
    handler: async ({ tx, deps, actor, calendar: { calendar }, body, prepared }) =>
      presentEvent(await createEvent(tx, deps, actor, calendar, body, prepared)),
  }),
  defineRoute({
    method: "get",
    path: "/v1/calendars/{calendarId}/events/{eventId}",
    summary: "One event of the calendar (no token needed for public and unlisted calendars)",
    tags: ["events"],
    auth: "optional",
    calendar: "calendar.read",
    params: eventParams,
    response: eventRecord,
    errors: ["unauthorized", "not_found"],
    handler: async ({ deps, params }) => presentEvent(await getEvent(deps, params.calendarId, params.eventId)),
  }),
  defineRoute({
    method: "patch",
    path: "/v1/calendars/{calendarId}/events/{eventId}",
    summary:
      "Change an event: `recur` clears `date` and `date` clears `recur`; " +
      "null clears date, recur, category, notes, art, alarms; `start_time: null` clears both times",
    tags: ["events"],
    auth: "required",
    calendar: "event.write",
    params: eventParams,
    body: patchBody,
    invalidCode: "invalid_event",
    response: eventRecord,
    // quota_exceeded: giving an event its first alarm ahead takes a place (events_with_alarms_per_calendar).
    errors: ["invalid_event", "unauthorized", "not_found", "quota_exceeded"],
    handler: async ({ tx, deps, calendar: { calendar }, params, body }) =>
      presentEvent(await updateEvent(tx, deps, calendar, params.eventId, body)),
  }),
  defineRoute({
    method: "delete",
    path: "/v1/calendars/{calendarId}/events/{eventId}",
    summary: "Delete an event (writer or owner)",
    tags: ["events"],
    auth: "required",
    calendar: "event.write",
    params: eventParams,
    response: deleted,
    errors: ["unauthorized", "not_found"],
    prepare: ({ deps, params }) => eventUsage(deps, params.calendarId),
    handler: async ({ tx, deps, params, prepared }) => ({
      deleted: await deleteEvent(tx, deps, params.calendarId, params.eventId, prepared),
    }),
  }),
  defineRoute({
    method: "get",
    path: "/v1/calendars/{calendarId}/occurrences",
    summary:
      "Occurrences of one-off and recurring events of the calendar and its readable layers in [from, to] " +
      "(at most 366 days), by start instant, each with exact `start` and `end`, paged by `limit` and `cursor`",
    tags: ["events"],
    auth: "optional",
    calendar: "calendar.read",
    alongside: ({ deps, actor }, calendar) => startSourceReads(deps, calendar, true, freshnessFor(actor)),
    params: calendarParams,
    query: occurrencesQuery,
    response: z.object({ occurrences: z.array(occurrenceRecord), next_cursor: z.string().nullable() }),
    errors: ["invalid_request", "unauthorized", "too_expensive"],
    handler: async ({ deps, actor, calendar: { calendar }, query }) => {
      const sources = await eventSources(deps, calendar, actor);
      // Like the events list: the sources' revisions and the parsed query decide the page.
      const canonical = [query.from, query.to, query.limit, query.cursor];
      const revisions = await revisionsKey(deps, sources, freshnessFor(actor));
      return deps.cache.json(answerKey("occurrences", revisions, canonical), () =>
        deps.expensiveReads(actor === null, async () => {
          const page = await pageOccurrencesInTurns(await loadOccurring(deps, sources, query), query);
          return { occurrences: page.occurrences.map(presentOccurrence), next_cursor: page.nextCursor };
        }),
      );
    },
  }),
];
