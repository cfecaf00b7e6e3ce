/**
 * Almanac as its own OAuth 2.1 authorization server for `/mcp` (docs/mcp.md#authorization), on
 * the MCP SDK's server-side auth: the SDK's handlers parse and check each request (client,
 * redirect URI, PKCE S256), this provider keeps the state through the storage port and the
 * domain's steps (domain/oauth/), each in one transaction.
 */
import type { Response } from "express";
import type { OAuthRegisteredClientsStore } from "@modelcontextprotocol/sdk/server/auth/clients.js";
import {
  InvalidGrantError,
  InvalidScopeError,
  InvalidTargetError,
  InvalidTokenError,
} from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { AuthorizationParams, OAuthServerProvider } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type {
  OAuthClientInformationFull,
  OAuthTokenRevocationRequest,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { registerClient, readClient } from "../domain/oauth/clients.js";
import { startAuthorization } from "../domain/oauth/consent.js";
import { challengeOf, exchangeCode, refreshGrant, revokeByToken, type TokenOutcome } from "../domain/oauth/tokens.js";
import { DomainError } from "../domain/errors.js";
import { SCOPES, type Scope } from "../domain/types.js";
import { authenticate } from "../http/auth.js";
import type { HttpDeps } from "../http/deps.js";
import { statusOf } from "../http/errors.js";
import { createDocumentFetcher } from "../outbound/fetch-document.js";
import { documentClients, isDocumentClientId, publicClient } from "./client-metadata.js";
import { consentPath, mcpResource } from "./paths.js";

/** What a client gets when it names no scope: everything but managing grants. */
const DEFAULT_SCOPES: Scope[] = ["agent:read", "calendar:read", "calendar:write"];
const MAX_TEXT = 2000;

export class AlmanacOAuthProvider implements OAuthServerProvider {
  readonly clientsStore: OAuthRegisteredClientsStore;

  constructor(private readonly deps: HttpDeps) {
    const fromDocument = documentClients(
      deps.fetchDocument ?? createDocumentFetcher({ allowLoopback: deps.config.webhooks.allowLoopback }),
    );
    this.clientsStore = {
      getClient: async (clientId) => {
        if (isDocumentClientId(clientId)) return fromDocument(clientId);
        return clientId.length <= MAX_TEXT ? ((await readClient(deps.store, clientId)) ?? undefined) : undefined;
      },
      registerClient: async (client) => {
        const metadata = publicClient(client as OAuthClientInformationFull);
        await deps.store.runTransaction(async (tx) => registerClient(tx, deps, metadata));
        return metadata;
      },
    };
  }

  /** Checks the request's resource and scopes, keeps it, and sends the browser to the consent page. */
  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    this.requireMcpResource(params.resource);
    const scopes = requestedScopes(params.scopes);
    const requestId = await this.deps.store.runTransaction(async (tx) =>
      startAuthorization(tx, this.deps, {
        clientId: client.client_id,
        clientName: (client.client_name ?? client.client_id).slice(0, 100),
        redirectUri: params.redirectUri,
        codeChallenge: params.codeChallenge,
        scopes,
        state: params.state ?? null,
      }),
    );
    res.redirect(302, `${this.deps.baseUrl}${consentPath(requestId)}`);
  }

  async challengeForAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<string> {
    const challenge = await challengeOf(this.deps.store, this.deps.clock(), client.client_id, code);
    if (challenge === null)
      throw new InvalidGrantError("the authorization code is unknown, expired or not this client's");
    return challenge;
  }

  async exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    code: string,
    _codeVerifier?: string,
    redirectUri?: string,
    resource?: URL,
  ): Promise<OAuthTokens> {
    this.requireMcpResource(resource);
    const clientName = client.client_name ?? client.client_id;
    return tokenStep(() =>
      this.deps.store.runTransaction((tx) =>
        exchangeCode(tx, this.deps, { clientId: client.client_id, clientName, code, redirectUri }),
      ),
    );
  }

  async exchangeRefreshToken(
    client: OAuthClientInformationFull,
    refreshToken: string,
    scopes?: string[],
    resource?: URL,
  ): Promise<OAuthTokens> {
    this.requireMcpResource(resource);
    return tokenStep(() =>
      this.deps.store.runTransaction((tx) =>
        refreshGrant(tx, this.deps, { clientId: client.client_id, refreshToken, scopes }),
      ),
    );
  }

  /** Any agent token works at `/mcp`: an OAuth client's and one an agent minted itself alike. */
  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const actor = await authenticate(this.deps, `Bearer ${token}`).catch((err: unknown) => {
      // A token refused is 401; the store failing is not the token's fault (the SDK answers 500).
      if (err instanceof DomainError && err.code === "unauthorized") return null;
      throw err;
    });
    if (!actor) throw new InvalidTokenError("the access token is unknown, revoked or expired");
    return {
      token,
      clientId: actor.credentialId,
      scopes: [...actor.scopes],
      expiresAt: this.expiresAt(actor.expiresAt),
      resource: new URL(mcpResource(this.deps.baseUrl)),
    };
  }

  async revokeToken(client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest): Promise<void> {
    await this.deps.store.runTransaction((tx) => revokeByToken(tx, this.deps, client.client_id, request.token));
  }

  /**
   * The SDK requires an expiry and compares it with the system clock; `authenticate` has judged
   * it by the service's clock already, so the SDK is told the time left. A minted token has none.
   */
  private expiresAt(expiresAt: string | null): number {
    if (!expiresAt) return Number.MAX_SAFE_INTEGER;
    return (Date.now() + Date.parse(expiresAt) - this.deps.clock().getTime()) / 1000;
  }

  /** RFC 8707: a client may name only `/mcp` of this origin; naming none means it. */
  private requireMcpResource(resource: URL | undefined): void {
    if (resource && resource.href.replace(/\/$/, "") !== mcpResource(this.deps.baseUrl))
      throw new InvalidTargetError(`this server issues tokens for ${mcpResource(this.deps.baseUrl)} only`);
  }
}

/**
 * A token step in its transaction. A refusal of the domain (the agent's credential quota is full,
 * a consented calendar is no longer the agent's) is the grant's failure, `invalid_grant`, with
 * the domain's reason; anything else stays an error (the SDK answers 500).
 */
async function tokenStep(run: () => Promise<TokenOutcome>): Promise<OAuthTokens> {
  const outcome = await run().catch((err: unknown) => {
    if (err instanceof DomainError && statusOf(err.code) < 500) throw new InvalidGrantError(err.message);
    throw err;
  });
  return tokensOf(outcome);
}

function tokensOf(outcome: TokenOutcome): OAuthTokens {
  if ("tokens" in outcome) return outcome.tokens;
  throw outcome.refused === "invalid_scope"
    ? new InvalidScopeError(outcome.reason)
    : new InvalidGrantError(outcome.reason);
}

function requestedScopes(asked: string[] | undefined): Scope[] {
  const named = (asked ?? []).filter(Boolean);
  if (named.length === 0) return DEFAULT_SCOPES;
  const unknown = named.find((scope) => !(SCOPES as readonly string[]).includes(scope));
  if (unknown !== undefined) throw new InvalidScopeError(`unknown scope; the scopes are ${SCOPES.join(", ")}`);
  return [...new Set(named)] as Scope[];
}
