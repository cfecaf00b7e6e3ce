/**
 * POST /mcp with the SDK's own client (Client + StreamableHTTPClientTransport) against the API
 * listening on an ephemeral port: the tools, a weekly event made and read back through tools
 * and through REST, errors as REST's, a stranger, scopes, and replays. The calls are written to
 * test/.artifacts/mcp-transcript.json (tokens masked).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import request from "supertest";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createApiApp } from "../../functions/src/app.js";
import { DEFAULT_RATE_LIMITS } from "../../functions/src/http/rate-limit.js";
import { TOOL_CATALOG } from "../../functions/src/mcp/catalog.js";
import { startLocalServer } from "../../functions/src/server.js";
import { appPerTest, onFirestore, sqliteOnly } from "../helpers/app.js";
import { get, post, withoutRequestId } from "../helpers/http.js";
import { checkResponses } from "../helpers/check-responses.js";

const t = appPerTest();
let server: Server;
let endpoint: URL;
const clients: Client[] = [];

beforeEach(async () => {
  server = createServer(t.app);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  endpoint = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await new Promise<void>((done) => server.close(() => done()));
});

// What the tests did over MCP, for the closing note of issue 14.
const transcript: Array<Record<string, unknown>> = [];
afterAll(() => {
  const dir = join(import.meta.dirname, "../.artifacts");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "mcp-transcript.json"), `${JSON.stringify(transcript, null, 2)}\n`);
});
const masked = (text: string) => text.replace(/svc_agent_[A-Za-z0-9]+/g, "svc_agent_…");
const note = (entry: Record<string, unknown>) =>
  transcript.push(JSON.parse(masked(JSON.stringify({ test: expect.getState().currentTestName, ...entry }))));

interface ToolResult {
  isError?: boolean;
  content: Array<{ type: string; text: string }>;
  _meta?: Record<string, unknown>;
}

/**
 * An MCP client of the test's server: with a bearer token at /mcp, without one at /mcp/public
 * (/mcp answers a tokenless request 401, for OAuth), then `?<search>`.
 */
async function connect(token?: string, { search = "", headers: extra = {} } = {}) {
  const client = new Client({ name: "almanac-test", version: "1.0.0" });
  const headers: Record<string, string> = { ...extra, ...(token ? { Authorization: `Bearer ${token}` } : {}) };
  const url = new URL(`${endpoint.href}${token ? "" : "/public"}${search}`);
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  clients.push(client);
  return {
    client,
    async call(name: string, args: Record<string, unknown>): Promise<ToolResult> {
      const result = (await client.callTool({ name, arguments: args })) as ToolResult;
      const text = result.content[0]?.text ?? "";
      note({ call: name, arguments: args, isError: result.isError ?? false, answer: text.slice(0, 400) });
      return result;
    },
  };
}

/** The JSON a tool answered, which is what REST answers. */
const json = (result: ToolResult): Record<string, unknown> => JSON.parse(result.content[0].text);
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** An agent minted through the mint_agent tool, as an agent without a token would start. */
async function mintThroughMcp(name: string) {
  const anonymous = await connect();
  const minted = await anonymous.call("mint_agent", { name });
  expect(minted.isError).toBeFalsy();
  const body = json(minted) as { token: string; calendar: { id: string }; agent: { id: string } };
  return { token: body.token, calendarId: body.calendar.id, agentId: body.agent.id, mcp: await connect(body.token) };
}

const WEEKLY = {
  name: "Standup",
  recur: { type: "weekly", day: 1, starts: "2026-11-23" },
  start_time: "09:30",
  end_time: "09:45",
  category: "team",
};

