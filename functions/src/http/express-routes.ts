/**
 * The Express adapter: each operation mounted on the API router, its request handed to the
 * executor (http/execute.ts) as plain values, the outcome written back.
 */
import express, { type Request, type RequestHandler, type Response, type Router } from "express";
import type { HttpDeps } from "./deps.js";
import { execute, type Outcome } from "./execute.js";
import { requestIdOf } from "./request-id.js";
import { PreparedJson } from "./response-cache.js";
import type { AnyRoute } from "./route.js";

export const expressPath = (path: string): string => path.replace(/\{(\w+)\}/g, ":$1");

/**
 * How every API path is matched: case-sensitive and strict, so a path reaches an operation only
 * spelled as its route declares it (`/v1/Mint` and `/v1/mint/` are 404), and whatever is keyed
 * on the operation (rate limits) cannot be picked by another spelling.
 */
export const ROUTING = { caseSensitive: true, strict: true } as const;

export const apiRouter = (): Router => express.Router(ROUTING);

/** Looks at each outcome before it is sent (the test suite's response check). */
export type OutcomeCheck = (route: AnyRoute, outcome: Outcome, requestId: string | undefined) => Outcome;

/**
 * Mounts each operation on the router: `before(route)` (the rate limit of its budget, the body
 * checks and parser), then the operation. What runs before an operation is chosen by the route
 * that matched, so it cannot depend on how the path was spelled.
 */
export function mountRoutes(
  router: Router,
  deps: HttpDeps,
  routes: AnyRoute[],
  before: (route: AnyRoute) => RequestHandler[] = () => [],
  check?: OutcomeCheck,
): void {
  for (const route of routes) {
    router[route.method](expressPath(route.path), ...before(route), async (req: Request, res: Response) => {
      const requestId = requestIdOf(res);
      const outcome = await execute(
        route,
        {
          params: req.params as Record<string, string>,
          query: req.query,
          body: req.body,
          authorization: req.get("authorization"),
          idempotencyKey: req.get("idempotency-key"),
          client: { signal: clientGone(res), requestId },
        },
        deps,
      );
      send(res, check ? check(route, outcome, requestId) : outcome);
    });
  }
}

function send(res: Response, { status, body, headers }: Outcome): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  if (body instanceof PreparedJson) res.status(status).type("application/json").send(body.body);
  else res.status(status).json(body);
}

/** Aborted when the response closes before it was sent (the client dropped the connection). */
export function clientGone(res: Response): AbortSignal {
  const gone = new AbortController();
  if (res.destroyed) gone.abort();
  else
    res.once("close", () => {
      if (!res.writableFinished) gone.abort();
    });
  return gone.signal;
}
