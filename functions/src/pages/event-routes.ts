/**
 * `/c/{slug}/e/{eventId}/{date}` and `/v/{slug}/e/{eventId}/{date}`: one occurrence's page, and
 * with `.ics` that occurrence alone as a feed to import. Access is the calendar's (or the
 * view's); an occurrence its page would not show is 404, as an unknown calendar is.
 */
import express, { type Request, type Response, type Router } from "express";
import { errors } from "../domain/errors.js";
import { resolveViewSlug } from "../domain/queries/views.js";
import type { HttpDeps } from "../http/deps.js";
import { answerEtag, sendRevalidatedAs } from "./conditional.js";
import { prepareCalendarEvent, prepareViewEvent, type PreparedEvent } from "./event-load.js";
import { renderEventPage } from "./event-page.js";
import { renderedIn } from "./locale.js";
import { publicCalendarOrRedirect } from "./redirects.js";

type EventRequest = Request<{ slug: string; eventId: string; date: string }>;

export function eventRouter(deps: HttpDeps): Router {
  const router = express.Router();
  const calendarEvent = async (req: EventRequest, res: Response): Promise<PreparedEvent | null> => {
    const calendar = await publicCalendarOrRedirect(deps, req, res, req.params.slug);
    if (calendar === "redirected") return null;
    if (calendar === "not_found") throw errors.notFound("calendar");
    if (calendar.visibility !== "public") res.setHeader("X-Robots-Tag", "noindex");
    return prepareCalendarEvent(deps, calendar, req.params.eventId, req.params.date, readerOf(req));
  };
  const viewEvent = async (req: EventRequest, res: Response): Promise<PreparedEvent> => {
    const resolved = await resolveViewSlug(deps, req.params.slug);
    if (!resolved) throw errors.notFound("view");
    res.setHeader("X-Robots-Tag", "noindex");
    return prepareViewEvent(deps, resolved, req.params.eventId, req.params.date, readerOf(req));
  };
  // The feed first: the page's `:date` would take `2026-12-09.ics` too.
  router.get("/c/:slug/e/:eventId/:date.ics", async (req: EventRequest, res) => {
    const prepared = await calendarEvent(req, res);
    if (prepared) await sendSingleFeed(deps, req, res, prepared);
  });
  router.get("/v/:slug/e/:eventId/:date.ics", async (req: EventRequest, res) => {
    await sendSingleFeed(deps, req, res, await viewEvent(req, res));
  });
  router.get("/c/:slug/e/:eventId/:date", async (req: EventRequest, res) => {
    const prepared = await calendarEvent(req, res);
    if (prepared) await sendEventPage(deps, req, res, prepared);
  });
  router.get("/v/:slug/e/:eventId/:date", async (req: EventRequest, res) => {
    await sendEventPage(deps, req, res, await viewEvent(req, res));
  });
  return router;
}

/** The reader's `?tz=` and languages (pages/reader-zone.ts, pages/locale.ts). */
const readerOf = (req: Request) => ({ tz: req.query.tz, languages: req.acceptsLanguages() });

/** Rendered once per revision of what it shows, as the calendar's pages are; a 304 before any event is read. */
async function sendEventPage(deps: HttpDeps, req: Request, res: Response, prepared: PreparedEvent): Promise<void> {
  res.vary("Accept-Language");
  await sendRevalidatedAs(req, res, await answerEtag(deps, prepared.key), "text/html; charset=utf-8", () =>
    deps.cache.body(prepared.key, () =>
      deps.expensiveReads(true, async () => {
        const { model } = await prepared.load();
        return renderedIn(model.locale, () => renderEventPage(model));
      }),
    ),
  );
}

async function sendSingleFeed(deps: HttpDeps, req: Request, res: Response, prepared: PreparedEvent): Promise<void> {
  const key = `${prepared.key}|ics`;
  await sendRevalidatedAs(req, res, await answerEtag(deps, key), "text/calendar; charset=utf-8", () =>
    deps.cache.body(key, () =>
      deps.expensiveReads(true, async () => {
        const { single } = await prepared.load();
        // A slot an occurrence left (cancelled, moved away) has nothing to add.
        if (!single) throw errors.notFound("event");
        const { buildIcs } = await import("./ics.js");
        return buildIcs({
          name: single.title,
          description: null,
          url: single.url,
          uidDomain: new URL(deps.baseUrl).host,
          sources: [{ layer: single.layer, timezone: single.timezone, events: [single.event], exceptions: [] }],
        });
      }),
    ),
  );
}
