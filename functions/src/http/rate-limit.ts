/**
 * Rate limits (docs/api.md#rate-limits), with express-rate-limit:
 *   mint                     20 per hour per client address
 *   other /v1 writes         600 per minute per agent (per client address without a token)
 *   /v1 reads                3,000 per minute per agent, or per client address when anonymous
 *   pages and feeds          600 per minute per client address
 * Which /v1 budget a request draws from is decided by the operation that matched it (its
 * route definition, `budgetOf` in http/route.ts), never by the path's text: the limiter is the
 * first step of each route, so a spelling that matches no operation cannot pick a budget. A
 * request that matches none (404, 405) draws from its method's budget, never mint's. An MCP
 * message is charged by mcp/server.ts as the operation it runs.
 * Over a limit: 429 `rate_limited` with `Retry-After` (seconds); the envelope on /v1, an HTML
 * page or plain text on pages and feeds (the pages app decides). `RATE_LIMITS=off` turns them
 * all off (the test suite and the benchmarks); each limit is an environment variable, read at
 * start into `config.rateLimits` (functions/src/config.ts).
 *
 * Counts live in this process's memory: each Cloud Functions instance counts on its own, so
 * the effective limit is the limit times the instances (docs/ARCHITECTURE.md).
 *
 * The agent: the limiter runs before the route authenticates, so it finds the agent itself,
 * from the bearer token's hash, once per token and process (a token's agent never changes, so
 * the answer can be kept; revocation is still the route's check). All credentials of an agent
 * share its budget. A token that is unknown counts against the client address, so random
 * tokens buy no fresh budget.
 *
 * The client address: the socket's peer, or behind Firebase Hosting the X-Forwarded-For entry
 * that Express's `trust proxy` picks (`config.trustProxy`, `TRUST_PROXY_HOPS`). Anything that is not an IP
 * address counts as the peer's; IPv6 addresses count per /56 network, as an ISP assigns them.
 */
import { isIP, isIPv4 } from "node:net";
import type { Request, RequestHandler, Response } from "express";
import {
  MemoryStore,
  ipKeyGenerator,
  rateLimit,
  type ClientRateLimitInfo,
  type Options,
  type RateLimitInfo,
} from "express-rate-limit";
import type { Deps } from "../domain/deps.js";
import { sha256 } from "../domain/ids.js";
import { paths } from "../domain/paths.js";
import type { RateLimitConfig, RateWindow } from "./config.js";
import { httpErrors } from "./errors.js";

export { DEFAULT_RATE_LIMITS, type RateLimitConfig, type RateWindow } from "./config.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The key of the caller's address: an IP (IPv6 per /56), or the socket's peer when the header gave no IP. */
export function clientAddress(req: Request): string {
  const candidate = unmapped(req.ip ?? "");
  const ip = isIP(candidate) ? candidate : unmapped(req.socket.remoteAddress ?? "unknown");
  // An IPv4 address is its own key (ipKeyGenerator answers it unchanged, after an IPv6 check).
  if (isIPv4(ip)) return ip;
  return isIP(ip) ? ipKeyGenerator(ip, 56) : "unknown";
}

/**
 * An IPv4 client of a server listening on `::` shows as `::ffff:a.b.c.d`: its IPv4 address,
 * the key ipKeyGenerator would give it anyway. Read here, an IPv4 client's address needs no
 * IPv6 check, whose pattern Node compiles on first use (11 to 17 ms of the local server's
 * first request).
 */
function unmapped(address: string): string {
  const ipv4 = address.startsWith("::ffff:") ? address.slice(7) : "";
  return isIPv4(ipv4) ? ipv4 : address;
}

/** The /v1 budgets: mint per client address, writes and reads per agent (per address when anonymous). */
export type Budget = "mint" | "writes" | "reads";

/** The budget of a request that matched no operation (a 404 or 405): its method's, never mint's. */
export const methodBudget = (method: string): Budget =>
  ["GET", "HEAD", "OPTIONS"].includes(method.toUpperCase()) ? "reads" : "writes";

export interface ApiRateLimits {
  /**
   * Middleware charging one request to `budget`, keyed on the caller: the agent of its bearer
   * token, else its client address (always the address for mint). Over the limit it passes
   * `rate_limited` on, with `Retry-After` set.
   */
  charge(budget: Budget): RequestHandler;
}

export function apiRateLimits(deps: Pick<Deps, "store" | "log">, config: RateLimitConfig): ApiRateLimits {
  if (!config.enabled) return { charge: () => (_req, _res, next) => next() };
  const agents = new TokenAgents(deps, config.maxClients);
  const callerKey = async (req: Request): Promise<string> => {
    const agentId = await agents.of(req.get("authorization"));
    return agentId ? `agent:${agentId}` : `addr:${clientAddress(req)}`;
  };
  const apiAnswer =
    (what: string) => (req: Request, res: Response, next: (err?: unknown) => void, window: RateWindow) => {
      const wait = retryAfterSeconds(req, res);
      const who = req.get("authorization") && what !== "mints" ? "an agent" : "one client address";
      const message =
        `too many requests: ${who} may send ${window.limit} ${what} per ${per(window)}; ` +
        `wait ${wait} s (the Retry-After header), then retry`;
      next(
        httpErrors.rateLimited(message, {
          limit: window.limit,
          window_seconds: window.windowMs / 1000,
          retry_after: wait,
        }),
      );
    };
  const byAddress = (req: Request) => `addr:${clientAddress(req)}`;
  const limiters: Record<Budget, RequestHandler> = {
    mint: limiter(deps, config.mint, config.maxClients, byAddress, apiAnswer("mints"), true),
    writes: limiter(deps, config.writes, config.maxClients, callerKey, apiAnswer("writes"), true),
    reads: limiter(deps, config.reads, config.maxClients, callerKey, apiAnswer("reads"), true),
  };
  return { charge: (budget) => limiters[budget] };
}

