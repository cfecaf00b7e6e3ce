import type { Request, Response, Router } from "express";
import type { z } from "zod";
import type { Actor } from "../domain/actor.js";
import type { Deps } from "../domain/deps.js";
import type { Scope } from "../domain/types.js";
import { authenticate } from "./auth.js";
import { errors, type ErrorCode } from "./errors.js";
import { claimKey, executeOnce, fingerprint, idempotencyPath, inOneTransaction } from "./idempotency.js";
import { documentsNamedBy, requestReads } from "./prefetch.js";
import { PreparedJson } from "./response-cache.js";
import { parseInput, parsePathParams } from "./validate.js";

type Method = "get" | "post" | "patch" | "delete";
type AnyObject = z.ZodType<Record<string, unknown>>;

export interface RouteContext<P, Q, B> {
  deps: Deps;
  actor: Actor | null;
  params: P;
  query: Q;
  body: B;
}

/**
 * One API operation: how it is validated, authenticated and documented, and its handler.
 * The same definition mounts the Express route and describes the OpenAPI operation.
 */
export interface RouteDef<P = Record<string, string>, Q = Record<string, unknown>, B = undefined> {
  method: Method;
  /** OpenAPI-style path, e.g. `/v1/calendars/{calendarId}`. */
  path: string;
  summary: string;
  tags: string[];
  auth: "required" | "optional" | "none";
  /** Checked right after authentication; calendar routes check scopes in the access policy instead. */
  scope?: Scope;
  /** Scopes named in the documentation. */
  scopes?: Scope[];
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** Response fields answered once and never stored for a replay (tokens, claim links). */
  secretFields?: readonly string[];
  /** A POST whose body may be omitted entirely (treated as `{}`). */
  bodyOptional?: boolean;
  invalidCode?: "invalid_request" | "invalid_event";
  response: AnyObject;
  /** Error codes this route can answer, for the documentation. */
  errors: ErrorCode[];
  handler: (ctx: RouteContext<P, Q, B>) => Promise<object>;
}

// Routes are heterogeneous in P/Q/B; the registry only needs the shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = RouteDef<any, any, any>;

export const defineRoute = <P, Q, B>(def: RouteDef<P, Q, B>): RouteDef<P, Q, B> => def;

export const expressPath = (path: string): string => path.replace(/\{(\w+)\}/g, ":$1");

export function mountRoutes(router: Router, deps: Deps, routes: AnyRoute[]): void {
  for (const route of routes) {
    router[route.method](expressPath(route.path), (req: Request, res: Response) => handle(route, deps, req, res));
  }
}

async function handle(route: AnyRoute, deps: Deps, req: Request, res: Response): Promise<void> {
  res.locals.route = route; // the operation answering, for the response check of the tests
  const header = req.get("authorization");
  // A GET makes each read once and starts reading the documents its path names while the
  // token is checked (http/prefetch.ts), unless it is sure to be refused for want of a token.
  const prefetch = Boolean(header) || route.auth !== "required" ? documentsNamedBy(req.params) : [];
  const reads = route.method === "get" ? { ...deps, store: requestReads(deps.store, prefetch) } : deps;
  const actor = route.auth === "none" ? null : await authenticate(reads, header);
  if (route.auth === "required" && !actor) throw errors.unauthorized();
  if (route.scope && actor && !actor.scopes.includes(route.scope)) throw errors.insufficientScope(route.scope);

  if (route.method === "get") {
    send(res, 200, await run(route, reads, actor, req));
    return;
  }
  if (route.method !== "post") {
    send(res, 200, await inOneTransaction(deps, (scoped) => run(route, scoped, actor, req)));
    return;
  }
  const keyPath = idempotencyPath(req.get("idempotency-key"), actor?.agentId ?? null);
  const claim = await claimKey(deps, keyPath, fingerprint(req.method, req.path, rawBodyOf(req)));
  if (claim.kind === "replay") {
    res.setHeader("Idempotent-Replayed", "true");
    send(res, claim.status, claim.body);
    return;
  }
  const outcome = await executeOnce(deps, claim, route.secretFields ?? [], (scoped) => run(route, scoped, actor, req));
  for (const [name, value] of Object.entries(outcome.headers)) res.setHeader(name, value);
  send(res, outcome.status, outcome.body);
}

async function run(route: AnyRoute, deps: Deps, actor: Actor | null, req: Request): Promise<object> {
  const code = route.invalidCode ?? "invalid_request";
  const params = route.params ? parsePathParams(route.params, req.params) : req.params;
  const query = route.query ? parseInput(route.query, req.query, "invalid_request", "query") : {};
  let body: unknown;
  if (route.body) {
    const raw = req.body === undefined && route.bodyOptional ? {} : req.body;
    if (raw === undefined) throw errors.invalid(code, "send a JSON object body with `Content-Type: application/json`");
    body = parseInput(route.body, raw, code, "body");
  }
  return route.handler({ deps, actor, params, query, body });
}

/** Our JSON parser keeps the text; inside Cloud Functions the framework keeps a Buffer. */
function rawBodyOf(req: Request): string {
  const raw = (req as Request & { rawBody?: string | Buffer }).rawBody;
  return raw === undefined ? "" : raw.toString();
}

function send(res: Response, status: number, body: unknown): void {
  if (body instanceof PreparedJson) res.status(status).type("application/json").send(body.body);
  else res.status(status).json(body);
}
