import express, { type Express, type Request } from "express";
import type { HttpDeps } from "./http/deps.js";
import { httpErrors } from "./http/errors.js";
import { requestLog } from "./http/log.js";
import { refuseContentEncoding, refuseLongQueryValues } from "./http/edge.js";
import { errorMiddleware } from "./http/error-handler.js";
import { frameworkBodyLimit, requireJsonOr, textBody } from "./http/text-body.js";
import { REQUEST_ID_HEADER, requestId } from "./http/request-id.js";
import { apiRateLimits, methodBudget, type ApiRateLimits, type RateLimitConfig } from "./http/rate-limit.js";
import { ROUTING, apiRouter, expressPath, mountRoutes, type OutcomeCheck } from "./http/express-routes.js";
import { budgetOf, type AnyRoute } from "./http/route.js";
import { mountMcp } from "./mcp/mount.js";
import { mountOAuth } from "./oauth/mount.js";
import { openApiRoute } from "./openapi/route.js";
import { apiRoutes } from "./routes/index.js";

const BODY_LIMIT = "64kb";
const BODY_LIMIT_BYTES = 64 * 1024;

export interface ApiAppOptions {
  /** Tests: looks at every operation's outcome, from REST and MCP alike, before it is sent. */
  checkOutcome?: OutcomeCheck;
  /** Rate limits (http/rate-limit.ts); by default the configuration's (`deps.config.rateLimits`). */
  rateLimits?: RateLimitConfig;
  /** Deployed behind Firebase Hosting: the client address comes from X-Forwarded-For (`TRUST_PROXY_HOPS`). */
  behindProxy?: boolean;
}

/**
 * The `/v1` JSON API (and `/openapi.json`, `/mcp` and `/mcp/public`: mcp/mount.ts, and the
 * authorization server of `/mcp`: oauth/mount.ts). Before any route: no-store,
 * the request log and CORS. Each operation (http/route.ts) then runs its rate limit, the edge
 * checks and the JSON body, and the executor (http/execute.ts) runs the rest.
 */
export function createApiApp(deps: HttpDeps, routes: AnyRoute[] = apiRoutes, options: ApiAppOptions = {}): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("query parser", "simple");
  // The app's own routes (/mcp) match as the API router's do: one spelling each.
  app.set("case sensitive routing", ROUTING.caseSensitive);
  app.set("strict routing", ROUTING.strict);
  if (options.behindProxy) app.set("trust proxy", deps.config.trustProxy);
  // First: every answer, whatever answers it, carries its X-Request-Id.
  app.use(requestId);
  // Before anything can answer: no /v1 response, an error or a 404 included, may be kept by
  // Hosting's CDN or a browser (docs/api.md#caching-and-cors).
  app.use(noStore);

  app.use(requestLog(deps));
  app.use(cors);

  // The rate limit is the first step of every route, before the body is read: a request over
  // its limit is neither parsed nor run, and its budget is the operation that matched
  // (`budgetOf`), never the path's spelling. /mcp charges each message itself (mcp/server.ts).
  const limits = apiRateLimits(deps, options.rateLimits ?? deps.config.rateLimits);
  const readBody = [
    refuseContentEncoding,
    refuseLongQueryValues,
    requireJsonOr(null),
    frameworkBodyLimit(BODY_LIMIT_BYTES),
    jsonBody,
  ];
  // An operation that takes a text body too (an import) reads it up to its own limit.
  const readBodyOf = (route: AnyRoute) =>
    route.textBody
      ? [
          refuseContentEncoding,
          refuseLongQueryValues,
          requireJsonOr(route.textBody.type),
          frameworkBodyLimit(route.textBody.maxBytes),
          express.json({ limit: route.textBody.maxBytes, type: "application/json" }),
          textBody(route.textBody),
        ]
      : readBody;

  // The authorization server of /mcp (its metadata, /authorize, /token, /register, /revoke).
  mountOAuth(app, deps);
  mountMcp(app, deps, routes, { limits, readBody, checkOutcome: options.checkOutcome });

  // Case-sensitive and strict (http/route.ts ROUTING): `/v1/Mint` and `/v1/calendars/{id}/` are
  // other paths, 404 (docs/api.md#wire-basics).
  const router = apiRouter();
  const operations = [...routes, openApiRoute(routes)];
  const before = (route: AnyRoute) => [limits.charge(budgetOf(route)), ...readBodyOf(route)];
  mountRoutes(router, deps, operations, before, options.checkOutcome);
  answerWrongMethods(router, operations, limits);
  app.use(router);

  // Matched no operation: charged to the method's budget, answered without reading the body.
  app.use(chargeByMethod(limits), (req, _res, next) => next(httpErrors.routeNotFound(req.method, req.path)));
  app.use(errorMiddleware(deps));
  return app;
}

const jsonBody = express.json({
  limit: BODY_LIMIT,
  type: "application/json",
  verify: (req, _res, buf) => {
    (req as Request & { rawBody?: string }).rawBody = buf.toString("utf8");
  },
});

/** A request that matched no operation (a 404 or 405) draws from its method's budget, never mint's. */
const chargeByMethod =
  (limits: ApiRateLimits): express.RequestHandler =>
  (req, res, next) =>
    limits.charge(methodBudget(req.method))(req, res, next);

function answerWrongMethods(router: express.Router, routes: AnyRoute[], limits: ApiRateLimits): void {
  const methodsByPath = new Map<string, string[]>();
  for (const r of routes) {
    const path = expressPath(r.path);
    methodsByPath.set(path, [...(methodsByPath.get(path) ?? []), r.method.toUpperCase()]);
  }
  for (const [path, methods] of methodsByPath) {
    router.all(path, chargeByMethod(limits), (req, _res, next) =>
      next(httpErrors.methodNotAllowed(req.method, methods)),
    );
  }
}

const noStore: express.RequestHandler = (_req, res, next) => {
  res.setHeader("Cache-Control", "no-store");
  next();
};

const cors: express.RequestHandler = (req, res, next) => {
  res.setHeader("Access-Control-Allow-Origin", "*");
  // WWW-Authenticate: a browser-based MCP client reads where /mcp's OAuth metadata is.
  res.setHeader("Access-Control-Expose-Headers", `${REQUEST_ID_HEADER}, WWW-Authenticate`);
  if (req.method !== "OPTIONS") return next();
  res.setHeader("Access-Control-Allow-Methods", "GET, POST, PATCH, DELETE");
  res.setHeader(
    "Access-Control-Allow-Headers",
    "Authorization, Content-Type, Idempotency-Key, Mcp-Protocol-Version, X-MCP-Toolsets",
  );
  res.setHeader("Access-Control-Max-Age", "86400");
  res.status(204).end();
};
