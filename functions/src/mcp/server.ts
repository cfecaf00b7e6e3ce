/**
 * `POST /mcp`: the Model Context Protocol's Streamable HTTP transport, stateless
 * (docs/api.md#mcp), with the official SDK. Each POST gets its own SDK server and transport (the SDK
 * requires a fresh transport per request without sessions) and is answered with plain JSON,
 * never an SSE stream. Loaded on the first /mcp request only (mcp/mount.ts), so the SDK stays
 * out of the cold start of every other request.
 *
 * Before the SDK runs, each message is charged to the rate limits once, as the operation it
 * runs (a tools/call: its route's budget; anything else: a read), and refused if it is a batch,
 * nests too deep or has bad params (mcp/messages.ts). A tool call then runs its operation
 * through the executor (mcp/dispatch.ts), which charges nothing.
 */
import type { Request, RequestHandler, Response } from "express";
// The low-level Server, not McpServer: tools here carry ready JSON Schemas (built once, from
// the REST schemas), and their arguments are validated by the REST operation itself, so that
// a bad argument is REST's error code; McpServer would validate zod shapes first with its own.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv-provider.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type JSONRPCMessage,
} from "@modelcontextprotocol/sdk/types.js";
import type { Deps } from "../domain/deps.js";
import type { HttpDeps } from "../http/deps.js";
import { ApiError, withRequestId } from "../http/errors.js";
import { clientGone, type OutcomeCheck } from "../http/express-routes.js";
import type { ApiRateLimits, Budget } from "../http/rate-limit.js";
import { budgetOf, type AnyRoute } from "../http/route.js";
import { logUnexpected } from "../http/log.js";
// `requestIdOf` of messages.ts is the JSON-RPC id; this one is the answer's X-Request-Id.
import { requestIdOf as httpRequestIdOf } from "../http/request-id.js";
import { dispatch, type Caller } from "./dispatch.js";
import {
  boundedError,
  boundedErrorBody,
  calledToolName,
  jsonRpcError,
  refusalOf,
  requestIdOf,
  type DirectAnswer,
} from "./messages.js";
import { buildTools, type Tool } from "./tools.js";
import {
  TOOLSETS_HEADER,
  TOOLSETS_QUERY,
  listingsOf,
  requestedToolsets,
  toolsetGuide,
  unknownToolsetAnswer,
} from "./toolsets.js";

const SERVER_INFO = { name: "almanac", title: "Almanac calendars", version: "1.0.0" };

/** Read by the client once per connection; it tells the model how the tools fit together. */
const GUIDE = [
  "Almanac: calendars for agents. Each tool is one operation of the Almanac REST API (/openapi.json) and answers",
  "its JSON. Start with get_me: it lists the calendars you hold a role on. Dates are YYYY-MM-DD, times HH:MM in",
  "the calendar's timezone. Read what happens when with list_occurrences; look for a free slot with",
  "find_free_time before you schedule with others. Reading a public or unlisted calendar (settings, events,",
  "occurrences, changes, layers, free/busy) needs no token. An error answers `{error: {code, message}}`: the",
  "message says what to do next (a missing scope is named). Docs: /llms.txt and /docs/mcp.md.",
].join(" ");

/**
 * The JSON-RPC error code of a message refused by the rate limits: implementation-defined (the
 * server range -32000 to -32099; -32000 and -32001 are the SDK's own), sent with HTTP 429.
 */
export const RATE_LIMITED = -32029;

