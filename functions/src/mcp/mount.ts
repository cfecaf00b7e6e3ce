/**
 * Where `/mcp` and `/mcp/public` join the API app. The MCP SDK and the tool list load on the
 * first request to either (a dynamic import), so a cold start that serves /v1 never pays for them.
 *
 * `/mcp` takes only requests with a bearer token: without one it is 401 naming its protected
 * resource metadata, which is how a hosted client learns to start OAuth (docs/mcp.md#authorization);
 * a token that was sent is checked by the SDK's `requireBearerAuth` (oauth/bearer.ts). `/mcp/public`
 * is the same server without that gate, for `mint_agent` and reading public calendars.
 */
import type { ErrorRequestHandler, Express, RequestHandler } from "express";
import type { HttpDeps } from "../http/deps.js";
import type { OutcomeCheck } from "../http/express-routes.js";
import { ApiError, httpErrors } from "../http/errors.js";
import { methodBudget, type ApiRateLimits } from "../http/rate-limit.js";
import type { AnyRoute } from "../http/route.js";
import { loadOnce } from "../lazy.js";
import { resourceMetadataUrl } from "../oauth/paths.js";

export const MCP_PATH = "/mcp";
export const MCP_PUBLIC_PATH = "/mcp/public";

export interface McpMount {
  /** The API's rate limits: mcp/server.ts charges each message as the operation it runs. */
  limits: ApiRateLimits;
  /** The API's body checks and JSON parser, run before the message can be charged. */
  readBody: RequestHandler[];
  /** The API app's outcome check (tests), applied to tool calls too. */
  checkOutcome?: OutcomeCheck;
}

export function mountMcp(
  app: Express,
  deps: HttpDeps,
  routes: readonly AnyRoute[],
  { limits, readBody, checkOutcome }: McpMount,
): void {
  const mcp = loadOnce(async () => (await import("./server.js")).mcpHandler(deps, routes, limits, checkOutcome));
  const answer: RequestHandler = (req, res, next) => {
    mcp()
      .then((handle) => handle(req, res, next))
      .catch(next);
  };
  const bearer = loadOnce(async () => (await import("../oauth/bearer.js")).bearerCheck(deps));
  const checkBearer: RequestHandler = (req, res, next) => {
    bearer()
      .then((check) => check(req, res, next))
      .catch(next);
  };
  app.all(MCP_PATH, requireToken(deps, limits), checkBearer);
  app.post([MCP_PATH, MCP_PUBLIC_PATH], ...readBody, chargeUnreadBody(limits), answer);
  // Stateless: no server-sent event stream to open (GET) and no session to end (DELETE).
  app.all([MCP_PATH, MCP_PUBLIC_PATH], (req, res, next) =>
    limits.charge(methodBudget(req.method))(req, res, (err?: unknown) =>
      next(err ?? httpErrors.methodNotAllowed(req.method, ["POST"])),
    ),
  );
}

/**
 * A body refused before it could be read as a message (not JSON, too large, encoded) never
 * reaches the handler that charges messages, so it is charged here, as a read: every POST to
 * /mcp costs its caller one request, whatever it holds.
 */
const chargeUnreadBody =
  (limits: ApiRateLimits): ErrorRequestHandler =>
  (err, req, res, next) =>
    limits.charge("reads")(req, res, (overLimit?: unknown) => next(overLimit ?? err));

const NO_TOKEN =
  "/mcp needs `Authorization: Bearer <token>`: a hosted client gets one by OAuth (WWW-Authenticate names how), " +
  "an agent by POST /v1/mint or mint_agent at /mcp/public, which needs no token";

/**
 * A request to `/mcp` without a token: 401 with `WWW-Authenticate` naming the resource metadata
 * (RFC 9728), and no error code, as RFC 6750 asks of a request that sent no credentials.
 * Charged as any request is, by client address.
 */
const requireToken =
  (deps: HttpDeps, limits: ApiRateLimits): RequestHandler =>
  (req, res, next) => {
    if (req.get("authorization")) return next();
    limits.charge(methodBudget(req.method))(req, res, (err?: unknown) =>
      next(
        err ??
          new ApiError("unauthorized", NO_TOKEN, undefined, {
            "WWW-Authenticate": `Bearer resource_metadata="${resourceMetadataUrl(deps.baseUrl)}"`,
          }),
      ),
    );
  };
