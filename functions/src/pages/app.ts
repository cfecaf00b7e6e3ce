/**
 * The public pages: `/c/{slug}` (a calendar in one of its lenses), `/c/{slug}/purpose.md`,
 * `/v/{slug}` (a share view), one occurrence's page below either (event-routes.ts), their
 * stylesheet, and the iCalendar feeds (feeds.ts). Exported for the `pages` Cloud Function and
 * mounted by the local server. Pages are anonymous and need no JavaScript; errors are HTML
 * pages with the status the API would give.
 */
import express, {
  type ErrorRequestHandler,
  type Express,
  type Request,
  type RequestHandler,
  type Response,
} from "express";
import type { Deps } from "../domain/deps.js";
import type { HttpDeps } from "../http/deps.js";
import { resolveViewSlug } from "../domain/queries/views.js";
import { overlongQueryParam } from "../http/edge.js";
import { asApiError, isTransientStoreError } from "../http/error-handler.js";
import { logUnexpected, requestLog } from "../http/log.js";
import { pageRateLimits, type PageLimitAnswer, type RateLimitConfig } from "../http/rate-limit.js";
import { firebaseAccountAuth } from "../http/firebase-accounts.js";
import { REQUEST_ID_HEADER, requestId, requestIdOf, withRequestIdLine } from "../http/request-id.js";
import type { AccountAuth } from "../http/session.js";
import { answerEtag, sendRevalidated, sendRevalidatedAs } from "./conditional.js";
import { codeVersion } from "./code-version.js";
import { ownColoursRules } from "./colours.js";
import { renderedIn } from "./locale.js";
import type { PageModel } from "./model.js";
import { eventRouter } from "./event-routes.js";
import { feedRouter } from "./feeds.js";
import { renderErrorPage, renderPage } from "./layout.js";
import { prepareCalendarPage, prepareViewPage, type PageQuery, type PreparedPage } from "./load.js";
import { humansRouter } from "./humans/router.js";
import { allowFraming, pageHeaders } from "./page-headers.js";
import { isEmbed } from "./embed.js";
import { publicCalendarOrRedirect } from "./redirects.js";
import { STYLESHEET, STYLESHEET_NAME } from "./style.js";

type SlugRequest = Request<{ slug: string }>;

export interface PagesAppOptions {
  /** Rate limits (http/rate-limit.ts); by default the configuration's (`deps.config.rateLimits`). */
  rateLimits?: RateLimitConfig;
  /** Deployed behind Firebase Hosting: the client address comes from X-Forwarded-For (`TRUST_PROXY_HOPS`). */
  behindProxy?: boolean;
  /** Sign-in for the claim and account pages; by default Firebase Authentication (http/firebase-accounts.ts). */
  accounts?: AccountAuth;
}