describe("POST /mcp (Model Context Protocol, Streamable HTTP, stateless)", () => {
  it("lists one tool per API operation with ?toolsets=all, find_free_time included, with schemas and descriptions", async () => {
    const { client } = await connect(undefined, { search: "?toolsets=all" });
    const { tools } = await client.listTools();
    note({ list: "tools/list (?toolsets=all)", tools: tools.map((tool) => tool.name) });
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      Object.values(TOOL_CATALOG)
        .map((e) => e.name)
        .sort(),
    );
    const createEvent = tools.find((tool) => tool.name === "create_event")!;
    expect(createEvent.title).toBe("Create an event");
    expect(createEvent.description).toMatch(/^Use to put something on a calendar.* Docs: \/docs\/events.md#fields$/);
    expect(createEvent.inputSchema.required).toEqual(["calendarId", "name"]);
    expect(tools.find((tool) => tool.name === "find_free_time")!.description).toMatch(/find_free_time|free/i);
    expect(client.getInstructions()).toContain("get_me");
  });

  it("mints, creates a weekly event through create_event, and reads the same data through MCP and REST", async () => {
    const { token, calendarId, mcp } = await mintThroughMcp("Scout");
    const created = await mcp.call("create_event", { calendarId, ...WEEKLY });
    expect(created.isError).toBeFalsy();
    const event = json(created) as { id: string; kind: string; recur: { type: string; day: number } };
    expect(event).toMatchObject({ kind: "recurring", recur: { type: "weekly", day: 1 }, name: "Standup" });

    const range = { from: "2026-11-23", to: "2026-12-20" };
    const occurrences = await mcp.call("list_occurrences", { calendarId, ...range });
    expect(occurrences.isError).toBeFalsy();
    const rest = await get(t, `/v1/calendars/${calendarId}/occurrences?from=${range.from}&to=${range.to}`, auth(token));
    expect(rest.status).toBe(200);
    expect(json(occurrences)).toEqual(rest.body);
    const dates = (rest.body.occurrences as Array<{ date: string; start_time: string }>).map((o) => o.date);
    expect(dates).toEqual(["2026-11-23", "2026-11-30", "2026-12-07", "2026-12-14"]);

    // find_free_time (GET /v1/freebusy/slots) works around it: the half hour before, then after.
    const slotArgs = { calendars: calendarId, from: "2026-11-23", to: "2026-11-23", minutes: 30, hours: "09:00-11:00" };
    const slots = await mcp.call("find_free_time", { ...slotArgs, timezone: "UTC" });
    const restSlots = await get(
      t,
      `/v1/freebusy/slots?${new URLSearchParams({ ...slotArgs, minutes: "30", timezone: "UTC" }).toString()}`,
      auth(token),
    );
    expect(restSlots.status).toBe(200);
    expect(json(slots)).toEqual(restSlots.body);
    expect(restSlots.body.slots).toHaveLength(2);

    const one = await mcp.call("get_event", { calendarId, eventId: event.id });
    expect(json(one)).toEqual((await get(t, `/v1/calendars/${calendarId}/events/${event.id}`, auth(token))).body);
  });

  it("answers an API error as a tool error with REST's code and message", async () => {
    const { token, calendarId, mcp } = await mintThroughMcp("Scout");
    // A typo'd field: REST names it with invalid_event.
    const typo = { calendarId, title: "Standup" };
    const viaMcp = await mcp.call("create_event", typo);
    const viaRest = await post(t, `/v1/calendars/${calendarId}/events`, auth(token)).send({ title: "Standup" });
    expect(viaRest.status).toBe(400);
    expect(viaMcp.isError).toBe(true);
    expect(withoutRequestId(json(viaMcp))).toEqual(withoutRequestId(viaRest.body));
    expect((json(viaMcp).error as { code: string }).code).toBe("invalid_event");

    // A range backwards: invalid_request, same message.
    const backwards = await mcp.call("list_occurrences", { calendarId, from: "2026-12-10", to: "2026-12-01" });
    const restBackwards = await get(t, `/v1/calendars/${calendarId}/occurrences?from=2026-12-10&to=2026-12-01`);
    expect(backwards.isError).toBe(true);
    expect(withoutRequestId(json(backwards))).toEqual(withoutRequestId(restBackwards.body));

    // No token where one is required: unauthorized, as REST, pointing to the tool that mints.
    const anonymous = await connect();
    const refused = await anonymous.call("get_me", {});
    expect(refused.isError).toBe(true);
    const restRefusal = await get(t, "/v1/me");
    expect(json(refused)).toMatchObject({ error: { code: restRefusal.body.error.code } });
    expect(json(refused).error).toMatchObject({ message: expect.stringContaining("the mint_agent tool") });
    expect(json(refused).error).toMatchObject({ message: expect.stringContaining("Authorization: Bearer <token>") });
    expect(restRefusal.body.error.message).toContain("POST /v1/mint");

    // An unknown argument of a read, and a missing path argument, name the argument.
    const unknown = await mcp.call("list_occurrences", { calendarId, from: "2026-12-01", to: "2026-12-02", day: 1 });
    expect(json(unknown)).toMatchObject({ error: { code: "invalid_request", details: { field: "day" } } });
    const noId = await mcp.call("get_calendar", {});
    expect(json(noId)).toMatchObject({ error: { code: "invalid_request", details: { field: "calendarId" } } });
  });

  it("shows a stranger's token no private calendar, exactly as REST does", async () => {
    const owner = await mintThroughMcp("Owner");
    const secret = await owner.mcp.call("create_calendar", { name: "Secret plans", visibility: "private" });
    const calendarId = (json(secret) as { id: string }).id;
    await owner.mcp.call("create_event", { calendarId, ...WEEKLY });

    const stranger = await mintThroughMcp("Stranger");
    for (const [tool, args, path] of [
      ["get_calendar", { calendarId }, `/v1/calendars/${calendarId}`],
      ["list_events", { calendarId }, `/v1/calendars/${calendarId}/events`],
      [
        "list_occurrences",
        { calendarId, from: "2026-11-23", to: "2026-12-20" },
        `/v1/calendars/${calendarId}/occurrences?from=2026-11-23&to=2026-12-20`,
      ],
    ] as const) {
      const answer = await stranger.mcp.call(tool, args);
      expect(answer.isError, tool).toBe(true);
      expect(withoutRequestId(json(answer)), tool).toEqual(
        withoutRequestId((await get(t, path, auth(stranger.token))).body),
      );
      expect(json(answer), tool).toMatchObject({ error: { code: "not_found" } });
    }
    const me = await stranger.mcp.call("get_me", {});
    expect(JSON.stringify(json(me))).not.toContain(calendarId);
    // The owner's own token reads it.
    expect((await owner.mcp.call("get_calendar", { calendarId })).isError).toBeFalsy();
  });

  it("holds a token to its scopes: a later credential (no grants:manage) cannot list grants", async () => {
    const { token, calendarId } = await mintThroughMcp("Scout");
    const later = await post(t, "/v1/agent-credentials", auth(token)).send({ label: "worker" });
    expect(later.status).toBe(200);
    const laterToken = later.body.token as string;
    const worker = await connect(laterToken);
    const refused = await worker.call("list_grants", { calendarId });
    expect(refused.isError).toBe(true);
    expect(withoutRequestId(json(refused))).toEqual(
      withoutRequestId((await get(t, `/v1/calendars/${calendarId}/grants`, auth(laterToken))).body),
    );
    expect(json(refused)).toMatchObject({ error: { code: "insufficient_scope" } });
    // Its calendar:write scope suffices for an event.
    expect((await worker.call("create_event", { calendarId, ...WEEKLY })).isError).toBeFalsy();
  });

  it("replays a resent tools/call (same JSON-RPC id and arguments), while a new call acts anew", async () => {
    const { token, calendarId, mcp } = await mintThroughMcp("Scout");
    const message = {
      jsonrpc: "2.0",
      id: 41,
      method: "tools/call",
      params: { name: "create_event", arguments: { calendarId, ...WEEKLY } },
    };
    const send = async () => {
      const res = await request(t.app)
        .post("/mcp")
        .set(auth(token))
        .set("Accept", "application/json, text/event-stream")
        .send(message);
      expect(res.status).toBe(200);
      const result = res.body.result as ToolResult;
      note({ call: "create_event (raw JSON-RPC, id 41)", arguments: message.params.arguments, answer: result });
      return result;
    };
    const first = await send();
    const resent = await send();
    expect(first._meta).toBeUndefined();
    expect(resent._meta).toEqual({ "idempotent-replayed": true });
    expect(resent.content).toEqual(first.content);

    // The SDK client numbers its requests: the same arguments in a new call make a second event.
    const again = await mcp.call("create_event", { calendarId, ...WEEKLY });
    expect(json(again).id).not.toBe(json(first).id);

    // An explicit idempotency_key makes a retry by the model itself a replay.
    const keyed = { calendarId, ...WEEKLY, name: "Retro", idempotency_key: "retro-2026-11" };
    const once = await mcp.call("create_event", keyed);
    const twice = await mcp.call("create_event", keyed);
    expect(twice._meta).toEqual({ "idempotent-replayed": true });
    expect(twice.content).toEqual(once.content);

    const events = await get(t, `/v1/calendars/${calendarId}/events`, auth(token));
    expect((events.body.events as Array<{ name: string }>).map((e) => e.name).sort()).toEqual([
      "Retro",
      "Standup",
      "Standup",
    ]);
  });

  it("answers GET and DELETE /mcp and /mcp/public 405: stateless, no event stream and no session", async () => {
    const { token } = await mintThroughMcp("Scout");
    for (const method of ["get", "delete"] as const) {
      for (const res of [
        await request(t.app)[method]("/mcp").set(auth(token)).set("Accept", "text/event-stream"),
        await request(t.app)[method]("/mcp/public").set("Accept", "text/event-stream"),
      ]) {
        expect(res.status, method).toBe(405);
        expect(res.headers.allow).toBe("POST");
        expect(res.body.error.code).toBe("method_not_allowed");
      }
    }
  });

  it("counts each message once against the rate limits: tools/list as a read, a tool call as its operation", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const { token, calendarId } = await mintThroughMcp("Scout");
      const reads = { limit: 4, windowMs: 60_000 };
      const limited = createApiApp(t.deps, undefined, {
        checkOutcome: checkResponses(),
        rateLimits: { ...DEFAULT_RATE_LIMITS, reads },
      });
      const rpc = async (id: number, method: string, params?: unknown) =>
        (
          await request(limited)
            .post("/mcp")
            .set(auth(token))
            .set("Accept", "application/json, text/event-stream")
            .send({ jsonrpc: "2.0", id, method, params })
            .expect(200)
        ).body.result as ToolResult & { tools?: unknown[] };
      for (let id = 1; id <= 2; id++) expect((await rpc(id, "tools/list")).tools).toBeDefined();
      const read = { name: "list_occurrences", arguments: { calendarId, from: "2026-12-01", to: "2026-12-07" } };
      expect((await rpc(5, "tools/call", read)).isError).toBeUndefined();
      expect((await rpc(6, "tools/call", read)).isError).toBeUndefined();
      const fifth = await rpc(7, "tools/call", read);
      note({ call: "list_occurrences (reads limited to 4 a minute)", arguments: read.arguments, answer: fifth });
      expect(fifth.isError).toBe(true);
      expect(json(fifth)).toMatchObject({ error: { code: "rate_limited", details: { limit: 4, window_seconds: 60 } } });
      // The same budget as REST's: the agent's reads are spent.
      const rest = await request(limited).get(`/v1/calendars/${calendarId}`).set(auth(token));
      expect(rest.status).toBe(429);
    } finally {
      vi.useRealTimers();
    }
  });

  it.skipIf(onFirestore)(
    sqliteOnly(
      "is served by the local server (npm start) at /mcp/public, and /mcp's OAuth metadata beside it",
      "npm start keeps its data in a SQLite file",
    ),
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), "almanac-mcp-"));
      const local = await startLocalServer({ port: 0, dataDir, log: () => {} });
      try {
        const origin = `http://127.0.0.1:${(local.server.address() as AddressInfo).port}`;
        const client = new Client({ name: "almanac-test", version: "1.0.0" });
        await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp/public`)));
        clients.push(client);
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toContain("find_free_time");
        const tokenless = await fetch(`${origin}/mcp`, { method: "POST" });
        expect(tokenless.status).toBe(401);
        const metadata = await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`);
        expect(metadata.status).toBe(200);
      } finally {
        for (const client of clients.splice(0)) await client.close();
        await local.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});

