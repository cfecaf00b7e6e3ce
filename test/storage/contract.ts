/**
 * The storage contract: the same cases run on every adapter of the storage port.
 * The semantics are Firestore's; an adapter or a test double that cannot meet a case
 * skips it by name, with the reason in the test title.
 */
import { afterAll, describe, expect, it } from "vitest";
import {
  DocumentExistsError,
  DocumentMissingError,
  ReadAfterWriteError,
  StorePathError,
  type DocData,
  type Layout,
  type QuerySpec,
  type StoredDoc,
} from "../../functions/src/storage/port.js";

/**
 * The port addressed by plain string paths with untyped records: the contract addresses its
 * own collections so. The adapters' methods take any string (and check it against their
 * layout); the app reaches them through the typed port only (storage/port.ts).
 */
export interface UncheckedReads {
  get<T = DocData>(path: string): Promise<StoredDoc<T> | null>;
  getAll<T = DocData>(paths: readonly string[]): Promise<Array<StoredDoc<T> | null>>;
  query<T = DocData>(collection: string, spec?: QuerySpec): Promise<StoredDoc<T>[]>;
}

export interface UncheckedTransaction extends UncheckedReads {
  create(path: string, data: DocData): void;
  set(path: string, data: DocData): void;
  update(path: string, data: DocData): void;
  delete(path: string): void;
}

export interface UncheckedStore {
  get<T = DocData>(path: string): Promise<StoredDoc<T> | null>;
  getAll<T = DocData>(paths: readonly string[]): Promise<Array<StoredDoc<T> | null>>;
  query<T = DocData>(collection: string, spec?: QuerySpec): Promise<StoredDoc<T>[]>;
  count(collection: string, spec?: Pick<QuerySpec, "where">): Promise<number>;
  runTransaction<R>(fn: (tx: UncheckedTransaction) => Promise<R>): Promise<R>;
  runReadOnly<R>(fn: (reads: UncheckedReads) => Promise<R>): Promise<R>;
  close(): Promise<void>;
}

/** Cases that a runner may skip, with a reason, through `OpenedStore.skip`. */
export type ContractCase =
  | "set-replaces"
  | "failed-commit-is-atomic"
  | "query-null"
  | "query-null-missing-field"
  | "query-type-strict"
  | "query-range-type-strict"
  | "order-missing-field"
  | "read-only-snapshot";

/** The adapters implement the unchecked port too: the contract addresses its own collections with plain strings. */
export interface OpenedStore {
  store: UncheckedStore;
  /** Whether concurrent transactions are isolated, so that the contention case can run. */
  supportsContention: boolean;
  /** Why contention is not supported (shown in the skipped test's title). */
  skipReason?: string;
  /** Cases this runner cannot pass, with the reason (shown in the skipped test's title). */
  skip?: Partial<Record<ContractCase, string>>;
  /**
   * A second, independent client of the same data (for SQLite another connection to the file):
   * what it sees has been committed, not only applied on the writer's connection.
   */
  observer: UncheckedStore;
  cleanup: () => Promise<void>;
}

/**
 * `open` opens the store and its observer with `layout`: the collections of this run (every
 * top-level collection named `{run}_...`, with any subcollections); every other path is refused.
 */
