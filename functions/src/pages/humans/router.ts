/**
 * The humans' pages (docs/api.md#humans-claims-and-accounts), mounted in the pages app:
 *   GET  /claim/{token}                    the agent of a claim link, sign-in, confirm (404 unknown, 410 used or expired)
 *   POST /claim/{token}                    confirm: links the agent to the signed-in account
 *   GET  /account                          the account's agents, or sign-in
 *   POST /account/session                  ID token (from the Firebase JS SDK) -> session cookie
 *   POST /account/sign-out                 ends the session, everywhere
 *   POST /account/onboard-tokens           a new onboard token, shown once
 *   POST /account/agents/{agentId}/revoke  revokes every credential of one of the account's agents
 *   POST /account/agents/{agentId}/webhooks/{webhookId}/disable|enable|delete
 *                                          one webhook of one of the account's agents
 *   GET  /account/agents/{agentId}/calendars/{calendarId}
 *                                          a calendar of one of the account's agents, read-only (calendars.ts)
 *   GET  /account/_assets/{file}           the stylesheet and the sign-in module
 *   GET|POST /account/authorize/{requestId} the consent page of an OAuth client of /mcp (consent.ts)
 *   POST /account/agents/{agentId}/apps/{credentialId}/revoke
 *                                          revokes one OAuth client's grant for one of the account's agents
 * Every POST needs the form's `csrf` (http/session.ts) before anything else, then a session.
 */
import express, {
  type ErrorRequestHandler,
  type Request,
  type RequestHandler,
  type Response,
  type Router,
} from "express";
import helmet from "helmet";
import { deleteAccountWebhook, setAccountWebhookEnabled } from "../../domain/commands/account-webhooks.js";
import { claimAgent, createOnboardToken, revokeAgent } from "../../domain/commands/accounts.js";
import type { Deps } from "../../domain/deps.js";
import { listAccountAgents, lookupClaim } from "../../domain/queries/accounts.js";
import type { HttpDeps } from "../../http/deps.js";
import { asApiError, isTransientStoreError } from "../../http/error-handler.js";
import { logUnexpected } from "../../http/log.js";
import { requestIdOf } from "../../http/request-id.js";
import {
  csrfMatches,
  endSessionCookie,
  firebaseSessionOf,
  readSession,
  SESSION_LENGTH_MS,
  startSessionCookie,
  type Account,
  type AccountAuth,
  type BrowserAuthConfig,
} from "../../http/session.js";
import { ASSETS_PATH, clientBundle, HUMANS_STYLESHEET, HUMANS_STYLESHEET_NAME } from "./assets.js";
import { ACCOUNT_CALENDAR_ROUTE, accountCalendarPage } from "./calendars.js";
import { CONSENT_ROUTE, mountConsentPage } from "./consent.js";
import { accountAppRevokePath, accountReturn } from "./paths.js";
import { revokeAccountGrant } from "../../domain/commands/accounts.js";
import { pageHeaders } from "../page-headers.js";
import {
  renderAccountPage,
  renderClaimPage,
  renderHumanError,
  renderOnboardToken,
  renderSignIn,
  type PageContext,
} from "./views.js";

type ClaimRequest = Request<{ token: string }>;
type WebhookRequest = Request<{ agentId: string; webhookId: string }>;

/** The account page's forms on one webhook of one of the account's agents (views.ts). */
const WEBHOOK_ROUTE = "/account/agents/:agentId/webhooks/:webhookId";
const WEBHOOK_ACTIONS = ["disable", "enable", "delete"] as const;
/** The account page's form revoking one OAuth client's grant (views.ts). */
const APP_REVOKE_ROUTE = accountAppRevokePath(":agentId", ":credentialId");
type WebhookAction = (typeof WEBHOOK_ACTIONS)[number];
const WEBHOOK_NOTICES: Record<WebhookAction, string> = {
  disable: "is disabled: nothing more is sent to it until it is enabled.",
  enable: "is enabled: delivery resumes where it stopped.",
  delete: "is deleted.",
};

export { isHumansPath } from "./paths.js";

