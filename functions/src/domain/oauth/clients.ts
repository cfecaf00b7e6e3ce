/** OAuth clients registered dynamically (RFC 7591), stored by the SHA-256 of their client_id. */
import type { Store, Transaction } from "../../storage/port.js";
import type { CommandDeps } from "../deps.js";
import { sha256 } from "../ids.js";
import { paths } from "../paths.js";
import { later, OAUTH_LIFETIMES } from "./lifetimes.js";
import type { OAuthClientMetadata, OAuthClientRecord } from "./records.js";

export function registerClient(tx: Transaction, deps: Pick<CommandDeps, "clock">, metadata: OAuthClientMetadata): void {
  const now = deps.clock();
  const record: OAuthClientRecord = {
    metadata,
    created_at: now.toISOString(),
    purge_at: later(now, OAUTH_LIFETIMES.clientUnusedMs),
  };
  tx.create(paths.oauthClient(sha256(metadata.client_id)), record);
}

/** A registered client's metadata, or null. */
export async function readClient(store: Pick<Store, "get">, clientId: string): Promise<OAuthClientMetadata | null> {
  return (await store.get(paths.oauthClient(sha256(clientId))))?.data.metadata ?? null;
}
