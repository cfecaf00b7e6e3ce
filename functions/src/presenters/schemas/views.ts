import { z } from "zod";
import { lens } from "./common.js";
import { subscribeLinks } from "./subscribe.js";

/** A share view with every filter and display key spelled out (presenters/views.ts). */
export const viewRecord = z.object({
  id: z.string(),
  calendar_id: z.string(),
  name: z.string(),
  slug: z.string(),
  url: z.string().meta({ description: "the view's page: a capability URL, anyone with it sees what the filter shows" }),
  feed_url: z.string().meta({ description: "the view's iCalendar feed, for calendar apps" }),
  subscribe: subscribeLinks,
  filter: z.object({
    layers: z.array(z.string()).nullable(),
    categories: z.array(z.string()).nullable(),
    from: z.string().nullable(),
    to: z.string().nullable(),
    include_someday: z.boolean(),
    include_recurring: z.boolean(),
  }),
  display: z.object({ default_view: lens.nullable(), views: z.array(lens).nullable() }),
  created_at: z.string(),
  updated_at: z.string(),
  revoked_at: z.string().nullable(),
});
export type PresentedView = z.input<typeof viewRecord>;
