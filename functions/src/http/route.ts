import express, { type Request, type RequestHandler, type Response, type Router } from "express";
import type { z } from "zod";
import type { Actor } from "../domain/actor.js";
import type { WaitGuard } from "../domain/change-signals.js";
import type { HttpDeps } from "./deps.js";
import { RULES, type CalendarAction } from "../domain/policy.js";
import { requireCalendar, type CalendarAccess } from "../domain/queries/access.js";
import type { CalendarRecord } from "../domain/records.js";
import type { Scope } from "../domain/types.js";
import type { Store, Transaction } from "../storage/port.js";
import { authenticate } from "./auth.js";
import { errors, type ErrorCode } from "../domain/errors.js";
import { httpErrors, withRequestId } from "./errors.js";
import { claimKey, executeOnce, fingerprint, idempotencyPath, inOneTransaction } from "./idempotency.js";
import { documentsNamedBy, requestReads } from "./prefetch.js";
import { methodBudget, type Budget } from "./rate-limit.js";
import { requestIdOf } from "./request-id.js";
import { PreparedJson } from "./response-cache.js";
import { parseInput, parsePathParams } from "./validate.js";

type Method = "get" | "post" | "patch" | "delete";
type AnyObject = z.ZodType<Record<string, unknown>, Record<string, unknown>>;
export type AuthMode = "required" | "optional" | "none";

/** The caller as the auth mode guarantees it: a required token always names an agent, `none` never reads one. */
export type ActorOf<A extends AuthMode> = A extends "required" ? Actor : A extends "none" ? null : Actor | null;

export interface RouteContext<
  P,
  Q,
  B,
  A extends AuthMode = AuthMode,
  C extends CalendarAction | undefined = undefined,
> {
  deps: HttpDeps;
  actor: ActorOf<A>;
  /** The path's calendar and the caller's role, loaded and authorized for the route's `calendar` action. */
  calendar: C extends CalendarAction ? CalendarAccess : undefined;
  params: P;
  query: Q;
  body: B;
  /** For a handler that holds its answer (long-poll): the client's going, and the route's checks again. */
  waiting: WaitGuard;
}

/**
 * One API operation: how it is validated, authenticated, authorized and documented, and its
 * handler. The same definition mounts the Express route and describes the OpenAPI operation.
 */
export interface RouteDef<
  P = Record<string, string>,
  Q = Record<string, unknown>,
  B = undefined,
  A extends AuthMode = AuthMode,
  C extends CalendarAction | undefined = undefined,
  R extends AnyObject = AnyObject,
> {
  method: Method;
  /** OpenAPI-style path, e.g. `/v1/calendars/{calendarId}`. */
  path: string;
  summary: string;
  tags: string[];
  auth: A;
  /**
   * What the route does to the calendar of its `{calendarId}`: the route layer loads it, applies
   * the policy (domain/policy.ts, docs/api.md#access) before the handler runs, and documents the
   * action's scope and refusals. Inside a write's transaction for writes (the handler's `deps`).
   */
  calendar?: C;
  /** Reads to start on the calendar record while the caller's role is read (no caller needed). */
  alongside?: (ctx: { deps: HttpDeps; params: P; query: Q }, calendar: CalendarRecord) => Promise<unknown>;
  /** Checked right after authentication, for routes without a calendar (theirs is the action's). */
  scope?: C extends CalendarAction ? never : Scope;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /**
   * The rate-limit budget the operation draws from (http/rate-limit.ts) when it is not its
   * method's (reads for GET, writes otherwise): mint declares `"mint"`.
   */
  budget?: Budget;
  /** Response fields answered once and never stored for a replay (tokens, claim links). */
  secretFields?: readonly string[];
  /** A POST whose body may be omitted entirely (treated as `{}`). */
  bodyOptional?: boolean;
  invalidCode?: "invalid_request" | "invalid_event";
  response: R;
  /** Error codes the route answers beyond those of its auth mode and calendar action, for the documentation. */
  errors: ErrorCode[];
  // Method syntax: a registry of routes (AnyRoute) holds handlers of every auth mode.
  handler(ctx: RouteContext<P, Q, B, A, C>): Promise<z.input<R> | PreparedJson>;
}

// Routes are heterogeneous in their inputs; the registry only needs the shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = RouteDef<any, any, any, AuthMode, CalendarAction | undefined>;

export const defineRoute = <
  P,
  Q,
  B,
  A extends AuthMode,
  C extends CalendarAction | undefined = undefined,
  R extends AnyObject = AnyObject,
>(
  def: RouteDef<P, Q, B, A, C, R>,
): RouteDef<P, Q, B, A, C, R> => {
  if (def.calendar && !def.path.includes("{calendarId}")) {
    throw new Error(`${def.path}: a route with a calendar action needs a {calendarId} in its path`);
  }
  return def;
};

/** The scopes a route documents: its calendar action's (domain/policy.ts RULES), else its own. */
export const documentedScopes = (route: AnyRoute): Scope[] =>
  route.calendar ? [RULES[route.calendar].scope] : route.scope ? [route.scope] : [];

/** What the policy can refuse for an action: an unseen calendar, a missing scope, too low a role. */
export const calendarRefusals = (action: CalendarAction): ErrorCode[] =>
  RULES[action].minRole ? ["not_found", "insufficient_scope", "forbidden"] : ["not_found", "insufficient_scope"];

/** The rate-limit budget an operation draws from: its own declaration, else its method's. */
export const budgetOf = (route: AnyRoute): Budget => route.budget ?? methodBudget(route.method);

