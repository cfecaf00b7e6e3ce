/**
 * The key that authenticates the change feed's cursors (domain/queries/changes.ts). Every
 * instance must accept what any other gave out, with no setup when deployed: the key is 32
 * random bytes kept in the store (`server_secrets/change_cursors`), created in a transaction
 * by the first instance that needs it (http/cursor-key.ts opens it and keeps the key in the
 * instance's memory after one read).
 *
 * `ALMANAC_CHANGE_CURSOR_SECRET` (at least 32 characters, checked at start by
 * functions/src/config.ts; `deps.config.changeCursorSecret`) overrides it: to keep the key out of
 * the database (e.g. from Secret Manager), or to rotate it. Either way, changing the key makes
 * every cursor given out before it 400, and clients start again without one.
 */
import { randomBytes } from "node:crypto";
import type { Transaction, TransactionReads } from "../storage/port.js";
import type { DomainConfig } from "./config.js";
import { paths } from "./paths.js";

const KEY_BYTES = 32;

/** The configured key, or null when the store keeps it. */
export const configuredCursorKey = (config: Pick<DomainConfig, "changeCursorSecret">): Buffer | null =>
  config.changeCursorSecret === null ? null : Buffer.from(config.changeCursorSecret, "utf8");

/** The stored key, or null when there is none yet. */
export async function readCursorKey(reads: TransactionReads): Promise<Buffer | null> {
  const doc = await reads.get(paths.serverSecret("change_cursors"));
  return doc ? Buffer.from(doc.data.key, "base64url") : null;
}

/** The stored key, created in the caller's transaction when there is none yet. */
export async function readOrCreateCursorKey(tx: Transaction, now: Date): Promise<Buffer> {
  const stored = await readCursorKey(tx);
  if (stored) return stored;
  const key = randomBytes(KEY_BYTES);
  tx.create(paths.serverSecret("change_cursors"), { key: key.toString("base64url"), created_at: now.toISOString() });
  return key;
}
