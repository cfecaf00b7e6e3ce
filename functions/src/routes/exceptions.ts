import { z } from "zod";
import { patchOccurrence, restoreOccurrence } from "../domain/commands/exceptions.js";
import { defineRoute } from "../http/route.js";
import { presentException } from "../presenters/events.js";
import { alarmList, date, deleted, freeText, idOf, spanDays, time, trimmedName } from "./common.js";
import { exceptionRecord } from "../presenters/schemas/events.js";

/** One occurrence of a series, named by its original date (docs/api.md#exceptions). */
const occurrenceParams = z.object({
  calendarId: idOf("cal").describe("Calendar id"),
  eventId: idOf("evt").describe("Event id"),
  date: date.describe("The occurrence's `original_date`"),
});

const patchBody = z
  .strictObject({
    cancelled: z.boolean().optional().describe("true cancels it; send it alone"),
    date: date.optional().describe("New date: moves it"),
    start_time: time.nullable().optional().describe("HH:MM; null makes it all-day"),
    end_time: time.nullable().optional().describe("HH:MM; before start_time ends next day"),
    days: spanDays.nullable().optional().describe("Days it spans"),
    name: trimmedName(200).optional().describe("Its name"),
    category: trimmedName(64).nullable().optional().describe("Its category"),
    notes: freeText(10_000).nullable().optional().describe("Its notes"),
    alarms: alarmList.nullable().optional().describe("Its own alarms; null follows the event's"),
  })
  .meta({
    description:
      "Fields left out keep the series' values (or an earlier PATCH's); any change without `cancelled` also undoes a cancellation",
    examples: [{ cancelled: true }, { date: "2027-01-20", start_time: "14:00", end_time: "15:00", name: "Planning" }],
  });

export const exceptionRoutes = [
  defineRoute({
    method: "patch",
    path: "/v1/calendars/{calendarId}/events/{eventId}/occurrences/{date}",
    summary:
      'Cancel (`{"cancelled": true}`), move or change one occurrence of a series, named by its original date; ' +
      "the rest of the series is untouched (writer or owner)",
    tags: ["events"],
    auth: "required",
    calendar: "event.write",
    params: occurrenceParams,
    body: patchBody,
    invalidCode: "invalid_event",
    response: z.object({ exception: exceptionRecord }),
    errors: ["invalid_event", "unauthorized", "not_found", "quota_exceeded"],
    handler: async ({ tx, deps, calendar: { calendar }, params, body }) => ({
      exception: presentException(await patchOccurrence(tx, deps, calendar, params.eventId, params.date, body)),
    }),
  }),
  defineRoute({
    method: "delete",
    path: "/v1/calendars/{calendarId}/events/{eventId}/occurrences/{date}",
    summary:
      "Restore one occurrence of a series as the series has it: its cancellation or change goes (writer or owner)",
    tags: ["events"],
    auth: "required",
    calendar: "event.write",
    params: occurrenceParams,
    response: deleted,
    // quota_exceeded: a restored occurrence can give its series an alarm ahead again (events_with_alarms_per_calendar).
    errors: ["unauthorized", "not_found", "quota_exceeded"],
    handler: async ({ tx, deps, calendar: { calendar }, params }) => ({
      deleted: await restoreOccurrence(tx, deps, calendar, params.eventId, params.date),
    }),
  }),
];
