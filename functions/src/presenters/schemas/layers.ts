import { z } from "zod";

/** A layer link, naming the attached calendar (presenters/layers.ts); a feed layer also says where its refresh stands. */
export const layerRecord = z.object({
  id: z.string(),
  key: z.string(),
  calendar_id: z
    .string()
    .describe("The attached calendar; for a feed layer, the calendar holding its events (not readable by id)"),
  calendar_name: z.string(),
  calendar_slug: z.string().nullable().describe("null for a feed layer: its events show only on the host"),
  created_at: z.string(),
  feed_url: z
    .string()
    .nullable()
    .optional()
    .describe("Feed layers only: the outside iCalendar URL its events come from; null unless you own the host"),
  refresh_minutes: z.number().int().optional().describe("Feed layers only: minutes between fetches"),
  last_fetched_at: z
    .string()
    .nullable()
    .optional()
    .describe("Feed layers only: when the last fetch ended; null before"),
  last_error: z
    .string()
    .nullable()
    .optional()
    .describe("Feed layers only: why the last fetch failed (the last good copy stays); null when it worked"),
  event_count: z.number().int().optional().describe("Feed layers only: events the last good copy holds"),
});
export type PresentedLayer = z.input<typeof layerRecord>;
