/**
 * The SQLite sweep stands in for Firestore's TTL policies (docs/api.md#exactly-once-and-retention): expired
 * idempotency records, claim links and onboard tokens are deleted; nothing else is.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sha256 } from "../../functions/src/domain/ids.js";
import { LAYOUT, paths } from "../../functions/src/domain/paths.js";
import { EXPIRING_COLLECTIONS, PURGE_FIELD } from "../../functions/src/domain/retention.js";
import { SqliteStore } from "../../functions/src/storage/sqlite/index.js";
import { startJob } from "../../functions/src/jobs/local-driver.js";
import { sweepJob } from "../../functions/src/jobs/sweep.js";
import { SWEEP_INTERVAL_MS } from "../../functions/src/storage/sqlite/sweep.js";
import type { UncheckedStore } from "./contract.js";

const NOW = new Date("2026-11-23T12:00:00.000Z");
const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000);

let dir: string;
let store: SqliteStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "almanac-sweep-"));
  store = new SqliteStore(join(dir, "almanac.sqlite"), { layout: LAYOUT });
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function seed(path: string, purgeAt: Date | undefined) {
  await (store as UncheckedStore).runTransaction(async (tx) =>
    tx.set(path, purgeAt ? { purge_at: purgeAt } : { name: "kept" }),
  );
}
const [a, b, c, d, e, f, g] = ["a", "b", "c", "d", "e", "f", "g"].map(sha256);

describe("the SQLite sweep of expired records", () => {
  it("deletes records whose purge_at has passed, in every expiring collection, and nothing else", async () => {
    await seed(paths.idempotency(a), minutes(-1));
    await seed(paths.idempotency(b), minutes(0));
    await seed(paths.idempotency(c), minutes(1));
    await seed(paths.claim(d), minutes(-60));
    await seed(paths.claim(e), minutes(60));
    await seed(paths.onboardToken(f), minutes(-5));
    await seed(paths.token(g), undefined);
    const log: string[] = [];
    // The local server's driver: a pass at once, the next SWEEP_INTERVAL_MS later.
    const sweep = startJob(sweepJob, { store, clock: () => NOW, log: (line) => log.push(line) });
    const pass = await sweep.pass();
    await sweep.stop();
    expect(pass).toEqual({ done: 4, more: false, nextDueAt: null });
    expect(sweepJob.idleMs).toBe(SWEEP_INTERVAL_MS);
    const ids = async (collection: "idempotency" | "claims" | "onboard_tokens" | "tokens") =>
      (await store.query(collection)).map((doc) => doc.id);
    expect(await ids("idempotency")).toEqual([c]);
    expect(await ids("claims")).toEqual([e]);
    expect(await ids("onboard_tokens")).toEqual([]);
    expect(await ids("tokens")).toEqual([g]);
    expect(log).toEqual(["sweep: purged 4 expired records"]);
    // What was read before is not answered from the parse cache afterwards.
    expect(await store.get(paths.idempotency(a))).toBeNull();
  });

  it("sweeps exactly the collections that carry a TTL policy on Firestore", () => {
    const indexes = JSON.parse(readFileSync(join(import.meta.dirname, "../../firestore.indexes.json"), "utf8")) as {
      fieldOverrides: Array<{ collectionGroup: string; fieldPath: string; ttl?: boolean }>;
    };
    const withTtl = indexes.fieldOverrides.filter((o) => o.ttl).map((o) => [o.collectionGroup, o.fieldPath]);
    expect(withTtl.sort()).toEqual(EXPIRING_COLLECTIONS.map((c) => [c, PURGE_FIELD]).sort());
  });
});
