import { z } from "zod";
import { attachLayer, detachLayer } from "../domain/commands/layers.js";
import { requireCalendar } from "../domain/queries/access.js";
import { listLayers } from "../domain/queries/layers.js";
import { defineRoute } from "../http/route.js";
import { presentLayer } from "../presenters/layers.js";
import { calendarParams, deleted, idOf, pageQuery } from "./common.js";
import { layerRecord } from "../presenters/schemas/layers.js";

export const LAYER_KEY = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

export const layerKey = z
  .string()
  .regex(LAYER_KEY, {
    message: "must be 1 to 40 characters of a-z, 0-9 and hyphens, not starting or ending with a hyphen",
  })
  .refine((key) => key !== "main", { message: "`main` is reserved for the calendar's own events; pick another key" });

export const layerRoutes = [
  defineRoute({
    method: "get",
    path: "/v1/calendars/{calendarId}/layers",
    summary: "List the calendar's layers the caller could read directly (token optional, like an events read)",
    tags: ["layers"],
    auth: "optional",
    calendar: "calendar.read",
    params: calendarParams,
    query: z.object(pageQuery),
    response: z.object({ layers: z.array(layerRecord), next_cursor: z.string().nullable() }),
    errors: ["invalid_request", "unauthorized"],
    handler: async ({ deps, actor, params, query }) => {
      const page = await listLayers(deps, params.calendarId, actor, query);
      return { layers: page.items.map((l) => presentLayer(l.layer, l.calendar)), next_cursor: page.nextCursor };
    },
  }),
  defineRoute({
    method: "post",
    path: "/v1/calendars/{calendarId}/layers",
    summary:
      "Attach a calendar the caller can read as a layer under `key`; the same pair again returns the link, a new key renames it",
    tags: ["layers"],
    auth: "required",
    calendar: "layers.manage",
    params: z.object({ calendarId: idOf("cal").describe("Host calendar id: the one that shows the layer") }),
    body: z.strictObject({
      calendar_id: idOf("cal").describe("Id of the calendar to attach"),
      key: layerKey.describe("Layer name, a-z 0-9 -"),
    }),
    response: layerRecord,
    // The attached calendar's refusals (not_found, insufficient_scope) are the host's codes too.
    errors: ["invalid_request", "layer_depth", "layer_limit", "unauthorized", "key_taken"],
    handler: async ({ tx, deps, actor, params, body }) => {
      // Attaching shows its events to the host's readers: the caller must be able to read it,
      // a second calendar the route layer does not load (its id is in the body, not the path).
      const { calendar } = await requireCalendar(deps, body.calendar_id, actor, "calendar.read");
      const layer = await attachLayer(tx, deps, params.calendarId, body);
      return presentLayer(layer, calendar);
    },
  }),
  defineRoute({
    method: "delete",
    path: "/v1/calendars/{calendarId}/layers/{layerId}",
    summary: "Detach a layer: removes the link only, the attached calendar is untouched",
    tags: ["layers"],
    auth: "required",
    calendar: "layers.manage",
    params: z.object({ calendarId: idOf("cal").describe("Calendar id"), layerId: idOf("lyr").describe("Layer id") }),
    response: deleted,
    errors: ["unauthorized", "not_found"],
    handler: async ({ tx, deps, actor, params }) => {
      const layer = await detachLayer(tx, deps, actor, params.calendarId, params.layerId);
      return { deleted: layer.id };
    },
  }),
];
