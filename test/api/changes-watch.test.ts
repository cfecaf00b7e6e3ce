/**
 * The change feed's watcher (domain/change-watch.ts) over a stand-in store whose shard
 * counters the test sets: one read serves every waiter, a waiter that joins after the watcher
 * has read past its position is woken without a read of its own, and a signal that comes
 * before its write commits is followed by quick reads until the counters move.
 */
import { describe, expect, it } from "vitest";
import { signalChange } from "../../functions/src/domain/change-signals.js";
import { nextChange } from "../../functions/src/domain/change-watch.js";
import type { Deps } from "../../functions/src/domain/deps.js";
import { newId } from "../../functions/src/domain/ids.js";
import { testConfig } from "../helpers/config.js";
import type { Store, TransactionReads } from "../../functions/src/storage/port.js";

const CONFIG = testConfig();

/** A store that answers the shards query with `seqs` (shard n's change_seq), counting reads. */
function counterStore(seqs: number[]) {
  const seen = { reads: 0 };
  const reads = {
    query: () => Promise.resolve(seqs.map((seq, n) => ({ id: String(n), data: { change_seq: seq } }))),
  } as unknown as TransactionReads;
  const store = {
    runReadOnly: <R>(fn: (r: TransactionReads) => Promise<R>) => {
      seen.reads++;
      return fn(reads);
    },
  } as unknown as Store;
  const deps: Pick<Deps, "store" | "memory" | "log" | "config"> = {
    config: CONFIG,
    store,
    memory: {},
    log: (line) => {
      throw new Error(line);
    },
  };
  return { deps, seen };
}

const zeros = () => new Array<number>(CONFIG.revisionShards).fill(0);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the change feed's watcher", () => {
  it("wakes every waiter a counter passed after one read, and a late waiter without another", async () => {
    const seqs = zeros();
    const { deps, seen } = counterStore(seqs);
    const cal = newId("cal");
    const idle = new AbortController();
    const ahead = nextChange(deps, cal, [5, ...zeros().slice(1)], 10_000, idle.signal);
    const waiters = Array.from({ length: 3 }, () => nextChange(deps, cal, zeros(), 10_000, idle.signal));
    seqs[0] = 1;
    signalChange(cal);
    const woken = await Promise.all(waiters);
    expect(woken.map((c) => c?.[0])).toEqual([1, 1, 1]);
    expect(seen.reads).toBe(1);

    const late = await nextChange(deps, cal, zeros(), 10_000, idle.signal);
    expect(late?.[0]).toBe(1);
    expect(seen.reads).toBe(1);
    idle.abort();
    expect(await ahead).toBeNull();
  });

  it("after a signal that finds nothing yet, reads again soon and wakes once the counters move", async () => {
    const seqs = zeros();
    const { deps, seen } = counterStore(seqs);
    const cal = newId("cal");
    const waiting = nextChange(deps, cal, zeros(), 10_000, new AbortController().signal);
    signalChange(cal); // the write has not committed yet
    await sleep(30);
    expect(seen.reads).toBeGreaterThanOrEqual(1);
    seqs[3] = 1;
    const began = performance.now();
    expect((await waiting)?.[3]).toBe(1);
    expect(performance.now() - began).toBeLessThan(500);
    expect(seen.reads).toBeLessThanOrEqual(4);
  });
});