export function humansRouter(deps: HttpDeps, accounts: AccountAuth): Router {
  const router = express.Router({ strict: true });
  const form = express.urlencoded({ extended: false, limit: "16kb", parameterLimit: 10 });

  const csp: RequestHandler = (_req, res, next) => {
    res.setHeader("Content-Security-Policy", contentSecurityPolicy(accounts.browserConfig()));
    next();
  };
  router.use(["/account", "/claim"], ...baseHeaders, csp);

  router.get(`${ASSETS_PATH}/:file`, (req: Request<{ file: string }>, res, next) => {
    const script = clientBundle();
    if (req.params.file === HUMANS_STYLESHEET_NAME) {
      res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
      return void res.status(200).type("text/css; charset=utf-8").send(HUMANS_STYLESHEET);
    }
    if (script && req.params.file === script.name) {
      res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
      return void res.status(200).type("text/javascript; charset=utf-8").send(script.body);
    }
    next();
  });

  /** The session (a CSRF secret is set on the answer when there is none) and what a page needs. */
  const context = async (req: Request, res: Response): Promise<PageContext> => {
    const session = await readSession(req, res, accounts, deps.baseUrl);
    return { ...session, auth: accounts.browserConfig(), script: clientBundle()?.name ?? null, now: deps.clock() };
  };

  router.get("/claim/:token", async (req: ClaimRequest, res) => {
    const lookup = await lookupClaim(deps, req.params.token);
    if (lookup.state === "not_found") return claimNotFound(res);
    if (lookup.state !== "open") return claimGone(res, lookup.state);
    const ctx = await context(req, res);
    sendPage(res, 200, renderClaimPage(ctx, { token: req.params.token, ...lookup }));
  });

  router.post("/claim/:token", form, async (req: ClaimRequest, res) => {
    const account = await signedInForm(req, res);
    if (!account) return;
    const outcome = await deps.store.runTransaction((tx) => claimAgent(tx, deps, req.params.token, account.uid));
    if (outcome.outcome === "not_found") return claimNotFound(res);
    if (outcome.outcome === "gone") return claimGone(res, outcome.reason);
    res.redirect(303, `/account?linked=${outcome.agent.id}`);
  });

  router.get("/account", async (req, res) => {
    const ctx = await context(req, res);
    if (!ctx.account) return sendPage(res, 200, renderSignIn(ctx, accountReturn(req.query.next) !== null));
    const back = accountReturn(req.query.next);
    if (back) return res.redirect(303, back);
    const list = await listAccountAgents(deps, ctx.account.uid);
    const named = (id: unknown) => list.agents.find((a) => a.agent.id === id)?.agent.name;
    const linked = named(req.query.linked);
    const revoked = named(req.query.revoked);
    const webhook = named(req.query.webhook_of);
    const appRevoked = named(req.query.app_revoked);
    const notice = linked
      ? `${linked} is linked to your account.`
      : appRevoked
        ? `The app's access to ${appRevoked} is revoked: its tokens no longer work.`
        : revoked
          ? `${revoked} is revoked: its tokens no longer work.`
          : webhook && typeof req.query.webhook === "string" && Object.hasOwn(WEBHOOK_NOTICES, req.query.webhook)
            ? `${webhook}'s webhook ${WEBHOOK_NOTICES[req.query.webhook as WebhookAction]}`
            : null;
    sendPage(res, 200, renderAccountPage({ ...ctx, account: ctx.account }, list, notice));
  });

  router.post("/account/session", form, async (req, res) => {
    if (!csrfMatches(req, formField(req, "csrf"))) return sendText(res, 403, FORM_EXPIRED);
    const idToken = formField(req, "id_token");
    const session =
      typeof idToken === "string" && idToken ? await accounts.startSession(idToken, SESSION_LENGTH_MS) : null;
    if (!session)
      return sendText(res, 401, "Sign-in was not accepted: sign in again (a sign-in is good for 5 minutes).");
    startSessionCookie(res, deps.baseUrl, session);
    res.status(204).end();
  });

  router.post("/account/sign-out", form, async (req, res) => {
    if (!csrfMatches(req, formField(req, "csrf")))
      return sendHumanError(res, 403, "This form has expired", FORM_EXPIRED);
    const firebase = firebaseSessionOf(req);
    const account = firebase ? await accounts.verifySession(firebase) : null;
    if (account) await accounts.endSessions(account.uid);
    endSessionCookie(res, deps.baseUrl);
    res.redirect(303, "/account");
  });

  router.post("/account/onboard-tokens", form, async (req, res) => {
    const ctx = await signedInContext(req, res);
    if (!ctx) return;
    const token = await deps.store.runTransaction((tx) => createOnboardToken(tx, deps, ctx.account.uid));
    sendPage(res, 200, renderOnboardToken(ctx, token, deps.baseUrl));
  });

  router.post("/account/agents/:agentId/revoke", form, async (req: Request<{ agentId: string }>, res) => {
    const account = await signedInForm(req, res);
    if (!account) return;
    await deps.store.runTransaction((tx) => revokeAgent(tx, deps, account.uid, req.params.agentId));
    res.redirect(303, `/account?revoked=${req.params.agentId}`);
  });

  for (const action of WEBHOOK_ACTIONS) {
    router.post(`${WEBHOOK_ROUTE}/${action}`, form, async (req: WebhookRequest, res) => {
      const account = await signedInForm(req, res);
      if (!account) return;
      const { agentId, webhookId } = req.params;
      await deps.store.runTransaction((tx) =>
        action === "delete"
          ? deleteAccountWebhook(tx, account.uid, agentId, webhookId)
          : setAccountWebhookEnabled(tx, deps, account.uid, agentId, webhookId, action === "enable"),
      );
      res.redirect(303, `/account?webhook=${action}&webhook_of=${agentId}`);
    });
  }

  router.post(APP_REVOKE_ROUTE, form, async (req: Request<{ agentId: string; credentialId: string }>, res) => {
    const account = await signedInForm(req, res);
    if (!account) return;
    const { agentId, credentialId } = req.params;
    await deps.store.runTransaction((tx) => revokeAccountGrant(tx, deps, account.uid, agentId, credentialId));
    res.redirect(303, `/account?app_revoked=${agentId}`);
  });

  mountConsentPage(router, deps, { form, context, signedInContext, sendPage, sendHumanError });

  // The calendar pages' headers, not the account pages': no script runs there, and event art may be any https image.
  router.get(ACCOUNT_CALENDAR_ROUTE, pageHeaders, accountCalendarPage(deps, accounts));

  const methods: Array<[string, string]> = [
    ["/claim/:token", "GET, HEAD, POST"],
    ["/account", "GET, HEAD"],
    [`${ASSETS_PATH}/:file`, "GET, HEAD"],
    ["/account/session", "POST"],
    ["/account/sign-out", "POST"],
    ["/account/onboard-tokens", "POST"],
    ["/account/agents/:agentId/revoke", "POST"],
    ...WEBHOOK_ACTIONS.map((action): [string, string] => [`${WEBHOOK_ROUTE}/${action}`, "POST"]),
    [ACCOUNT_CALENDAR_ROUTE, "GET, HEAD"],
    [APP_REVOKE_ROUTE, "POST"],
    [CONSENT_ROUTE, "GET, HEAD, POST"],
  ];
  for (const [path, allow] of methods) {
    router.all(path, (req, res, next) => {
      if (req.path.startsWith(`${ASSETS_PATH}/`) && req.method === "GET") return next();
      res.setHeader("Allow", allow);
      sendHumanError(res, 405, "Method not allowed", `${req.method} is not allowed here.`);
    });
  }
  router.use(["/account", "/claim"], (_req, res) =>
    sendHumanError(res, 404, "Page not found", "There is no page at this address. Check the link."),
  );
  router.use(["/account", "/claim"], humansErrorPage(deps));

  /** A form's CSRF value, then the session: 403 or 401 pages otherwise (null then). */
  async function signedInForm(req: Request, res: Response): Promise<Account | null> {
    return (await signedInContext(req, res))?.account ?? null;
  }

  async function signedInContext(req: Request, res: Response): Promise<(PageContext & { account: Account }) | null> {
    if (!csrfMatches(req, formField(req, "csrf"))) {
      sendHumanError(res, 403, "This form has expired", FORM_EXPIRED);
      return null;
    }
    const ctx = await context(req, res);
    if (!ctx.account) {
      sendHumanError(res, 401, "Sign in first", "Your session has ended. Sign in on your account page and try again.");
      return null;
    }
    return { ...ctx, account: ctx.account };
  }

  return router;
}

