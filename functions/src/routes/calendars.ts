import { z } from "zod";
import { createCalendar, deleteCalendar, updateCalendar } from "../domain/commands/calendars.js";
import { SLUG_PATTERN } from "../domain/slugs.js";
import { defineRoute } from "../http/route.js";
import { presentCalendar } from "../presenters/calendars.js";
import { calendarParams, deleted, freeText, lens, timezone, trimmedName, visibility } from "./common.js";
import { calendarRecord } from "../presenters/schemas/calendars.js";
import { categoryColours, pageLocale } from "./calendar-display.js";

const slug = z.string().regex(SLUG_PATTERN, { message: "must be 3 to 63 characters of a-z, 0-9 and hyphen" });
const purpose = freeText(8192);
const views = z.array(lens);

const settings = {
  timezone: timezone.optional().describe("IANA zone; default UTC"),
  visibility: visibility.optional().describe("Default unlisted"),
  slug: slug.optional().describe("Page address /c/{slug}"),
  purpose: purpose.nullable().optional().describe("What it is for"),
  default_view: lens.nullable().optional().describe("Page's first lens"),
  views: views.nullable().optional().describe("Page's lenses; null: all"),
  categories: categoryColours.nullable().optional().describe("Owner colours by category; null: none"),
  locale: pageLocale.nullable().optional().describe("BCP 47 tag for page dates; null: reader's"),
};

const createBody = z.strictObject({ name: trimmedName(200).describe("Calendar name"), ...settings });
const patchBody = z.strictObject({ name: trimmedName(200).optional().describe("Calendar name"), ...settings });

export const calendarRoutes = [
  defineRoute({
    method: "post",
    path: "/v1/calendars",
    summary: "Create a calendar; the caller becomes its first owner",
    tags: ["calendars"],
    auth: "required",
    scope: "calendar:write",
    body: createBody,
    response: calendarRecord,
    errors: ["invalid_request", "unauthorized", "insufficient_scope", "forbidden", "slug_taken", "quota_exceeded"],
    handler: async ({ tx, deps, actor, body }) =>
      presentCalendar(await createCalendar(tx, deps, actor, body), "owner", deps.baseUrl),
  }),
  defineRoute({
    method: "get",
    path: "/v1/calendars/{calendarId}",
    summary: "A calendar and the caller's role on it (no token needed for public and unlisted calendars)",
    tags: ["calendars"],
    auth: "optional",
    calendar: "calendar.read",
    params: calendarParams,
    response: calendarRecord,
    errors: ["unauthorized"],
    handler: async ({ deps, calendar: { calendar, role } }) => presentCalendar(calendar, role, deps.baseUrl),
  }),
  defineRoute({
    method: "patch",
    path: "/v1/calendars/{calendarId}",
    summary:
      "Change a calendar's settings (owner); null clears purpose and default_view, views null or [] means all lenses",
    tags: ["calendars"],
    auth: "required",
    calendar: "calendar.update",
    params: calendarParams,
    body: patchBody,
    response: calendarRecord,
    errors: ["invalid_request", "unauthorized", "slug_taken", "quota_exceeded"],
    handler: async ({ tx, deps, actor, calendar: { role }, params, body }) =>
      presentCalendar(await updateCalendar(tx, deps, actor, params.calendarId, body), role, deps.baseUrl),
  }),
  defineRoute({
    method: "delete",
    path: "/v1/calendars/{calendarId}",
    summary:
      "Delete a calendar (owner): from now on it is 404 everywhere, its slugs stay reserved, its quota slot is " +
      "freed, and its events, grants, views and changes are purged soon after",
    tags: ["calendars"],
    auth: "required",
    calendar: "calendar.delete",
    params: calendarParams,
    response: deleted,
    errors: ["unauthorized"],
    handler: async ({ tx, deps, params }) => {
      await deleteCalendar(tx, deps, params.calendarId);
      return { deleted: params.calendarId };
    },
  }),
];
