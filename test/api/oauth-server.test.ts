/**
 * The authorization server of /mcp over HTTP: its metadata documents, the tokenless 401 and
 * the tokenless door, and every refusal the specification asks for (wrong PKCE verifier,
 * redirect_uri mismatch, unknown client, resource mismatch, a refresh token used twice).
 */
import { describe, expect, it } from "vitest";
import { OAuthMetadataSchema, OAuthProtectedResourceMetadataSchema } from "@modelcontextprotocol/sdk/shared/auth.js";
import { BASE_URL } from "../helpers/app.js";
import { appPerTest } from "../helpers/app.js";
import { claimAgent, createAccountsTestApp, fakeAccountAuth, Human } from "../helpers/accounts.js";
import { consent, pkce, REDIRECT_URI, testClientMetadata } from "../helpers/oauth.js";
import { createDocumentFetcher } from "../../functions/src/outbound/fetch-document.js";

const accounts = fakeAccountAuth();
const t = appPerTest(() => createAccountsTestApp(accounts));
const MCP = `${BASE_URL}/mcp`;
const SCOPES = ["agent:read", "calendar:read", "calendar:write"];

async function register(): Promise<string> {
  const res = await t.http().post("/register").send(testClientMetadata());
  expect(res.status, res.text).toBe(201);
  expect(res.body.client_secret).toBeUndefined();
  expect(res.body.token_endpoint_auth_method).toBe("none");
  return res.body.client_id as string;
}

const authorizeUrl = (clientId: string, challenge: string, extra: Record<string, string> = {}) =>
  `${BASE_URL}/authorize?${new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    code_challenge: challenge,
    code_challenge_method: "S256",
    scope: SCOPES.join(" "),
    state: "s1",
    resource: MCP,
    ...extra,
  }).toString()}`;

const pathOf = (url: string): string => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

/** A registered client, a signed-in person with a claimed agent, and a code the person allowed. */
async function allowedCode() {
  const clientId = await register();
  const human = await new Human(t).signIn(accounts, "ada");
  const agent = await claimAgent(t, human, "Scout");
  const { verifier, challenge } = pkce();
  const back = await consent(t, human, authorizeUrl(clientId, challenge), { agent: agent.agentId, scopes: SCOPES });
  return { clientId, verifier, code: back.searchParams.get("code")!, agent, human };
}

const token = (fields: Record<string, string>) =>
  t.http().post("/token").type("form").send(new URLSearchParams(fields).toString());

const refreshWith = (clientId: string, refreshToken: string) =>
  token({ grant_type: "refresh_token", client_id: clientId, refresh_token: refreshToken, resource: MCP });

const me = (accessToken: string) => t.http().get("/v1/me").set("Authorization", `Bearer ${accessToken}`);

/** The code for tokens at /token, with the verifier given and any other fields. */
const exchange = (clientId: string, code: string, verifier: string, extra: Record<string, string> = {}) =>
  token({ grant_type: "authorization_code", client_id: clientId, code, code_verifier: verifier, ...extra });

describe("metadata and the doors of /mcp", () => {
  it("serves protected resource metadata for /mcp and authorization server metadata, each valid", async () => {
    const resource = await t.http().get("/.well-known/oauth-protected-resource/mcp");
    expect(resource.status).toBe(200);
    const prm = OAuthProtectedResourceMetadataSchema.parse(resource.body);
    expect(prm.resource).toBe(MCP);
    expect(prm.authorization_servers).toEqual([`${BASE_URL}/`]);
    expect(prm.scopes_supported).toEqual(["agent:read", "calendar:read", "calendar:write", "grants:manage"]);

    const server = await t.http().get("/.well-known/oauth-authorization-server");
    expect(server.status).toBe(200);
    const as = OAuthMetadataSchema.parse(server.body);
    expect(as).toMatchObject({
      issuer: `${BASE_URL}/`,
      authorization_endpoint: `${BASE_URL}/authorize`,
      token_endpoint: `${BASE_URL}/token`,
      registration_endpoint: `${BASE_URL}/register`,
      revocation_endpoint: `${BASE_URL}/revoke`,
      response_types_supported: ["code"],
      code_challenge_methods_supported: ["S256"],
      grant_types_supported: ["authorization_code", "refresh_token"],
    });
  });

  it("answers /mcp without a token 401 naming the resource metadata; /mcp/public needs none", async () => {
    const message = { jsonrpc: "2.0", id: 1, method: "tools/list" };
    for (const method of ["post", "get", "delete"] as const) {
      const res = await t.http()[method]("/mcp").send(message);
      expect(res.status).toBe(401);
      expect(res.headers["www-authenticate"]).toBe(
        `Bearer resource_metadata="${BASE_URL}/.well-known/oauth-protected-resource/mcp"`,
      );
      expect(res.body.error.code).toBe("unauthorized");
    }
    const bad = await t.http().post("/mcp").set("Authorization", "Bearer svc_agent_nope").send(message);
    expect(bad.status).toBe(401);
    expect(bad.headers["www-authenticate"]).toBe(
      `Bearer error="invalid_token", error_description="the access token is unknown, revoked or expired", ` +
        `resource_metadata="${BASE_URL}/.well-known/oauth-protected-resource/mcp"`,
    );
    expect(bad.body.error).toMatchObject({ code: "unauthorized", request_id: expect.any(String) });
    const open = await t.http().post("/mcp/public").set("Accept", "application/json, text/event-stream").send(message);
    expect(open.status).toBe(200);
    expect(open.body.result.tools.map((tool: { name: string }) => tool.name)).toContain("mint_agent");
  });
});

