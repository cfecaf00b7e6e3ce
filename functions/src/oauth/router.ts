/**
 * The authorization server's endpoints, from the MCP SDK's `mcpAuthRouter`: metadata (RFC 8414
 * and RFC 9728), `/authorize`, `/token`, `/register` (RFC 7591) and `/revoke` (RFC 7009), each
 * with the SDK's rate limit per client address. Loaded on the first request to one of them
 * (oauth/mount.ts).
 */
import express, { type RequestHandler } from "express";
import { metadataHandler } from "@modelcontextprotocol/sdk/server/auth/handlers/metadata.js";
import { createOAuthMetadata, mcpAuthRouter } from "@modelcontextprotocol/sdk/server/auth/router.js";
import { SCOPES } from "../domain/types.js";
import type { HttpDeps } from "../http/deps.js";
import { mcpResource } from "./paths.js";
import { AlmanacOAuthProvider } from "./provider.js";

export function oauthRouter(deps: HttpDeps): RequestHandler {
  const options = {
    provider: new AlmanacOAuthProvider(deps),
    issuerUrl: new URL(deps.baseUrl),
    resourceServerUrl: new URL(mcpResource(deps.baseUrl)),
    serviceDocumentationUrl: new URL(`${deps.baseUrl}/docs/mcp.md`),
    scopesSupported: [...SCOPES],
    resourceName: "Almanac calendars",
    // Client secrets are never issued (provider.ts), so none expires.
    clientRegistrationOptions: { clientSecretExpirySeconds: 0 },
  };
  const router = express.Router();
  // The SDK's metadata, and that a client's id may be the URL of its metadata document (client-metadata.ts).
  const metadata = { ...createOAuthMetadata(options), client_id_metadata_document_supported: true };
  router.use("/.well-known/oauth-authorization-server", metadataHandler(metadata));
  router.use(mcpAuthRouter(options));
  return router;
}
