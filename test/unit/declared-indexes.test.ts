/**
 * The test apps' store refuses a query Firestore could not answer with the indexes
 * firestore.indexes.json declares (test/helpers/declared-indexes.ts), in transactions too.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LAYOUT, paths } from "../../functions/src/domain/paths.js";
import { SqliteStore } from "../../functions/src/storage/sqlite/index.js";
import {
  compositeIndexFor,
  declaredIndexesOnly,
  missingIndex,
  UndeclaredIndexError,
  type IndexSpec,
} from "../helpers/declared-indexes.js";

const CAL = "cal_aaaaaaaaaaaaaaaaaaaa";
const requests = paths.accessRequests(CAL);
const byStatusNewest = { where: [["status", "==", "pending"]], orderBy: [["created_at", "desc"]] } as const;
const statusIndex = {
  collectionGroup: "access_requests",
  queryScope: "COLLECTION",
  fields: [
    { fieldPath: "status", order: "ASCENDING" },
    { fieldPath: "created_at", order: "DESCENDING" },
  ],
} as const;

describe("the index a query needs", () => {
  it("is none for equality filters alone, or for one field however it is filtered and ordered", () => {
    expect(compositeIndexFor(requests, {})).toBeNull();
    expect(
      compositeIndexFor(requests, {
        where: [
          ["status", "==", "pending"],
          ["agent_id", "==", "agt_x"],
        ],
      }),
    ).toBeNull();
    expect(compositeIndexFor(requests, { orderBy: [["created_at", "desc"]], startAfter: "2026", limit: 5 })).toBeNull();
    expect(
      compositeIndexFor(requests, {
        where: [
          ["created_at", ">=", "2026"],
          ["created_at", "<", "2027"],
        ],
      }),
    ).toBeNull();
    expect(
      compositeIndexFor(requests, { where: [["status", "==", "pending"]], orderBy: [["status", "asc"]] }),
    ).toBeNull();
  });

  it("is the equality fields, then the order's, for any other query; the collection group is the last segment", () => {
    expect(compositeIndexFor(requests, byStatusNewest)).toEqual(statusIndex);
    // A range orders by its field: equality on one field and a range on another need an index too.
    expect(
      compositeIndexFor(requests, {
        where: [
          ["status", "==", "pending"],
          ["created_at", ">", "2026"],
        ],
      }),
    ).toEqual({
      ...statusIndex,
      fields: [statusIndex.fields[0], { fieldPath: "created_at", order: "ASCENDING" }],
    });
  });
});

describe("declared indexes", () => {
  const none: IndexSpec = { indexes: [] };

  it("accepts a composite query whose index is declared, in either order of the equality fields", () => {
    expect(missingIndex(requests, byStatusNewest, { indexes: [statusIndex] })).toBeNull();
    const two = {
      where: [
        ["status", "==", "x"],
        ["agent_id", "==", "y"],
      ],
      orderBy: [["created_at", "desc"]],
    } as const;
    const index = {
      ...statusIndex,
      fields: [{ fieldPath: "status" }, { fieldPath: "agent_id" }, statusIndex.fields[1]],
    };
    const declared = (...first: string[]) => ({
      indexes: [
        {
          ...index,
          fields: [...first.map((fieldPath) => ({ fieldPath, order: "ASCENDING" as const })), index.fields[2]],
        },
      ],
    });
    expect(missingIndex(requests, two, declared("status", "agent_id"))).toBeNull();
    expect(missingIndex(requests, two, declared("agent_id", "status"))).toBeNull();
  });

  it("refuses one whose order's direction, fields or collection group differ from every declared index", () => {
    const asc = { ...byStatusNewest, orderBy: [["created_at", "asc"]] } as const;
    expect(missingIndex(requests, asc, { indexes: [statusIndex] })).toContain('"order":"ASCENDING"');
    const owners = { where: [["role", "==", "owner"]], orderBy: [["created_at", "desc"]] } as const;
    expect(missingIndex(paths.grants(CAL), owners, { indexes: [statusIndex] })).toContain('"collectionGroup":"grants"');
    expect(missingIndex(requests, byStatusNewest, none)).toContain(JSON.stringify(statusIndex));
  });

  it("refuses a query on a field exempted from indexing, unless a composite index serves it", () => {
    const exempt: IndexSpec = {
      indexes: [],
      fieldOverrides: [{ collectionGroup: "access_requests", fieldPath: "message", indexes: [] }],
    };
    expect(missingIndex(requests, { orderBy: [["message", "asc"]] }, exempt)).toContain("exempted");
    const both = {
      where: [
        ["message", "==", "x"],
        ["status", "==", "pending"],
      ],
    } as const;
    expect(missingIndex(requests, both, exempt)).toContain("needs a composite index");
    const served = {
      ...exempt,
      indexes: [
        { ...statusIndex, fields: [{ fieldPath: "message", order: "ASCENDING" as const }, statusIndex.fields[0]] },
      ],
    };
    expect(missingIndex(requests, both, served)).toBeNull();
    expect(missingIndex(requests, { where: [["status", "==", "pending"]] }, exempt)).toBeNull();
  });

  it("holds for the repository's firestore.indexes.json: the access requests of one status, newest first", () => {
    expect(missingIndex(requests, byStatusNewest)).toBeNull();
    expect(
      missingIndex(paths.agents(), { where: [["owner_user_id", "==", "u"]], orderBy: [["created_at", "desc"]] }),
    ).toBeNull();
  });
});

describe("the store of the test apps", () => {
  let dir: string;
  let sqlite: SqliteStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "almanac-indexes-"));
    sqlite = new SqliteStore(join(dir, "almanac.sqlite"), { layout: LAYOUT });
  });
  afterEach(async () => {
    await sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("fails an undeclared composite query, outside and inside transactions, and runs the others", async () => {
    const store = declaredIndexesOnly(sqlite, { indexes: [] });
    await expect(store.query(requests, byStatusNewest)).rejects.toThrow(UndeclaredIndexError);
    await expect(store.query(requests, byStatusNewest)).rejects.toThrow(/access_requests.*created_at/);
    await expect(store.runTransaction((tx) => tx.query(requests, byStatusNewest))).rejects.toThrow(
      UndeclaredIndexError,
    );
    await expect(store.runReadOnly((reads) => reads.query(requests, byStatusNewest))).rejects.toThrow(
      UndeclaredIndexError,
    );
    await expect(
      store.count(requests, {
        where: [
          ["status", "==", "x"],
          ["created_at", ">", "2026"],
        ],
      }),
    ).rejects.toThrow(UndeclaredIndexError);
    expect(await store.query(requests, { orderBy: [["created_at", "desc"]], startAfter: "2026", limit: 2 })).toEqual(
      [],
    );
    expect(await store.runTransaction((tx) => tx.query(requests, { where: [["status", "==", "pending"]] }))).toEqual(
      [],
    );
    expect(await store.count(requests, { where: [["status", "==", "pending"]] })).toBe(0);
  });

  it("runs a declared one, and passes the rest of the store through", async () => {
    const store = declaredIndexesOnly(sqlite, { indexes: [statusIndex] });
    expect(await store.query(requests, byStatusNewest)).toEqual([]);
    expect(store.singleProcess).toBe(true);
    expect(store.purgeExpired("claims", "purge_at", new Date())).toBe(0);
  });
});
