/** Query-only links (`?view=…&date=…`): they resolve against the page's own path, so the
 * same markup serves /c/{slug} and /v/{slug} and never spells out a slug. */
import type { Lens } from "../domain/types.js";

export const lensHref = (lens: Lens, date?: string): string => (date ? `?view=${lens}&date=${date}` : `?view=${lens}`);

/** The lens that best shows one day in detail, if the page allows one. */
export function dayLens(lenses: readonly Lens[]): Lens | null {
  if (lenses.includes("week")) return "week";
  if (lenses.includes("schedule")) return "schedule";
  return null;
}

/**
 * Where a calendar app subscribes to a feed (`feedUrl`, absolute): `webcal:` opens the
 * system's calendar (Apple Calendar, Outlook), and Google Calendar takes it by URL.
 */
export function subscribeLinks(feedUrl: string): { webcal: string; google: string } {
  const webcal = feedUrl.replace(/^https?:/, "webcal:");
  return { webcal, google: `https://calendar.google.com/calendar/r?cid=${encodeURIComponent(webcal)}` };
}
