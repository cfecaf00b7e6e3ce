/**
 * The change feed's cursor key for this instance (domain/cursor-key.ts says what it is): the
 * configured one, else the stored one, read or created once and kept in the instance's memory.
 */
import type { Deps } from "../domain/deps.js";
import { configuredCursorKey, readCursorKey, readOrCreateCursorKey } from "../domain/cursor-key.js";
import { DocumentExistsError } from "../storage/port.js";

export function changeCursorKey(deps: Pick<Deps, "store" | "clock" | "memory" | "config">): Promise<Buffer> {
  const configured = configuredCursorKey(deps.config);
  if (configured) return Promise.resolve(configured);
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
  try {
    return await deps.store.runTransaction((tx) => readOrCreateCursorKey(tx, deps.clock()));
  } catch (err) {
    // Another instance created it between this one's read and commit: its key is the one.
    if (!(err instanceof DocumentExistsError)) throw err;
    const stored = await deps.store.runReadOnly(readCursorKey);
    if (!stored) throw err;
    return stored;
  }
}
