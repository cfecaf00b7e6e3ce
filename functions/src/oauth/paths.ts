/**
 * The authorization server's addresses (docs/mcp.md#authorization), in a module of their own so
 * that the app and the local server route by path without loading the MCP SDK (lazy.ts).
 * The SDK's router serves its endpoints at the root of the origin.
 */
const OAUTH_PATHS = new Set(["/authorize", "/token", "/register", "/revoke"]);
const WELL_KNOWN = ["/.well-known/oauth-authorization-server", "/.well-known/oauth-protected-resource"];

export const isOAuthPath = (path: string): boolean =>
  OAUTH_PATHS.has(path) || WELL_KNOWN.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

/** The protected resource: `/mcp` of this origin (RFC 8707 resource indicator). */
export const mcpResource = (baseUrl: string): string => `${baseUrl}/mcp`;

/** Where `/mcp`'s protected resource metadata is (RFC 9728), named in each 401 of `/mcp`. */
export const resourceMetadataUrl = (baseUrl: string): string => `${baseUrl}/.well-known/oauth-protected-resource/mcp`;

/** The consent page of one authorization request (pages/humans/consent.ts). */
export const consentPath = (requestId: string): string => `/account/authorize/${requestId}`;
