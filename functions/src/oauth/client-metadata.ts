/**
 * The metadata of an OAuth client, as the service accepts it (docs/mcp.md#authorization): from
 * dynamic registration (RFC 7591), or from a client ID metadata document, the JSON at the HTTPS
 * URL that is the client's id, fetched under the webhook address policy and kept a few minutes.
 */
import { InvalidClientMetadataError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { OAuthClientMetadataSchema, type OAuthClientInformationFull } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { OAuthClientMetadata } from "../domain/oauth/records.js";
import type { DocumentFetcher } from "../outbound/fetch-document.js";

const MAX_REDIRECT_URIS = 10;
const MAX_TEXT = 2000;

/**
 * Every client is public, with PKCE (token_endpoint_auth_method `none`): the service keeps no
 * client secret, and RFC 7591 lets it answer the metadata it accepted. Redirect URIs are https,
 * http on a loopback address (RFC 8252), or an app's own scheme.
 */
export function publicClient(client: OAuthClientInformationFull): OAuthClientMetadata {
  const uris = client.redirect_uris;
  if (uris.length === 0 || uris.length > MAX_REDIRECT_URIS)
    throw new InvalidClientMetadataError(`redirect_uris: 1 to ${MAX_REDIRECT_URIS} addresses`);
  for (const uri of uris) {
    if (uri.length > MAX_TEXT || !acceptableRedirect(new URL(uri)))
      throw new InvalidClientMetadataError("redirect_uris: https, http on a loopback address, or an app's own scheme");
  }
  const text = (value: string | undefined, max: number) => (value ? value.slice(0, max) : undefined);
  return {
    client_id: client.client_id,
    client_id_issued_at: client.client_id_issued_at,
    client_name: text(client.client_name, 100),
    client_uri: text(client.client_uri, MAX_TEXT),
    redirect_uris: uris,
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    scope: text(client.scope, 200),
  };
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

function acceptableRedirect(url: URL): boolean {
  if (url.hash) return false;
  if (url.protocol === "https:") return true;
  if (url.protocol === "http:") return LOOPBACK.has(url.hostname);
  // A private-use scheme of a native app (RFC 8252 section 7.1): a dotted name, not a browser's own scheme.
  return /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(url.protocol);
}

/** Whether a client id names a metadata document: an https URL with a path, no fragment. */
export function isDocumentClientId(clientId: string): boolean {
  if (clientId.length > MAX_TEXT || !URL.canParse(clientId)) return false;
  const url = new URL(clientId);
  return url.protocol === "https:" && url.pathname !== "/" && !url.hash;
}

const KEPT_MS = 5 * 60 * 1000;
const KEPT_AT_MOST = 500;

/**
 * The clients of metadata documents, each read when first needed and kept five minutes on this
 * instance (an authorization and its token exchange read it once); a document that cannot be
 * read, or that names another client id, is no client.
 */
export function documentClients(fetch: DocumentFetcher, now: () => number = Date.now) {
  const kept = new Map<string, { client: OAuthClientMetadata; until: number }>();
  return async (clientId: string): Promise<OAuthClientMetadata | undefined> => {
    const hit = kept.get(clientId);
    if (hit && hit.until > now()) return hit.client;
    const fetched = await fetch(clientId);
    if (!fetched.ok || fetched.status !== 200) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(fetched.text);
    } catch {
      return undefined;
    }
    const metadata = OAuthClientMetadataSchema.safeParse(parsed);
    if (!metadata.success || (parsed as { client_id?: unknown }).client_id !== clientId) return undefined;
    let client: OAuthClientMetadata;
    try {
      client = publicClient({ ...metadata.data, client_id: clientId });
    } catch {
      return undefined;
    }
    if (kept.size >= KEPT_AT_MOST) kept.delete(kept.keys().next().value!);
    kept.set(clientId, { client, until: now() + KEPT_MS });
    return client;
  };
}