export const expressPath = (path: string): string => path.replace(/\{(\w+)\}/g, ":$1");

/**
 * How every API path is matched: case-sensitive and strict, so a path reaches an operation only
 * spelled as its route declares it (`/v1/Mint` and `/v1/mint/` are 404), and whatever is keyed
 * on the operation (rate limits) cannot be picked by another spelling.
 */
export const ROUTING = { caseSensitive: true, strict: true } as const;

export const apiRouter = (): Router => express.Router(ROUTING);

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
): void {
  for (const route of routes) {
    router[route.method](expressPath(route.path), ...before(route), (req: Request, res: Response) =>
      handle(route, deps, req, res),
    );
  }
}

async function handle(route: AnyRoute, deps: HttpDeps, req: Request, res: Response): Promise<void> {
  res.locals.route = route; // the operation answering, for the response check of the tests
  const header = req.get("authorization");
  // A GET makes each read once and starts reading the documents its path names while the
  // token is checked (http/prefetch.ts), unless it is sure to be refused for want of a token.
  const prefetch = Boolean(header) || route.auth !== "required" ? documentsNamedBy(req.params) : [];
  const reads = route.method === "get" ? { ...deps, store: requestReads(deps.store, prefetch) } : deps;
  const actor = await admitted(route, reads, header);

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
  const outcome = await executeOnce(
    deps,
    claim,
    route.secretFields ?? [],
    (scoped) => run(route, scoped, actor, req),
    requestIdOf(res),
  );
  for (const [name, value] of Object.entries(outcome.headers)) res.setHeader(name, value);
  send(res, outcome.status, outcome.body);
}

async function run(route: AnyRoute, deps: HttpDeps, actor: Actor | null, req: Request): Promise<object> {
  const code = route.invalidCode ?? "invalid_request";
  const params: Record<string, unknown> = route.params ? parsePathParams(route.params, req.params) : req.params;
  const query = route.query ? parseInput(route.query, req.query, "invalid_request", "query") : {};
  let body: unknown;
  if (route.body) {
    const raw = req.body === undefined && route.bodyOptional ? {} : req.body;
    if (raw === undefined) throw errors.invalid(code, "send a JSON object body with `Content-Type: application/json`");
    body = parseInput(route.body, raw, code, "body");
  }
  const calendar = await authorizedCalendar(route, deps, actor, params, query);
  const waiting = waitGuard(route, deps, req, params);
  return route.handler({ deps, actor, calendar, params, query, body, waiting });
}

/** The caller as the route admits it: authenticated (401), present when required, with the route's own scope. */
async function admitted(route: AnyRoute, deps: HttpDeps, header: string | undefined): Promise<Actor | null> {
  const actor = route.auth === "none" ? null : await authenticate(deps, header);
  if (route.auth === "required" && !actor) throw httpErrors.unauthorized();
  if (route.scope && actor && !actor.scopes.includes(route.scope)) throw errors.insufficientScope(route.scope);
  return actor;
}

/**
 * What a handler that holds its answer needs: a signal of the client's going, and the same
 * admission and calendar policy as above, on the request's own Authorization header, read
 * through the handler's transaction (so a revoked token or grant is seen in the same cut).
 */
function waitGuard(route: AnyRoute, deps: HttpDeps, req: Request, params: Record<string, unknown>): WaitGuard {
  const header = req.get("authorization");
  return {
    signal: clientGone(req.res!),
    stillAllowed: async (tx) => {
      const reads: HttpDeps = { ...deps, store: transactionReads(tx) };
      const actor = await admitted(route, reads, header);
      if (route.calendar) await requireCalendar(reads, String(params.calendarId), actor, route.calendar);
    },
  };
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

/** A transaction's reads where a check reads `deps.store`; such a check opens no transaction itself. */
function transactionReads(tx: Transaction): Store {
  return {
    get: (ref) => tx.get(ref),
    getAll: (refs) => tx.getAll(refs),
    query: (collection, spec) => tx.query(collection, spec),
    count: () => Promise.reject(new Error("a check inside a transaction counts nothing outside it")),
    runTransaction: () => Promise.reject(new Error("a check inside a transaction opens no other")),
    close: () => Promise.resolve(),
  };
}

/**
 * The route's calendar, loaded and judged for its action before the handler runs. With the
 * handler's `deps`: inside a write's transaction, and through a GET's shared reads.
 */
async function authorizedCalendar(
  route: AnyRoute,
  deps: HttpDeps,
  actor: Actor | null,
  params: Record<string, unknown>,
  query: unknown,
): Promise<CalendarAccess | undefined> {
  if (!route.calendar) return undefined;
  const alongside = route.alongside;
  const startAlongside = alongside && ((calendar: CalendarRecord) => alongside({ deps, params, query }, calendar));
  // defineRoute made sure the path names a {calendarId}.
  return requireCalendar(deps, String(params.calendarId), actor, route.calendar, startAlongside);
}

/** Our JSON parser keeps the text; inside Cloud Functions the framework keeps a Buffer. */
function rawBodyOf(req: Request): string {
  const raw = (req as Request & { rawBody?: string | Buffer }).rawBody;
  return raw === undefined ? "" : raw.toString();
}

/** A success, or an error answered by the Idempotency-Key's record (stored without its request id). */
function send(res: Response, status: number, body: unknown): void {
  if (body instanceof PreparedJson) res.status(status).type("application/json").send(body.body);
  else res.status(status).json(status === 200 ? body : withRequestId(body, requestIdOf(res)));
}
