/**
 * iCalendar feeds: `/c/{slug}.ics` (a public or unlisted calendar with the layers it
 * publishes, as its page shows them) and `/v/{slug}.ics` (a share view, its filter applied, nothing of
 * the calendar behind it). Anonymous, cacheable, readable from any origin. Errors are plain
 * text with the status a page would have (docs/api.md#errors).
 *
 * Mount before the pages' own `/c/:slug` routes, which would otherwise take `foo.ics` for a slug.
 */
import express, { type ErrorRequestHandler, type Request, type Response, type Router } from "express";
import type { Deps } from "../domain/deps.js";
import type { HttpDeps } from "../http/deps.js";
import { sha256 } from "../domain/ids.js";
import { loadFeedEvents } from "../domain/queries/feed-events.js";
import { publishedSources, type EventSource } from "../domain/queries/sources.js";
import type { EventRecord } from "../domain/records.js";
import { sourcesRevisions } from "../domain/revision.js";
import { eventsShownByView, resolveViewSlug, viewEventSources, viewShowsOccurrence } from "../domain/queries/views.js";
import { asApiError, isTransientStoreError } from "../http/error-handler.js";
import { logUnexpected } from "../http/log.js";
import { REQUEST_ID_HEADER, requestIdOf, withRequestIdLine } from "../http/request-id.js";
import { answerKey } from "../http/response-cache.js";
import { todayIn } from "../domain/recurrence/index.js";
import { FEED_EVENT_BUDGET } from "./budgets.js";
import { withinFeedBudget } from "./feed-budget.js";
import { markdownText } from "./markdown-text.js";
import type { IcsSource } from "./ics.js";
import { answerEtag, ifNoneMatchHits } from "./conditional.js";
import { publicCalendarOrRedirect } from "./redirects.js";

export const CALENDAR_FEED_PATH = "/c/:slug.ics";
export const VIEW_FEED_PATH = "/v/:slug.ics";
const FEED_PATHS = [CALENDAR_FEED_PATH, VIEW_FEED_PATH];

const NOT_FOUND = "No such calendar feed. Check the address: private calendars and revoked share views have no feed.\n";