describe("client ID metadata documents", () => {
  const url = "https://connector.example/oauth/client.json";

  it("refuses a document that names another client id, or that cannot be read", async () => {
    const served: Record<string, unknown> = {
      ...testClientMetadata("Impostor"),
      client_id: "https://other.example/c.json",
    };
    t.deps.fetchDocument = async (asked) =>
      asked === url ? { ok: true, status: 200, text: JSON.stringify(served) } : { ok: false, error: "refused" };
    for (const clientId of [url, "https://down.example/oauth/client.json"]) {
      const res = await t.http().get(pathOf(authorizeUrl(clientId, pkce().challenge)));
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("invalid_client");
    }
  });

  it("reads documents under the webhook address policy: https only, no private or loopback address", async () => {
    const fetchDocument = createDocumentFetcher({ allowLoopback: false, timeoutMs: 1_000 });
    for (const address of ["https://127.0.0.1/client.json", "https://10.1.2.3/client.json", "https://[::1]/c.json"]) {
      const fetched = await fetchDocument(address);
      expect(fetched.ok, address).toBe(false);
      expect(!fetched.ok && fetched.error, address).toMatch(/^refused: /);
    }
    expect(await fetchDocument("http://connector.example/client.json")).toEqual({
      ok: false,
      error: "refused: not an https URL",
    });
  });
});

