/**
 * iCalendar feeds: `/c/{slug}.ics` (a public or unlisted calendar with the layers it
 * publishes, as its page shows them) and `/v/{slug}.ics` (a share view, its filter applied, nothing of
 * the calendar behind it). Anonymous, cacheable, readable from any origin. Errors are plain
 * text with the status a page would have (DECISIONS section 1).
 *
 * Mount before the pages' own `/c/:slug` routes, which would otherwise take `foo.ics` for a slug.
 */
import { createHash } from "node:crypto";
import express, { type ErrorRequestHandler, type Request, type Response, type Router } from "express";
import type { Deps } from "../domain/deps.js";
import { loadSourceEvents } from "../domain/queries/events.js";
import { publishedSources, type EventSource } from "../domain/queries/sources.js";
import { resolveViewSlug, viewEventSources, viewShows } from "../domain/queries/views.js";
import type { EventRecord } from "../domain/records.js";
import { asApiError, isTransientStoreError } from "../http/error-handler.js";
import { logUnexpected } from "../http/log.js";
import { todayIn } from "../domain/recurrence/index.js";
import { withinFeedBudget } from "./feed-budget.js";
import { buildIcs, type IcsSource } from "./ics.js";
import { publicCalendarOrRedirect } from "./redirects.js";

export const CALENDAR_FEED_PATH = "/c/:slug.ics";
export const VIEW_FEED_PATH = "/v/:slug.ics";
const FEED_PATHS = [CALENDAR_FEED_PATH, VIEW_FEED_PATH];

const NOT_FOUND = "No such calendar feed. Check the address: private calendars and revoked share views have no feed.\n";

export function feedRouter(deps: Deps): Router {
  const router = express.Router();
  // Every answer, redirects and errors included, is readable from any origin (no cookies here).
  router.all(FEED_PATHS, (_req, res, next) => {
    res.setHeader("Access-Control-Allow-Origin", "*");
    res.setHeader("X-Content-Type-Options", "nosniff");
    next();
  });
  router.options(FEED_PATHS, preflight);
  router.get(CALENDAR_FEED_PATH, async (req: Request<{ slug: string }>, res: Response) => {
    // An earlier slug answers 308 to `/c/{current}.ics`, query kept; private is 404 like unknown.
    const calendar = await publicCalendarOrRedirect(deps, req, res, req.params.slug);
    if (calendar === "redirected") return;
    if (calendar === "not_found") return void sendText(res, 404, NOT_FOUND);
    const loaded = await loadSourceEvents(deps, await publishedSources(deps, calendar));
    const { sources, omitted } = withinFeedBudget(loaded, todayIn(calendar.timezone, deps.clock()));
    if (omitted > 0) res.setHeader(OMITTED_HEADER, String(omitted));
    const body = buildIcs({
      name: calendar.name,
      description: calendar.purpose,
      url: `${deps.baseUrl}/c/${calendar.slug}`,
      uidDomain: uidDomain(deps),
      sources: sources.map((s) => icsSource(s, s.events)),
    });
    sendFeed(req, res, body, calendar.visibility !== "public");
  });
  router.get(VIEW_FEED_PATH, async (req: Request<{ slug: string }>, res: Response) => {
    const resolved = await resolveViewSlug(deps, req.params.slug);
    if (!resolved) return void sendText(res, 404, NOT_FOUND);
    const { filter } = resolved.view;
    const loaded = await loadSourceEvents(deps, await viewEventSources(deps, resolved));
    const shown = (layer: string, e: EventRecord) =>
      viewShows(filter, { layer, kind: e.kind, category: e.category, date: e.kind === "one-off" ? e.date : null });
    const filtered = loaded.map((s) => ({ ...s, events: s.events.filter((e) => shown(s.layer, e)) }));
    const { sources, omitted } = withinFeedBudget(filtered, todayIn(resolved.calendar.timezone, deps.clock()));
    if (omitted > 0) res.setHeader(OMITTED_HEADER, String(omitted));
    // Only the view's own name and address: nothing that names or links the calendar.
    const body = buildIcs({
      name: resolved.view.name,
      description: null,
      url: `${deps.baseUrl}/v/${resolved.view.slug}`,
      uidDomain: uidDomain(deps),
      sources: sources.map((s) => icsSource(s, s.events)),
      // Series are cut to the view's dates (one-off events are already filtered above).
      range: { from: filter.from, to: filter.to },
    });
    sendFeed(req, res, body, true);
  });
  router.all(FEED_PATHS, (req, res) => {
    res.setHeader("Allow", "GET, HEAD, OPTIONS");
    sendText(res, 405, `${req.method} is not allowed on a feed; use GET.\n`);
  });
  router.use(feedErrors(deps));
  return router;
}

/** How many events a feed left out to stay within FEED_EVENT_BUDGET (budgets.ts); absent when none. */
const OMITTED_HEADER = "X-Almanac-Events-Omitted";

const icsSource = (source: EventSource, events: EventRecord[]): IcsSource => ({
  layer: source.layer,
  timezone: source.calendar.timezone,
  events,
});

const uidDomain = (deps: Pick<Deps, "baseUrl">): string => new URL(deps.baseUrl).host;

function sendFeed(req: Request, res: Response, body: string, noindex: boolean): void {
  res.setHeader("Access-Control-Expose-Headers", "ETag");
  res.setHeader("Content-Type", "text/calendar; charset=utf-8");
  res.setHeader("Cache-Control", "no-cache");
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
  res.setHeader("ETag", etag);
  if (noindex) res.setHeader("X-Robots-Tag", "noindex");
  if (ifNoneMatchHits(req.get("if-none-match"), etag)) return void res.status(304).end();
  res.status(200).send(body);
}

/**
 * RFC 9110 13.1.2: a list of ETags (weak comparison) or "*". Unlike Express' `req.fresh`, a
 * request `Cache-Control: no-cache` does not prevent the 304: Firebase Hosting's proxy adds
 * that header to every request it forwards, and the origin validating is what it asks for.
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => opaque(tag) === opaque(etag));
}

/** Errors are never cached: a calendar can be made public at any moment. */
function sendText(res: Response, status: number, text: string): void {
  res.setHeader("Cache-Control", "no-store");
  res.status(status).type("text/plain; charset=utf-8").send(text);
}

/** Browsers ask before a cross-origin GET that carries If-None-Match. */
function preflight(_req: Request, res: Response): void {
  res.setHeader("Access-Control-Allow-Methods", "GET, HEAD");
  res.setHeader("Access-Control-Allow-Headers", "If-None-Match");
  res.setHeader("Access-Control-Max-Age", "86400");
  res.status(204).end();
}

function feedErrors(deps: Pick<Deps, "log">): ErrorRequestHandler {
  return (err, _req, res, next) => {
    if (res.headersSent) return next(err);
    if (isTransientStoreError(err)) {
      res.setHeader("Retry-After", "1");
      return void sendText(res, 503, "The calendar store is busy. Retry in a moment.\n");
    }
    // A slug no record can have is 404; a path that cannot be percent-decoded (`%ZZ`) is 400.
    const apiError = asApiError(err);
    if (apiError?.status === 404) return void sendText(res, 404, NOT_FOUND);
    if (apiError && apiError.status < 500)
      return void sendText(res, apiError.status, "This feed address is not valid (a broken %-escape?); check it.\n");
    logUnexpected(deps.log, "feed error", err);
    sendText(res, 500, "Something went wrong on our side while building this feed. Retry in a moment.\n");
  };
}