export function createPagesApp(deps: HttpDeps, options: PagesAppOptions = {}): Express {
  // Hashed while the first request reads the store, rather than after.
  void codeVersion();
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("query parser", "simple");
  if (options.behindProxy) app.set("trust proxy", deps.config.trustProxy);
  // First: every answer, whatever answers it, carries its X-Request-Id.
  app.use(requestId);
  // A share view's slug and a claim link's token are capabilities: they are left out of the log.
  app.use(
    requestLog(deps, (path) => path.replace(/^\/v\/[^/]+/, "/v/{slug}").replace(/^\/claim\/[^/]+/, "/claim/{token}")),
  );
  app.use(pageRateLimits(deps, options.rateLimits ?? deps.config.rateLimits, tooManyRequests));
  app.use(refuseLongQueries);
  // Feeds first: `/c/:slug` would otherwise take `foo.ics` for a slug. They set their own headers.
  app.use(feedRouter(deps));
  // The claim and account pages set their own headers (a CSP that lets the sign-in module run).
  app.use(humansRouter(deps, options.accounts ?? firebaseAccountAuth(deps.baseUrl, deps.config.firebase)));
  app.use(pageHeaders);

  app.get(["/c/_assets/:file", "/v/_assets/:file"], sendStylesheet, sendOwnColours);
  app.get("/c/:slug/purpose.md", async (req: SlugRequest, res) => {
    const calendar = await publicCalendarOrRedirect(deps, req, res, req.params.slug);
    if (calendar === "redirected") return;
    if (calendar === "not_found") return notFound(req, res);
    if (calendar.visibility !== "public") res.setHeader("X-Robots-Tag", "noindex");
    sendRevalidated(req, res, Buffer.from(calendar.purpose ?? "", "utf8"), "text/markdown; charset=utf-8");
  });
  app.get("/c/:slug", async (req: SlugRequest, res) => {
    const calendar = await publicCalendarOrRedirect(deps, req, res, req.params.slug);
    if (calendar === "redirected") return;
    if (calendar === "not_found") return notFound(req, res);
    await sendPage(
      deps,
      req,
      res,
      await prepareCalendarPage(deps, calendar, pageQuery(req)),
      calendar.visibility !== "public",
    );
  });
  app.get("/v/:slug", async (req: SlugRequest, res) => {
    const resolved = await resolveViewSlug(deps, req.params.slug);
    if (!resolved) return notFound(req, res);
    await sendPage(deps, req, res, await prepareViewPage(deps, resolved, pageQuery(req)), true);
  });
  app.use(eventRouter(deps));
  // Everything below an earlier slug moves with it (docs/api.md#calendars-and-slugs); the rest is 404.
  app.get("/c/:slug/{*rest}", async (req: SlugRequest, res) => {
    const calendar = await publicCalendarOrRedirect(deps, req, res, req.params.slug);
    if (calendar !== "redirected") notFound(req, res);
  });
  app.all(["/c/:slug", "/c/:slug/purpose.md", "/v/:slug"], (req, res) => {
    res.setHeader("Allow", "GET, HEAD");
    sendError(
      res,
      areaOf(req),
      405,
      "Method not allowed",
      `${req.method} is not allowed here: this page can only be read (GET).`,
    );
  });
  app.use(notFound);
  app.use(errorPage(deps));
  return app;
}

const pageQuery = (req: Request): PageQuery => ({
  view: req.query.view,
  date: req.query.date,
  tz: req.query.tz,
  languages: req.acceptsLanguages(),
});

/**
 * The page's HTML, rendered once per revision of what it shows, and not at all for a client
 * whose copy is current: its ETag comes from the page's key (conditional.ts). The embeddable
 * variant (`?embed=1`, embed.ts) is another answer, with its own key, and may be framed.
 */
async function sendPage(deps: HttpDeps, req: Request, res: Response, page: PreparedPage, noindex: boolean) {
  if (noindex) res.setHeader("X-Robots-Tag", "noindex");
  // Dates follow the reader's languages unless the calendar sets its locale (locale.ts).
  res.vary("Accept-Language");
  const embed = isEmbed(req);
  if (embed) allowFraming(res);
  const key = embed ? `${page.key}|embed` : page.key;
  // Events change at any time; a revoked view must disappear at once.
  await sendRevalidatedAs(req, res, await answerEtag(deps, key), "text/html; charset=utf-8", () =>
    deps.cache.body(key, () => deps.expensiveReads(true, async () => renderPageIn(await page.load(), embed))),
  );
}

const renderPageIn = (model: PageModel, embed: boolean): string =>
  renderedIn(model.locale, () => renderPage(model, embed));

const STYLE_FILE = /^style\.[0-9a-f]+\.css$/;

/** The current stylesheet; an older hash (a page cached before a deploy) gets it too, briefly cached. */
function sendStylesheet(req: Request<{ file: string }>, res: Response, next: (err?: unknown) => void): void {
  if (!STYLE_FILE.test(req.params.file)) return next();
  const current = req.params.file === STYLESHEET_NAME;
  res.setHeader("Cache-Control", current ? "public, max-age=31536000, immutable" : "public, max-age=300");
  res.status(200).type("text/css; charset=utf-8").send(STYLESHEET);
}

