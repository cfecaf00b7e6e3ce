/**
 * Public calendars by slug, for pages and feeds. A slug a calendar held before answers 308 to
 * the same path (and query) under its current slug, forever (docs/api.md#calendars-and-slugs); unknown
 * slugs and private calendars are both "not found", so a private calendar's existence is
 * never revealed, not even by a redirect.
 */
import type { Request, Response } from "express";
import type { Deps } from "../domain/deps.js";
import { mayRead } from "../domain/policy.js";
import { resolveCalendarSlug } from "../domain/queries/calendars.js";
import type { CalendarRecord } from "../domain/records.js";

export type PublicCalendarLookup =
  { calendar: CalendarRecord; redirect?: undefined } | { redirect: string; calendar?: undefined } | null;

/**
 * The public or unlisted calendar that `slug` names now, or the Location to send when it
 * is an earlier slug, or null (answer 404). `originalUrl` is the request's path and query
 * (`req.originalUrl`): everything after the slug is kept, e.g. `/c/old.ics?x=1` ->
 * `/c/new.ics?x=1`.
 */
export async function lookupPublicCalendar(
  deps: Pick<Deps, "store">,
  slug: string,
  originalUrl: string,
): Promise<PublicCalendarLookup> {
  const found = await resolveCalendarSlug(deps, slug);
  if (!found || !mayRead(found.calendar, null, null)) return null; // anonymous: public and unlisted only
  if (found.current) return { calendar: found.calendar };
  return { redirect: movedLocation(originalUrl, found.calendar.slug) };
}

/** `/c/{any}{rest}?{query}` with the slug segment replaced by `slug`. */
export function movedLocation(originalUrl: string, slug: string): string {
  const queryAt = originalUrl.indexOf("?");
  const path = queryAt === -1 ? originalUrl : originalUrl.slice(0, queryAt);
  const query = queryAt === -1 ? "" : originalUrl.slice(queryAt);
  // The slug segment ends at the next "/" or at the ".ics" of a feed.
  const rest = /^\/c\/[^/]*?((?:\.ics)?(?:\/.*)?)$/.exec(path)?.[1] ?? "";
  return `/c/${slug}${rest}${query}`;
}

/** Answers a permanent redirect that keeps the method (308), with a short text body. */
export function sendMoved(res: Response, location: string): void {
  res.status(308).location(location).type("text/plain; charset=utf-8").send(`This calendar moved to ${location}\n`);
}

/**
 * For handlers: the calendar `slug` names; "redirected" once the 308 is answered; "not_found"
 * for an unknown or private calendar, which the caller answers in its own format (an HTML
 * page for pages, plain text for feeds).
 */
export async function publicCalendarOrRedirect(
  deps: Pick<Deps, "store">,
  req: Request,
  res: Response,
  slug: string,
): Promise<CalendarRecord | "redirected" | "not_found"> {
  const lookup = await lookupPublicCalendar(deps, slug, req.originalUrl);
  if (!lookup) return "not_found";
  if (lookup.redirect !== undefined) {
    sendMoved(res, lookup.redirect);
    return "redirected";
  }
  return lookup.calendar;
}
