/**
 * /mcp within bounds: one JSON-RPC message per POST (batches refused whole, before any work),
 * every message charged to the rate limits once (a tool call as the operation it runs, the
 * rest as reads, keyed on the caller as REST keys it), and JSON-RPC errors that are one short
 * line: no stack overflow text, no schema dump. Through the SDK's own client where a client
 * would meet it, and with raw POSTs where no SDK client would send it (batches, broken params).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { Express } from "express";
import request from "supertest";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createApiApp } from "../../functions/src/app.js";
import type { RateLimitConfig } from "../../functions/src/http/rate-limit.js";
import { RATE_LIMITED } from "../../functions/src/mcp/server.js";
import { MAX_NESTING } from "../../functions/src/mcp/messages.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { expectError, freshKey, get } from "../helpers/http.js";
import { mintAgent, type MintedAgent } from "../helpers/factories.js";
import { checkResponses } from "../helpers/check-responses.js";

const T0 = new Date("2026-11-22T10:00:00.000Z");
const MINUTE = 60_000;
const LIMITS: RateLimitConfig = {
  enabled: true,
  mint: { limit: 1, windowMs: 60 * MINUTE },
  writes: { limit: 2, windowMs: MINUTE },
  reads: { limit: 3, windowMs: MINUTE },
  pages: { limit: 100, windowMs: MINUTE },
  maxClients: 1_000,
};

let t: TestApp;
let a: MintedAgent;
let b: MintedAgent;
let limited: Express;
let server: Server | null = null;
const clients: Client[] = [];

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(T0);
  t = createTestApp();
  // Agents come from the suite's own app, which has no limits.
  a = await mintAgent(t, "Alpha");
  b = await mintAgent(t, "Beta");
  limited = createApiApp(t.deps, undefined, { checkOutcome: checkResponses(), rateLimits: LIMITS });
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  if (server) await new Promise<void>((done) => server!.close(() => done()));
  server = null;
  vi.useRealTimers();
  await t.close();
});

const ACCEPT = { Accept: "application/json, text/event-stream" };
let nextId = 1;

/** One raw POST of the limited app (or another), its body as given: to /mcp with a token, else /mcp/public. */
function post(body: unknown, auth?: { Authorization: string }, app: Express = limited) {
  const req = request(app)
    .post(auth ? "/mcp" : "/mcp/public")
    .set(ACCEPT)
    .set("Content-Type", "application/json");
  if (auth) req.set(auth);
  return req.send(typeof body === "string" ? body : JSON.stringify(body));
}

const call = (name: string, args: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id: nextId++,
  method: "tools/call",
  params: { name, arguments: args },
});
const listTools = () => ({ jsonrpc: "2.0", id: nextId++, method: "tools/list" });

interface ToolResult {
  isError?: boolean;
  content: Array<{ type: string; text: string }>;
}
const envelope = (result: ToolResult) => JSON.parse(result.content[0].text) as { error?: Record<string, unknown> };

/** An SDK client of the limited app on a real socket: at /mcp with a token, else /mcp/public. */
async function connect(token?: string) {
  if (!server) {
    server = createServer(limited);
    await new Promise<void>((done) => server!.listen(0, "127.0.0.1", done));
  }
  const port = (server.address() as AddressInfo).port;
  const endpoint = new URL(`http://127.0.0.1:${port}/mcp${token ? "" : "/public"}`);
  const client = new Client({ name: "almanac-limits-test", version: "1.0.0" });
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers } }));
  clients.push(client);
  return client;
}

/** A JSON-RPC error as it must always be: a standard code and one short line. */
function expectShortError(body: unknown, code: number, message: RegExp) {
  const error = (body as { error?: { code: number; message: string; data?: unknown } }).error;
  expect(error, JSON.stringify(body).slice(0, 300)).toBeDefined();
  expect(error!.code).toBe(code);
  expect(error!.message).toMatch(message);
  expect(error!.message.length).toBeLessThanOrEqual(200);
  expect(error!.message).not.toMatch(/[\r\n]|Maximum call stack|invalid_type|\bat \w+ \(|"path"/);
  expect(error!.data).toBeUndefined();
}

describe("JSON-RPC batches", () => {
  it("refuses a batch whole with one -32600 error and HTTP 400, before any work", async () => {
    const unlimited = t.app;
    const batches = [
      Array.from({ length: 100 }, () => listTools()),
      Array.from({ length: 5 }, (_, i) => call("create_event", { calendarId: a.calendarId, name: `Batched ${i}` })),
      [listTools()],
      [],
    ];
    for (const batch of batches) {
      const res = await post(batch, a.auth, unlimited);
      expect(res.status, `a batch of ${batch.length}`).toBe(400);
      expect(res.body).toEqual({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32600, message: "batches are not supported: send one JSON-RPC message per POST" },
      });
    }
    const events = await get(t, `/v1/calendars/${a.calendarId}/events`, a.auth);
    expect(events.body.events).toEqual([]);
  });

  it("charges a refused batch as one read: a flood of them runs into the limit", async () => {
    for (let i = 0; i < 3; i++) expect((await post([listTools(), listTools()], a.auth)).status).toBe(400);
    const refused = await post([listTools()], a.auth);
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBe("60");
  });
});

