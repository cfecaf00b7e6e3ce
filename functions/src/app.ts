import express, { type Express, type Request } from "express";
import type { Deps } from "./domain/deps.js";
import { httpErrors } from "./http/errors.js";
import { requestLog } from "./http/log.js";
import { refuseContentEncoding, refuseLongQueryValues } from "./http/edge.js";
import { errorMiddleware, requireJsonBody } from "./http/error-handler.js";
import { apiRateLimits, rateLimitsFromEnv, trustProxySetting, type RateLimitConfig } from "./http/rate-limit.js";
import { expressPath, mountRoutes, type AnyRoute } from "./http/route.js";
import { MCP_PATH, mountMcp } from "./mcp/mount.js";
import { checkResponses } from "./openapi/check-responses.js";
import { openApiRoute } from "./openapi/route.js";
import { apiRoutes } from "./routes/index.js";

const BODY_LIMIT = "64kb";
const BODY_LIMIT_BYTES = 64 * 1024;

export interface ApiAppOptions {
  /** Tests: answer 500 when a response strays from its documented schema or error codes. */
  checkResponses?: boolean;
  /** Rate limits (http/rate-limit.ts); by default the environment's (`RATE_LIMITS=off` and the rest). */
  rateLimits?: RateLimitConfig;
  /** Deployed behind Firebase Hosting: the client address comes from X-Forwarded-For (`TRUST_PROXY_HOPS`). */
  behindProxy?: boolean;
}

/**
 * The `/v1` JSON API (and `/openapi.json`, and `/mcp`: mcp/mount.ts). Before any route: no-store, the request log, CORS,
 * rate limits, the edge checks and the JSON body. Each operation (http/route.ts) then runs
 * authenticate -> scope -> Idempotency-Key claim (POST) -> validate -> calendar load and policy
 * -> handler (command or query) -> presenter. A write runs in one transaction (a POST with the
 * record of its Idempotency-Key).
 */
export function createApiApp(deps: Deps, routes: AnyRoute[] = apiRoutes, options: ApiAppOptions = {}): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("query parser", "simple");
  if (options.behindProxy) app.set("trust proxy", trustProxySetting());
  // Before anything can answer: no /v1 response, an error or a 404 included, may be kept by
  // Hosting's CDN or a browser (DECISIONS section 1).
  app.use(noStore);
  if (options.checkResponses) app.use(checkResponses());

  app.use(requestLog(deps));
  app.use(cors);
  // Before the body is read: a request over its limit is neither parsed nor run.
  // Not /mcp itself: each tool call is counted as the REST request it makes (mcp/dispatch.ts).
  const rateLimits = apiRateLimits(deps, options.rateLimits ?? rateLimitsFromEnv());
  app.use((req, res, next) => (req.path === MCP_PATH ? next() : rateLimits(req, res, next)));
  app.use(refuseContentEncoding);
  app.use(refuseLongQueryValues);
  app.use(requireJsonBody);
  app.use(frameworkBodyLimit);
  app.use(
    express.json({
      limit: BODY_LIMIT,
      type: "application/json",
      verify: (req, _res, buf) => {
        (req as Request & { rawBody?: string }).rawBody = buf.toString("utf8");
      },
    }),
  );

  // The MCP endpoint: its tool calls come back through this app as REST requests.
  mountMcp(app, deps, routes);

  // Strict: `/v1/calendars/{id}/` is not the calendar; an id never ends in a slash (DECISIONS section 1).
  const router = express.Router({ strict: true });
  const operations = [...routes, openApiRoute(routes)];
  mountRoutes(router, deps, operations);
  answerWrongMethods(router, operations);
  app.use(router);

  app.use((req, _res, next) => next(httpErrors.routeNotFound(req.method, req.path)));
  app.use(errorMiddleware(deps));
  return app;
}

/**
 * Inside Cloud Functions the framework has parsed the body before the app runs (req.rawBody
 * is a Buffer, under a 32 MB limit of its own), so express.json below never applies its limit.
 */
const frameworkBodyLimit: express.RequestHandler = (req, _res, next) => {
  const raw = (req as Request & { rawBody?: unknown }).rawBody;
  next(Buffer.isBuffer(raw) && raw.length > BODY_LIMIT_BYTES ? httpErrors.payloadTooLarge() : undefined);
};

function answerWrongMethods(router: express.Router, routes: AnyRoute[]): void {
  const methodsByPath = new Map<string, string[]>();
  for (const r of routes) {
    const path = expressPath(r.path);
    methodsByPath.set(path, [...(methodsByPath.get(path) ?? []), r.method.toUpperCase()]);
  }
  for (const [path, methods] of methodsByPath) {
    router.all(path, (req, _res, next) => next(httpErrors.methodNotAllowed(req.method, methods)));
  }
}

const noStore: express.RequestHandler = (_req, res, next) => {
  res.setHeader("Cache-Control", "no-store");
  next();
};

const cors: express.RequestHandler = (req, res, next) => {
  res.setHeader("Access-Control-Allow-Origin", "*");
  if (req.method !== "OPTIONS") return next();
  res.setHeader("Access-Control-Allow-Methods", "GET, POST, PATCH, DELETE");
  res.setHeader("Access-Control-Allow-Headers", "Authorization, Content-Type, Idempotency-Key, Mcp-Protocol-Version");
  res.setHeader("Access-Control-Max-Age", "86400");
  res.status(204).end();
};
