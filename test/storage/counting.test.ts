import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LAYOUT, paths } from "../../functions/src/domain/paths.js";
import { CountingStore } from "../helpers/counting-store.js";
import type { Store } from "../../functions/src/storage/port.js";
import { SqliteStore } from "../../functions/src/storage/sqlite/index.js";
import type { UncheckedStore } from "./contract.js";

// Slug records: the smallest documents, and what they hold does not matter to the counts.
const a = paths.slug("a");
const b = paths.slug("b");
const c = paths.slug("c");
const missing = paths.slug("none");

/** The store answering each read after `ms`, as a remote one would (the order of answers is not the order of calls). */
function slowed(inner: Store, ms: (path: string) => number): Store {
  const later = async <T>(path: string, read: () => Promise<T>) => {
    await sleep(ms(path));
    return read();
  };
  return {
    ...inner,
    get: (path) => later(path, () => inner.get(path)),
    getAll: (list) => later(list[0] ?? "", () => inner.getAll(list)),
    query: (collection, spec) => later(collection, () => inner.query(collection, spec)),
    runTransaction: (fn) => inner.runTransaction(fn),
    runReadOnly: (fn) => inner.runReadOnly(fn),
    close: () => inner.close(),
  };
}

describe("CountingStore", () => {
  let base: SqliteStore;
  let store: CountingStore;

  beforeEach(async () => {
    base = new SqliteStore(":memory:", { layout: LAYOUT });
    // Untyped records: the counts do not depend on what the documents hold.
    await (base as UncheckedStore).runTransaction(async (tx) => {
      for (const path of [a, b, c]) tx.set(path, { owner_id: path });
      for (let n = 0; n < 3; n++) tx.set(paths.event("cal_a", `evt_${n}`), { n });
    });
    store = new CountingStore(base);
  });
  afterEach(() => base.close());

  it("counts reads that wait for each other as one round trip each", async () => {
    const { counts } = await store.measure(async () => {
      await store.get(a);
      await store.get(b);
      await store.get(missing);
    });
    expect(counts).toMatchObject({ roundTrips: 3, documentsRead: 2, calls: 3, transactions: 0 });
  });

  it("counts overlapping reads as one round trip, and every document they return", async () => {
    const { counts } = await store.measure(() =>
      Promise.all([store.get(a), store.getAll([b, c, missing]), store.query(paths.events("cal_a"))]),
    );
    expect(counts).toMatchObject({ roundTrips: 1, documentsRead: 6, calls: 3 });
  });

  it("counts a call started some microtasks later in the same turn as overlapping, as on a remote store", async () => {
    const later = async () => {
      for (let i = 0; i < 5; i++) await null;
      return store.get(b);
    };
    const { counts } = await store.measure(() => Promise.all([store.get(a), later()]));
    expect(counts).toMatchObject({ roundTrips: 1, documentsRead: 2 });
  });

  it("counts each read wave of a transaction and its commit, and the documents written", async () => {
    const { counts } = await store.measure(() =>
      store.runTransaction(async (tx) => {
        await Promise.all([tx.get(a), tx.get(b)]);
        await tx.query(paths.events("cal_a"), { limit: 2 });
        tx.set(c, { owner_id: "c2" });
        tx.delete(paths.event("cal_a", "evt_0"));
      }),
    );
    expect(counts).toEqual({
      roundTrips: 3,
      documentsRead: 4,
      documentsWritten: 2,
      transactions: 1,
      readOnlyTransactions: 0,
      calls: 4,
    });
  });

  it("counts a read-only transaction's read waves and documents, apart from read-write ones, and no commit", async () => {
    const { counts } = await store.measure(() =>
      store.runReadOnly(async (reads) => {
        await Promise.all([reads.get(a), reads.get(missing)]);
        await reads.query(paths.events("cal_a"));
      }),
    );
    expect(counts).toEqual({
      roundTrips: 2,
      documentsRead: 4,
      documentsWritten: 0,
      transactions: 0,
      readOnlyTransactions: 1,
      calls: 3,
    });
  });

  it("counts a failed transaction's reads and no writes", async () => {
    const { counts } = await store.measure(async () => {
      await expect(
        store.runTransaction(async (tx) => {
          await tx.get(a);
          tx.set(b, { owner_id: "never" });
          throw new Error("refused");
        }),
      ).rejects.toThrow("refused");
    });
    expect(counts).toEqual({
      roundTrips: 1,
      documentsRead: 1,
      documentsWritten: 0,
      transactions: 1,
      readOnlyTransactions: 0,
      calls: 1,
    });
  });

  it("counts no round trip for a getAll of nothing (no call goes out)", async () => {
    const { counts } = await store.measure(async () => {
      await store.getAll([]);
      await store.runTransaction((tx) => tx.getAll([]));
    });
    expect(counts).toMatchObject({ roundTrips: 1, calls: 1, transactions: 1 }); // the commit
  });

  it("starts a new window at every take", async () => {
    await store.get(a);
    expect(store.take().roundTrips).toBe(1);
    expect(store.take()).toEqual({
      roundTrips: 0,
      documentsRead: 0,
      documentsWritten: 0,
      transactions: 0,
      readOnlyTransactions: 0,
      calls: 0,
    });
  });

  it("with latency: a read that starts once an overlapping one has answered is a new round trip", async () => {
    // a answers first; b is still out when the read that needed a starts.
    const remote = new CountingStore(slowed(base, (path) => (path === b ? 30 : 1)));
    const { counts } = await remote.measure(() =>
      Promise.all([
        (async () => {
          await remote.get(a);
          await remote.get(c);
        })(),
        remote.get(b),
      ]),
    );
    expect(counts).toMatchObject({ roundTrips: 2, documentsRead: 3 });
  });
});
