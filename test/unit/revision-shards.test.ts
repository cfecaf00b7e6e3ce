/**
 * The revision shards per calendar are a deployment setting (ALMANAC_REVISION_SHARDS): read
 * once at start, refused when not 1 to 64, and a change-feed cursor given out under another
 * count is 410 cursor_expired, so a reader starts again instead of missing changes.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { LAYOUT } from "../../functions/src/domain/paths.js";
import { DEFAULT_SHARDS, SHARDS_ENV, shardsFromEnv } from "../../functions/src/domain/revision.js";
import { SqliteStore } from "../../functions/src/storage/sqlite/index.js";
import { testClock } from "../helpers/app.js";

const dir = mkdtempSync(join(tmpdir(), "almanac-shards-"));
const store = new SqliteStore(join(dir, "almanac.sqlite"), { layout: LAYOUT });
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  vi.unstubAllEnvs();
});

describe(`${SHARDS_ENV}`, () => {
  it("defaults to 8, takes 1 to 64, and stops the start on anything else", () => {
    expect(shardsFromEnv({})).toBe(DEFAULT_SHARDS);
    expect(DEFAULT_SHARDS).toBe(8);
    expect(shardsFromEnv({ [SHARDS_ENV]: "1" })).toBe(1);
    expect(shardsFromEnv({ [SHARDS_ENV]: " 64 " })).toBe(64);
    for (const bad of ["0", "65", "8.5", "-2", "eight"]) {
      expect(() => shardsFromEnv({ [SHARDS_ENV]: bad }), bad).toThrow(
        `${SHARDS_ENV} must be a whole number from 1 to 64`,
      );
    }
  });

  it("answers 410 cursor_expired to a cursor given out under another shard count", async () => {
    const deps = { store, clock: testClock(), memory: {}, baseUrl: "http://localhost", log: () => {} };
    const guard = { signal: new AbortController().signal, stillAllowed: async () => {} };
    const query = { limit: 10, wait: 0 };
    const before = await import("../../functions/src/domain/queries/changes.js");
    const { cursor } = await before.readChanges(deps, "cal_shards", query, guard);

    vi.resetModules();
    vi.stubEnv(SHARDS_ENV, "4");
    const after = await import("../../functions/src/domain/queries/changes.js");
    await expect(after.readChanges(deps, "cal_shards", { ...query, cursor }, guard)).rejects.toMatchObject({
      code: "cursor_expired",
    });
    // A cursor of the new count reads as usual.
    const fresh = await after.readChanges(deps, "cal_shards", query, guard);
    await expect(
      after.readChanges(deps, "cal_shards", { ...query, cursor: fresh.cursor }, guard),
    ).resolves.toMatchObject({
      changes: [],
    });
  });
});
