/**
 * A tool call runs the REST operation itself: its arguments become the operation's request
 * (path, query, JSON body, the caller's Authorization header), which goes through the same
 * Express app in-process (mcp/in-process.ts). Authentication, scopes, validation, policy,
 * idempotency and presenters are therefore exactly REST's, and so are the answers. Rate limits
 * are not charged again: mcp/server.ts charged the call, as this operation, before dispatching.
 */
import { createHash, randomUUID } from "node:crypto";
import type { Express } from "express";
import { ApiError, withRequestId } from "../http/errors.js";
import { serveInProcess } from "./in-process.js";
import { IDEMPOTENCY_ARGUMENT, type Tool } from "./tools.js";

/** Who calls, as the /mcp request shows it. */
export interface Caller {
  authorization: string | undefined;
  /** The client address of the /mcp request (Express's `req.ip`), the inner request's peer. */
  clientAddress: string | undefined;
  /**
   * The /mcp request's `X-Request-Id`, sent as the REST request's own: a tool's error envelope
   * names the id of the /mcp answer, and both log lines carry it.
   */
  httpRequestId: string | undefined;
  /** The JSON-RPC id of the tools/call request. */
  requestId: string | number;
  /** Aborted when the /mcp client has gone (mcp/server.ts): the REST request is dropped with it. */
  signal?: AbortSignal;
}

/** The REST answer: its status, its JSON text, and whether it replayed an earlier write. */
export interface Answer {
  status: number;
  json: string;
  replayed: boolean;
}

type Args = Record<string, unknown>;

export async function dispatch(app: Express, tool: Tool, args: Args, caller: Caller): Promise<Answer> {
  const request = restRequest(tool, args, caller);
  if (request instanceof ApiError)
    return {
      status: request.status,
      json: JSON.stringify(withRequestId(request.toBody(), caller.httpRequestId)),
      replayed: false,
    };
  const res = await serveInProcess(app, {
    ...request,
    remoteAddress: caller.clientAddress,
    charged: true,
    signal: caller.signal,
  });
  return { status: res.status, json: res.body, replayed: res.headers["idempotent-replayed"] === "true" };
}

interface RestRequest {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** The REST request of a call, or the error of arguments that cannot make one. */
function restRequest(tool: Tool, args: Args, caller: Caller): RestRequest | ApiError {
  const { route } = tool;
  let path = route.path;
  for (const { param, argument } of tool.pathParams) {
    const value = args[argument];
    if (typeof value !== "string" || value === "") {
      return argumentError(argument, `\`${argument}\` is required: a string such as the API returned it`);
    }
    path = path.replace(`{${param}}`, encodeURIComponent(value));
  }
  const pathArguments = new Set(tool.pathParams.map(({ argument }) => argument));
  const query = new URLSearchParams();
  const body: Args = {};
  for (const [key, value] of Object.entries(args)) {
    if (pathArguments.has(key) || key === IDEMPOTENCY_ARGUMENT) continue;
    if (tool.queryKeys.has(key)) {
      if (value !== null && value !== undefined) query.set(key, queryValue(value));
    } else if (route.body) {
      // Unknown arguments go to the body too, so REST names them exactly as it would.
      body[key] = value;
    } else {
      const known = [...pathArguments, ...tool.queryKeys].map((k) => `\`${k}\``).join(", ") || "none";
      return argumentError(key, `\`${key}\` is not an argument of ${tool.listed.name}; its arguments: ${known}`);
    }
  }
  const search = query.size > 0 ? `?${query.toString()}` : "";
  const headers: Record<string, string> = {};
  if (caller.authorization !== undefined) headers.authorization = caller.authorization;
  if (caller.httpRequestId !== undefined) headers["x-request-id"] = caller.httpRequestId;
  const request: RestRequest = { method: methodOf(route.method), url: path + search, headers };
  if (route.body) {
    headers["content-type"] = "application/json";
    // Canonical: a resend whose arguments come in another key order is the same body to the replay check.
    request.body = JSON.stringify(canonical(body));
  }
  if (route.method === "post") {
    const explicit = args[IDEMPOTENCY_ARGUMENT];
    headers["idempotency-key"] = typeof explicit === "string" ? explicit : derivedKey(tool.listed.name, args, caller);
  }
  return request;
}

/**
 * The Idempotency-Key of a write whose caller named none. With a token it is derived from the
 * JSON-RPC request id and the arguments, so a resend of the same request (same id, same
 * arguments: a transport retry) is answered by a replay, while a new call, even with the same
 * arguments, acts anew as the model meant it to. The key's scope is the token's agent
 * (docs/api.md#idempotency), so two agents never share one. Without a token (mint) every caller
 * shares the anonymous scope, where ids and arguments repeat across clients: such a write
 * gets a fresh key, and only an explicit `idempotency_key` makes it replayable.
 */
function derivedKey(toolName: string, args: Args, caller: Caller): string {
  if (caller.authorization === undefined) return `mcp-${randomUUID()}`;
  const digest = createHash("sha256")
    .update(JSON.stringify([toolName, caller.requestId, canonical(args)]))
    .digest("base64url");
  return `mcp-${digest}`;
}

/** The arguments with their keys sorted at every depth, so key order does not change the hash. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Args)[key])]),
  );
}

/** Query parameters are text: a list is sent comma-separated (`calendars=a,b`), an object as JSON. */
function queryValue(value: unknown): string {
  if (Array.isArray(value)) return value.map(queryValue).join(",");
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

const methodOf = (method: Tool["route"]["method"]) => method.toUpperCase() as RestRequest["method"];

const argumentError = (field: string, message: string) => new ApiError("invalid_request", message, { field });
