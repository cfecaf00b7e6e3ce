/**
 * A hosted MCP client connects to /mcp by OAuth alone, with the SDK's own client: it meets the
 * 401, discovers the metadata, registers, sends the human to the consent page (answered here
 * over HTTP by a signed-in person), exchanges the code, and creates an event as the agent the
 * person chose. The person sees the client on the account page and revokes it; the token is
 * then 401. The app listens on a real port, its origin the one the metadata names.
 */
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import request from "supertest";
import { afterAll, beforeAll, expect, it } from "vitest";
import { claimAgent, createAccountsTestApp, Human, type AccountsTestApp } from "../helpers/accounts.js";
import { get, post } from "../helpers/http.js";
import { consent, listToolsWith, MemoryOAuthClient, testClientMetadata } from "../helpers/oauth.js";

const DOCUMENT_URL = "https://connector.example/oauth/client.json";

let t: AccountsTestApp;
let server: Server;
let origin: string;

beforeAll(async () => {
  let handle: RequestListener = (_req, res) => res.end();
  server = createServer((req, res) => handle(req, res));
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = createAccountsTestApp(undefined, undefined, origin);
  // The client ID metadata documents of this test, as their hosts would serve them.
  t.deps.fetchDocument = async (url) =>
    url === DOCUMENT_URL
      ? { ok: true, status: 200, text: JSON.stringify({ ...testClientMetadata("Doc Connector"), client_id: url }) }
      : { ok: true, status: 404, text: "" };
  handle = t.app;
});
afterAll(async () => {
  await new Promise<void>((done) => server.close(() => done()));
  await t.close();
});

const pathOf = (url: URL): string => url.pathname + url.search;

interface ToolResult {
  isError?: boolean;
  content: Array<{ type: string; text: string }>;
}

it("the SDK's client connects by OAuth, acts as the chosen agent, and is 401 once the person revokes it", async () => {
  const human = await new Human(t).signIn(t.accounts, "ada");
  const scout = await claimAgent(t, human, "Scout");
  const mcp = new URL(`${origin}/mcp`);
  const oauthClient = new MemoryOAuthClient();

  // Without a token the client meets the 401, and sends the person to authorize.
  const first = new Client({ name: "hosted", version: "1.0.0" });
  await expect(first.connect(new StreamableHTTPClientTransport(mcp, { authProvider: oauthClient }))).rejects.toThrow(
    UnauthorizedError,
  );
  expect(oauthClient.information?.client_id).toBeTruthy();
  const authorizationUrl = oauthClient.authorizationUrl!;
  expect(authorizationUrl.searchParams.get("resource")).toBe(mcp.href);
  expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");

  const back = await consent(t, human, authorizationUrl, {
    agent: scout.agentId,
    scopes: ["agent:read", "calendar:read", "calendar:write"],
    calendars: [scout.calendarId],
  });
  expect(back.origin + back.pathname).toBe(oauthClient.redirectUrl);
  expect(back.searchParams.get("state")).toBe("state-123");
  const finishing = new StreamableHTTPClientTransport(mcp, { authProvider: oauthClient });
  await finishing.finishAuth(back.searchParams.get("code")!);
  expect(oauthClient.saved?.access_token).toMatch(/^svc_agent_/);
  expect(oauthClient.saved?.refresh_token).toBeTruthy();

  const client = new Client({ name: "hosted", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(mcp, { authProvider: oauthClient }));
  const created = (await client.callTool({
    name: "create_event",
    arguments: { calendarId: scout.calendarId, name: "Planned by a hosted client", date: "2026-12-01" },
  })) as ToolResult;
  expect(created.isError, created.content[0]?.text).toBeFalsy();
  const eventId = (JSON.parse(created.content[0].text) as { id: string }).id;
  const me = (await client.callTool({ name: "get_me", arguments: {} })) as ToolResult;
  expect(JSON.parse(me.content[0].text)).toMatchObject({ agent: { id: scout.agentId } });
  // The person allowed one calendar: another of the same agent does not exist for the client.
  const other = await post(t, "/v1/calendars", scout.auth).send({ name: "Scout private" });
  expect(other.status).toBe(200);
  const hidden = (await client.callTool({
    name: "get_calendar",
    arguments: { calendarId: other.body.id },
  })) as ToolResult;
  expect(hidden.isError).toBe(true);
  expect(JSON.parse(hidden.content[0].text)).toMatchObject({ error: { code: "not_found" } });
  await client.close();
  // The agent's own token sees the event the client wrote.
  expect((await get(t, `/v1/calendars/${scout.calendarId}/events/${eventId}`, scout.auth)).status).toBe(200);

  // The person sees the client on the account page, and revokes it there.
  const account = await human.get("/account");
  expect(account.text).toContain("Test Connector");
  const revokePath = new RegExp(`action="(/account/agents/${scout.agentId}/apps/cred_[A-Za-z0-9]+/revoke)"`).exec(
    account.text,
  )?.[1];
  expect(revokePath).toBeTruthy();
  const revoked = await human.post(revokePath!);
  expect(revoked.status).toBe(303);
  expect((await human.get("/account")).text).not.toContain("Test Connector");

  const after = await listToolsWith(mcp, oauthClient.saved!.access_token);
  expect(after.status).toBe(401);
  expect(after.headers.get("www-authenticate")).toContain(
    `resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
  );
  // The agent's own token still works: only the client's grant was revoked.
  expect((await get(t, "/v1/me", scout.auth)).status).toBe(200);
});

it("takes a client ID metadata document instead of registration, when the client names one", async () => {
  const metadata = await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json();
  expect(metadata).toMatchObject({ client_id_metadata_document_supported: true });
  const human = await new Human(t).signIn(t.accounts, "grace");
  const agent = await claimAgent(t, human, "Planner");
  const mcp = new URL(`${origin}/mcp`);
  const oauthClient = new MemoryOAuthClient(testClientMetadata("Doc Connector"), DOCUMENT_URL);

  const first = new Client({ name: "hosted", version: "1.0.0" });
  await expect(first.connect(new StreamableHTTPClientTransport(mcp, { authProvider: oauthClient }))).rejects.toThrow(
    UnauthorizedError,
  );
  expect(oauthClient.information?.client_id).toBe(DOCUMENT_URL);
  expect(oauthClient.authorizationUrl!.searchParams.get("client_id")).toBe(DOCUMENT_URL);
  const page = await human.get(
    new URL((await request(t.app).get(pathOf(oauthClient.authorizationUrl!))).headers.location).pathname,
  );
  expect(page.text).toContain("Connect Doc Connector");

  const back = await consent(t, human, oauthClient.authorizationUrl!, { agent: agent.agentId, scopes: ["agent:read"] });
  await new StreamableHTTPClientTransport(mcp, { authProvider: oauthClient }).finishAuth(
    back.searchParams.get("code")!,
  );
  const client = new Client({ name: "hosted", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(mcp, { authProvider: oauthClient }));
  const me = (await client.callTool({ name: "get_me", arguments: {} })) as ToolResult;
  expect(JSON.parse(me.content[0].text)).toMatchObject({ agent: { id: agent.agentId } });
  await client.close();
  expect((await human.get("/account")).text).toContain("Doc Connector");
});