/** The /mcp handler of an API app: its tools are the app's routes, each call run by the executor. */
export function mcpHandler(
  deps: HttpDeps,
  routes: readonly AnyRoute[],
  limits: ApiRateLimits,
  checkOutcome?: OutcomeCheck,
): RequestHandler {
  const tools = buildTools(routes);
  const listingOf = listingsOf(tools);
  const instructions = `${GUIDE} ${toolsetGuide(tools)}`;
  const byName = new Map(tools.map((tool) => [tool.listed.name, tool]));
  // One for all requests: the SDK server builds an Ajv instance of its own otherwise, on every
  // request here (a server per request), and uses it only for elicitation, which we never send.
  const jsonSchemaValidator = new AjvJsonSchemaValidator();

  /** What a message is charged: the operation a tools/call runs, a read for anything else. */
  const budgetOfMessage = (message: unknown): Budget => {
    const tool = byName.get(calledToolName(message) ?? "");
    return tool ? budgetOf(tool.route) : "reads";
  };

  return async (req, res) => {
    const message: unknown = req.body;
    const httpRequestId = httpRequestIdOf(res);
    const overLimit = await chargeOnce(limits, budgetOfMessage(message), req, res);
    if (overLimit) return sendDirect(res, rateLimitedAnswer(message, overLimit, httpRequestId));
    const refusal = refusalOf(message);
    if (refusal) return sendDirect(res, refusal);
    const selection = requestedToolsets(req.query[TOOLSETS_QUERY], req.get(TOOLSETS_HEADER));
    if ("unknown" in selection) return sendDirect(res, unknownToolsetAnswer(message, selection.unknown));

    const server = new Server(SERVER_INFO, {
      capabilities: { tools: {} },
      instructions,
      jsonSchemaValidator,
    });
    server.setRequestHandler(ListToolsRequestSchema, () => listingOf(selection.toolsets));
    server.setRequestHandler(CallToolRequestSchema, async ({ params }, extra): Promise<CallToolResult> => {
      const tool = byName.get(params.name);
      if (!tool)
        throw new McpError(
          ErrorCode.InvalidParams,
          "invalid params: `name` is not a tool of this server; its instructions name them all, ?toolsets=all lists them",
        );
      const caller = callerOf(req, httpRequestId, extra.requestId, extra.signal);
      return callTool(deps, tool, params.arguments ?? {}, caller, checkOutcome);
    });
    const transport = new BoundedErrorsTransport(hiddenErrorLog(deps, httpRequestId));
    transport.onerror = (err) => deps.log(`mcp transport: ${err.message}`, { severity: "WARNING" });
    // Not closed after the answer: closing builds a "connection closed" error for requests
    // still waiting, and there are none; both objects go with the request.
    try {
      await server.connect(transport);
      // The client has gone: closing the server aborts the calls it runs (`extra.signal`, which
      // stops a held answer) and sends nothing more.
      const gone = clientGone(res);
      if (gone.aborted) return;
      gone.addEventListener("abort", () => void server.close(), { once: true });
      // Express has read and parsed the body already: the web request carries only the headers.
      const answer = await transport.handleRequest(webRequestOf(req), { parsedBody: req.body });
      await sendWebResponse(res, answer, hiddenErrorLog(deps, httpRequestId));
    } catch (err) {
      logUnexpected(deps.log, "mcp request", err, httpRequestId);
      if (!res.headersSent) {
        sendDirect(res, { status: 500, body: jsonRpcError(null, ErrorCode.InternalError, "internal error; retry") });
      }
    }
  };
}

/** Where the text of an error answered only as "internal error" goes, under the /mcp request's id. */
const hiddenErrorLog = (deps: Pick<Deps, "log">, requestId: string | undefined) => (hidden: string) =>
  deps.log(`mcp (request ${requestId ?? "-"}): an error answered as "internal error": ${hidden.slice(0, 500)}`, {
    severity: "ERROR",
    request_id: requestId,
  });

/**
 * The SDK's web-standard transport, every JSON-RPC error it sends made short (mcp/messages.ts):
 * whatever a handler or the SDK throws, its text, stack or schema dump stays in the log.
 */
class BoundedErrorsTransport extends WebStandardStreamableHTTPServerTransport {
  constructor(private readonly onHidden: (message: string) => void) {
    super({ sessionIdGenerator: undefined, enableJsonResponse: true });
  }

  override send(message: JSONRPCMessage, options?: Parameters<WebStandardStreamableHTTPServerTransport["send"]>[1]) {
    if (!("error" in message)) return super.send(message, options);
    return super.send({ ...message, error: boundedError(message.error, this.onHidden) }, options);
  }
}

/**
 * Charges the /mcp request to a budget, keyed on its caller as REST's limiter keys it (the
 * bearer token's agent, else the client address); the refusal over the limit, or null.
 * `Retry-After` and the `RateLimit` headers land on the /mcp answer.
 */