describe("toolsets: the default listed, the rest on request, every tool callable", () => {
  const names = (tools: Array<{ name: string }>) => tools.map((tool) => tool.name).sort();
  const inToolsets = (...toolsets: string[]) =>
    Object.values(TOOL_CATALOG)
      .filter((entry) => toolsets.includes(entry.toolset))
      .map((entry) => entry.name)
      .sort();

  it("lists the default toolset, adds named toolsets from ?toolsets= or X-MCP-Toolsets, and says how", async () => {
    const { client } = await connect();
    const everyday = names((await client.listTools()).tools);
    expect(everyday).toEqual(inToolsets("default"));
    expect(everyday).toEqual(expect.arrayContaining(["mint_agent", "create_event", "find_free_time", "list_changes"]));
    expect(everyday).not.toContain("grant_access");

    const byQuery = await connect(undefined, { search: "?toolsets=sharing,views" });
    expect(names((await byQuery.client.listTools()).tools)).toEqual(inToolsets("default", "sharing", "views"));
    const byHeader = await connect(undefined, { headers: { "X-MCP-Toolsets": "Webhooks, admin" } });
    expect(names((await byHeader.client.listTools()).tools)).toEqual(inToolsets("default", "webhooks", "admin"));

    // The instructions name every toolset, every tool outside the default, and both ways to list them.
    const instructions = client.getInstructions() ?? "";
    note({ instructions });
    expect(instructions).toContain("the default toolset (everyday scheduling");
    for (const entry of Object.values(TOOL_CATALOG).filter((entry) => entry.toolset !== "default")) {
      expect(instructions, entry.name).toMatch(new RegExp(`${entry.toolset} \\([^)]*\\): [^;]*${entry.name}`));
    }
    expect(instructions).toContain("?toolsets=sharing,views");
    expect(instructions).toContain("X-MCP-Toolsets: sharing,views");
    expect(instructions).toContain("`all`");
  });

  it("refuses an unknown toolset with the names of the valid ones", async () => {
    for (const options of [{ search: "?toolsets=sharing,calendars" }, { headers: { "X-MCP-Toolsets": "calendars" } }]) {
      const refused = connect(undefined, options);
      await expect(refused).rejects.toThrow(/unknown toolset `calendars`.*sharing, views, layers, webhooks/);
      await expect(refused).rejects.toThrow(/credentials, admin, all/);
    }
  });

  it("runs a tool the listing leaves out, as agents are told they may", async () => {
    const { calendarId, mcp } = await mintThroughMcp("Scout");
    const grants = await mcp.call("list_grants", { calendarId });
    expect(grants.isError).toBeFalsy();
    expect(json(grants)).toMatchObject({ grants: [{ role: "owner" }] });
  });
});