/** What a page or feed answers over its limit: `message` says how long to wait. */
export type PageLimitAnswer = (req: Request, res: Response, message: string) => void;

/** Pages and feeds: one budget per client address. `Retry-After` is set before `answer` runs. */
export function pageRateLimits(
  deps: Pick<Deps, "log">,
  config: RateLimitConfig,
  answer: PageLimitAnswer,
): RequestHandler {
  if (!config.enabled) return (_req, _res, next) => next();
  const window = config.pages;
  const answerOverLimit = (req: Request, res: Response) => {
    const wait = retryAfterSeconds(req, res);
    answer(
      req,
      res,
      `Too many requests from your address: at most ${window.limit} pages and feeds per ${per(window)}. Wait ${wait} seconds, then reload.`,
    );
  };
  return limiter(deps, window, config.maxClients, (req) => `addr:${clientAddress(req)}`, answerOverLimit, false);
}

const per = (window: RateWindow): string =>
  window.windowMs === HOUR ? "hour" : window.windowMs === MINUTE ? "minute" : `${window.windowMs / 1000} seconds`;

type LimitAnswer = (req: Request, res: Response, next: (err?: unknown) => void, window: RateWindow) => void;

function limiter(
  deps: Pick<Deps, "log">,
  window: RateWindow,
  maxClients: number,
  key: (req: Request) => string | Promise<string>,
  answer: LimitAnswer,
  rateLimitHeaders: boolean,
): RequestHandler {
  const options: Partial<Options> = {
    windowMs: window.windowMs,
    limit: window.limit,
    keyGenerator: key,
    store: new BoundedMemoryStore(maxClients),
    // `RateLimit` and `RateLimit-Policy` on every /v1 answer, so an agent can pace itself.
    // Not on pages: a shared cache must not hand one client's budget to another.
    standardHeaders: rateLimitHeaders ? "draft-7" : false,
    legacyHeaders: false,
    handler: (req, res, next) => answer(req, res, next, window),
    // Addresses are this module's choice (clientAddress), documented above.
    validate: {
      ip: false,
      trustProxy: false,
      xForwardedForHeader: false,
      forwardedHeader: false,
      keyGeneratorIpFallback: false,
    },
    logger: {
      error: (err, message) => deps.log(`rate limit: ${message ?? ""} ${String(err)}`, { severity: "ERROR" }),
      warn: (err, message) => deps.log(`rate limit: ${message ?? ""} ${String(err)}`, { severity: "WARNING" }),
    },
  };
  return rateLimit(options);
}

/** Whole seconds until the client's window resets, at least 1; also set as `Retry-After`. */
function retryAfterSeconds(req: Request, res: Response): number {
  const info = (req as Request & { rateLimit?: RateLimitInfo }).rateLimit;
  const resetAt = info?.resetTime?.getTime() ?? Date.now() + 1000;
  const seconds = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
  res.setHeader("Retry-After", String(seconds));
  return seconds;
}

/** The keys of clients beyond `maxClients` in a window: they share this one budget. */
const OVERFLOW_KEY = "overflow";

/** express-rate-limit's memory store, with a bound on the clients it remembers. */
class BoundedMemoryStore extends MemoryStore {
  constructor(private readonly maxClients: number) {
    super();
  }

  private admitted(key: string): string {
    if (this.current.has(key) || this.previous.has(key)) return key;
    return this.current.size + this.previous.size < this.maxClients ? key : OVERFLOW_KEY;
  }

  override get(key: string): Promise<ClientRateLimitInfo | undefined> {
    return super.get(this.admitted(key));
  }

  override increment(key: string): Promise<ClientRateLimitInfo> {
    return super.increment(this.admitted(key));
  }

  override decrement(key: string): Promise<void> {
    return super.decrement(this.admitted(key));
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The agent behind a bearer token, by one store read per token and process. The mapping of a
 * token to its agent never changes, so it is kept (the most recent `max` tokens); an unknown
 * token is not kept, so it is looked up again, and counts against the client address.
 */
class TokenAgents {
  private readonly known = new Map<string, string>();

  constructor(
    private readonly deps: Pick<Deps, "store" | "log">,
    private readonly max: number,
  ) {}

  async of(header: string | undefined): Promise<string | null> {
    const token = header ? BEARER.exec(header)?.[1] : undefined;
    if (!token) return null;
    const hash = sha256(token);
    const hit = this.known.get(hash);
    if (hit !== undefined) {
      // Most recently used last, so the oldest is the first to go.
      this.known.delete(hash);
      this.known.set(hash, hit);
      return hit;
    }
    let agentId: string | null = null;
    try {
      agentId = (await this.deps.store.get(paths.token(hash)))?.data.agent_id ?? null;
    } catch (err) {
      // The route's own authentication meets the same failure and answers it; count by address.
      this.deps.log(`rate limit: token lookup failed: ${err instanceof Error ? err.message : String(err)}`, {
        severity: "WARNING",
      });
    }
    if (agentId === null) return null;
    this.known.set(hash, agentId);
    if (this.known.size > this.max) this.known.delete(this.known.keys().next().value!);
    return agentId;
  }
}
