/**
 * What the authorization server of `/mcp` stores (docs/mcp.md#authorization). Every secret a
 * client holds (authorization code, access token, refresh token) is stored only as its SHA-256;
 * the access token is an agent token (tokens/{sha256}, records.ts TokenRecord) of a credential
 * of the chosen agent, so authenticating it is the one read every token takes.
 */
import type { Scope } from "../types.js";

/** The registered metadata of an OAuth client, as RFC 7591 names it (the fields the service reads). */
export interface OAuthClientMetadata {
  client_id: string;
  client_name?: string;
  client_uri?: string;
  redirect_uris: string[];
  grant_types?: string[];
  response_types?: string[];
  token_endpoint_auth_method?: string;
  scope?: string;
  client_id_issued_at?: number;
}

/** oauth_clients/{sha256(client_id)}: a client registered dynamically (RFC 7591). */
export interface OAuthClientRecord {
  metadata: OAuthClientMetadata;
  created_at: string;
  /** Moved on each authorization and refresh: a client unused this long is forgotten. */
  purge_at: Date;
}

/** oauth_requests/{id}: an authorization request waiting for the human's answer on the consent page. */
export interface OAuthRequestRecord {
  client_id: string;
  /** What the consent page calls the client: its registered or published name, else its id. */
  client_name: string;
  redirect_uri: string;
  code_challenge: string;
  scopes: Scope[];
  state: string | null;
  created_at: string;
  expires_at: string;
  purge_at: Date;
}

/** oauth_codes/{sha256(code)}: an authorization code, good once, for a few minutes. */
export interface OAuthCodeRecord {
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  user_id: string;
  agent_id: string;
  scopes: Scope[];
  /** The only calendars the tokens reach; null: every calendar of the agent. */
  calendars: string[] | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** The grant it was exchanged for: a second exchange of the code revokes that grant. */
  credential_id: string | null;
  purge_at: Date;
}

/**
 * agents/{agentId}/oauth_grants/{credentialId}: what the human allowed one client for one agent,
 * keyed by the credential its access tokens belong to; shown and revoked on the account page.
 */
export interface OAuthGrantRecord {
  credential_id: string;
  agent_id: string;
  user_id: string;
  client_id: string;
  client_name: string;
  scopes: Scope[];
  calendars: string[] | null;
  created_at: string;
  refreshed_at: string;
  /** The live access token and refresh token, each once rotated away replaced. */
  access_token_hash: string;
  refresh_token_hash: string;
  revoked_at: string | null;
}

/** oauth_refresh_tokens/{sha256(token)}: a refresh token, good once: using it rotates it. */
export interface OAuthRefreshRecord {
  agent_id: string;
  credential_id: string;
  client_id: string;
  expires_at: string;
  /** Set when it was exchanged: a second use revokes the grant (the token was copied). */
  used_at: string | null;
  purge_at: Date;
}
