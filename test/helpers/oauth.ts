/**
 * OAuth for /mcp in tests: an in-memory client (the SDK's `OAuthClientProvider`), PKCE, and the
 * human's consent driven over HTTP as a browser would (the `Human` of accounts.ts, signed in).
 */
import { createHash, randomBytes } from "node:crypto";
import request from "supertest";
import { expect } from "vitest";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { TestApp } from "./app.js";
import type { Human } from "./accounts.js";

export const REDIRECT_URI = "http://127.0.0.1:8976/callback";

/** A public client of the SDK that keeps everything in memory and records where it was sent to authorize. */
export class MemoryOAuthClient implements OAuthClientProvider {
  information: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  authorizationUrl: URL | null = null;

  constructor(
    readonly clientMetadata: OAuthClientMetadata = testClientMetadata(),
    /** The URL of its client ID metadata document, for a server that takes one instead of registration. */
    readonly clientMetadataUrl?: string,
  ) {}

  get redirectUrl(): string {
    return this.clientMetadata.redirect_uris[0];
  }
  state(): string {
    return "state-123";
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

export const testClientMetadata = (name = "Test Connector"): OAuthClientMetadata => ({
  client_name: name,
  redirect_uris: [REDIRECT_URI],
  grant_types: ["authorization_code", "refresh_token"],
  response_types: ["code"],
  token_endpoint_auth_method: "none",
});

/** A PKCE verifier and its S256 challenge. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** What the human picks on the consent page; scopes and calendars as the form's ticked boxes. */
export interface ConsentChoice {
  agent: string;
  newAgentName?: string;
  scopes: string[];
  calendars?: string[];
}

/**
 * Follows an authorization URL as a browser does: `/authorize` sends it to the consent page,
 * which the signed-in human answers; returns the redirect to the client with its parameters.
 */
export async function consent(
  t: Pick<TestApp, "app">,
  human: Human,
  authorizationUrl: URL | string,
  choice: ConsentChoice | "deny",
): Promise<URL> {
  const url = new URL(authorizationUrl);
  const authorize = await request(t.app).get(`${url.pathname}${url.search}`);
  expect(authorize.status, authorize.text).toBe(302);
  const consentPage = new URL(authorize.headers.location).pathname;
  const page = await human.get(consentPage);
  expect(page.status, page.text).toBe(200);
  const fields = new URLSearchParams({ csrf: human.csrf ?? "" });
  if (choice === "deny") fields.append("decision", "deny");
  else {
    fields.append("decision", "allow");
    fields.append("agent", choice.agent);
    if (choice.newAgentName) fields.append("new_agent_name", choice.newAgentName);
    for (const scope of choice.scopes) fields.append("scope", scope);
    for (const calendar of choice.calendars ?? []) fields.append("calendar", calendar);
  }
  const answer = await request(t.app)
    .post(consentPage)
    .set("Cookie", human.cookie ?? "")
    .type("form")
    .send(fields.toString());
  expect(answer.status, answer.text).toBe(303);
  return new URL(answer.headers.location);
}

/** `tools/list` at an MCP endpoint with an OAuth access token: the answer, 401 once the grant is revoked. */
export const listToolsWith = (mcpUrl: string | URL, accessToken: string): Promise<Response> =>
  fetch(mcpUrl, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${accessToken}`,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
