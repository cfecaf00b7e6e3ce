/**
 * The key that authenticates the change feed's cursors (domain/queries/changes.ts). Every
 * instance must accept what any other gave out, with no setup when deployed: the key is 32
 * random bytes kept in the store (`server_secrets/change_cursors`), created in a transaction
 * by the first instance that needs it, and held in memory after one read.
 *
 * `ALMANAC_CHANGE_CURSOR_SECRET` (at least 32 characters, checked at start by
 * functions/src/config.ts; `deps.config.changeCursorSecret`) overrides it: to keep the key out of
 * the database (e.g. from Secret Manager), or to rotate it. Either way, changing the key makes
 * every cursor given out before it 400, and clients start again without one.
 */
import { randomBytes } from "node:crypto";
import { DocumentExistsError } from "../storage/port.js";
import type { Deps } from "./deps.js";
import { paths } from "./paths.js";

const KEY_BYTES = 32;

export function changeCursorKey(deps: Pick<Deps, "store" | "clock" | "memory" | "config">): Promise<Buffer> {
  const configured = deps.config.changeCursorSecret;
  if (configured !== null) return Promise.resolve(Buffer.from(configured, "utf8"));
  // The stored key, once per instance of the service (its `deps.memory`).
  const { memory } = deps;
  let key = memory.changeCursorKey;
  if (!key) {
    const loading = loadOrCreate(deps);
    memory.changeCursorKey = loading;
    // A failed read is not kept: the next request tries again.
    loading.catch(() => {
      if (memory.changeCursorKey === loading) memory.changeCursorKey = undefined;
    });
    key = loading;
  }
  return key;
}

async function loadOrCreate(deps: Pick<Deps, "store" | "clock">): Promise<Buffer> {
  const ref = paths.serverSecret("change_cursors");
  try {
    return await deps.store.runTransaction(async (tx) => {
      const doc = await tx.get(ref);
      if (doc) return Buffer.from(doc.data.key, "base64url");
      const key = randomBytes(KEY_BYTES);
      tx.create(ref, { key: key.toString("base64url"), created_at: deps.clock().toISOString() });
      return key;
    });
  } catch (err) {
    // Another instance created it between this one's read and commit: its key is the one.
    if (!(err instanceof DocumentExistsError)) throw err;
    const doc = await deps.store.get(ref);
    if (!doc) throw err;
    return Buffer.from(doc.data.key, "base64url");
  }
}
