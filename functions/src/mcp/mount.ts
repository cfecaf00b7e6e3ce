/**
 * Where `/mcp` joins the API app. The MCP SDK and the tool list load on the first /mcp
 * request (a dynamic import), so a cold start that serves /v1 never pays for them.
 */
import type { ErrorRequestHandler, Express, RequestHandler } from "express";
import type { HttpDeps } from "../http/deps.js";
import type { OutcomeCheck } from "../http/express-routes.js";
import { httpErrors } from "../http/errors.js";
import { methodBudget, type ApiRateLimits } from "../http/rate-limit.js";
import type { AnyRoute } from "../http/route.js";
import { loadOnce } from "../lazy.js";

export const MCP_PATH = "/mcp";

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
  app.post(MCP_PATH, ...readBody, chargeUnreadBody(limits), answer);
  // Stateless: no server-sent event stream to open (GET) and no session to end (DELETE).
  app.all(MCP_PATH, (req, res, next) =>
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
