/**
 * POSTs to /mcp: JSON-RPC batches (arrays of 1 to 200 messages) and single messages of
 * `tools/list`, `tools/call` of any tool with valid-looking or hostile arguments, `initialize`,
 * and messages that are no request at all. The tools and their input schemas come from the
 * server's own `tools/list`, so every tool is drawn from.
 */
import fc from "fast-check";
import { objectOf, type JsonSchema } from "./schema-values.js";
import { GARBAGE_AUTH, nastyString, wrongType } from "./values.js";
import type { Caller } from "./recipe.js";
import type { RawRequest } from "./send.js";
import { authorizationOf, resolveLazy, wireSafeHeader } from "./wire.js";
import type { World } from "./world.js";

/** A tool as tools/list shows it: its name and the JSON Schema of its arguments. */
export interface ListedTool {
  name: string;
  inputSchema: JsonSchema;
}

/** A POST to /mcp before its values are resolved against the world (ids are `Lazy`). */
export interface McpPost {
  /** A batch is sent as a JSON array, even of one message; otherwise the one message as it is. */
  batch: boolean;
  messages: unknown[];
  caller: Caller;
  garbageAuth: string;
  accept: string | null;
  contentType: string;
}

export const MAX_BATCH = 200;
export const MCP_ACCEPT = "application/json, text/event-stream";
export const PROTOCOL_VERSION = "2025-06-18";

const idArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 8, arbitrary: fc.nat() },
  { weight: 3, arbitrary: fc.string({ maxLength: 12 }) },
  // Duplicates, JSON-RPC's null, and ids no client may send.
  {
    weight: 1,
    arbitrary: fc.constantFrom(0, null, -1, 1.5, 2 ** 53, "", {}, [], true, "x".repeat(1000)),
  },
);

const UNKNOWN_TOOLS = ["", "x", "__proto__", "constructor", "get_me ", "GET_ME", "tools/list", "../get_me"];

function toolsCallArb(tools: ListedTool[]): fc.Arbitrary<Record<string, unknown>> {
  const known = tools.map((tool) =>
    fc
      .oneof(
        { weight: 6, arbitrary: objectOf(tool.inputSchema, false) },
        { weight: 3, arbitrary: objectOf(tool.inputSchema, true) },
        { weight: 1, arbitrary: wrongType },
      )
      .map((args) => ({ name: tool.name, arguments: args })),
  );
  const unknown = fc
    .tuple(fc.constantFrom(...UNKNOWN_TOOLS), fc.jsonValue({ maxDepth: 2 }))
    .map(([name, args]) => ({ name, arguments: args }));
  const params = fc.oneof({ weight: 12, arbitrary: fc.oneof(...known) }, { weight: 1, arbitrary: unknown });
  return fc.tuple(idArb, params).map(([id, p]) => ({ jsonrpc: "2.0", id, method: "tools/call", params: p }));
}

const toolsListArb = fc
  .tuple(idArb, fc.constantFrom<unknown>(undefined, {}, { cursor: "x" }, { cursor: 1 }, null, []))
  .map(([id, params]) => ({ jsonrpc: "2.0", id, method: "tools/list", ...(params === undefined ? {} : { params }) }));

const initializeArb = fc
  .tuple(
    idArb,
    fc.constantFrom<unknown>(
      { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "fuzz", version: "1.0.0" } },
      { protocolVersion: "1999-01-01", capabilities: {}, clientInfo: { name: "fuzz", version: "1.0.0" } },
      { protocolVersion: PROTOCOL_VERSION },
      {},
      null,
      "initialize",
    ),
  )
  .map(([id, params]) => ({ jsonrpc: "2.0", id, method: "initialize", params }));

