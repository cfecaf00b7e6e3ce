import { describe, expect, it } from "vitest";
import { ShardLeases, leaseShard, shardLeases, withShardLeases } from "../../functions/src/domain/shard-leases.js";
import type { Store, Transaction } from "../../functions/src/storage/port.js";

/** A transaction of `store` within the instance's leases, as http/execute.ts opens one. */
const leasedTransaction = <T>(
  { store, memory }: { store: Store; memory: object },
  fn: (tx: Transaction) => Promise<T>,
): Promise<T> =>
  withShardLeases(memory, (enter) =>
    store.runTransaction((tx) => {
      enter(tx);
      return fn(tx);
    }),
  );

/** A store whose transactions are plain objects, run once (or `attempts` times, as after ABORTED). */
function fakeStore(attempts = 1): Store {
  return {
    runTransaction: async <T>(fn: (tx: Transaction) => Promise<T>): Promise<T> => {
      let result: T | undefined;
      for (let i = 0; i < attempts; i++) result = await fn({} as Transaction);
      return result as T;
    },
  } as Store;
}

const tick = () => new Promise((done) => setTimeout(done, 5));

describe("shard leases", () => {
  it("hands concurrent writes of one calendar different shards, and a ninth waits for the first given back", async () => {
    const leases = new ShardLeases();
    const taken = await Promise.all(Array.from({ length: 8 }, () => leases.take("cal", 8, null)));
    expect(new Set(taken).size).toBe(8);
    let ninth: number | null | undefined;
    void leases.take("cal", 8, null).then((i) => (ninth = i));
    await tick();
    expect(ninth).toBeUndefined();
    leases.release("cal", taken[3]!);
    await tick();
    expect(ninth).toBe(taken[3]);
    for (const i of taken) leases.release("cal", i!);
    expect(leases.size).toBe(0);
  });

  it("a shard asked for by index waits for that one only; other calendars are apart", async () => {
    const leases = new ShardLeases();
    expect(await leases.take("cal", 8, 2)).toBe(2);
    expect(await leases.take("other", 8, 2)).toBe(2);
    let second: number | null | undefined;
    void leases.take("cal", 8, 2).then((i) => (second = i));
    const any = await leases.take("cal", 8, null);
    expect(any).not.toBe(2);
    leases.release("cal", any!);
    await tick();
    expect(second).toBeUndefined();
    leases.release("cal", 2);
    await tick();
    expect(second).toBe(2);
  });

  it("gives up after the wait: null, and nothing is left held", async () => {
    const leases = new ShardLeases();
    expect(await leases.take("cal", 1, null)).toBe(0);
    expect(await leases.take("cal", 1, null, 10)).toBeNull();
    leases.release("cal", 0);
    expect(leases.size).toBe(0);
  });

  it("a transaction keeps its shard across attempts and gives it back when it settles", async () => {
    const memory = {};
    const drawn: Array<number | null> = [];
    await leasedTransaction({ store: fakeStore(3), memory }, async (tx) => {
      drawn.push(await leaseShard(tx, "cal", 8));
    });
    expect(new Set(drawn).size).toBe(1);
    expect(drawn[0]).not.toBeNull();
    expect(shardLeases(memory).size).toBe(0);
    await expect(
      leasedTransaction({ store: fakeStore(), memory }, async (tx) => {
        await leaseShard(tx, "cal", 8);
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    expect(shardLeases(memory).size).toBe(0);
  });

  it("twenty transactions at once on 8 shards: never two on one shard at a time", async () => {
    const memory = {};
    const inUse = new Set<number>();
    let overlaps = 0;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        leasedTransaction({ store: fakeStore(), memory }, async (tx) => {
          const index = (await leaseShard(tx, "cal", 8))!;
          if (inUse.has(index)) overlaps += 1;
          inUse.add(index);
          await tick();
          inUse.delete(index);
        }),
      ),
    );
    expect(overlaps).toBe(0);
    expect(shardLeases(memory).size).toBe(0);
  });

  it("a transaction opened without leases draws as before", async () => {
    expect(await leaseShard({} as Transaction, "cal", 8)).toBeNull();
  });
});