describe("MCP frictions", () => {
  it("says after mint_agent's JSON how to use its token over MCP", async () => {
    const anonymous = await connect();
    const minted = await anonymous.call("mint_agent", { name: "Scout" });
    expect(minted.content).toHaveLength(2);
    expect(json(minted)).toHaveProperty("token");
    expect(minted.content[1].text).toMatch(/reconnect to \/mcp with the header `Authorization: Bearer <token>`/);
    // Only a success carries it.
    const bad = await anonymous.call("mint_agent", {});
    expect(bad.isError).toBe(true);
    expect(bad.content).toHaveLength(1);
  });

  it("takes calendar lists as arrays in every tool, and still takes REST's comma-separated text", async () => {
    const { token, calendarId, mcp } = await mintThroughMcp("Scout");
    const other = json(await mcp.call("create_calendar", { name: "Second" })) as { id: string };
    const { client } = await connect(undefined, { search: "?toolsets=all" });
    for (const tool of (await client.listTools()).tools) {
      const list = tool.inputSchema.properties?.calendars as { type?: string } | undefined;
      if (list) expect(list.type, tool.name).toBe("array");
    }
    const range = { from: "2026-11-23", to: "2026-11-23", timezone: "UTC" };
    const rest = await get(
      t,
      `/v1/freebusy?calendars=${calendarId},${other.id}&from=2026-11-23&to=2026-11-23&timezone=UTC`,
      auth(token),
    );
    expect(rest.status).toBe(200);
    for (const calendars of [[calendarId, other.id], `${calendarId},${other.id}`]) {
      const busy = await mcp.call("get_free_busy", { calendars, ...range });
      expect(json(busy), JSON.stringify(calendars)).toEqual(rest.body);
    }
  });

  it("offers no argument that is always refused: update_view has no `slug`, and one sent anyway is REST's refusal", async () => {
    const { client } = await connect(undefined, { search: "?toolsets=views" });
    const update = (await client.listTools()).tools.find((tool) => tool.name === "update_view")!;
    expect(update.inputSchema.properties).not.toHaveProperty("slug");
    expect(update.inputSchema.properties).toHaveProperty("name");

    const { token, calendarId, mcp } = await mintThroughMcp("Scout");
    const view = json(await mcp.call("create_view", { calendarId, name: "Public" })) as { id: string };
    const sent = await mcp.call("update_view", { calendarId, viewId: view.id, slug: "elsewhere" });
    const restAnswer = await request(t.app)
      .patch(`/v1/calendars/${calendarId}/views/${view.id}`)
      .set(auth(token))
      .send({ slug: "elsewhere" });
    expect(sent.isError).toBe(true);
    expect(withoutRequestId(json(sent))).toEqual(withoutRequestId(restAnswer.body));
    expect(json(sent)).toMatchObject({ error: { details: { field: "slug" } } });
  });
});