/** Messages that are not a request the server answers: notifications, unknown methods, not JSON-RPC. */
const strayArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant({ jsonrpc: "2.0", method: "notifications/initialized" }),
  fc.constant({ jsonrpc: "2.0", method: "tools/list" }),
  idArb.map((id) => ({ jsonrpc: "2.0", id, method: "ping" })),
  idArb.map((id) => ({ jsonrpc: "2.0", id, method: "resources/list" })),
  idArb.map((id) => ({ jsonrpc: "1.0", id, method: "tools/list" })),
  idArb.map((id) => ({ jsonrpc: "2.0", id, result: {} })),
  idArb.map((id) => ({ id, method: "tools/call" })),
  nastyString.map((method) => ({ jsonrpc: "2.0", id: 1, method })),
  fc.constantFrom<unknown>(1, "x", null, true, [], {}, [{ jsonrpc: "2.0", id: 1, method: "tools/list" }]),
);

function messageArb(tools: ListedTool[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 10, arbitrary: toolsCallArb(tools) },
    { weight: 2, arbitrary: toolsListArb },
    { weight: 2, arbitrary: initializeArb },
    { weight: 2, arbitrary: strayArb },
  );
}

/** Mostly small batches, some large, some of the largest size asked for. */
const batchSizeArb = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 3 }) },
  { weight: 3, arbitrary: fc.integer({ min: 4, max: 40 }) },
  { weight: 1, arbitrary: fc.integer({ min: 41, max: MAX_BATCH - 1 }) },
  { weight: 1, arbitrary: fc.constant(MAX_BATCH) },
);

const callerArb = fc.constantFrom<Caller>("owner", "owner", "owner", "owner", "reader", "stranger", "none", "garbage");

export function mcpPostArb(tools: ListedTool[]): fc.Arbitrary<McpPost> {
  const message = messageArb(tools);
  // Single messages too: batches may be refused whole, and the tools must still be reached.
  const payload = fc.oneof(
    {
      weight: 3,
      arbitrary: batchSizeArb
        .chain((size) => fc.array(message, { minLength: size, maxLength: size }))
        .map((messages) => ({ batch: true, messages })),
    },
    { weight: 2, arbitrary: message.map((m) => ({ batch: false, messages: [m] })) },
  );
  const headers = fc.record({
    caller: callerArb,
    garbageAuth: fc.constantFrom(...GARBAGE_AUTH),
    accept: fc.oneof(
      { weight: 12, arbitrary: fc.constant<string | null>(MCP_ACCEPT) },
      { weight: 1, arbitrary: fc.constantFrom(null, "application/json", "text/event-stream", "*/*") },
    ),
    contentType: fc.oneof(
      { weight: 12, arbitrary: fc.constant("application/json") },
      {
        weight: 1,
        arbitrary: fc.constantFrom("text/plain", "application/json-rpc", "application/json; charset=latin1"),
      },
    ),
  });
  return fc.tuple(payload, headers).map(([p, h]) => ({ ...p, ...h }));
}

/** The bytes of a POST to /mcp, with the world's ids and tokens in it. */
export function realizeMcp(post: McpPost, world: World): RawRequest {
  const messages = post.messages.map((m) => resolveLazy(m, world));
  return mcpRequest(JSON.stringify(post.batch ? messages : messages[0]) ?? "null", {
    authorization: authorizationOf(post.caller, post.garbageAuth, world),
    accept: post.accept,
    contentType: post.contentType,
  });
}

/** A POST of this body text: to /mcp with an Authorization header, to the tokenless /mcp/public without one. */
export function mcpRequest(
  body: string,
  options: { authorization: string | null; accept?: string | null; contentType?: string },
): RawRequest {
  const headers: Record<string, string> = { "Content-Type": options.contentType ?? "application/json" };
  const accept = options.accept === undefined ? MCP_ACCEPT : options.accept;
  if (accept !== null) headers.Accept = accept;
  if (options.authorization !== null) headers.Authorization = wireSafeHeader(options.authorization);
  const path = options.authorization === null ? "/mcp/public" : "/mcp";
  return { method: "POST", path, headers, body: Buffer.from(body, "utf8") };
}

/** Whether the server can read the body as JSON-RPC at all: JSON, an object or array, within the limit. */
export function isReadableMessage(req: RawRequest): boolean {
  const text = req.body?.toString("utf8") ?? "";
  if (req.headers["Content-Type"] !== "application/json" || (req.body?.length ?? 0) > 64 * 1024) return false;
  if (!/^\s*[[{]/.test(text)) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export const TOOLS_LIST = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
