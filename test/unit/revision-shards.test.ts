/**
 * The revision shards per calendar are a deployment setting (ALMANAC_REVISION_SHARDS): read
 * once at start into `config.revisionShards` (functions/src/config.ts), refused when not 1 to
 * 64, and a change-feed cursor given out under another count is 410 cursor_expired, so a reader
 * starts again instead of missing changes.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, readConfig, REVISION_SHARDS_VARIABLE as SHARDS_ENV } from "../../functions/src/config.js";
import { LAYOUT, paths } from "../../functions/src/domain/paths.js";
import { readChanges } from "../../functions/src/domain/queries/changes.js";
import { DEFAULT_SHARDS } from "../../functions/src/domain/revision.js";
import { SqliteStore } from "../../functions/src/storage/sqlite/index.js";
import { createTestApp, testClock } from "../helpers/app.js";
import { testConfig } from "../helpers/config.js";
import { mintAgent, newEvent } from "../helpers/factories.js";
import { get } from "../helpers/http.js";

const dir = mkdtempSync(join(tmpdir(), "almanac-shards-"));
const store = new SqliteStore(join(dir, "almanac.sqlite"), { layout: LAYOUT });
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const shardsFromEnv = (env: Record<string, string>) => readConfig(env).revisionShards;

describe(`${SHARDS_ENV}`, () => {
  it("defaults to 8, takes 1 to 64, and stops the start on anything else", () => {
    expect(shardsFromEnv({})).toBe(DEFAULT_SHARDS);
    expect(DEFAULT_SHARDS).toBe(8);
    expect(shardsFromEnv({ [SHARDS_ENV]: "1" })).toBe(1);
    expect(shardsFromEnv({ [SHARDS_ENV]: " 64 " })).toBe(64);
    for (const bad of ["0", "65", "8.5", "-2", "eight"]) {
      expect(() => shardsFromEnv({ [SHARDS_ENV]: bad }), bad).toThrow(ConfigError);
      expect(() => shardsFromEnv({ [SHARDS_ENV]: bad }), bad).toThrow(
        `${SHARDS_ENV} must be a whole number from 1 to 64, not "${bad}"`,
      );
    }
  });

  it("answers 410 cursor_expired to a cursor given out under another shard count", async () => {
    // The same store and cursor key, before and after a restart with another count.
    const instance = (env: Record<string, string>) => ({
      store,
      clock: testClock(),
      memory: {},
      baseUrl: "http://localhost",
      log: () => {},
      config: testConfig({ ALMANAC_CHANGE_CURSOR_SECRET: "k".repeat(32), ...env }),
    });
    const guard = { signal: new AbortController().signal, stillAllowed: async () => {} };
    const query = { limit: 10, wait: 0 };
    const before = instance({});
    const key = Buffer.from("k".repeat(32));
    const { cursor } = await readChanges(before, "cal_shards", query, guard, key);

    const after = instance({ [SHARDS_ENV]: "4" });
    await expect(readChanges(after, "cal_shards", { ...query, cursor }, guard, key)).rejects.toMatchObject({
      code: "cursor_expired",
    });
    // A cursor of the new count reads as usual.
    const fresh = await readChanges(after, "cal_shards", query, guard, key);
    await expect(
      readChanges(after, "cal_shards", { ...query, cursor: fresh.cursor }, guard, key),
    ).resolves.toMatchObject({
      changes: [],
    });
  });

  it("is the count the app's writes and change feed use: deps.config, not a constant read at import", async () => {
    const t = createTestApp({ config: testConfig({ [SHARDS_ENV]: "2" }) });
    try {
      const owner = await mintAgent(t, "Sharded");
      for (let i = 0; i < 12; i++) await newEvent(t, owner, owner.calendarId, { name: `E${i}`, date: "2026-12-01" });
      const shards = await t.deps.store.query(paths.shards(owner.calendarId));
      expect(shards.map((doc) => doc.id).sort()).toEqual(["0", "1"]);
      const feed = await get(t, `/v1/calendars/${owner.calendarId}/changes`, owner.auth).expect(200);
      const next = await get(t, `/v1/calendars/${owner.calendarId}/changes?cursor=${feed.body.cursor}`, owner.auth);
      expect(next.status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