/** The stylesheet of owner colours a page names (colours.ts): its name is its content, so it never changes. */
function sendOwnColours(req: Request<{ file: string }>, res: Response, next: (err?: unknown) => void): void {
  const rules = ownColoursRules(req.params.file);
  if (rules === null) return next();
  res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
  res.status(200).type("text/css; charset=utf-8").send(rules);
}

const areaOf = (req: Request): "c" | "v" => (req.path.startsWith("/v/") ? "v" : "c");

function sendError(res: Response, area: "c" | "v", status: number, heading: string, message: string): void {
  res.setHeader("X-Robots-Tag", "noindex");
  res.setHeader("Cache-Control", "no-store");
  res
    .status(status)
    .type("text/html; charset=utf-8")
    .send(renderErrorPage(area, heading, message, status, requestIdOf(res)));
}

function notFound(req: Request, res: Response): void {
  if (areaOf(req) === "v") {
    return sendError(
      res,
      "v",
      404,
      "Shared calendar not found",
      "There is no shared calendar at this address. Check the link; its owner may also have stopped sharing it.",
    );
  }
  sendError(
    res,
    "c",
    404,
    "Calendar not found",
    "There is no public calendar at this address. Check the link; private calendars have no public page.",
  );
}

function badAddress(req: Request, res: Response): void {
  sendError(
    res,
    areaOf(req),
    400,
    "This address is not valid",
    "The address of this page is malformed (a broken %-escape, or a value over 1,000 characters). Check the link you followed.",
  );
}

/** Over the rate limit of pages and feeds (`Retry-After` is set): an HTML page, or plain text for a feed. */
const tooManyRequests: PageLimitAnswer = (req, res, message) => {
  if (!req.path.endsWith(".ics")) return sendError(res, areaOf(req), 429, "Too many requests", message);
  res.setHeader("Access-Control-Allow-Origin", "*");
  res.setHeader("Access-Control-Expose-Headers", REQUEST_ID_HEADER);
  res.setHeader("Cache-Control", "no-store");
  res
    .status(429)
    .type("text/plain; charset=utf-8")
    .send(withRequestIdLine(res, `${message}\n`));
};

/** docs/api.md#bounded-work: a query value over 1,000 characters is 400, before any page or feed is looked up. */
const refuseLongQueries: RequestHandler = (req, res, next) => {
  if (overlongQueryParam(req.query) === null) return next();
  if (!req.path.endsWith(".ics")) return badAddress(req, res);
  res.setHeader("Cache-Control", "no-store");
  res
    .status(400)
    .type("text/plain; charset=utf-8")
    .send(withRequestIdLine(res, "This feed address has a query value over 1,000 characters; remove it.\n"));
};

/** Anything thrown becomes an HTML page; unexpected errors are logged and never shown. */
function errorPage(deps: Pick<Deps, "log">): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent) return next(err);
    // A refusal (a DomainError), a slug or id no record can have (404), a path that cannot be decoded (400).
    const apiError = asApiError(err);
    if (apiError?.status === 404) return notFound(req, res);
    if (apiError?.status === 400) return badAddress(req, res);
    if (apiError && apiError.status < 500) {
      for (const [name, value] of Object.entries(apiError.headers)) res.setHeader(name, value);
      return sendError(res, areaOf(req), apiError.status, "This page cannot be shown", apiError.message);
    }
    if (isTransientStoreError(err)) {
      res.setHeader("Retry-After", "1");
      return sendError(
        res,
        areaOf(req),
        503,
        "Busy for a moment",
        "The calendar store is busy. Reload the page in a moment.",
      );
    }
    logUnexpected(deps.log, "page error", err, requestIdOf(res));
    sendError(
      res,
      areaOf(req),
      500,
      "Something went wrong",
      "Something went wrong on our side. Reload the page; if it keeps happening, tell the calendar's owner.",
    );
  };
}