describe("rate limits: each message charged once, as the operation it runs", () => {
  it("counts initialize, its notification and tools/list as reads, against the agent's REST budget", async () => {
    // Connecting is three requests: initialize, the initialized notification, and the GET for
    // an event stream, which a stateless server answers 405. The reads (3) are spent.
    const client = await connect(a.token);
    // The SDK client rejects with a StreamableHTTPError: the HTTP status, and the answer's text.
    const refused = client.listTools();
    await expect(refused).rejects.toMatchObject({ code: 429 });
    await expect(refused).rejects.toThrow(/3 reads per minute; wait 60 s/);

    // The raw answer: HTTP 429, Retry-After, a short JSON-RPC error with the request's id.
    const raw = await post({ ...listTools(), id: "list-4" }, a.auth);
    expect(raw.status).toBe(429);
    expect(raw.headers["retry-after"]).toBe("60");
    expect(raw.body).toMatchObject({
      jsonrpc: "2.0",
      id: "list-4",
      error: {
        code: RATE_LIMITED,
        message: expect.stringMatching(/^too many requests: an agent may send 3 reads per minute; wait 60 s/),
        data: { limit: 3, window_seconds: 60, retry_after: 60 },
      },
    });
    // One budget with REST: the agent's reads are spent there too.
    expectError(await request(limited).get("/v1/me").set(a.auth), 429, "rate_limited");

    // Another agent's are not; each tools/list is one read.
    for (let i = 0; i < 3; i++) expect((await post(listTools(), b.auth)).status).toBe(200);
    expect((await post(listTools(), b.auth)).status).toBe(429);
  });

  it("charges a read tool call once, to the read budget, and answers over the limit as a tool error", async () => {
    const read = call("list_occurrences", { calendarId: a.calendarId, from: "2026-12-01", to: "2026-12-07" });
    // Three calls for three reads: each tool call is charged once, as its operation.
    for (let i = 0; i < 3; i++) {
      const res = await post({ ...read, id: nextId++ }, a.auth);
      expect(res.body.result.isError, JSON.stringify(res.body).slice(0, 300)).toBeUndefined();
    }
    // Over the limit: HTTP 200 (the answer is the tool's), Retry-After and RateLimit on it.
    const raw = await post({ ...read, id: nextId++ }, a.auth);
    expect(raw.status).toBe(200);
    expect(raw.headers["retry-after"]).toBe("60");
    expect(raw.headers["ratelimit"]).toBe("limit=3, remaining=0, reset=60");
    expect(raw.body.result.isError).toBe(true);
    expect(envelope(raw.body.result)).toMatchObject({
      error: { code: "rate_limited", details: { limit: 3, window_seconds: 60, retry_after: 60 } },
    });

    // What the SDK client shows the model: an ordinary failed call carrying REST's envelope.
    const client = await connect(b.token);
    const refused = (await client.callTool({ name: "get_me", arguments: {} })) as ToolResult;
    expect(refused.isError).toBe(true);
    expect(envelope(refused).error!.message).toMatch(/an agent may send 3 reads per minute; wait 60 s/);
  });

  it("charges a write tool call to the write budget only, once", async () => {
    const create = (name: string) =>
      post(call("create_event", { calendarId: a.calendarId, name, date: "2026-12-01" }), a.auth);
    for (const name of ["One", "Two"]) {
      const res = await create(name);
      expect(res.body.result.isError, JSON.stringify(res.body)).toBeUndefined();
      expect(res.headers["ratelimit-policy"]).toBe("2;w=60");
    }
    const third = await create("Three");
    expect(third.body.result.isError).toBe(true);
    expect(envelope(third.body.result).error).toMatchObject({ code: "rate_limited", details: { limit: 2 } });
    // Reads were not charged for the writes: all three are left.
    for (let i = 0; i < 3; i++) expect((await post(listTools(), a.auth)).status).toBe(200);
    const names = (await get(t, `/v1/calendars/${a.calendarId}/events`, a.auth)).body.events.map(
      (e: { name: string }) => e.name,
    );
    expect(names.sort()).toEqual(["One", "Two"]);
  });

  it("charges mint_agent to the mint budget of the client address, shared with REST", async () => {
    const minted = await post(call("mint_agent", { name: "Via MCP" }));
    expect(minted.body.result.isError, JSON.stringify(minted.body)).toBeUndefined();
    const again = await post(call("mint_agent", { name: "Again" }));
    expect(again.body.result.isError).toBe(true);
    expect(envelope(again.body.result).error).toMatchObject({
      code: "rate_limited",
      message: expect.stringMatching(/one client address may send 1 mints per hour/),
    });
    // A token does not buy another mint budget: mint counts per address.
    expect(envelope((await post(call("mint_agent", { name: "Token" }), a.auth)).body.result).error).toMatchObject({
      code: "rate_limited",
    });
    const rest = await request(limited).post("/v1/mint").set("Idempotency-Key", freshKey()).send({ name: "REST" });
    expectError(rest, 429, "rate_limited");
  });

  it("charges a body that is no JSON-RPC message as a read, and a tools/call of no tool as one", async () => {
    const broken = await post("{not json", a.auth);
    expectError(broken, 400, "invalid_json");
    const unknown = await post(call("no_such_tool", {}), a.auth);
    expectShortError(unknown.body, ErrorCode.InvalidParams, /`name` is not a tool/);
    expect((await post({ jsonrpc: "2.0", method: "notifications/initialized" }, a.auth)).status).toBe(202);
    expectError(await post("{not json", a.auth), 429, "rate_limited");
  });
});

