/**
 * The one path from an adapter (Express: http/express-routes.ts; MCP: mcp/server.ts) to an
 * operation. It knows no protocol: a request comes in as plain values, an outcome goes out as
 * a status, a JSON body and headers. Every operation runs the same steps, in this order:
 *
 *   authenticate -> (POST) claim the Idempotency-Key -> validate -> (write) prepare ->
 *   ONE transaction { policy -> handler (command, presenter) -> stored answer } -> outcome
 *
 * A read runs the same steps without the transaction, each read made once (http/prefetch.ts).
 * Rate limits are charged by the adapters, once per operation, before the request is parsed.
 */
import type { z } from "zod";
import type { Actor } from "../domain/actor.js";
import type { WaitGuard } from "../domain/change-signals.js";
import { errors } from "../domain/errors.js";
import { keptRevisions } from "../domain/kept-revisions.js";
import { requireCalendar, type CalendarAccess } from "../domain/queries/access.js";
import type { CalendarRecord } from "../domain/records.js";
import { withShardLeases } from "../domain/shard-leases.js";
import type { Store, Transaction, TransactionReads } from "../storage/port.js";
import { authenticate } from "./auth.js";
import type { HttpDeps } from "./deps.js";
import { toErrorResponse } from "./error-handler.js";
import { httpErrors, withRequestId } from "./errors.js";
import {
  claimKey,
  fingerprint,
  idempotencyPath,
  recordAnswer,
  recordRefusal,
  requireClaim,
  type FreshClaim,
} from "./idempotency.js";
import { documentsNamedBy, requestReads } from "./prefetch.js";
import type { PreparedJson } from "./response-cache.js";
import type { AnyRoute } from "./route.js";
import { parseInput, parsePathParams, requireBoundedNesting } from "./validate.js";

/** An operation's request as any adapter hands it over. */
export interface OperationRequest {
  /** Path parameters as the path spelled them, decoded, not yet validated. */
  params: Record<string, string>;
  query: Record<string, unknown>;
  /** The JSON body; undefined when none was sent. */
  body: unknown;
  authorization: string | undefined;
  /** The `Idempotency-Key` of a POST. */
  idempotencyKey: string | undefined;
  client: {
    /** Aborted when the client has gone: a held answer (long-poll) stops waiting. */
    signal: AbortSignal;
    /** The X-Request-Id of the answer: error envelopes carry it as `error.request_id`. */
    requestId: string | undefined;
  };
}

export interface Outcome {
  status: number;
  /** A success's JSON, or one prepared as text (a cached answer); an error's envelope. */
  body: object | PreparedJson;
  headers: Record<string, string>;
}

export async function execute(route: AnyRoute, request: OperationRequest, deps: HttpDeps): Promise<Outcome> {
  let claim: FreshClaim | undefined;
  try {
    if (route.method === "get") return answered(await read(route, request, deps));
    const actor = await admitted(route, deps, request.authorization);
    requireBoundedNesting(request.body, route.invalidCode ?? "invalid_request");
    if (route.method === "post") {
      const keyPath = idempotencyPath(request.idempotencyKey, actor?.agentId ?? null);
      const print = fingerprint(`${route.method} ${route.path}`, request.params, request.body);
      const taken = await claimKey(deps, keyPath, print);
      if (taken.kind === "replay") return replayed(taken.status, taken.body as object, request);
      claim = taken;
    }
    return answered(await write(route, request, deps, actor, claim));
  } catch (err) {
    const refusal = toErrorResponse(err, deps, request.client.requestId);
    if (claim) await recordRefusal(deps.store, claim, refusal.status, refusal.body);
    return { ...refusal, body: withRequestId(refusal.body, request.client.requestId) };
  }
}

async function read(route: AnyRoute, request: OperationRequest, deps: HttpDeps): Promise<object | PreparedJson> {
  // The documents the path names are read while the token is checked, unless the request is
  // sure to be refused for want of a token.
  const prefetch = request.authorization || route.auth !== "required" ? documentsNamedBy(request.params) : [];
  const reads: HttpDeps = { ...deps, store: requestReads(deps.store, prefetch) };
  const actor = await admitted(route, reads, request.authorization);
  const input = validated(route, request);
  const calendar = await authorizedCalendar(route, reads, actor, input);
  const waiting = waitGuard(route, reads, request);
  return route.handler({ deps: reads, actor, calendar, ...input, waiting });
}

async function write(
  route: AnyRoute,
  request: OperationRequest,
  deps: HttpDeps,
  actor: Actor | null,
  claim: FreshClaim | undefined,
): Promise<object | PreparedJson> {
  const input = validated(route, request);
  let prepared: unknown = route.prepare ? await route.prepare({ deps, actor, ...input }) : undefined;
  // Anonymous reads on this instance keep no revisions of the calendar while its write is in
  // flight, and read them again once it has committed (domain/kept-revisions.ts): whoever learns
  // of the write from this answer sees it in the next page or feed this instance serves.
  const held = route.calendar ? String(input.params.calendarId) : null;
  if (held !== null) keptRevisions(deps.memory).hold(held);
  try {
    if (route.batches) prepared = await inBatches(route, deps, actor, input);
    return await transaction(deps, async (tx) => {
      if (claim) await requireClaim(tx, claim);
      const reads: HttpDeps = { ...deps, store: transactionReads(tx) };
      const calendar = await authorizedCalendar(route, reads, actor, input);
      const body = (await route.handler({ tx, deps: reads, actor, calendar, ...input, prepared })) as object;
      if (claim) recordAnswer(tx, claim, body, route.secretFields ?? []);
      return body;
    });
  } finally {
    if (held !== null) keptRevisions(deps.memory).release(held);
  }
}

