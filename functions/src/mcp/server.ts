/**
 * `POST /mcp`: the Model Context Protocol's Streamable HTTP transport, stateless (DECISIONS
 * section 14), with the official SDK. Each POST gets its own SDK server and transport (the SDK
 * requires a fresh transport per request without sessions) and is answered with plain JSON,
 * never an SSE stream. Loaded on the first /mcp request only (mcp/mount.ts), so the SDK stays
 * out of the cold start of every other request.
 */
import type { Express, Request, RequestHandler, Response } from "express";
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
} from "@modelcontextprotocol/sdk/types.js";
import type { Deps } from "../domain/deps.js";
import type { AnyRoute } from "../http/route.js";
import { logUnexpected } from "../http/log.js";
import { dispatch, type Caller } from "./dispatch.js";
import { buildTools, type Tool } from "./tools.js";

const SERVER_INFO = { name: "almanac", title: "Almanac calendars", version: "1.0.0" };

/** Read by the client once per connection; it tells the model how the tools fit together. */
const INSTRUCTIONS = [
  "Almanac: calendars for agents. Each tool is one operation of the Almanac REST API (/openapi.json) and answers",
  "its JSON. Start with get_me: it lists the calendars you hold a role on. Dates are YYYY-MM-DD, times HH:MM in",
  "the calendar's timezone. Read what happens when with list_occurrences; look for a free slot with",
  "find_free_time before you schedule with others. An error answers `{error: {code, message}}`: the message",
  "says what to do next. Docs: /llms.txt and /docs/mcp.md.",
].join(" ");

/** The /mcp handler of an API app: its tools are the app's routes, and calls go through the app. */
export function mcpHandler(app: Express, deps: Pick<Deps, "log">, routes: readonly AnyRoute[]): RequestHandler {
  const tools = buildTools(routes);
  const listed = { tools: tools.map((tool) => tool.listed) };
  const byName = new Map(tools.map((tool) => [tool.listed.name, tool]));
  // One for all requests: the SDK server builds an Ajv instance of its own otherwise, on every
  // request here (a server per request), and uses it only for elicitation, which we never send.
  const jsonSchemaValidator = new AjvJsonSchemaValidator();

  return async (req, res) => {
    const server = new Server(SERVER_INFO, {
      capabilities: { tools: {} },
      instructions: INSTRUCTIONS,
      jsonSchemaValidator,
    });
    server.setRequestHandler(ListToolsRequestSchema, () => listed);
    server.setRequestHandler(CallToolRequestSchema, async ({ params }, extra): Promise<CallToolResult> => {
      const tool = byName.get(params.name);
      if (!tool) throw new McpError(ErrorCode.InvalidParams, `unknown tool ${params.name}; tools/list names them all`);
      return callTool(app, tool, params.arguments ?? {}, callerOf(req, extra.requestId));
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    transport.onerror = (err) => deps.log(`mcp transport: ${err.message}`, { severity: "WARNING" });
    // Not closed after the answer: closing builds a "connection closed" error for requests
    // still waiting, and there are none; both objects go with the request.
    try {
      await server.connect(transport);
      // Express has read and parsed the body already: the web request carries only the headers.
      const answer = await transport.handleRequest(webRequestOf(req), { parsedBody: req.body });
      await sendWebResponse(res, answer);
    } catch (err) {
      logUnexpected(deps.log, "mcp request", err);
      if (!res.headersSent) {
        res.status(500).json({
          jsonrpc: "2.0",
          error: { code: ErrorCode.InternalError, message: "internal error; retry" },
          id: null,
        });
      }
    }
  };
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

async function sendWebResponse(res: Response, answer: globalThis.Response): Promise<void> {
  // text(), not arrayBuffer(): measured at less than half the time in Node's fetch (undici).
  const body = answer.body ? await answer.text() : undefined;
  res.statusCode = answer.status;
  answer.headers.forEach((value, name) => res.setHeader(name, value));
  // end(), not send(): the JSON-RPC answer is the SDK's, not one of the API's documented operations.
  res.end(body);
}

const callerOf = (req: Request, requestId: string | number): Caller => ({
  authorization: req.get("authorization"),
  clientAddress: req.ip,
  requestId,
});

/**
 * The REST answer as a tool result: its JSON as text, with `isError` for an error (REST's
 * envelope, so the model reads the code and message an HTTP client would), and `_meta` saying
 * when a write was answered by a replay.
 */
async function callTool(
  app: Express,
  tool: Tool,
  args: Record<string, unknown>,
  caller: Caller,
): Promise<CallToolResult> {
  const answer = await dispatch(app, tool, args, caller);
  return {
    content: [{ type: "text", text: answer.json }],
    ...(answer.status !== 200 ? { isError: true } : {}),
    ...(answer.replayed ? { _meta: { "idempotent-replayed": true } } : {}),
  };
}
