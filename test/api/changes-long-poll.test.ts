/**
 * The change feed's long-poll over real sockets, through REST and through MCP's list_changes
 * (the SDK's own client): a waiter whose client goes stops at once, reads the store no more and
 * leaves the waiters' count; a waiter whose access is revoked answers the refusal, never a
 * change written after it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, request as httpRequest, type ClientRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Express } from "express";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApiApp } from "../../functions/src/app.js";
import type { HttpDeps } from "../../functions/src/http/deps.js";
import { CHANGE_POLL_MS, waitingRequests } from "../../functions/src/domain/queries/changes.js";
import { ResponseCache } from "../../functions/src/http/response-cache.js";
import { CountingStore } from "../helpers/counting-store.js";
import { BASE_URL, testClock, testStore } from "../helpers/app.js";
import { grantRole, laterCredential, mintAgent, newCalendar, newEvent } from "../helpers/factories.js";
import { del, get } from "../helpers/http.js";
import { checkResponses } from "../helpers/check-responses.js";
import { configDeps } from "../helpers/config.js";

interface World {
  app: Express;
  store: CountingStore;
  server: Server;
  origin: string;
  close: () => Promise<void>;
}

let w: World;

beforeEach(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "almanac-long-poll-"));
  const backing = testStore(dataDir);
  const store = new CountingStore(backing.store);
  const deps: HttpDeps = {
    ...configDeps(),
    store,
    clock: testClock(),
    baseUrl: BASE_URL,
    log: () => {},
    memory: {},
    cache: new ResponseCache(),
  };
  const app = createApiApp(deps, undefined, { checkOutcome: checkResponses() });
  const server = createServer(app);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  w = {
    app,
    store,
    server,
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await backing.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
});
afterEach(async () => {
  await w.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `holds` is true, checking every few milliseconds; fails after `ms`. */
async function until(holds: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = performance.now() + ms;
  while (!holds()) {
    if (performance.now() > deadline) throw new Error(`${what}: still not so after ${ms} ms`);
    await sleep(5);
  }
}

async function currentCursor(calendarId: string, auth: { Authorization: string }): Promise<string> {
  const res = await get(w, `/v1/calendars/${calendarId}/changes`, auth);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.cursor as string;
}

/** A long-poll over its own socket, which the test can drop; its answer is never awaited. */
function longPoll(path: string, auth: { Authorization: string }): ClientRequest {
  const req = httpRequest(`${w.origin}${path}`, { headers: { ...auth, Connection: "close" } });
  req.on("error", () => {}); // dropped on purpose
  req.end();
  return req;
}

/** After the waiters have gone: no store call at all during more than a poll interval. */
async function expectNoFurtherReads(): Promise<void> {
  w.store.take();
  await sleep(CHANGE_POLL_MS + 300);
  expect(w.store.take()).toMatchObject({ calls: 0, transactions: 0 });
}

interface ToolResult {
  isError?: boolean;
  content: Array<{ type: string; text: string }>;
}

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

async function mcpClient(token: string): Promise<Client> {
  const client = new Client({ name: "almanac-long-poll-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${w.origin}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const listChanges = (client: Client, args: Record<string, unknown>) =>
  client.callTool({ name: "list_changes", arguments: args }) as Promise<ToolResult>;

describe("a long-poll whose client goes", () => {
  it("stops at once: 50 dropped long-polls leave the waiters and read the store no more", async () => {
    const owner = await mintAgent(w, "Owner");
    const cal = owner.calendarId;
    const cursor = await currentCursor(cal, owner.auth);
    const polls = Array.from({ length: 50 }, () =>
      longPoll(`/v1/calendars/${cal}/changes?cursor=${cursor}&wait=30`, owner.auth),
    );
    await until(() => waitingRequests() === polls.length, 5000, "all waiting");
    const dropped = performance.now();
    for (const poll of polls) poll.destroy();
    await until(() => waitingRequests() === 0, 500, "the waiters released");
    console.log(`change feed: 50 dropped long-polls released in ${(performance.now() - dropped).toFixed(1)} ms`);
    await expectNoFurtherReads();
  });

  it("through MCP list_changes: the /mcp client closing stops the waiting tool call the same way", async () => {
    const owner = await mintAgent(w, "Owner");
    const cal = owner.calendarId;
    const cursor = await currentCursor(cal, owner.auth);
    const client = await mcpClient(owner.token);
    const call = listChanges(client, { calendarId: cal, cursor, wait: 30 }).catch((err: unknown) => err);
    await until(() => waitingRequests() === 1, 5000, "the tool call waiting");
    await client.close();
    await until(() => waitingRequests() === 0, 500, "the waiter released");
    await call;
    await expectNoFurtherReads();
  });

  it("a long-poll answered normally is not taken for a dropped one", async () => {
    const owner = await mintAgent(w, "Owner");
    const cal = owner.calendarId;
    const cursor = await currentCursor(cal, owner.auth);
    const answer = get(w, `/v1/calendars/${cal}/changes?cursor=${cursor}&wait=0.3`, owner.auth).then((r) => r);
    const res = await answer;
    expect(res.status).toBe(200);
    expect(res.body.changes).toEqual([]);
    expect(waitingRequests()).toBe(0);
  });
});

describe("MCP list_changes re-checks the caller before it answers", () => {
  it("grant revoked while the tool call waits: not_found, and the event written after never reaches it", async () => {
    const owner = await mintAgent(w, "Owner");
    const reader = await mintAgent(w, "Reader");
    const cal = (await newCalendar(w, owner, { visibility: "private" })).id;
    const grant = await grantRole(w, owner, cal, reader.agentId, "reader");
    const cursor = await currentCursor(cal, reader.auth);
    const client = await mcpClient(reader.token);
    const call = listChanges(client, { calendarId: cal, cursor, wait: 10 });
    await until(() => waitingRequests() === 1, 5000, "the tool call waiting");
    await del(w, `/v1/calendars/${cal}/grants/${grant.id}`, owner.auth).expect(200);
    await newEvent(w, owner, cal, { name: "After the revocation", notes: "not for the reader" });
    const result = await call;
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0].text)).toMatchObject({ error: { code: "not_found" } });
    expect(result.content[0].text).not.toContain("After the revocation");
  });

  it("credential revoked while the tool call waits: unauthorized, nothing written after", async () => {
    const owner = await mintAgent(w, "Owner");
    const reader = await mintAgent(w, "Reader");
    const cal = (await newCalendar(w, owner, { visibility: "private" })).id;
    await grantRole(w, owner, cal, reader.agentId, "reader");
    const kept = await laterCredential(w, reader);
    const cursor = await currentCursor(cal, reader.auth);
    const client = await mcpClient(reader.token);
    const call = listChanges(client, { calendarId: cal, cursor, wait: 10 });
    await until(() => waitingRequests() === 1, 5000, "the tool call waiting");
    await del(w, `/v1/agent-credentials/${reader.credentialId}`, kept).expect(200);
    await newEvent(w, owner, cal, { name: "After the revocation" });
    const result = await call;
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0].text)).toMatchObject({ error: { code: "unauthorized" } });
    expect(result.content[0].text).not.toContain("After the revocation");
  });
});
