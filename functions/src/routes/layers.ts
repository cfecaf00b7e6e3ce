import { z } from "zod";
import { attachFeedLayer, attachLayer, detachLayer } from "../domain/commands/layers.js";
import { MAX_REFRESH_MINUTES, MIN_REFRESH_MINUTES } from "../domain/feeds/limits.js";
import { verifyFeedUrl } from "../domain/feeds/url.js";
import { requireCalendar } from "../domain/queries/access.js";
import { listLayers } from "../domain/queries/layers.js";
import type { HttpDeps } from "../http/deps.js";
import { defineRoute } from "../http/route.js";
import { resolverFor } from "../outbound/lookup.js";
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

const refreshWords = `must be a whole number of minutes from ${MIN_REFRESH_MINUTES} to ${MAX_REFRESH_MINUTES}`;

const attachBody = z
  .strictObject({
    calendar_id: idOf("cal").optional().describe("Calendar to attach"),
    feed_url: z
      .string()
      .max(2000, { message: "must be at most 2000 characters" })
      .optional()
      .describe("Or an https iCalendar feed"),
    key: layerKey.describe("Layer name, a-z 0-9 -"),
    refresh_minutes: z
      .number({ message: refreshWords })
      .int({ message: refreshWords })
      .min(MIN_REFRESH_MINUTES, { message: refreshWords })
      .max(MAX_REFRESH_MINUTES, { message: refreshWords })
      .optional()
      .describe("Feed: minutes, default 60"),
  })
  .superRefine((body, ctx) => {
    if ((body.calendar_id === undefined) === (body.feed_url === undefined))
      ctx.addIssue({ code: "custom", message: "name exactly one of `calendar_id` and `feed_url`", path: ["feed_url"] });
    else if (body.calendar_id !== undefined && body.refresh_minutes !== undefined)
      ctx.addIssue({ code: "custom", message: "applies to feed layers only (`feed_url`)", path: ["refresh_minutes"] });
  });

const systemResolver = resolverFor();

/**
 * A feed's URL judged by the address policy of webhooks, its name resolved: in `prepare`,
 * outside the transaction, which no DNS answer may hold.
 */
const verifiedFeedUrl = (deps: HttpDeps, url: string) =>
  verifyFeedUrl(url, { allowLoopback: deps.config.webhooks.allowLoopback }, deps.resolveHost ?? systemResolver);

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
    handler: async ({ deps, actor, calendar: { role }, params, query }) => {
      const page = await listLayers(deps, params.calendarId, actor, query);
      const ownsHost = role === "owner";
      return {
        layers: page.items.map((l) => presentLayer(l.layer, l.calendar, l.feed, ownsHost)),
        next_cursor: page.nextCursor,
      };
    },
  }),
  defineRoute({
    method: "post",
    path: "/v1/calendars/{calendarId}/layers",
    summary:
      "Attach a calendar the caller can read, or an outside iCalendar feed, as a layer under `key`; " +
      "the same one again returns the link, a new key renames it",
    tags: ["layers"],
    auth: "required",
    calendar: "layers.manage",
    params: z.object({ calendarId: idOf("cal").describe("Host calendar id: the one that shows the layer") }),
    body: attachBody,
    response: layerRecord,
    // The attached calendar's refusals (not_found, insufficient_scope) are the host's codes too.
    errors: ["invalid_request", "layer_depth", "layer_limit", "unauthorized", "key_taken"],
    prepare: async ({ deps, body }) => (body.feed_url === undefined ? null : verifiedFeedUrl(deps, body.feed_url)),
    handler: async ({ tx, deps, actor, calendar: { calendar: host }, params, body, prepared: feedUrl }) => {
      if (feedUrl !== null) {
        const input = { feed_url: feedUrl, key: body.key, refresh_minutes: body.refresh_minutes };
        const attached = await attachFeedLayer(tx, deps, host, actor, input);
        return presentLayer(attached.layer, attached.calendar, attached.feed, true);
      }
      // Attaching shows its events to the host's readers: the caller must be able to read it,
      // a second calendar the route layer does not load (its id is in the body, not the path).
      const calendarId = body.calendar_id!;
      const { calendar } = await requireCalendar(deps, calendarId, actor, "calendar.read");
      const layer = await attachLayer(tx, deps, params.calendarId, { calendar_id: calendarId, key: body.key });
      return presentLayer(layer, calendar, null, true);
    },
  }),
  defineRoute({
    method: "delete",
    path: "/v1/calendars/{calendarId}/layers/{layerId}",
    summary: "Detach a layer: removes the link only, the attached calendar is untouched (a feed's copy goes)",
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
