/**
 * Twelve everyday tasks of a new agent, done over MCP with the official SDK client and only
 * the default tool list and the server's instructions to go by: how many tool calls they take
 * and how many bytes the agent reads (the instructions and the tool list once, then every
 * answer). Two tasks use tools outside the default toolset (grant_access, create_view), called
 * by the names the instructions give. The figures are printed for docs/mcp.md.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.js";

let t: TestApp;
let server: Server;
let endpoint: URL;
const clients: Client[] = [];

beforeAll(async () => {
  t = createTestApp();
  server = createServer(t.app);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  endpoint = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await new Promise<void>((done) => server.close(() => done()));
  await t.close();
});

interface ToolResult {
  isError?: boolean;
  content: Array<{ type: string; text: string }>;
}

const spent = { calls: 0, bytes: 0 };

/** The door a client takes: /mcp with a token, /mcp/public without one. */
const door = (token?: string) => new URL(`${endpoint.href}${token ? "" : "/public"}`);

/** A client with the token, if any; every call counted, every answer's text weighed. */
async function agent(token?: string) {
  const client = new Client({ name: "almanac-walk", version: "1.0.0" });
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(door(token), { requestInit: { headers } }));
  clients.push(client);
  return async (name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const result = (await client.callTool({ name, arguments: args })) as ToolResult;
    spent.calls += 1;
    spent.bytes += Buffer.byteLength(result.content[0]?.text ?? "");
    expect(result.isError, `${name}: ${result.content[0]?.text}`).toBeFalsy();
    return JSON.parse(result.content[0].text) as Record<string, unknown>;
  };
}

it("twelve everyday tasks over MCP: each done, with the calls and bytes they cost", async () => {
  const lister = new Client({ name: "almanac-walk", version: "1.0.0" });
  await lister.connect(new StreamableHTTPClientTransport(door()));
  clients.push(lister);
  const listed = await lister.listTools();
  const listBytes = Buffer.byteLength(JSON.stringify(listed));
  const instructions = lister.getInstructions() ?? "";
  const instructionBytes = Buffer.byteLength(instructions);
  // What the walk calls outside the default listing, the instructions name, with how to list it.
  const unlisted = ["grant_access", "create_view"];
  for (const name of unlisted) {
    expect(listed.tools.map((tool) => tool.name)).not.toContain(name);
    expect(instructions).toContain(name);
  }
  expect(instructions).toContain("Call any tool by name whether it is listed or not");

  // 1. An identity, a token and a first calendar.
  const anonymous = await agent();
  const minted = (await anonymous("mint_agent", { name: "Planner" })) as { token: string };
  const call = await agent(minted.token);
  // 2. A calendar for the project.
  const project = (await call("create_calendar", { name: "Launch", timezone: "Europe/Berlin" })) as {
    id: string;
    feed_url: string;
  };
  const calendarId = project.id;
  // 3. A weekly standup, Monday to Friday.
  const standup = (await call("create_event", {
    calendarId,
    name: "Standup",
    recur: { type: "weekly", day: [1, 2, 3, 4, 5], starts: "2026-11-23" },
    start_time: "09:30",
    end_time: "09:45",
  })) as { id: string };
  // 4. The launch, with an alarm a day and a quarter of an hour before.
  await call("create_event", {
    calendarId,
    name: "Launch",
    date: "2026-12-15",
    start_time: "14:00",
    category: "launch",
    alarms: [1440, 15],
  });
  // 5. What happens next week.
  const week = (await call("list_occurrences", { calendarId, from: "2026-11-23", to: "2026-11-29" })) as {
    occurrences: unknown[];
  };
  expect(week.occurrences).toHaveLength(5);
  // 6. No standup on Friday; 7. Thursday's at ten instead.
  await call("update_occurrence", { calendarId, eventId: standup.id, original_date: "2026-11-27", cancelled: true });
  await call("update_occurrence", {
    calendarId,
    eventId: standup.id,
    original_date: "2026-11-26",
    start_time: "10:00",
    end_time: "10:15",
  });
  // 8. A teammate (another agent) may write to it.
  const teammate = (await anonymous("mint_agent", { name: "Teammate" })) as { agent: { id: string } };
  await call("grant_access", { calendarId, agent_id: teammate.agent.id, role: "writer" });
  // 9. A free half hour on Monday afternoon.
  const slots = (await call("find_free_time", {
    calendars: [calendarId],
    from: "2026-11-23",
    to: "2026-11-23",
    minutes: 30,
    hours: "13:00-18:00",
    timezone: "Europe/Berlin",
  })) as { slots: unknown[] };
  expect(slots.slots.length).toBeGreaterThan(0);
  // 10. A share view of the launches only, for the press; its feed for their calendars.
  const view = (await call("create_view", {
    calendarId,
    name: "Launches",
    filter: { categories: ["launch"] },
  })) as { feed_url: string };
  expect(view.feed_url).toMatch(/\/v\/.+\.ics$/);
  // 11. The address a human subscribes to.
  const shown = (await call("get_calendar", { calendarId })) as { feed_url: string };
  expect(shown.feed_url).toBe(project.feed_url);
  // 12. What changed since a cursor: the changes after a first read.
  const first = (await call("list_changes", { calendarId })) as { cursor: string };
  await call("create_event", { calendarId, name: "Retro", date: "2026-12-18" });
  const changes = (await call("list_changes", { calendarId, cursor: first.cursor })) as { changes: unknown[] };
  expect(changes.changes).toHaveLength(1);

  console.log(
    `MCP walk: 12 tasks in ${spent.calls} tool calls (${unlisted.join(", ")} outside the default toolset); ` +
      `read ${instructionBytes} bytes of instructions, ${listBytes} bytes of tools/list ` +
      `(${listed.tools.length} tools) and ${spent.bytes} bytes of answers`,
  );
  expect(spent.calls).toBeLessThanOrEqual(16);
});
