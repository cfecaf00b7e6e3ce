import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { DocumentExistsError } from "../../functions/src/storage/port.js";
import { SqliteStore } from "../../functions/src/storage/sqlite/index.js";
import { runStoreContract, type UncheckedStore } from "./contract.js";

runStoreContract("sqlite", async (layout) => {
  const dir = mkdtempSync(join(tmpdir(), "almanac-store-"));
  const store = new SqliteStore(join(dir, "store.db"), { layout });
  const observer = new SqliteStore(join(dir, "store.db"), { layout });
  return {
    store,
    observer,
    supportsContention: true,
    cleanup: async () => {
      await store.close();
      await observer.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

/** Group commit: transactions share a COMMIT, and each is answered only after it. */
describe("SqliteStore group commit", () => {
  let dir: string;
  /** One collection, `c`, addressed with plain strings. */
  let store: UncheckedStore;
  /** Another connection to the file: it sees committed data only. */
  let observer: Database.Database;
  const committed = (id: string) =>
    (
      observer.prepare("SELECT data FROM docs WHERE collection = 'c' AND id = ?").get(id) as
        { data: string } | undefined
    )?.data;

  const open = () => {
    dir = mkdtempSync(join(tmpdir(), "almanac-group-"));
    store = new SqliteStore(join(dir, "store.db"), { layout: new Set(["c"]) });
    observer = new Database(join(dir, "store.db"));
  };
  afterEach(async () => {
    await store.close();
    observer.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a read-only transaction that saw an uncommitted write is answered after its COMMIT", async () => {
    open();
    const writer = store.runTransaction(async (tx) => {
      tx.set("c/w", { n: 1 });
    });
    const reader = store.runTransaction(async (tx) => (await tx.get("c/w"))?.data);
    const seen = await reader.then((data) => ({ data, committed: committed("w") }));
    expect(seen).toEqual({ data: { n: 1 }, committed: '{"n":1}' });
    await writer;
  });

  it("a write rolled back with its savepoint is not served from the parse cache", async () => {
    open();
    await store.runTransaction(async (tx) => {
      tx.set("c/a", { n: 1 });
      tx.set("c/taken", {});
    });
    const failing = store.runTransaction(async (tx) => {
      tx.set("c/a", { n: 2 });
      tx.update("c/a", { m: 1 }); // reads (and parses) the uncommitted { n: 2 }
      tx.create("c/taken", {});
    });
    await expect(failing).rejects.toBeInstanceOf(DocumentExistsError);
    expect((await store.get("c/a"))?.data).toEqual({ n: 1 });
    expect(committed("a")).toBe('{"n":1}');
  });

  it("when SQLite rolls the open transaction back, every transaction of the batch is rejected", async () => {
    open();
    // A trigger that aborts the whole SQLite transaction, as some I/O errors do.
    observer.exec(
      "CREATE TRIGGER poison BEFORE INSERT ON docs WHEN NEW.id = 'poison' BEGIN SELECT RAISE(ROLLBACK, 'poisoned'); END",
    );
    const outcomes = await Promise.allSettled(
      ["a", "poison", "b"].map((id) =>
        store.runTransaction(async (tx) => {
          tx.set(`c/${id}`, { id });
        }),
      ),
    );
    expect(outcomes.map((o) => (o.status === "rejected" ? String(o.reason) : o.status))).toEqual([
      expect.stringContaining("lost uncommitted writes"),
      expect.stringContaining("poisoned"),
      "fulfilled",
    ]);
    expect([committed("a"), committed("poison"), committed("b")]).toEqual([undefined, undefined, '{"id":"b"}']);
  });

  it("a failed COMMIT rejects every transaction of the batch and keeps none of their writes", async () => {
    open();
    // Simulates a disk failure at COMMIT on the store's connection.
    const db = (store as unknown as { db: Database.Database }).db;
    const exec = db.exec.bind(db);
    let failures = 1;
    db.exec = (sql: string) => {
      if (sql === "COMMIT" && failures-- > 0) throw new Error("disk I/O error");
      return exec(sql);
    };
    const write = (id: string) =>
      store.runTransaction(async (tx) => {
        tx.set(`c/${id}`, { id });
        return id;
      });
    const outcomes = await Promise.allSettled([
      write("a"),
      store.runTransaction(async (tx) => tx.get("c/a")),
      write("b"),
    ]);
    expect(outcomes.map((o) => (o.status === "rejected" ? String(o.reason) : o.status))).toEqual([
      "Error: disk I/O error",
      "Error: disk I/O error",
      "Error: disk I/O error",
    ]);
    expect([committed("a"), committed("b")]).toEqual([undefined, undefined]);
    expect(await store.get("c/a")).toBeNull();
    // The store goes on with the next batch.
    expect(await write("c")).toBe("c");
    expect(committed("c")).toBe('{"id":"c"}');
  });

  it("more transactions than one batch holds are all committed", async () => {
    open();
    const ids = Array.from({ length: 200 }, (_, i) => `d${i}`);
    const seen = await Promise.all(
      ids.map((id) =>
        store
          .runTransaction(async (tx) => {
            tx.set(`c/${id}`, { id });
          })
          .then(() => committed(id)),
      ),
    );
    expect(seen).toEqual(ids.map((id) => `{"id":"${id}"}`));
  });
});

/** The local server's store (storage/index.ts): one connection holds the file. */
describe("SqliteStore exclusive", () => {
  it("reads and writes, keeps what it committed across a reopen, and refuses a second connection meanwhile", async () => {
    const dir = mkdtempSync(join(tmpdir(), "almanac-exclusive-"));
    const file = join(dir, "store.db");
    const layout = new Set(["c"]);
    try {
      const store: UncheckedStore = new SqliteStore(file, { layout, exclusive: true });
      await store.runTransaction(async (tx) => {
        tx.set("c/a", { n: 1 });
      });
      expect((await store.get("c/a"))?.data).toEqual({ n: 1 });
      const other = new Database(file);
      expect(() => other.prepare("SELECT count(*) FROM docs").get()).toThrow(/database is locked/);
      other.close();
      await store.close();

      const reopened: UncheckedStore = new SqliteStore(file, { layout, exclusive: true });
      expect((await reopened.query("c")).map((d) => d.data)).toEqual([{ n: 1 }]);
      await reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Reads are synchronous on SQLite: a long getAll lets other work run between its parts. */
describe("SqliteStore getAll of many documents", () => {
  it("answers every document in order, letting the event loop turn while it reads", async () => {
    const dir = mkdtempSync(join(tmpdir(), "almanac-getall-"));
    const store: UncheckedStore = new SqliteStore(join(dir, "store.db"), { layout: new Set(["c"]) });
    try {
      const ids = Array.from({ length: 1_000 }, (_, i) => `d${i}`);
      await store.runTransaction(async (tx) => {
        for (const id of ids) tx.set(`c/${id}`, { n: id, text: "x".repeat(2_000) });
      });
      let turns = 0;
      const counting = setInterval(() => (turns += 1), 0);
      const paths = [...ids.map((id) => `c/${id}`), "c/missing"];
      const docs = await store.getAll(paths).finally(() => clearInterval(counting));
      expect(docs.map((d) => d?.data.n ?? null)).toEqual([...ids, null]);
      expect(turns).toBeGreaterThan(0);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