describe("refusals", () => {
  it("refuses a consent without CSRF or session, and calendars of another agent", async () => {
    const clientId = await register();
    const human = await new Human(t).signIn(accounts, "ada");
    const scout = await claimAgent(t, human, "Scout");
    const other = await claimAgent(t, human, "Other");
    const asked = await t.http().get(pathOf(authorizeUrl(clientId, pkce().challenge)));
    const consentPage = new URL(asked.headers.location).pathname;
    const page = await human.get(consentPage);
    expect(page.text).toContain("Test Connector");
    const allow = { decision: "allow", agent: scout.agentId, scope: "calendar:read" };
    expect((await human.post(consentPage, { ...allow, csrf: "0".repeat(64) })).status).toBe(403);
    expect((await new Human(t).post(consentPage, allow)).status).toBe(403);
    const mixed = await human.post(consentPage, { ...allow, calendar: other.calendarId });
    expect(mixed.status).toBe(400);
    expect(mixed.text).toContain("Tick only calendars of Scout");
  });

  it("refuses a wrong PKCE verifier, and a code used twice revokes what it gave", async () => {
    const { clientId, verifier, code } = await allowedCode();
    const wrong = await exchange(clientId, code, pkce().verifier);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe("invalid_grant");
    const good = await exchange(clientId, code, verifier, { redirect_uri: REDIRECT_URI, resource: MCP });
    expect(good.status, good.text).toBe(200);
    expect(good.body).toMatchObject({ token_type: "bearer", expires_in: 3600, scope: SCOPES.join(" ") });
    const again = await exchange(clientId, code, verifier);
    expect(again.body.error).toBe("invalid_grant");
    const me = await t.http().get("/v1/me").set("Authorization", `Bearer ${good.body.access_token}`);
    expect(me.status).toBe(401);
  });

  it("refuses a redirect_uri the client did not register, at /authorize and at /token", async () => {
    const clientId = await register();
    const elsewhere = await t
      .http()
      .get(pathOf(authorizeUrl(clientId, pkce().challenge, { redirect_uri: "https://attacker.example/callback" })));
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error).toBe("invalid_request");
    expect(elsewhere.headers.location).toBeUndefined();

    const { clientId: other, verifier, code } = await allowedCode();
    const mismatch = await exchange(other, code, verifier, { redirect_uri: "http://127.0.0.1:8976/elsewhere" });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error).toBe("invalid_grant");
  });

  it("refuses an unknown client at /authorize and at /token, and another client's code", async () => {
    const unknown = await t.http().get(pathOf(authorizeUrl("no-such-client", pkce().challenge)));
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe("invalid_client");
    const { verifier, code } = await allowedCode();
    const stranger = await exchange("no-such-client", code, verifier);
    expect(stranger.body.error).toBe("invalid_client");
    const otherClient = await register();
    const thief = await exchange(otherClient, code, verifier);
    expect(thief.status).toBe(400);
    expect(thief.body.error).toBe("invalid_grant");
  });

  it("refuses a resource other than /mcp, at /authorize and at /token", async () => {
    const clientId = await register();
    const asked = await t
      .http()
      .get(pathOf(authorizeUrl(clientId, pkce().challenge, { resource: "https://other.example/mcp" })));
    expect(asked.status).toBe(302);
    const back = new URL(asked.headers.location);
    expect(back.searchParams.get("error")).toBe("invalid_target");
    expect(back.searchParams.get("state")).toBe("s1");

    const { clientId: other, verifier, code } = await allowedCode();
    const res = await exchange(other, code, verifier, { resource: "https://almanac.test/v1" });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_target");
  });

  it("lets an access token lapse after its hour while its credential lives on with the refresh token", async () => {
    const { clientId, verifier, code, agent, human } = await allowedCode();
    const first = await exchange(clientId, code, verifier);
    const credentials = await t.http().get("/v1/agent-credentials").set(agent.auth);
    const oauth = (credentials.body.credentials as Array<{ id: string; label: string; expires_at: string }>).find(
      (credential) => credential.label === "OAuth: Test Connector",
    );
    expect(oauth?.expires_at).toBe("2026-12-22T10:00:00.000Z");
    t.clock.advance(61 * 60 * 1000);
    expect((await me(first.body.access_token)).status).toBe(401);
    const mcp = await t.http().post("/mcp").set("Authorization", `Bearer ${first.body.access_token}`).send({});
    expect(mcp.headers["www-authenticate"]).toContain('error="invalid_token"');
    const second = await refreshWith(clientId, first.body.refresh_token);
    expect(second.status, second.text).toBe(200);
    expect((await me(second.body.access_token)).status).toBe(200);

    // The agent may revoke it as any of its credentials: the grant goes with it.
    expect((await t.http().delete(`/v1/agent-credentials/${oauth!.id}`).set(agent.auth)).status).toBe(200);
    expect((await me(second.body.access_token)).status).toBe(401);
    expect((await refreshWith(clientId, second.body.refresh_token)).body.error).toBe("invalid_grant");
    expect((await human.get("/account")).text).not.toContain("Test Connector");
  });

  it("rotates refresh tokens: the old one is refused after use, and its reuse revokes the grant", async () => {
    const { clientId, verifier, code } = await allowedCode();
    const first = await exchange(clientId, code, verifier);
    const refresh = (refreshToken: string) => refreshWith(clientId, refreshToken);
    const second = await refresh(first.body.refresh_token);
    expect(second.status, second.text).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    const bearer = (tokens: { access_token: string }) => ({ Authorization: `Bearer ${tokens.access_token}` });
    expect((await t.http().get("/v1/me").set(bearer(first.body))).status).toBe(401);
    expect((await t.http().get("/v1/me").set(bearer(second.body))).status).toBe(200);

    const reused = await refresh(first.body.refresh_token);
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe("invalid_grant");
    expect((await t.http().get("/v1/me").set(bearer(second.body))).status).toBe(401);
    expect((await refresh(second.body.refresh_token)).body.error).toBe("invalid_grant");
  });

  it("revokes a grant at /revoke, and every grant of an agent revoked on the account page", async () => {
    const { clientId, verifier, code, agent, human } = await allowedCode();
    const first = await exchange(clientId, code, verifier);
    const revoked = await t
      .http()
      .post("/revoke")
      .type("form")
      .send(new URLSearchParams({ client_id: clientId, token: first.body.access_token }).toString());
    expect(revoked.status).toBe(200);
    expect((await me(first.body.access_token)).status).toBe(401);
    expect((await refreshWith(clientId, first.body.refresh_token)).body.error).toBe("invalid_grant");

    const { verifier: secondVerifier, challenge } = pkce();
    const back = await consent(t, human, authorizeUrl(clientId, challenge), { agent: agent.agentId, scopes: SCOPES });
    const second = await exchange(clientId, back.searchParams.get("code")!, secondVerifier);
    expect(second.status, second.text).toBe(200);
    expect((await human.get("/account")).text).toContain("Test Connector");
    expect((await human.post(`/account/agents/${agent.agentId}/revoke`)).status).toBe(303);
    expect((await human.get("/account")).text).not.toContain("Test Connector");
    expect((await me(second.body.access_token)).status).toBe(401);
    expect((await refreshWith(clientId, second.body.refresh_token)).body.error).toBe("invalid_grant");
  });

  it("a denied request sends the client access_denied; an answered one cannot be answered again; no framing", async () => {
    const clientId = await register();
    const human = await new Human(t).signIn(accounts, "ada");
    const back = await consent(t, human, authorizeUrl(clientId, pkce().challenge), "deny");
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("state")).toBe("s1");
    expect(back.searchParams.get("code")).toBeNull();

    const asked = await t.http().get(pathOf(authorizeUrl(clientId, pkce().challenge)));
    const consentPage = new URL(asked.headers.location).pathname;
    const page = await human.get(consentPage);
    expect(page.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(page.headers["content-security-policy"]).toContain("form-action 'self' http://127.0.0.1:8976");
    const agent = await claimAgent(t, human, "Scout");
    const allow = { decision: "allow", agent: agent.agentId, scope: "calendar:read" };
    expect((await human.post(consentPage, allow)).status).toBe(303);
    expect((await human.post(consentPage, allow)).status).toBe(404);
    expect((await human.get(consentPage)).status).toBe(404);
  });
});
