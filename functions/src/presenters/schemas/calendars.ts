import { z } from "zod";
import { lens, role, visibility } from "./common.js";
import { subscribeLinks } from "./subscribe.js";

/** A calendar as the API answers it (presenters/calendars.ts builds it). */
export const calendarRecord = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  timezone: z.string(),
  visibility,
  purpose: z.string().nullable(),
  default_view: lens.nullable(),
  views: z.array(lens).nullable(),
  categories: z
    .record(z.string(), z.object({ color: z.string() }))
    .meta({ description: "owner colours by category on its pages; other categories take one from their name" }),
  locale: z.string().nullable().meta({ description: "BCP 47 tag its pages write dates in; null: the reader's" }),
  url: z.string().meta({ description: "the calendar's public page (humans open it)" }),
  feed_url: z
    .string()
    .meta({ description: "its iCalendar feed: subscribe to it from Google, Apple or Outlook calendars" }),
  subscribe: subscribeLinks,
  role: role.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PresentedCalendar = z.input<typeof calendarRecord>;
