import type { CalendarRecord } from "../domain/records.js";
import type { Role } from "../domain/types.js";
import type { PresentedCalendar } from "./schemas/calendars.js";
import { subscribeLinks } from "./subscribe.js";

export const calendarUrl = (baseUrl: string, slug: string): string => `${baseUrl}/c/${slug}`;

/** A private calendar's feed answers no one (404), so it offers no links to subscribe. */
export const presentCalendar = (calendar: CalendarRecord, role: Role | null, baseUrl: string): PresentedCalendar => ({
  id: calendar.id,
  name: calendar.name,
  slug: calendar.slug,
  timezone: calendar.timezone,
  visibility: calendar.visibility,
  purpose: calendar.purpose,
  default_view: calendar.default_view,
  views: calendar.views,
  categories: calendar.categories ?? {},
  locale: calendar.locale ?? null,
  url: calendarUrl(baseUrl, calendar.slug),
  feed_url: `${calendarUrl(baseUrl, calendar.slug)}.ics`,
  subscribe:
    calendar.visibility === "private"
      ? null
      : subscribeLinks(`${calendarUrl(baseUrl, calendar.slug)}.ics`, calendar.name),
  role,
  created_at: calendar.created_at,
  updated_at: calendar.updated_at,
});

const PREVIEW_LENGTH = 140;

/** The first line of the purpose, cut to a glanceable length. */
export function purposePreview(purpose: string | null): string | null {
  if (!purpose) return null;
  const firstLine = purpose
    .trim()
    .split("\n")[0]
    .replace(/^#+\s*/, "");
  return firstLine.length > PREVIEW_LENGTH ? `${firstLine.slice(0, PREVIEW_LENGTH - 1)}…` : firstLine;
}
