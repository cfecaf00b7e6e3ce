/**
 * `POST /mcp`: the Model Context Protocol's Streamable HTTP transport, stateless (DECISIONS
 * section 14), with the official SDK. Each POST gets its own SDK server and transport (the SDK
 * requires a fresh transport per request without sessions) and is answered with plain JSON,
 * never an SSE stream. Loaded on the first /mcp request only (mcp/mount.ts), so the SDK stays
 * out of the cold start of every other request.
 */
import type { Express, Request, RequestHandler } from "express";
// The low-level Server, not McpServer: tools here carry ready JSON Schemas (built once, from
// the REST schemas), and their arguments are validated by the REST operation itself, so that
// a bad argument is REST's error code; McpServer would validate zod shapes first with its own.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
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

  return async (req, res) => {
    const server = new Server(SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
    server.setRequestHandler(ListToolsRequestSchema, () => listed);
    server.setRequestHandler(CallToolRequestSchema, async ({ params }, extra): Promise<CallToolResult> => {
      const tool = byName.get(params.name);
      if (!tool) throw new McpError(ErrorCode.InvalidParams, `unknown tool ${params.name}; tools/list names them all`);
      return callTool(app, tool, params.arguments ?? {}, callerOf(req, extra.requestId));
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    transport.onerror = (err) => deps.log(`mcp transport: ${err.message}`, { severity: "WARNING" });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
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

const callerOf = (req: Request, requestId: string | number): Caller => ({
  authorization: req.get("authorization"),
  clientAddress: req.ip,
  requestId,
});

/**
 * The REST answer as a tool result: a success is the JSON as text and as structured content
 * (its schema is the tool's outputSchema); an error is `isError` with REST's error envelope,
 * so the model reads the same code and message an HTTP client would.
 */
async function callTool(
  app: Express,
  tool: Tool,
  args: Record<string, unknown>,
  caller: Caller,
): Promise<CallToolResult> {
  const answer = await dispatch(app, tool, args, caller);
  const content = [{ type: "text" as const, text: answer.json }];
  if (answer.status !== 200) return { content, isError: true };
  return {
    content,
    structuredContent: JSON.parse(answer.json) as Record<string, unknown>,
    ...(answer.replayed ? { _meta: { "idempotent-replayed": true } } : {}),
  };
}
