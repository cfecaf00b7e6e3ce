import { z } from "zod";
import { createView, revokeView, updateView } from "../domain/commands/views.js";
import { listViews } from "../domain/queries/views.js";
import { isInputDate } from "../domain/recurrence/dates.js";
import { SLUG_PATTERN } from "../domain/slugs.js";
import { defineRoute } from "../http/route.js";
import { presentView } from "../presenters/views.js";
import { calendarParams, deleted, idOf, lens, pageQuery, trimmedName } from "./common.js";
import { LAYER_KEY } from "./layers.js";
import { viewRecord } from "../presenters/schemas/views.js";

const date = z
  .string()
  .refine(isInputDate, { message: "must be a real date from 0001-01-01 to 9999-12-31 as YYYY-MM-DD" });

const viewFilter = z
  .strictObject({
    layers: z
      .array(z.string().regex(LAYER_KEY, { message: "must be `main` or a layer key" }))
      .min(1, { message: "must name at least one layer key (`main` is the calendar's own); send null for all layers" })
      .nullable()
      .optional()
      .describe("Layer keys (`main`: its own), default all"),
    categories: z
      .array(trimmedName(64))
      .min(1, { message: "must name at least one category; send null for all categories" })
      .nullable()
      .optional()
      .describe("Default all"),
    from: date.nullable().optional().describe("First date shown"),
    to: date.nullable().optional().describe("Last date shown"),
    include_someday: z.boolean().optional().describe("Default true"),
    include_recurring: z.boolean().optional().describe("Default true"),
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, { message: "must not be before `from`", path: ["to"] });

const viewDisplay = z
  .strictObject({
    default_view: lens.nullable().optional().describe("First lens"),
    views: z
      .array(lens)
      .refine((views) => new Set(views).size === views.length, { message: "must list distinct lenses" })
      .nullable()
      .optional()
      .describe("Lenses, null for all"),
  })
  .refine((d) => !d.default_view || !d.views || d.views.length === 0 || d.views.includes(d.default_view), {
    message: "must be one of `views`",
    path: ["default_view"],
  });

const viewParams = z.object({
  calendarId: idOf("cal").describe("Calendar id"),
  viewId: idOf("viw").describe("View id"),
});

/** Views expose a calendar to anyone holding the URL: owner and calendar:write for every operation. */
export const viewRoutes = [
  defineRoute({
    method: "get",
    path: "/v1/calendars/{calendarId}/views",
    summary: "List the calendar's share views, live and revoked, oldest first",
    tags: ["share views"],
    auth: "required",
    calendar: "views.manage",
    params: calendarParams,
    query: z.object(pageQuery),
    response: z.object({ views: z.array(viewRecord), next_cursor: z.string().nullable() }),
    errors: ["invalid_request", "unauthorized"],
    handler: async ({ deps, actor, params, query }) => {
      const page = await listViews(deps, actor, params.calendarId, query);
      return { views: page.items.map((v) => presentView(v, deps.baseUrl)), next_cursor: page.nextCursor };
    },
  }),
  defineRoute({
    method: "post",
    path: "/v1/calendars/{calendarId}/views",
    summary: "Publish a filtered projection of the calendar at /v/{slug} (an unguessable slug when omitted)",
    tags: ["share views"],
    auth: "required",
    calendar: "views.manage",
    params: calendarParams,
    body: z.strictObject({
      name: trimmedName(200).describe("View name"),
      slug: z
        .string()
        .regex(SLUG_PATTERN, { message: "must be 3 to 63 characters of a-z, 0-9 and hyphens" })
        .optional()
        .describe("Address /v/{slug}; default random"),
      filter: viewFilter.optional().describe("What it shows, default all"),
      display: viewDisplay.optional().describe("Page lenses"),
    }),
    response: viewRecord,
    errors: ["invalid_request", "unauthorized", "slug_taken", "quota_exceeded"],
    handler: async ({ tx, deps, actor, params, body }) =>
      presentView(await createView(tx, deps, actor, params.calendarId, body), deps.baseUrl),
  }),
  defineRoute({
    method: "patch",
    path: "/v1/calendars/{calendarId}/views/{viewId}",
    summary: "Rename a view or replace its whole filter or display; the slug never changes",
    tags: ["share views"],
    auth: "required",
    calendar: "views.manage",
    params: viewParams,
    body: z.strictObject({
      name: trimmedName(200).optional().describe("View name"),
      slug: z
        .unknown()
        .refine(() => false, {
          message: "cannot change: a view's address is fixed; create a new view (and revoke this one) for a new slug",
        })
        .optional()
        .describe("Fixed: cannot change"),
      filter: viewFilter.optional().describe("Replaces the whole filter"),
      display: viewDisplay.optional().describe("Replaces the display"),
    }),
    response: viewRecord,
    errors: ["invalid_request", "unauthorized", "not_found"],
    handler: async ({ tx, deps, actor, params, body }) => {
      const view = await updateView(tx, deps, actor, params.calendarId, params.viewId, body);
      return presentView(view, deps.baseUrl);
    },
  }),
  defineRoute({
    method: "delete",
    path: "/v1/calendars/{calendarId}/views/{viewId}",
    summary: "Revoke a view: /v/{slug} answers 404 from now on; the view stays listed with `revoked_at`",
    tags: ["share views"],
    auth: "required",
    calendar: "views.manage",
    params: viewParams,
    response: deleted,
    errors: ["unauthorized", "not_found"],
    handler: async ({ tx, deps, actor, params }) => {
      const view = await revokeView(tx, deps, actor, params.calendarId, params.viewId);
      return { deleted: view.id };
    },
  }),
];
