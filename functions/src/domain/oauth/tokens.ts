/**
 * The token steps of the authorization server (docs/mcp.md#authorization), each in the
 * transaction its caller hands it. An authorization code becomes a grant: one credential of the
 * chosen agent (`createCredential`, counted in its credential quota), living as long as the
 * refresh token, whose token is the access token, good for an hour and replaced on each
 * refresh, and a refresh token, good once. Revoking the grant revokes the
 * credential, so its access token is 401 once the revocation commits.
 */
import type { Transaction } from "../../storage/port.js";
import { createCredential } from "../commands/identity.js";
import type { CommandDeps } from "../deps.js";
import { newAgentToken, randomString, sha256 } from "../ids.js";
import { paths } from "../paths.js";
import type { CredentialIssuer } from "../policy.js";
import { releaseQuota, writeCounter } from "../quotas.js";
import type { AgentRecord, CredentialRecord, TokenRecord } from "../records.js";
import { SCOPES, type Scope } from "../types.js";
import { later, OAUTH_LIFETIMES } from "./lifetimes.js";
import type { OAuthGrantRecord, OAuthRefreshRecord } from "./records.js";

/** What the token endpoint answers (RFC 6749 section 5.1). */
export interface IssuedTokens {
  access_token: string;
  token_type: "bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/** A refusal the token endpoint names with its OAuth error code. */
export interface TokenRefusal {
  refused: "invalid_grant" | "invalid_scope";
  reason: string;
}

export type TokenOutcome = { tokens: IssuedTokens } | TokenRefusal;

const refuse = (reason: string, refused: TokenRefusal["refused"] = "invalid_grant"): TokenRefusal => ({
  refused,
  reason,
});

/** The PKCE challenge of a live code of this client, or null (the token endpoint then refuses it). */
export async function challengeOf(
  tx: Pick<Transaction, "get">,
  now: Date,
  clientId: string,
  code: string,
): Promise<string | null> {
  const doc = await tx.get(paths.oauthCode(sha256(code)));
  if (!doc || doc.data.client_id !== clientId || doc.data.expires_at <= now.toISOString()) return null;
  return doc.data.code_challenge;
}

export interface CodeExchange {
  clientId: string;
  clientName: string;
  code: string;
  /** As the client sends it; when sent, it must be the authorization request's. */
  redirectUri: string | undefined;
}

/**
 * A code (its PKCE verifier already checked) for a grant: a credential of the agent with the
 * consented scopes and calendars, its access token and a refresh token. A code is good once; a
 * second exchange revokes the grant the first one made (RFC 6749 section 4.1.2).
 */
export async function exchangeCode(tx: Transaction, deps: CommandDeps, exchange: CodeExchange): Promise<TokenOutcome> {
  const now = deps.clock();
  const nowIso = now.toISOString();
  const code = await tx.get(paths.oauthCode(sha256(exchange.code)));
  if (!code || code.data.client_id !== exchange.clientId) return refuse("the authorization code is not this client's");
  if (code.data.used_at) {
    if (code.data.credential_id) await revokeGrantIn(tx, deps, code.data.agent_id, code.data.credential_id);
    return refuse("the authorization code was used already; its tokens are revoked");
  }
  if (code.data.expires_at <= nowIso) return refuse("the authorization code has expired; authorize again");
  if (exchange.redirectUri !== undefined && exchange.redirectUri !== code.data.redirect_uri)
    return refuse("redirect_uri is not the one of the authorization request");
  const agent = await tx.get(paths.agent(code.data.agent_id));
  if (!agent || agent.data.owner_user_id !== code.data.user_id)
    return refuse("the agent is no longer the account's; authorize again");
  const client = await tx.get(paths.oauthClient(sha256(exchange.clientId)));

  // The person issues it in the agent's name. It lives as long as its refresh token, each refresh
  // renewing it; its token, the access token, for an hour.
  const { scopes, calendars } = code.data;
  const refresh = randomString(43);
  const terms = refreshTerms(now);
  const issued = await createCredential(tx, deps, inAgentsName(agent.data), {
    label: `OAuth: ${exchange.clientName}`.slice(0, 100),
    scopes,
    calendars,
    expires_at: terms.expires_at,
    token_expires_at: later(now, OAUTH_LIFETIMES.accessMs).toISOString(),
  });
  const credentialId = issued.credential.id;
  if (client) tx.update(client.path, { purge_at: later(now, OAUTH_LIFETIMES.clientUnusedMs) });
  const grant: OAuthGrantRecord = {
    credential_id: credentialId,
    agent_id: agent.id,
    user_id: code.data.user_id,
    client_id: exchange.clientId,
    client_name: exchange.clientName,
    scopes,
    calendars,
    created_at: nowIso,
    refreshed_at: nowIso,
    access_token_hash: issued.credential.token_hash,
    refresh_token_hash: sha256(refresh),
    revoked_at: null,
  };
  tx.create(paths.oauthGrant(agent.id, credentialId), grant);
  tx.create(paths.oauthRefreshToken(sha256(refresh)), terms.recordFor(grant));
  tx.update(code.path, { used_at: nowIso, credential_id: credentialId });
  return { tokens: tokensOf(issued.token, refresh, scopes) };
}

/** The agent's human, issuing in its name: every scope, every calendar, no expiry, unless chosen. */
const inAgentsName = (agent: AgentRecord): CredentialIssuer => ({
  agentId: agent.id,
  agentName: agent.name,
  scopes: SCOPES,
  calendars: null,
  expiresAt: null,
});

export interface RefreshExchange {
  clientId: string;
  refreshToken: string;
  /** A narrower set of the grant's scopes for the new access token; absent: the grant's. */
  scopes: string[] | undefined;
}

/**
 * A refresh token for a new access token and a new refresh token; the old ones stop working in
 * the same transaction. A refresh token used twice was copied: the grant is revoked.
 */
export async function refreshGrant(
  tx: Transaction,
  deps: Pick<CommandDeps, "clock">,
  exchange: RefreshExchange,
): Promise<TokenOutcome> {
  const now = deps.clock();
  const nowIso = now.toISOString();
  const lookup = await tx.get(paths.oauthRefreshToken(sha256(exchange.refreshToken)));
  if (!lookup || lookup.data.client_id !== exchange.clientId) return refuse("the refresh token is not this client's");
  const { agent_id: agentId, credential_id: credentialId } = lookup.data;
  if (lookup.data.used_at) {
    await revokeGrantIn(tx, deps, agentId, credentialId);
    return refuse("the refresh token was used already; the grant is revoked, authorize again");
  }
  if (lookup.data.expires_at <= nowIso) return refuse("the refresh token has expired; authorize again");
  const [grant, credential, agent] = await Promise.all([
    tx.get(paths.oauthGrant(agentId, credentialId)),
    tx.get(paths.credential(agentId, credentialId)),
    tx.get(paths.agent(agentId)),
  ]);
  if (!grant || grant.data.revoked_at || !credential || credential.data.revoked_at || !agent)
    return refuse("the grant was revoked; authorize again");
  const scopes = narrowed(grant.data.scopes, exchange.scopes);
  if (!scopes) return refuse("scope asks for more than the grant allows", "invalid_scope");
  const client = await tx.get(paths.oauthClient(sha256(exchange.clientId)));
  if (client) tx.update(client.path, { purge_at: later(now, OAUTH_LIFETIMES.clientUnusedMs) });

  const access = newAgentToken();
  const refresh = randomString(43);
  const accessExpires = later(now, OAUTH_LIFETIMES.accessMs).toISOString();
  tx.delete(paths.token(grant.data.access_token_hash));
  tx.create(paths.token(sha256(access)), accessLookup(agent.data, credential.data, scopes, accessExpires));
  const terms = refreshTerms(now);
  tx.update(credential.path, { token_hash: sha256(access), expires_at: terms.expires_at });
  tx.update(lookup.path, { used_at: nowIso });
  const rotated = { refreshed_at: nowIso, access_token_hash: sha256(access), refresh_token_hash: sha256(refresh) };
  tx.update(grant.path, rotated);
  tx.create(paths.oauthRefreshToken(sha256(refresh)), terms.recordFor({ ...grant.data, ...rotated }));
  return { tokens: tokensOf(access, refresh, scopes) };
}

/** RFC 7009: an access or refresh token of this client revokes its grant; anything else is ignored. */
export async function revokeByToken(
  tx: Transaction,
  deps: Pick<CommandDeps, "clock">,
  clientId: string,
  token: string,
): Promise<void> {
  const [refresh, access] = await Promise.all([
    tx.get(paths.oauthRefreshToken(sha256(token))),
    tx.get(paths.token(sha256(token))),
  ]);
  const held =
    refresh?.data ?? (access ? { agent_id: access.data.agent_id, credential_id: access.data.credential_id } : null);
  if (!held) return;
  const grant = await tx.get(paths.oauthGrant(held.agent_id, held.credential_id));
  if (grant && grant.data.client_id === clientId) await revokeGrantIn(tx, deps, held.agent_id, held.credential_id);
}

/**
 * Revokes a grant: the grant, its credential (given back to the agent's quota) and its access
 * token. Its refresh token is refused from then on, as it finds the grant revoked. Null when
 * there is no such live grant.
 */
export async function revokeGrantIn(
  tx: Transaction,
  deps: Pick<CommandDeps, "clock">,
  agentId: string,
  credentialId: string,
): Promise<OAuthGrantRecord | null> {
  const nowIso = deps.clock().toISOString();
  const [grant, credential, agent] = await Promise.all([
    tx.get(paths.oauthGrant(agentId, credentialId)),
    tx.get(paths.credential(agentId, credentialId)),
    tx.get(paths.agent(agentId)),
  ]);
  if (!grant || grant.data.revoked_at) return null;
  tx.update(grant.path, { revoked_at: nowIso });
  if (credential && !credential.data.revoked_at) {
    tx.update(credential.path, { revoked_at: nowIso });
    tx.update(paths.token(grant.data.access_token_hash), { revoked_at: nowIso });
    if (agent) writeCounter(tx, agent.path, releaseQuota("credentials_per_agent", agent));
  }
  return { ...grant.data, revoked_at: nowIso };
}

/** The scopes asked for, when the grant holds them all; the grant's when none are asked for; else null. */
function narrowed(granted: Scope[], asked: string[] | undefined): Scope[] | null {
  if (!asked || asked.length === 0) return granted;
  return asked.every((scope) => (granted as string[]).includes(scope)) ? (asked as Scope[]) : null;
}

/** The lookup of a refreshed access token: its credential's, with the scopes the refresh asked for. */
const accessLookup = (
  agent: { id: string; name: string },
  credential: CredentialRecord,
  scopes: Scope[],
  expiresAt: string,
): TokenRecord => ({
  agent_id: agent.id,
  agent_name: agent.name,
  credential_id: credential.id,
  scopes,
  expires_at: expiresAt,
  revoked_at: null,
  calendars: credential.calendars ?? null,
});

/** A refresh token issued now, for the grant it is handed: when it expires, the grant's credential does too. */
function refreshTerms(now: Date) {
  const expires = later(now, OAUTH_LIFETIMES.refreshMs);
  return {
    expires_at: expires.toISOString(),
    recordFor: (grant: OAuthGrantRecord): OAuthRefreshRecord => ({
      agent_id: grant.agent_id,
      credential_id: grant.credential_id,
      client_id: grant.client_id,
      expires_at: expires.toISOString(),
      used_at: null,
      purge_at: expires,
    }),
  };
}

const tokensOf = (access: string, refresh: string, scopes: Scope[]): IssuedTokens => ({
  access_token: access,
  token_type: "bearer",
  expires_in: OAUTH_LIFETIMES.accessMs / 1000,
  refresh_token: refresh,
  scope: scopes.join(" "),
});
