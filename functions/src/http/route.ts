/**
 * What an API operation is: one definition per operation (routes/*.ts) says how it is
 * validated, authenticated, authorized, limited and documented, and holds its handler. The
 * executor (http/execute.ts) runs it for either adapter; openapi/ documents it; mcp/ lists it.
 */
import type { z } from "zod";
import type { Actor } from "../domain/actor.js";
import type { WaitGuard } from "../domain/change-signals.js";
import type { HttpDeps } from "./deps.js";
import { RULES, type CalendarAction } from "../domain/policy.js";
import type { CalendarAccess } from "../domain/queries/access.js";
import type { CalendarRecord } from "../domain/records.js";
import type { Scope } from "../domain/types.js";
import type { Transaction } from "../storage/port.js";
import type { ErrorCode } from "../domain/errors.js";
import { methodBudget, type Budget } from "./rate-limit.js";
import type { PreparedJson } from "./response-cache.js";

export type Method = "get" | "post" | "patch" | "delete";
type AnyObject = z.ZodType<Record<string, unknown>, Record<string, unknown>>;
export type AuthMode = "required" | "optional" | "none";

/** The caller as the auth mode guarantees it: a required token always names an agent, `none` never reads one. */
export type ActorOf<A extends AuthMode> = A extends "required" ? Actor : A extends "none" ? null : Actor | null;

type WriteMethod = Exclude<Method, "get">;

/** What every handler is given: the caller, the path's calendar as the policy admitted it, the validated input. */
interface Admitted<P, Q, B, A extends AuthMode, C extends CalendarAction | undefined> {
  actor: ActorOf<A>;
  /** The path's calendar and the caller's role, loaded and authorized for the route's `calendar` action. */
  calendar: C extends CalendarAction ? CalendarAccess : undefined;
  params: P;
  query: Q;
  body: B;
}

/** A read's handler reads through `deps.store`, each read made once per request (http/prefetch.ts). */
export interface ReadContext<P, Q, B, A extends AuthMode, C extends CalendarAction | undefined> extends Admitted<
  P,
  Q,
  B,
  A,
  C
> {
  deps: HttpDeps;
  /** For a handler that holds its answer (long-poll): the client's going, and the route's checks again. */
  waiting: WaitGuard;
}

/**
 * A write's handler runs inside the one transaction the executor opened (http/execute.ts), after
 * the policy read the calendar through it, and before its answer is stored with it.
 */
export interface WriteContext<P, Q, B, A extends AuthMode, C extends CalendarAction | undefined, X> extends Admitted<
  P,
  Q,
  B,
  A,
  C
> {
  tx: Transaction;
  /** Its store reads through `tx` (for a query such as another calendar's policy) and opens no transaction. */
  deps: HttpDeps;
  /** What the route's `prepare` read before the transaction. */
  prepared: X;
}

/**
 * What a write's `batches` sees: the caller, the calendar as the policy admitted it (read outside
 * any transaction), the validated input, and `transact`, which runs `work` in a transaction of
 * its own after judging the policy again in it.
 */
export interface BatchContext<P, Q, B, A extends AuthMode, C extends CalendarAction | undefined> extends Admitted<
  P,
  Q,
  B,
  A,
  C
> {
  deps: HttpDeps;
  transact: <T>(work: (tx: Transaction, calendar: CalendarAccess) => Promise<T>) => Promise<T>;
}

/** What a write's `prepare` sees: the caller and the validated input, before any policy. */
export interface PrepareContext<P, Q, B, A extends AuthMode> {
  deps: HttpDeps;
  actor: ActorOf<A>;
  params: P;
  query: Q;
  body: B;
}

export type HandlerContext<
  M extends Method,
  P,
  Q,
  B,
  A extends AuthMode,
  C extends CalendarAction | undefined,
  X,
> = M extends WriteMethod ? WriteContext<P, Q, B, A, C, X> : ReadContext<P, Q, B, A, C>;

/**
 * One API operation: how it is validated, authenticated, authorized and documented, and its
 * handler. The same definition is run by the executor, listed as an MCP tool and documented in OpenAPI.
 */
export interface RouteDef<
  P = Record<string, string>,
  Q = Record<string, unknown>,
  B = undefined,
  A extends AuthMode = AuthMode,
  C extends CalendarAction | undefined = undefined,
  R extends AnyObject = AnyObject,
  M extends Method = Method,
  X = undefined,
> {
  method: M;
  /** OpenAPI-style path, e.g. `/v1/calendars/{calendarId}`. */
  path: string;
  summary: string;
  tags: string[];
  auth: A;
  /**
   * What the route does to the calendar of its `{calendarId}`: the route layer loads it, applies
   * the policy (domain/policy.ts, docs/api.md#access) before the handler runs, and documents the
   * action's scope and refusals. A write's policy reads through the write's own transaction.
   */
  calendar?: C;
  /**
   * Reads to start on the calendar record while the caller's role is read: they may depend on
   * whether a token came (`actor`, authenticated already), never on the role.
   */
  alongside?: (
    ctx: { deps: HttpDeps; actor: Actor | null; params: P; query: Q },
    calendar: CalendarRecord,
  ) => Promise<unknown>;
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
  /**
   * A write's reads that must stay outside its transaction (a calendar's event count over its
   * shards, which the transaction would otherwise hold): made after validation and before the
   * transaction, answered to the handler as `prepared`. Nothing in it may reach the caller
   * before the policy has admitted them.
   */
  prepare?: (ctx: PrepareContext<P, Q, B, A>) => Promise<X>;
  /**
   * A write too large for one transaction (an import): its writes, made after the policy and
   * before the operation's one transaction, in transactions of their own (`transact`), each
   * whole on its own. What it answers is the handler's `prepared`; the handler then runs in the
   * operation's transaction, which judges the policy again and stores the answer with the key.
   */
  batches?: (ctx: BatchContext<P, Q, B, A, C>) => Promise<X>;
  /**
   * A body that may also come as text of this media type, up to `maxBytes`: it is handed to
   * validation as `{[field]: text}`, the shape the JSON body and the MCP tool take.
   */
  textBody?: { type: string; field: string; maxBytes: number };
  // Method syntax: a registry of routes (AnyRoute) holds handlers of every auth mode.
  handler(ctx: HandlerContext<M, P, Q, B, A, C, X>): Promise<z.input<R> | PreparedJson>;
}

// Routes are heterogeneous in their inputs; the registry only needs the shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = RouteDef<any, any, any, AuthMode, CalendarAction | undefined, AnyObject, Method, any>;

export const defineRoute = <
  P,
  Q,
  B,
  A extends AuthMode,
  C extends CalendarAction | undefined = undefined,
  R extends AnyObject = AnyObject,
  M extends Method = Method,
  X = undefined,
>(
  def: RouteDef<P, Q, B, A, C, R, M, X>,
): RouteDef<P, Q, B, A, C, R, M, X> => {
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