export function feedRouter(deps: HttpDeps): Router {
  const router = express.Router();
  // Every answer, redirects and errors included, is readable from any origin (no cookies here).
  router.all(FEED_PATHS, (_req, res, next) => {
    res.setHeader("Access-Control-Allow-Origin", "*");
    res.setHeader("Access-Control-Expose-Headers", REQUEST_ID_HEADER);
    res.setHeader("X-Content-Type-Options", "nosniff");
    next();
  });
  router.options(FEED_PATHS, preflight);
  router.get(CALENDAR_FEED_PATH, async (req: Request<{ slug: string }>, res: Response) => {
    // An earlier slug answers 308 to `/c/{current}.ics`, query kept; private is 404 like unknown.
    const calendar = await publicCalendarOrRedirect(deps, req, res, req.params.slug);
    if (calendar === "redirected") return;
    if (calendar === "not_found") return void sendText(res, 404, NOT_FOUND);
    const sources = await publishedSources(deps, calendar);
    const today = todayIn(calendar.timezone, deps.clock());
    const { key, etag } = await feedKeys(deps, "feed|c", [calendar.slug], sources, today);
    if (notModifiedFeed(req, res, etag, calendar.visibility !== "public")) return;
    const feed = await cachedFeed(deps, key, async () => {
      const { sources: kept, omitted } = await loadFeedEvents(
        deps,
        sources,
        today,
        FEED_EVENT_BUDGET,
        withinFeedBudget,
      );
      const { buildIcs } = await ics();
      const text = buildIcs({
        name: calendar.name,
        // The purpose is Markdown; X-WR-CALDESC is shown as typed.
        description: calendar.purpose && markdownText(calendar.purpose),
        url: `${deps.baseUrl}/c/${calendar.slug}`,
        uidDomain: uidDomain(deps),
        sources: kept.map(icsSource),
      });
      return { text, omitted };
    });
    sendFeed(res, feed, etag, calendar.visibility !== "public");
  });
  router.get(VIEW_FEED_PATH, async (req: Request<{ slug: string }>, res: Response) => {
    const resolved = await resolveViewSlug(deps, req.params.slug);
    if (!resolved) return void sendText(res, 404, NOT_FOUND);
    const { view, calendar } = resolved;
    const sources = await viewEventSources(deps, resolved);
    const today = todayIn(calendar.timezone, deps.clock());
    // What the feed takes from the view (name, slug, filter; hashed, since a filter can be long
    // and a kept key is at most 512 characters; not its updated_at: two changes may share a
    // millisecond) and the calendar's revision, which covers the calendar's settings even when
    // the filter leaves `main` out.
    const ofView = sha256(JSON.stringify([view.name, view.slug, view.filter]));
    const { key, etag } = await feedKeys(deps, "feed|v", [view.id, ofView, calendar.revision], sources, today);
    if (notModifiedFeed(req, res, etag, true)) return;
    const feed = await cachedFeed(deps, key, async () => {
      const { filter } = view;
      // The budget ranks one-offs the view shows and every series of its layers (an exception may
      // bring one occurrence of any series in); buildIcs then decides on each occurrence.
      const mayShow = (layer: string, e: EventRecord) =>
        e.kind === "recurring"
          ? !filter.layers || filter.layers.includes(layer)
          : viewShowsOccurrence(filter, layer, e, { category: e.category, date: e.date! });
      const loaded = await loadFeedEvents(deps, sources, today, FEED_EVENT_BUDGET, withinFeedBudget, mayShow);
      const kept = eventsShownByView(filter, loaded.sources);
      const omitted = loaded.omitted;
      const { buildIcs } = await ics();
      // Only the view's own name and address: nothing that names or links the calendar.
      const text = buildIcs({
        name: view.name,
        description: null,
        url: `${deps.baseUrl}/v/${view.slug}`,
        uidDomain: uidDomain(deps),
        sources: kept.map(icsSource),
        // Series are cut to the view's dates; each occurrence is shown on its own category and date.
        range: { from: filter.from, to: filter.to },
        shows: (layer, event, occurrence) => viewShowsOccurrence(filter, layer, event, occurrence),
      });
      return { text, omitted };
    });
    sendFeed(res, feed, etag, true);
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

const icsSource = (source: EventSource & Pick<IcsSource, "events" | "exceptions">): IcsSource => ({
  layer: source.layer,
  timezone: source.calendar.timezone,
  events: source.events,
  exceptions: source.exceptions,
});

const uidDomain = (deps: Pick<Deps, "baseUrl">): string => new URL(deps.baseUrl).host;

/**
 * A rendered feed and how many events it left out. The response cache keeps text, so the
 * count travels in front of it (`{omitted}\n{feed}`) and is read back once per kept Buffer.
 */
interface Feed {
  body: Buffer;
  omitted: number;
}

const feedsOfCached = new WeakMap<Buffer, Feed>();

/**
 * The feed rendered once per revision of what it shows (http/response-cache.ts), as pages
 * are: a feed reader polling an unchanged calendar costs a lookup, and one whose ETag still
 * matches is answered before this (notModifiedFeed), on any instance.
 */
async function cachedFeed(
  deps: Pick<HttpDeps, "cache" | "expensiveReads">,
  key: string,
  render: () => Promise<{ text: string; omitted: number }>,
): Promise<Feed> {
  const cached = await deps.cache.body(key, () =>
    deps.expensiveReads(true, async () => {
      const { text, omitted } = await render();
      return `${omitted}\n${text}`;
    }),
  );
  let feed = feedsOfCached.get(cached);
  if (!feed) {
    const newline = cached.indexOf(0x0a);
    feed = { body: cached.subarray(newline + 1), omitted: Number(cached.toString("latin1", 0, newline)) };
    feedsOfCached.set(cached, feed);
  }
  return feed;
}

/** ical-generator and the feed's formatting load with the first feed asked for, not with the process. */
const ics = (): Promise<typeof import("./ics.js")> => import("./ics.js");

/**
 * A feed's cache key and its ETag (conditional.ts), from the revisions of what it shows. The
 * ETag leaves the day out while the shards count no more events than the budget: nothing is
 * cut then, so the date changes no byte, and a subscriber's first poll after midnight is a 304.
 */
async function feedKeys(
  deps: HttpDeps,
  kind: string,
  about: unknown[],
  sources: EventSource[],
  today: string,
): Promise<{ key: string; etag: string }> {
  // Feeds are anonymous: revisions read a moment ago may do (domain/revision.ts, `Freshness`).
  const revisions = await sourcesRevisions(deps, sources, "recent");
  const mayCut = revisions.events === null || revisions.events > FEED_EVENT_BUDGET;
  return {
    key: answerKey(kind, ...about, revisions.key, today),
    etag: await answerEtag(deps, answerKey(kind, ...about, revisions.key, mayCut ? today : null)),
  };
}

/** Headers of a 200 and of a 304 alike; errors have their own. */
function feedHeaders(res: Response, etag: string, noindex: boolean): void {
  res.setHeader("Access-Control-Expose-Headers", `ETag, ${REQUEST_ID_HEADER}`);
  res.setHeader("Content-Type", "text/calendar; charset=utf-8");
  res.setHeader("Cache-Control", "no-cache");
  res.setHeader("ETag", etag);
  if (noindex) res.setHeader("X-Robots-Tag", "noindex");
}

/** A reader whose copy is current: answered before any event is read or anything rendered. */
function notModifiedFeed(req: Request, res: Response, etag: string, noindex: boolean): boolean {
  if (!ifNoneMatchHits(req.get("if-none-match"), etag)) return false;
  feedHeaders(res, etag, noindex);
  res.status(304).end();
  return true;
}

function sendFeed(res: Response, feed: Feed, etag: string, noindex: boolean): void {
  feedHeaders(res, etag, noindex);
  if (feed.omitted > 0) res.setHeader(OMITTED_HEADER, String(feed.omitted));
  res.status(200).send(feed.body);
}

/** Errors are never cached: a calendar can be made public at any moment. Their last line names the request. */
function sendText(res: Response, status: number, text: string): void {
  res.setHeader("Cache-Control", "no-store");
  res.status(status).type("text/plain; charset=utf-8").send(withRequestIdLine(res, text));
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
    if (apiError?.status === 400)
      return void sendText(res, 400, "This feed address is not valid (a broken %-escape?); check it.\n");
    if (apiError && apiError.status < 500) {
      // Busy (429) or too large to build (422): the refusal's own words and headers.
      for (const [name, value] of Object.entries(apiError.headers)) res.setHeader(name, value);
      return void sendText(res, apiError.status, `${apiError.message}\n`);
    }
    logUnexpected(deps.log, "feed error", err, requestIdOf(res));
    sendText(res, 500, "Something went wrong on our side while building this feed. Retry in a moment.\n");
  };
}