const FORM_EXPIRED = "This form has expired or did not come from this site. Reload the page and try again.";

const formField = (req: Request, name: string): unknown => (req.body as Record<string, unknown> | undefined)?.[name];

/**
 * Scripts only from this origin (the bundled SDK) and Google's iframe loader, which the SDK's
 * Google sign-in window needs; requests only to Firebase Authentication (or the emulator).
 */
function contentSecurityPolicy(config: BrowserAuthConfig | null): string {
  const signIn = config
    ? config.emulatorUrl
      ? { connect: [config.emulatorUrl], frame: [config.emulatorUrl] }
      : {
          connect: ["https://identitytoolkit.googleapis.com", "https://securetoken.googleapis.com"],
          frame: [`https://${config.authDomain}`],
        }
    : { connect: [], frame: [] };
  const directives = [
    "default-src 'none'",
    `script-src 'self'${config ? " https://apis.google.com" : ""}`,
    "style-src 'self'",
    "img-src 'self'",
    `connect-src ${["'self'", ...signIn.connect].join(" ")}`,
    `frame-src ${signIn.frame.length ? signIn.frame.join(" ") : "'none'"}`,
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ];
  return directives.join("; ");
}

/**
 * Never cached or indexed; no referrer, so a claim link never leaves in a Referer header.
 * `private` too: Firebase Hosting drops the Set-Cookie of an answer whose Cache-Control lacks it.
 */