/** A write's transaction; its shard draws take the instance's leases (domain/shard-leases.ts). */
const transaction = <T>(deps: HttpDeps, work: (tx: Transaction) => Promise<T>): Promise<T> =>
  withShardLeases(deps.memory, (enter) =>
    deps.store.runTransaction(async (tx) => {
      enter(tx);
      return work(tx);
    }),
  );

/** A route's `batches`: the policy judged first without a transaction, then again in each batch's own. */
async function inBatches(route: AnyRoute, deps: HttpDeps, actor: Actor | null, input: Input): Promise<unknown> {
  const calendar = await authorizedCalendar(route, deps, actor, input);
  return route.batches!({
    deps,
    actor,
    calendar,
    ...input,
    transact: (work) =>
      transaction(deps, async (tx) => {
        const access = await authorizedCalendar(route, { ...deps, store: transactionReads(tx) }, actor, input);
        return work(tx, access!);
      }),
  });
}

const answered = (body: object | PreparedJson): Outcome => ({ status: 200, body, headers: {} });

/** The stored answer of a key's first request; an error's envelope names this request's id. */
function replayed(status: number, body: object, request: OperationRequest): Outcome {
  const shown = status === 200 ? body : withRequestId(body, request.client.requestId);
  return { status, body: shown, headers: { "Idempotent-Replayed": "true" } };
}

interface Input {
  params: Record<string, unknown>;
  query: unknown;
  body: unknown;
}

function validated(route: AnyRoute, request: OperationRequest): Input {
  // A registry's schemas are of any type; what they parse is the handler's to read.
  const { params: paramsSchema, query: querySchema, body: bodySchema } = route as Schemas;
  const code = route.invalidCode ?? "invalid_request";
  const params = paramsSchema ? parsePathParams(paramsSchema, request.params) : request.params;
  const query = querySchema ? parseInput(querySchema, request.query, "invalid_request", "query") : {};
  if (!bodySchema) return { params, query, body: undefined };
  const raw = request.body === undefined && route.bodyOptional ? {} : request.body;
  if (raw === undefined) throw errors.invalid(code, "send a JSON object body with `Content-Type: application/json`");
  return { params, query, body: parseInput(bodySchema, raw, code, "body") };
}

interface Schemas {
  params?: z.ZodType<Record<string, unknown>>;
  query?: z.ZodType;
  body?: z.ZodType;
}

/** The caller as the route admits it: authenticated (401), present when required, with the route's own scope. */
async function admitted(route: AnyRoute, deps: HttpDeps, header: string | undefined): Promise<Actor | null> {
  const actor = route.auth === "none" ? null : await authenticate(deps, header);
  if (route.auth === "required" && !actor) throw httpErrors.unauthorized();
  if (route.scope && actor && !actor.scopes.includes(route.scope)) throw errors.insufficientScope(route.scope);
  return actor;
}

/** The route's calendar, loaded and judged for its action (domain/policy.ts) before the handler runs. */
async function authorizedCalendar(
  route: AnyRoute,
  deps: HttpDeps,
  actor: Actor | null,
  { params, query }: Input,
): Promise<CalendarAccess | undefined> {
  if (!route.calendar) return undefined;
  const alongside = route.alongside;
  const startAlongside =
    alongside && ((calendar: CalendarRecord) => alongside({ deps, actor, params, query }, calendar));
  // defineRoute made sure the path names a {calendarId}.
  return requireCalendar(deps, String(params.calendarId), actor, route.calendar, startAlongside);
}

/**
 * What a handler that holds its answer needs: a signal of the client's going, and the same
 * admission and calendar policy as above, on the request's own credentials, read through the
 * handler's transaction (so a revoked token or grant is seen in the same cut).
 */
function waitGuard(route: AnyRoute, deps: HttpDeps, request: OperationRequest): WaitGuard {
  return {
    signal: request.client.signal,
    stillAllowed: async (tx) => {
      const reads: HttpDeps = { ...deps, store: transactionReads(tx) };
      const actor = await admitted(route, reads, request.authorization);
      if (route.calendar) await requireCalendar(reads, String(request.params.calendarId), actor, route.calendar);
    },
  };
}

/** A transaction's reads where a query reads `deps.store`; it opens no transaction of its own. */
function transactionReads(tx: TransactionReads): Store {
  return {
    get: (ref) => tx.get(ref),
    getAll: (refs) => tx.getAll(refs),
    query: (collection, spec) => tx.query(collection, spec),
    count: () => Promise.reject(new Error("a check inside a transaction counts nothing outside it")),
    runTransaction: () => Promise.reject(new Error("a check inside a transaction opens no other")),
    runReadOnly: () => Promise.reject(new Error("a check inside a transaction opens no other")),
    close: () => Promise.resolve(),
  };
}
