/**
 * The key of the change feed's cursors (domain/cursor-key.ts): one random key in the store,
 * created once however many instances ask at the same time, and the configured one when set
 * (`ALMANAC_CHANGE_CURSOR_SECRET`, read and checked at start by functions/src/config.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError, CURSOR_SECRET_VARIABLE } from "../../functions/src/config.js";
import { changeCursorKey } from "../../functions/src/http/cursor-key.js";
import { LAYOUT, paths } from "../../functions/src/domain/paths.js";
import { SqliteStore } from "../../functions/src/storage/sqlite/index.js";
import { testClock } from "../helpers/app.js";
import { testConfig } from "../helpers/config.js";

const opened: Array<{ store: SqliteStore; dir: string }> = [];
afterEach(async () => {
  for (const { store, dir } of opened.splice(0)) {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

function freshStore(): SqliteStore {
  const dir = mkdtempSync(join(tmpdir(), "almanac-cursor-key-"));
  const store = new SqliteStore(join(dir, "almanac.sqlite"), { layout: LAYOUT });
  opened.push({ store, dir });
  return store;
}

/** An instance of the service on `store`: its own memory, as another process would have. */
const instance = (store: SqliteStore, env: Record<string, string> = {}) => ({
  store,
  clock: testClock(),
  memory: {},
  config: testConfig(env),
});

describe("changeCursorKey", () => {
  it("makes one random 32-byte key per store, which 20 instances asking at once all get", async () => {
    const store = freshStore();
    const keys = await Promise.all(Array.from({ length: 20 }, () => changeCursorKey(instance(store))));
    expect(keys[0]).toHaveLength(32);
    for (const key of keys) expect(key.equals(keys[0])).toBe(true);
    const stored = await store.get(paths.serverSecret("change_cursors"));
    expect(Buffer.from(String(stored!.data.key), "base64url").equals(keys[0])).toBe(true);

    const elsewhere = await changeCursorKey(instance(freshStore()));
    expect(elsewhere.equals(keys[0])).toBe(false);
  });

  it("reads the store once per instance, then answers from memory", async () => {
    const store = freshStore();
    const one = instance(store);
    const first = await changeCursorKey(one);
    await store.runTransaction(async (tx) => {
      tx.set(paths.serverSecret("change_cursors"), { key: Buffer.alloc(32, 7).toString("base64url"), created_at: "x" });
    });
    expect((await changeCursorKey(one)).equals(first)).toBe(true);
    expect((await changeCursorKey(instance(store))).equals(Buffer.alloc(32, 7))).toBe(true);
  });

  it(`takes ${CURSOR_SECRET_VARIABLE} when set, and the start refuses one shorter than 32 characters`, async () => {
    const store = freshStore();
    const secret = "s".repeat(40);
    const key = await changeCursorKey(instance(store, { [CURSOR_SECRET_VARIABLE]: secret }));
    expect(key.equals(Buffer.from(secret))).toBe(true);
    expect(await store.get(paths.serverSecret("change_cursors"))).toBeNull();
    // Checked once, at start: the message names the variable and never repeats the secret.
    const short = () => testConfig({ [CURSOR_SECRET_VARIABLE]: "short-secret" });
    expect(short).toThrow(ConfigError);
    expect(short).toThrow(`${CURSOR_SECRET_VARIABLE} must be at least 32 characters, not 12`);
  });
});