export function runStoreContract(name: string, open: (layout: Layout) => Promise<OpenedStore>): void {
  // The factory is async so that the skips are known when the tests are collected.
  describe(`storage contract: ${name}`, async () => {
    // Every test writes under its own top-level collection, so runs never see each other's data.
    const run = `r${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    const layout: Layout = { has: (shape) => shape.startsWith(`${run}_`) };
    const opened = await open(layout);
    // Plain strings for its own collections; the adapter checks them against the layout all the same.
    const { store, observer } = opened;
    afterAll(() => opened.cleanup());

    let seq = 0;
    const fresh = (label: string) => `${run}_${++seq}_${label}`;

    const seed = (docs: Record<string, DocData>) =>
      store.runTransaction(async (tx) => {
        for (const [path, data] of Object.entries(docs)) tx.set(path, data);
      });

    const ids = (docs: StoredDoc[]) => docs.map((d) => d.id);
    const sortedIds = (docs: StoredDoc[]) => ids(docs).sort();

    /** A case this runner may skip: the reason goes into the title, so it shows in the output. */
    const maybe = (key: ContractCase, title: string, fn: () => Promise<void>) => {
      const reason = opened.skip?.[key];
      if (reason) it.skip(`${title} [skipped on ${name}: ${reason}]`, fn);
      else it(title, fn);
    };

    if (opened.skip) {
      for (const [key, reason] of Object.entries(opened.skip)) {
        console.warn(`[storage contract: ${name}] skipping "${key}": ${reason}`);
      }
    }
    if (!opened.supportsContention) {
      console.warn(`[storage contract: ${name}] skipping contention: ${opened.skipReason ?? "not supported"}`);
    }

    describe("documents", () => {
      it("get of a missing document is null", async () => {
        const c = fresh("missing");
        expect(await store.get(`${c}/nope`)).toBeNull();
        expect(await store.runTransaction((tx) => tx.get(`${c}/nope`))).toBeNull();
      });

      it("set then get returns the document with id, path and data", async () => {
        const c = fresh("setget");
        await seed({ [`${c}/a`]: { title: "A", n: 1 } });
        expect(await store.get(`${c}/a`)).toEqual({ id: "a", path: `${c}/a`, data: { title: "A", n: 1 } });
      });

      it("documents in subcollections have full paths", async () => {
        const c = fresh("sub");
        const path = `${c}/cal_1/events/evt_2`;
        await seed({ [path]: { x: 1 } });
        expect(await store.get(path)).toEqual({ id: "evt_2", path, data: { x: 1 } });
        expect(await store.get(`${c}/cal_1`)).toBeNull();
      });

      it("data round-trips as plain JSON", async () => {
        const c = fresh("json");
        const data = {
          s: "héllo ✓",
          empty: "",
          int: 42,
          neg: -7,
          zero: 0,
          big: 2 ** 40,
          frac: 1.25,
          t: true,
          f: false,
          nil: null,
          list: [1, "two", false, null, { three: 3 }],
          emptyList: [],
          obj: { a: { b: { c: "deep" } }, list: ["x"] },
          emptyObj: {},
        };
        await seed({ [`${c}/doc`]: data });
        expect((await store.get(`${c}/doc`))?.data).toEqual(data);
      });

      it("Date values round-trip as Dates (Firestore Timestamps, which a TTL policy needs); ISO strings stay strings", async () => {
        const c = fresh("dates");
        const purgeAt = new Date("2026-11-23T10:00:00.123Z");
        const data = {
          purge_at: purgeAt,
          expires_at: purgeAt.toISOString(),
          nested: { at: purgeAt, list: [purgeAt, "x"] },
        };
        await store.runTransaction(async (tx) => {
          tx.create(`${c}/created`, data);
          tx.set(`${c}/set`, { n: 1 });
        });
        const later = new Date("2026-11-24T00:00:00.000Z");
        await store.runTransaction(async (tx) => {
          tx.update(`${c}/set`, { purge_at: later });
        });
        const created = (await store.get(`${c}/created`))?.data;
        expect(created).toEqual(data);
        expect(created?.purge_at).toBeInstanceOf(Date);
        expect(typeof created?.expires_at).toBe("string");
        expect((await observer.get(`${c}/set`))?.data).toEqual({ n: 1, purge_at: later });
        expect((await store.runTransaction((tx) => tx.get(`${c}/created`)))?.data).toEqual(data);
        expect((await store.getAll([`${c}/created`]))[0]?.data.purge_at).toEqual(purgeAt);
        expect((await store.query(c)).map((d) => d.data.purge_at)).toEqual([purgeAt, later]);
      });

      maybe("set-replaces", "set replaces the whole document", async () => {
        const c = fresh("replace");
        await seed({ [`${c}/a`]: { keep: 1, drop: 2 } });
        await seed({ [`${c}/a`]: { keep: 3 } });
        expect((await store.get(`${c}/a`))?.data).toEqual({ keep: 3 });
      });

      it("update merges top-level fields and replaces nested maps whole", async () => {
        const c = fresh("update");
        await seed({ [`${c}/a`]: { title: "A", n: 1, meta: { x: 1, y: 2 } } });
        await store.runTransaction(async (tx) => {
          tx.update(`${c}/a`, { n: 2, meta: { x: 9 }, added: null });
        });
        expect((await store.get(`${c}/a`))?.data).toEqual({ title: "A", n: 2, meta: { x: 9 }, added: null });
      });

      it("update of a missing document fails with DocumentMissingError and writes nothing", async () => {
        const c = fresh("updmissing");
        const err = await store
          .runTransaction(async (tx) => {
            tx.update(`${c}/nope`, { n: 1 });
            tx.set(`${c}/other`, { n: 1 });
          })
          .catch((e: unknown) => e);
        expect(err).toBeInstanceOf(DocumentMissingError);
        expect((err as DocumentMissingError).path).toBe(`${c}/nope`);
        expect(await store.get(`${c}/nope`)).toBeNull();
        expect(await store.get(`${c}/other`)).toBeNull();
      });

      it("delete removes a document; deleting a missing one is not an error", async () => {
        const c = fresh("delete");
        await seed({ [`${c}/a`]: { n: 1 }, [`${c}/b`]: { n: 2 } });
        await store.runTransaction(async (tx) => {
          tx.delete(`${c}/a`);
          tx.delete(`${c}/never`);
        });
        expect(await store.get(`${c}/a`)).toBeNull();
        expect(await store.get(`${c}/b`)).not.toBeNull();
      });

      it("create writes a new document", async () => {
        const c = fresh("create");
        await store.runTransaction(async (tx) => {
          tx.create(`${c}/a`, { n: 1 });
        });
        expect((await store.get(`${c}/a`))?.data).toEqual({ n: 1 });
      });

      it("create on an existing document fails with DocumentExistsError and writes nothing else", async () => {
        const c = fresh("createexists");
        await seed({ [`${c}/taken`]: { owner: "first" } });
        const err = await store
          .runTransaction(async (tx) => {
            tx.create(`${c}/taken`, { owner: "second" });
            tx.set(`${c}/after`, { n: 1 });
          })
          .catch((e: unknown) => e);
        expect(err).toBeInstanceOf(DocumentExistsError);
        expect((err as DocumentExistsError).path).toBe(`${c}/taken`);
        expect((await store.get(`${c}/taken`))?.data).toEqual({ owner: "first" });
        expect(await store.get(`${c}/after`)).toBeNull();
      });

      maybe("failed-commit-is-atomic", "a failing create also undoes the writes queued before it", async () => {
        const c = fresh("atomic");
        await seed({ [`${c}/taken`]: { owner: "first" }, [`${c}/counter`]: { n: 1 } });
        const err = await store
          .runTransaction(async (tx) => {
            tx.set(`${c}/before`, { n: 1 });
            tx.update(`${c}/counter`, { n: 2 });
            tx.create(`${c}/taken`, { owner: "second" });
          })
          .catch((e: unknown) => e);
        expect(err).toBeInstanceOf(DocumentExistsError);
        expect(await store.get(`${c}/before`)).toBeNull();
        expect((await store.get(`${c}/counter`))?.data).toEqual({ n: 1 });
      });

      it("records come back deeply frozen from every read, in and outside transactions; a copy is the reader's own", async () => {
        const c = fresh("frozen");
        await seed({ [`${c}/a`]: { n: 1, meta: { tags: ["x"] }, list: [{ k: 1 }] } });
        const reads = [
          (await store.get(`${c}/a`))!.data,
          (await store.getAll([`${c}/a`]))[0]!.data,
          (await store.query(c))[0].data,
          await store.runTransaction(async (tx) => (await tx.get(`${c}/a`))!.data),
          await store.runTransaction(async (tx) => (await tx.getAll([`${c}/a`]))[0]!.data),
          await store.runTransaction(async (tx) => (await tx.query(c))[0].data),
        ];
        for (const data of reads) {
          // The types say read-only too; these writes go around them, as plain JavaScript would.
          const mutable = data as DocData;
          const nested = data as { meta: { tags: string[] }; list: Array<{ k: number }> };
          expect(() => (mutable.n = 2)).toThrow(TypeError);
          expect(() => (mutable.added = 1)).toThrow(TypeError);
          expect(() => nested.meta.tags.push("y")).toThrow(TypeError);
          expect(() => (nested.list[0].k = 2)).toThrow(TypeError);
        }
        const copy = { ...reads[0], n: 2 };
        expect(copy.n).toBe(2);
        expect((await store.get(`${c}/a`))?.data).toEqual({ n: 1, meta: { tags: ["x"] }, list: [{ k: 1 }] });
      });

      it("getAll returns documents in order, null for missing ones", async () => {
        const c = fresh("getall");
        await seed({ [`${c}/a`]: { n: 1 }, [`${c}/c`]: { n: 3 } });
        const paths = [`${c}/c`, `${c}/b`, `${c}/a`];
        const expected = [
          { id: "c", path: `${c}/c`, data: { n: 3 } },
          null,
          { id: "a", path: `${c}/a`, data: { n: 1 } },
        ];
        expect(await store.getAll(paths)).toEqual(expected);
        expect(await store.runTransaction((tx) => tx.getAll(paths))).toEqual(expected);
        expect(await store.getAll([])).toEqual([]);
        expect(await store.runTransaction((tx) => tx.getAll([]))).toEqual([]);
      });
    });

    describe("queries", () => {
      /** One collection of five events, shared by the query cases (seeded once, lazily). */
      const events = fresh("events");
      let seeded: Promise<void> | undefined;
      const seedEvents = () =>
        (seeded ??= seed({
          [`${events}/e1`]: { kind: "meeting", n: 30, allDay: false, note: "x", rank: "c" },
          [`${events}/e2`]: { kind: "call", n: 10, allDay: true, note: null, rank: "a" },
          [`${events}/e3`]: { kind: "meeting", n: 20, allDay: true, note: null, rank: "e" },
          [`${events}/e4`]: { kind: "focus", n: 50, allDay: false, note: "y", rank: "b" },
          [`${events}/e5`]: { kind: "meeting", n: 40, allDay: false, note: "x", rank: "d" },
        }));
      const q = async (spec: QuerySpec) => {
        await seedEvents();
        return store.query(events, spec);
      };

      it("with no spec returns every document of the collection", async () => {
        expect(sortedIds(await q({}))).toEqual(["e1", "e2", "e3", "e4", "e5"]);
        expect(sortedIds(await store.query(events))).toEqual(["e1", "e2", "e3", "e4", "e5"]);
      });

      it("filters on a string", async () => {
        expect(sortedIds(await q({ where: [["kind", "==", "meeting"]] }))).toEqual(["e1", "e3", "e5"]);
        expect(await q({ where: [["kind", "==", "nothing"]] })).toEqual([]);
      });

      it("filters on a number", async () => {
        const found = await q({ where: [["n", "==", 20]] });
        expect(found).toEqual([
          { id: "e3", path: `${events}/e3`, data: { kind: "meeting", n: 20, allDay: true, note: null, rank: "e" } },
        ]);
      });

      it("filters on a boolean", async () => {
        expect(sortedIds(await q({ where: [["allDay", "==", true]] }))).toEqual(["e2", "e3"]);
        expect(sortedIds(await q({ where: [["allDay", "==", false]] }))).toEqual(["e1", "e4", "e5"]);
      });

      maybe("query-null", "filters on null", async () => {
        expect(sortedIds(await q({ where: [["note", "==", null]] }))).toEqual(["e2", "e3"]);
        expect(
          sortedIds(
            await q({
              where: [
                ["note", "==", null],
                ["kind", "==", "meeting"],
              ],
            }),
          ),
        ).toEqual(["e3"]);
      });

      maybe("query-null-missing-field", "a null filter does not match documents that lack the field", async () => {
        const c = fresh("nullmissing");
        await seed({ [`${c}/explicit`]: { note: null }, [`${c}/absent`]: { other: 1 } });
        expect(ids(await store.query(c, { where: [["note", "==", null]] }))).toEqual(["explicit"]);
      });

      maybe("query-type-strict", 'equality is type-strict (true is not 1, "1" is not 1)', async () => {
        const c = fresh("strict");
        await seed({ [`${c}/num`]: { v: 1 }, [`${c}/str`]: { v: "1" }, [`${c}/bool`]: { v: true } });
        expect(ids(await store.query(c, { where: [["v", "==", 1]] }))).toEqual(["num"]);
        expect(ids(await store.query(c, { where: [["v", "==", "1"]] }))).toEqual(["str"]);
        expect(ids(await store.query(c, { where: [["v", "==", true]] }))).toEqual(["bool"]);
      });

      it("bounds a field by a range, both ends or one, in order", async () => {
        const between = await q({
          where: [
            ["n", ">=", 20],
            ["n", "<", 50],
          ],
          orderBy: [["n", "asc"]],
        });
        expect(ids(between)).toEqual(["e3", "e1", "e5"]);
        expect(ids(await q({ where: [["rank", ">", "c"]], orderBy: [["rank", "desc"]] }))).toEqual(["e3", "e5"]);
        expect(ids(await q({ where: [["rank", "<=", "b"]], orderBy: [["rank", "asc"]], limit: 1 }))).toEqual(["e2"]);
      });

      maybe("query-range-type-strict", "a range matches values of the compared type only", async () => {
        const c = fresh("rangestrict");
        await seed({ [`${c}/num`]: { v: 5 }, [`${c}/str`]: { v: "5" }, [`${c}/nul`]: { v: null }, [`${c}/none`]: {} });
        expect(ids(await store.query(c, { where: [["v", ">=", "0"]] }))).toEqual(["str"]);
        expect(ids(await store.query(c, { where: [["v", "<", 10]] }))).toEqual(["num"]);
      });

      it("selects fields: the others are not read", async () => {
        const found = await q({ where: [["n", "==", 30]], select: ["kind", "rank"] });
        expect(found).toEqual([{ id: "e1", path: `${events}/e1`, data: { kind: "meeting", rank: "c" } }]);
        // The whole document is still read whole afterwards.
        expect((await store.get(`${events}/e1`))?.data).toEqual({
          kind: "meeting",
          n: 30,
          allDay: false,
          note: "x",
          rank: "c",
        });
      });

      it("combines several equality filters", async () => {
        expect(
          sortedIds(
            await q({
              where: [
                ["kind", "==", "meeting"],
                ["allDay", "==", false],
              ],
            }),
          ),
        ).toEqual(["e1", "e5"]);
        expect(
          ids(
            await q({
              where: [
                ["kind", "==", "meeting"],
                ["allDay", "==", false],
                ["n", "==", 40],
              ],
            }),
          ),
        ).toEqual(["e5"]);
      });

      it("orders ascending and descending, on numbers and strings", async () => {
        expect(ids(await q({ orderBy: [["n", "asc"]] }))).toEqual(["e2", "e3", "e1", "e5", "e4"]);
        expect(ids(await q({ orderBy: [["n", "desc"]] }))).toEqual(["e4", "e5", "e1", "e3", "e2"]);
        expect(ids(await q({ orderBy: [["rank", "asc"]] }))).toEqual(["e2", "e4", "e1", "e5", "e3"]);
        expect(ids(await q({ orderBy: [["rank", "desc"]] }))).toEqual(["e3", "e5", "e1", "e4", "e2"]);
      });

      it("orders on several fields", async () => {
        expect(
          ids(
            await q({
              orderBy: [
                ["kind", "asc"],
                ["n", "desc"],
              ],
            }),
          ),
        ).toEqual(["e2", "e4", "e5", "e1", "e3"]);
      });

      maybe("order-missing-field", "ordering on a field leaves out documents that lack it", async () => {
        const c = fresh("ordermissing");
        await seed({ [`${c}/a`]: { at: 2 }, [`${c}/b`]: { other: 1 }, [`${c}/c`]: { at: 1 } });
        expect(ids(await store.query(c, { orderBy: [["at", "asc"]] }))).toEqual(["c", "a"]);
      });

      it("limits, after filtering and ordering", async () => {
        expect(ids(await q({ orderBy: [["n", "asc"]], limit: 2 }))).toEqual(["e2", "e3"]);
        expect(ids(await q({ orderBy: [["n", "desc"]], limit: 1 }))).toEqual(["e4"]);
        expect(ids(await q({ where: [["kind", "==", "meeting"]], orderBy: [["n", "desc"]], limit: 2 }))).toEqual([
          "e5",
          "e1",
        ]);
        expect(ids(await q({ orderBy: [["n", "asc"]], limit: 10 }))).toHaveLength(5);
        expect(await q({ where: [["kind", "==", "call"]], limit: 5 })).toHaveLength(1);
      });

      it("startAfter keeps the documents after a value of the first orderBy field, in its direction", async () => {
        expect(ids(await q({ orderBy: [["rank", "asc"]], startAfter: "b" }))).toEqual(["e1", "e5", "e3"]);
        expect(ids(await q({ orderBy: [["rank", "asc"]], startAfter: "bb" }))).toEqual(["e1", "e5", "e3"]);
        expect(ids(await q({ orderBy: [["rank", "desc"]], startAfter: "c" }))).toEqual(["e4", "e2"]);
        expect(ids(await q({ orderBy: [["n", "asc"]], startAfter: 20, limit: 2 }))).toEqual(["e1", "e5"]);
        expect(ids(await q({ orderBy: [["n", "desc"]], startAfter: 30 }))).toEqual(["e3", "e2"]);
        expect(await q({ orderBy: [["rank", "asc"]], startAfter: "e" })).toEqual([]);
      });

      it("startAfter pages through filtered documents, each once, a page at a time", async () => {
        const seen: string[] = [];
        let after: string | undefined;
        for (;;) {
          const page = await q({
            where: [["kind", "==", "meeting"]],
            orderBy: [["rank", "asc"]],
            startAfter: after,
            limit: 2,
          });
          seen.push(...ids(page));
          if (page.length < 2) break;
          after = page[page.length - 1].data.rank as string;
        }
        expect(seen).toEqual(["e1", "e5", "e3"]);
        const inTransaction = await store.runTransaction((tx) =>
          tx.query(events, { orderBy: [["rank", "asc"]], startAfter: "c", limit: 1 }),
        );
        expect(ids(inTransaction)).toEqual(["e5"]);
      });

      it("startAfter without orderBy is refused", async () => {
        await seedEvents();
        await expect(store.query(events, { startAfter: "b" })).rejects.toThrow(/orderBy/);
      });

      it("stays inside its collection: no subcollections, siblings, or other parents", async () => {
        const c = fresh("scope");
        await seed({
          [`${c}/cal/events/in1`]: { kind: "x" },
          [`${c}/cal/events/in2`]: { kind: "x" },
          [`${c}/cal/events/in1/attendees/sub`]: { kind: "x" },
          [`${c}/cal/tasks/sibling`]: { kind: "x" },
          [`${c}/cal/events_archive/prefix`]: { kind: "x" },
          [`${c}/cal2/events/otherparent`]: { kind: "x" },
          [`${c}/cal`]: { kind: "x" },
        });
        expect(sortedIds(await store.query(`${c}/cal/events`))).toEqual(["in1", "in2"]);
        const filtered = await store.query(`${c}/cal/events`, { where: [["kind", "==", "x"]] });
        expect(filtered.map((d) => d.path).sort()).toEqual([`${c}/cal/events/in1`, `${c}/cal/events/in2`]);
        expect(ids(await store.query(`${c}/cal/events/in1/attendees`))).toEqual(["sub"]);
        expect(sortedIds(await store.query(c))).toEqual(["cal"]);
      });

      it("runs inside a transaction too", async () => {
        const found = await (async () => {
          await seedEvents();
          return store.runTransaction((tx) =>
            tx.query(events, { where: [["kind", "==", "meeting"]], orderBy: [["n", "asc"]], limit: 2 }),
          );
        })();
        expect(ids(found)).toEqual(["e3", "e1"]);
        expect(found[0]).toEqual({
          id: "e3",
          path: `${events}/e3`,
          data: { kind: "meeting", n: 20, allDay: true, note: null, rank: "e" },
        });
      });
    });

    describe("paths", () => {
      const refusedDocPaths = (c: string) => [
        "",
        `${c}`,
        `${c}/a/sub`,
        `${c}//a`,
        `${c}/a/`,
        `/${c}/a`,
        `${c}/.`,
        `${c}/..`,
        `${c}/a/../b`,
        `${c}/a%2Fb`,
        `${c}/a b`,
        `${c}/caf\u00e9`,
        `${c}/a\u0000`,
        `${c}/a/sub/..`,
        "not_in_layout/a",
        `${c}/a/../../not_in_layout/b`,
      ];

      it("refuses a document path that is not collection/id pairs of the layout, in reads and writes alike", async () => {
        const c = fresh("refused");
        await seed({ [`${c}/a`]: { n: 1 } });
        for (const path of refusedDocPaths(c)) {
          await expect(store.get(path), path).rejects.toBeInstanceOf(StorePathError);
          await expect(store.getAll([`${c}/a`, path]), path).rejects.toBeInstanceOf(StorePathError);
          await expect(
            store.runTransaction((tx) => tx.get(path)),
            path,
          ).rejects.toBeInstanceOf(StorePathError);
          for (const write of ["create", "set", "update", "delete"] as const) {
            const attempt = store.runTransaction(async (tx) => {
              tx.set(`${c}/written`, { n: 1 });
              if (write === "delete") tx.delete(path);
              else tx[write](path, { n: 2 });
            });
            await expect(attempt, `${write} ${path}`).rejects.toBeInstanceOf(StorePathError);
          }
        }
        // Nothing of a refused transaction was written, and the document next door is untouched.
        expect(await observer.get(`${c}/written`)).toBeNull();
        expect((await observer.get(`${c}/a`))?.data).toEqual({ n: 1 });
      });

      it("refuses a collection path that is not of the layout", async () => {
        const c = fresh("refusedcoll");
        for (const path of ["", `${c}/a`, `${c}/`, `${c}/../x`, `${c}/a/`, "not_in_layout", `${c}/a%2Fb/events`]) {
          await expect(store.query(path), path).rejects.toBeInstanceOf(StorePathError);
          await expect(
            store.runTransaction((tx) => tx.query(path)),
            path,
          ).rejects.toBeInstanceOf(StorePathError);
        }
      });
    });

    describe("transactions", () => {
      it("reads then writes, and returns the function's result", async () => {
        const c = fresh("rw");
        await seed({ [`${c}/cal`]: { next: 7 }, [`${c}/cal/events/e1`]: { seq: 1 } });
        const result = await store.runTransaction(async (tx) => {
          const cal = await tx.get<{ next: number }>(`${c}/cal`);
          const existing = await tx.query(`${c}/cal/events`);
          const id = `e${cal!.data.next}`;
          tx.create(`${c}/cal/events/${id}`, { seq: existing.length + 1 });
          tx.update(`${c}/cal`, { next: cal!.data.next + 1 });
          return id;
        });
        expect(result).toBe("e7");
        expect((await store.get(`${c}/cal`))?.data).toEqual({ next: 8 });
        expect((await store.get(`${c}/cal/events/e7`))?.data).toEqual({ seq: 2 });
      });

      it("a transaction whose function throws writes nothing and rethrows", async () => {
        const c = fresh("throws");
        await seed({ [`${c}/a`]: { n: 1 } });
        const boom = new Error("boom");
        const err = await store
          .runTransaction(async (tx) => {
            await tx.get(`${c}/a`);
            tx.set(`${c}/b`, { n: 2 });
            tx.update(`${c}/a`, { n: 3 });
            tx.delete(`${c}/a`);
            throw boom;
          })
          .catch((e: unknown) => e);
        expect(err).toBe(boom);
        expect((await store.get(`${c}/a`))?.data).toEqual({ n: 1 });
        expect(await store.get(`${c}/b`)).toBeNull();
      });

      it("a read after a write is refused with ReadAfterWriteError (Firestore's rule), and nothing is written", async () => {
        const c = fresh("readafterwrite");
        await seed({ [`${c}/a`]: { n: 1 } });
        const reads: Array<(tx: UncheckedTransaction) => Promise<unknown>> = [
          (tx) => tx.get(`${c}/a`),
          (tx) => tx.getAll([`${c}/a`]),
          (tx) => tx.getAll([]),
          (tx) => tx.query(c),
        ];
        const writes: Array<(tx: UncheckedTransaction) => void> = [
          (tx) => tx.create(`${c}/created`, { n: 1 }),
          (tx) => tx.set(`${c}/set`, { n: 1 }),
          (tx) => tx.update(`${c}/a`, { n: 2 }),
          (tx) => tx.delete(`${c}/a`),
        ];
        for (const write of writes) {
          for (const read of reads) {
            const err = await store
              .runTransaction(async (tx) => {
                await tx.get(`${c}/a`); // reads before the first write are fine
                write(tx);
                await read(tx);
              })
              .catch((e: unknown) => e);
            expect(err).toBeInstanceOf(ReadAfterWriteError);
          }
        }
        expect((await observer.get(`${c}/a`))?.data).toEqual({ n: 1 });
        expect(await observer.getAll([`${c}/created`, `${c}/set`])).toEqual([null, null]);
      });

      it("a read-only transaction writes nothing", async () => {
        const c = fresh("readonly");
        await seed({ [`${c}/a`]: { n: 1 } });
        expect(await store.runTransaction(async (tx) => (await tx.get(`${c}/a`))?.data)).toEqual({ n: 1 });
        expect((await store.get(`${c}/a`))?.data).toEqual({ n: 1 });
      });

      it("a transaction is answered only once its writes are visible to another client", async () => {
        const c = fresh("durable");
        const seen = await Promise.all(
          Array.from({ length: 100 }, (_, i) =>
            store
              .runTransaction(async (tx) => {
                tx.set(`${c}/d${i}`, { i });
              })
              .then(() => observer.get(`${c}/d${i}`)),
          ),
        );
        expect(seen.map((d) => d?.data)).toEqual(Array.from({ length: 100 }, (_, i) => ({ i })));
      });

      it("a failing create among concurrent transactions rejects only that one; the others' writes are kept", async () => {
        const c = fresh("concurrentcreate");
        await seed({ [`${c}/taken`]: { owner: "first" } });
        const outcomes = await Promise.allSettled(
          Array.from({ length: 10 }, (_, i) =>
            store.runTransaction(async (tx) => {
              tx.create(i === 4 ? `${c}/taken` : `${c}/d${i}`, { owner: `tx${i}` });
              return i;
            }),
          ),
        );
        expect(outcomes.map((o) => (o.status === "fulfilled" ? o.value : o.reason))).toEqual([
          0,
          1,
          2,
          3,
          expect.any(DocumentExistsError),
          5,
          6,
          7,
          8,
          9,
        ]);
        expect((outcomes[4] as PromiseRejectedResult).reason.path).toBe(`${c}/taken`);
        const expected = [0, 1, 2, 3, 5, 6, 7, 8, 9].map((i) => ({ owner: `tx${i}` }));
        const paths = [0, 1, 2, 3, 5, 6, 7, 8, 9].map((i) => `${c}/d${i}`);
        expect((await observer.getAll(paths)).map((d) => d?.data)).toEqual(expected);
        expect((await observer.get(`${c}/taken`))?.data).toEqual({ owner: "first" });
      });

      maybe(
        "failed-commit-is-atomic",
        "a failing update among concurrent transactions undoes its own writes only",
        async () => {
          const c = fresh("concurrentupdate");
          await seed({ [`${c}/counter`]: { n: 0 } });
          const bump = (n: number) =>
            store.runTransaction(async (tx) => {
              tx.update(`${c}/counter`, { n });
              tx.set(`${c}/by${n}`, { n });
            });
          const failing = store.runTransaction(async (tx) => {
            tx.set(`${c}/orphan`, { n: -1 });
            tx.update(`${c}/counter`, { n: -1 });
            tx.update(`${c}/missing`, { n: -1 });
          });
          const outcomes = await Promise.allSettled([bump(1), failing, bump(2)]);
          expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
          expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(DocumentMissingError);
          expect(await observer.get(`${c}/orphan`)).toBeNull();
          expect((await observer.get(`${c}/by1`))?.data).toEqual({ n: 1 });
          expect((await observer.get(`${c}/by2`))?.data).toEqual({ n: 2 });
          expect([1, 2]).toContain((await observer.get<{ n: number }>(`${c}/counter`))?.data.n);
        },
      );

      describe("read-only", () => {
        it("answers get, getAll and query as the plain reads do, records frozen", async () => {
          const c = fresh("readonlyreads");
          await seed({ [`${c}/a`]: { n: 1, rank: "b", meta: { x: 1 } }, [`${c}/b`]: { n: 2, rank: "a" } });
          const spec: QuerySpec = { where: [["n", ">", 0]], orderBy: [["n", "desc"]], startAfter: 2, select: ["rank"] };
          const plain = await Promise.all([
            store.get(`${c}/a`),
            store.get(`${c}/nope`),
            store.getAll([`${c}/b`, `${c}/nope`, `${c}/a`]),
            store.getAll([]),
            store.query(c, { orderBy: [["rank", "asc"]] }),
            store.query(c, spec),
          ]);
          const inside = await store.runReadOnly(async (reads) => [
            await reads.get(`${c}/a`),
            await reads.get(`${c}/nope`),
            await reads.getAll([`${c}/b`, `${c}/nope`, `${c}/a`]),
            await reads.getAll([]),
            await reads.query(c, { orderBy: [["rank", "asc"]] }),
            await reads.query(c, spec),
          ]);
          expect(inside).toEqual(plain);
          expect(inside[5]).toEqual([{ id: "a", path: `${c}/a`, data: { rank: "b" } }]);
          expect(() => (((inside[0] as StoredDoc).data as DocData).n = 3)).toThrow(TypeError);
          await expect(store.runReadOnly((reads) => reads.get("not_in_layout/a"))).rejects.toBeInstanceOf(
            StorePathError,
          );
        });

        it("has no write methods, by type and at run time, and writes nothing", async () => {
          const c = fresh("readonlynowrites");
          await seed({ [`${c}/a`]: { n: 1 } });
          const methods = await store.runReadOnly(async (reads) => {
            expect(await reads.get(`${c}/a`)).not.toBeNull();
            return ["create", "set", "update", "delete"].filter((m) => m in reads);
          });
          expect(methods).toEqual([]);
          const attempt = store.runReadOnly(async (reads) => {
            // Around the types, as plain JavaScript could.
            (reads as unknown as UncheckedTransaction).set(`${c}/a`, { n: 2 });
          });
          await expect(attempt).rejects.toBeInstanceOf(TypeError);
          expect((await observer.get(`${c}/a`))?.data).toEqual({ n: 1 });
        });

        it("rejects with its function's error", async () => {
          const boom = new Error("boom");
          await expect(store.runReadOnly(() => Promise.reject(boom))).rejects.toBe(boom);
        });

        maybe("read-only-snapshot", "reads one snapshot: a write committed between its reads is not seen", async () => {
          const c = fresh("readonlysnapshot");
          await seed({ [`${c}/a`]: { n: 1 }, [`${c}/b`]: { n: 1 } });
          let write: Promise<void> | undefined;
          const seen = await store.runReadOnly(async (reads) => {
            const a = await reads.get(`${c}/a`);
            write = store.runTransaction(async (tx) => {
              tx.set(`${c}/a`, { n: 2 });
              tx.set(`${c}/b`, { n: 2 });
            });
            // Firestore commits it now (a read-only transaction holds no lock); SQLite queues it
            // behind this transaction, so it cannot be awaited here.
            await Promise.race([write, new Promise((resolve) => setTimeout(resolve, 300))]);
            const b = await reads.get(`${c}/b`);
            return [a?.data, b?.data];
          });
          await write;
          expect(seen).toEqual([{ n: 1 }, { n: 1 }]);
          expect((await observer.getAll([`${c}/a`, `${c}/b`])).map((d) => d?.data)).toEqual([{ n: 2 }, { n: 2 }]);
        });
      });

      const contention = "20 concurrent read-increment-write transactions on one counter all count";
      const contentionCase = async () => {
        const counter = `${fresh("counter")}/c`;
        await seed({ [counter]: { n: 0 } });
        await Promise.all(
          Array.from({ length: 20 }, () =>
            store.runTransaction(async (tx) => {
              const doc = await tx.get<{ n: number }>(counter);
              tx.set(counter, { n: doc!.data.n + 1 });
            }),
          ),
        );
        expect((await store.get(counter))?.data).toEqual({ n: 20 });
      };
      if (opened.supportsContention) it(contention, contentionCase, 60_000);
      else it.skip(`${contention} [skipped on ${name}: ${opened.skipReason ?? "not supported"}]`, contentionCase);

      // The shape of an event write (domain/revision.ts): every writer reads the shared calendar
      // document but writes only its own event and one of 8 shards, so the writers do not queue
      // on one document, and the shards' counts still sum exactly.
      const sharded = "20 concurrent writers that read one shared document and write one of 8 shards all count";
      const shardedCase = async () => {
        const c = fresh("sharded");
        await seed({ [`${c}/calendar`]: { name: "shared" } });
        await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            store.runTransaction(async (tx) => {
              const shardPath = `${c}/calendar/shards/${i % 8}`;
              const [calendar, shard] = await Promise.all([tx.get(`${c}/calendar`), tx.get<{ n: number }>(shardPath)]);
              expect(calendar).not.toBeNull();
              tx.create(`${c}/calendar/events/e${i}`, { i });
              tx.set(shardPath, { n: (shard?.data.n ?? 0) + 1 });
            }),
          ),
        );
        const shards = await store.query<{ n: number }>(`${c}/calendar/shards`);
        expect(shards.reduce((sum, d) => sum + d.data.n, 0)).toBe(20);
        expect(await store.query(`${c}/calendar/events`)).toHaveLength(20);
        expect((await store.get(`${c}/calendar`))?.data).toEqual({ name: "shared" });
      };
      if (opened.supportsContention) it(sharded, shardedCase, 60_000);
      else it.skip(`${sharded} [skipped on ${name}: ${opened.skipReason ?? "not supported"}]`, shardedCase);
    });
  });
}