function chargeOnce(limits: ApiRateLimits, budget: Budget, req: Request, res: Response): Promise<ApiError | null> {
  return new Promise((resolve, reject) => {
    limits.charge(budget)(req, res, (err?: unknown) => {
      if (err === undefined) resolve(null);
      else if (err instanceof ApiError && err.code === "rate_limited") resolve(err);
      else reject(err instanceof Error ? err : new Error(`the rate limiter failed with a ${typeof err}`));
    });
  });
}

/**
 * Over the limit. A tool call is answered as a tool error carrying REST's `rate_limited`
 * envelope: the model reads the code and how long to wait, and the client treats it as any
 * failed call. Any other message (initialize, tools/list) is the client's own business, with
 * no result to carry it: HTTP 429 with `Retry-After` and a short JSON-RPC error.
 */
function rateLimitedAnswer(
  message: unknown,
  refusal: ApiError,
  httpRequestId: string | undefined,
): DirectAnswer | ToolAnswer {
  const id = requestIdOf(message);
  if (id !== null && calledToolName(message) !== null) {
    const result: CallToolResult = {
      content: [{ type: "text", text: JSON.stringify(withRequestId(refusal.toBody(), httpRequestId)) }],
      isError: true,
    };
    return { status: 200, body: { jsonrpc: "2.0", id, result } };
  }
  const body = jsonRpcError(id, RATE_LIMITED, refusal.message);
  return { status: refusal.status, body: { ...body, error: { ...body.error, data: refusal.details } } };
}

interface ToolAnswer {
  status: number;
  body: { jsonrpc: "2.0"; id: string | number; result: CallToolResult };
}

/** A JSON-RPC answer written by /mcp itself (end(), not send(): it is no API operation's answer). */
function sendDirect(res: Response, answer: DirectAnswer | ToolAnswer): void {
  res.statusCode = answer.status;
  res.setHeader("Content-Type", "application/json");
  res.end(JSON.stringify(answer.body));
}

/**
 * The SDK's web-standard transport, fed and answered by hand: the SDK's Node wrapper converts
 * through @hono/node-server, which streams the answer out of a native Response (web streams),
 * a large share of a call's time; here the answer is one JSON text written at once.
 */
function webRequestOf(req: Request): globalThis.Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  return new globalThis.Request(`http://${req.get("host") ?? "localhost"}${req.originalUrl}`, {
    method: req.method,
    headers,
  });
}

async function sendWebResponse(
  res: Response,
  answer: globalThis.Response,
  onHidden: (message: string) => void,
): Promise<void> {
  // text(), not arrayBuffer(): measured at less than half the time in Node's fetch (undici).
  const text = answer.body ? await answer.text() : undefined;
  // The transport's own refusals (4xx, 5xx) bypass `send`: bounded here, like every other error.
  const body = text !== undefined && answer.status >= 400 ? boundedErrorBody(text, onHidden) : text;
  res.statusCode = answer.status;
  answer.headers.forEach((value, name) => res.setHeader(name, value));
  // end(), not send(): the JSON-RPC answer is the SDK's, not one of the API's documented operations.
  res.end(body);
}

const callerOf = (
  req: Request,
  httpRequestId: string | undefined,
  requestId: string | number,
  signal: AbortSignal,
): Caller => ({
  authorization: req.get("authorization"),
  httpRequestId,
  requestId,
  signal,
});

/**
 * The operation's answer as a tool result: its JSON as text, with `isError` for an error (REST's
 * envelope, so the model reads the code and message an HTTP client would), and `_meta` saying
 * when a write was answered by a replay.
 */
async function callTool(
  deps: HttpDeps,
  tool: Tool,
  args: Record<string, unknown>,
  caller: Caller,
  checkOutcome: OutcomeCheck | undefined,
): Promise<CallToolResult> {
  const answer = await dispatch(deps, tool, args, caller, checkOutcome);
  const note = answer.status === 200 && tool.resultNote ? [{ type: "text" as const, text: tool.resultNote }] : [];
  return {
    content: [{ type: "text", text: answer.json }, ...note],
    ...(answer.status !== 200 ? { isError: true } : {}),
    ...(answer.replayed ? { _meta: { "idempotent-replayed": true } } : {}),
  };
}