describe("JSON-RPC errors are short", () => {
  /** A create_event call whose `name` is `levels` arrays deep, as raw JSON (no serializer recurses that far). */
  const nested = (levels: number) =>
    JSON.stringify(call("create_event", { calendarId: a.calendarId, name: "DEEP" })).replace(
      '"DEEP"',
      `${"[".repeat(levels)}1${"]".repeat(levels)}`,
    );

  it("refuses a message nested too deep with -32600 and HTTP 400, whatever the depth", async () => {
    for (const levels of [MAX_NESTING, 5_000, 30_000]) {
      const res = await post(nested(levels), a.auth, t.app);
      expect(res.status, `${levels} levels`).toBe(400);
      expectShortError(res.body, ErrorCode.InvalidRequest, /nests deeper than 32 levels/);
    }
    // Within the bound it is REST's to judge: a name must be text.
    const shallow = await post(nested(3), a.auth, t.app);
    expect(shallow.status).toBe(200);
    expect(envelope(shallow.body.result).error).toMatchObject({ code: "invalid_event", details: { field: "name" } });
  });

  it("answers bad params with -32602 and one sentence naming the parameter, never the SDK's schema dump", async () => {
    const cases: Array<[unknown, RegExp]> = [
      [
        { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: 5 } },
        /^invalid params: `params\.name` must be a string$/,
      ],
      [
        { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "get_me", arguments: "all" } },
        /^invalid params: `params\.arguments` must be an object$/,
      ],
      [{ jsonrpc: "2.0", id: 3, method: "tools/call" }, /^invalid params: `params` must be an object$/],
      [
        { jsonrpc: "2.0", id: 4, method: "initialize", params: { protocolVersion: 5 } },
        /^invalid params: `params\.protocolVersion` must be a string$/,
      ],
      [
        { jsonrpc: "2.0", id: 5, method: "tools/list", params: { cursor: 7 } },
        /^invalid params: `params\.cursor` must be a string$/,
      ],
    ];
    for (const [message, expected] of cases) {
      const res = await post(message, a.auth, t.app);
      expect(res.status).toBe(200);
      expect(res.body.id).toBe((message as { id: number }).id);
      expectShortError(res.body, ErrorCode.InvalidParams, expected);
    }
    const unknownMethod = await post({ jsonrpc: "2.0", id: 6, method: "resources/list" }, a.auth, t.app);
    expectShortError(unknownMethod.body, ErrorCode.MethodNotFound, /^Method not found$/);
  });

  it("bounds the transport's own refusals of the HTTP request too", async () => {
    const echoed = await request(t.app)
      .post("/mcp/public")
      .set(ACCEPT)
      .set("Mcp-Protocol-Version", "9".repeat(2_000))
      .send(listTools());
    expect(echoed.status).toBe(400);
    expectShortError(echoed.body, ErrorCode.ConnectionClosed, /^bad request$/);
    const notAccepted = await request(t.app).post("/mcp/public").set("Accept", "application/json").send(listTools());
    expect(notAccepted.status).toBe(406);
    expectShortError(notAccepted.body, ErrorCode.ConnectionClosed, /^Not Acceptable: /);
  });

  it("gives the SDK client a short McpError for an unknown tool", async () => {
    limited = t.app;
    const client = await connect(a.token);
    const refused = await client.callTool({ name: "no_such_tool", arguments: {} }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((refused as McpError).message).toBe(
      "MCP error -32602: invalid params: `name` is not a tool of this server; " +
        "its instructions name them all, ?toolsets=all lists them",
    );
  });
});