const baseHeaders: RequestHandler[] = [
  helmet({ contentSecurityPolicy: false, referrerPolicy: { policy: "no-referrer" } }),
  (_req, res, next) => {
    res.setHeader("Cache-Control", "private, no-store");
    res.setHeader("X-Robots-Tag", "noindex");
    next();
  },
];

function sendPage(res: Response, status: number, body: string): void {
  res.status(status).type("text/html; charset=utf-8").send(body);
}

function sendText(res: Response, status: number, text: string): void {
  res.status(status).type("text/plain; charset=utf-8").send(text);
}

function sendHumanError(res: Response, status: number, heading: string, message: string): void {
  sendPage(res, status, renderHumanError(status, heading, message, requestIdOf(res)));
}

function claimNotFound(res: Response): void {
  sendHumanError(
    res,
    404,
    "Claim link not found",
    "There is no claim link at this address. Check that you copied the whole link from your agent.",
  );
}

function claimGone(res: Response, reason: "used" | "expired"): void {
  const message =
    reason === "used"
      ? "This claim link was already used: the agent is linked to an account. If it is yours, it is on your account page."
      : "This claim link has expired (links last 7 days). Create an onboard token on your account page and give it to the agent instead.";
  sendHumanError(res, 410, reason === "used" ? "This claim link was used" : "This claim link has expired", message);
}

function humansErrorPage(deps: Pick<Deps, "log">): ErrorRequestHandler {
  return (err, _req, res, next) => {
    if (res.headersSent) return next(err);
    const apiError = asApiError(err);
    if (apiError?.status === 404)
      return sendHumanError(res, 404, "Not found", "There is nothing of yours at this address. Check the link.");
    if (apiError && apiError.status < 500) {
      // Retry-After of a 429 (too many expensive reads at once), for one.
      for (const [name, value] of Object.entries(apiError.headers)) res.setHeader(name, value);
      return sendHumanError(res, apiError.status, "This cannot be done", apiError.message);
    }
    if (isTransientStoreError(err)) {
      res.setHeader("Retry-After", "1");
      return sendHumanError(res, 503, "Busy for a moment", "The service is busy. Reload the page in a moment.");
    }
    logUnexpected(deps.log, "account page error", err, requestIdOf(res));
    sendHumanError(res, 500, "Something went wrong", "Something went wrong on our side. Reload the page.");
  };
}
