/**
 * Typed references (domain/paths.ts): the record type comes from the reference, and a write
 * that does not fit the record fails the build. The `@ts-expect-error` lines are the test:
 * `npm run typecheck` fails if any of them stops being an error. They sit in a function that
 * never runs, so nothing wrong is ever written.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { LAYOUT, paths } from "../../functions/src/domain/paths.js";
import type { CalendarRecord, EventRecord, ShardRecord } from "../../functions/src/domain/records.js";
import type { Store, StoredDoc, Transaction, TransactionReads } from "../../functions/src/storage/port.js";
import { SqliteStore } from "../../functions/src/storage/sqlite/index.js";

const event = paths.event("cal_1", "evt_1");
const shard: ShardRecord = { revision: "r1", event_count: 0 };

/** Never called: each marked line must not compile. */
async function misuses(store: Store, tx: Transaction, reads: TransactionReads): Promise<void> {
  // @ts-expect-error a misspelt field
  tx.set(paths.shard("cal_1", 0), { revison: "r", event_count: 0 });
  // @ts-expect-error a missing field
  tx.create(paths.shard("cal_1", 0), { revision: "r" });
  // @ts-expect-error another record's data at this reference
  tx.set(paths.shard("cal_1", 0), { owner_id: "cal_1" });
  // @ts-expect-error an update of a field the record does not have
  tx.update(paths.shard("cal_1", 0), { event_cont: 1 });
  // @ts-expect-error a value of the wrong type
  tx.update(paths.shard("cal_1", 0), { event_count: "1" });
  // @ts-expect-error a path made of a string, not by domain/paths.ts
  await store.get("calendars/cal_1");
  // @ts-expect-error a type argument that is not the reference's record
  await store.get<CalendarRecord>(event);
  // @ts-expect-error a filter on a field the record does not have
  await store.query(paths.grants("cal_1"), { where: [["rol", "==", "owner"]] });
  // @ts-expect-error a filter value the field cannot hold
  await store.query(paths.grants("cal_1"), { where: [["role", "==", "admin"]] });
  // @ts-expect-error an order on a field the record does not have
  await store.query(paths.events("cal_1"), { orderBy: [["sortkey", "asc"]] });
  // @ts-expect-error a read-only transaction has no writes
  reads.set(paths.shard("cal_1", 0), shard);
  // @ts-expect-error nor does what a read-only transaction is given
  await store.runReadOnly(async (r) => r.delete(paths.shard("cal_1", 0)));
  const read = await store.get(paths.shard("cal_1", 0));
  // @ts-expect-error records read are read-only (and frozen at run time)
  if (read) read.data.event_count = 2;
}

describe("typed references", () => {
  it("reads return the reference's record and writes take it, with no type argument", async () => {
    const store: Store = new SqliteStore(":memory:", { layout: LAYOUT });
    try {
      expectTypeOf(misuses).toBeFunction();
      await store.runTransaction(async (tx) => tx.create(paths.shard("cal_1", 0), shard));
      const read = await store.get(paths.shard("cal_1", 0));
      expectTypeOf(read).toEqualTypeOf<StoredDoc<ShardRecord> | null>();
      expectTypeOf(await store.get(event)).toEqualTypeOf<StoredDoc<EventRecord> | null>();
      expectTypeOf(await store.query(paths.events("cal_1"))).toEqualTypeOf<StoredDoc<EventRecord>[]>();
      expect(read?.data).toEqual(shard);
      expect(read?.path).toBe("calendars/cal_1/shards/0");
    } finally {
      await store.close();
    }
  });
});
