/** What an instance keeps of calendars' shard revisions, and when it forgets (domain/kept-revisions.ts). */
import { describe, expect, it } from "vitest";
import { KEPT_REVISIONS_MS, KeptRevisions } from "../../functions/src/domain/kept-revisions.js";
import type { ShardRecord } from "../../functions/src/domain/records.js";

type Shards = ShardRecord[] | null;

/** A read the test answers by hand, and how many reads were made. */
function reads() {
  const pending: Array<(shards: Shards) => void> = [];
  let made = 0;
  return {
    read: () => {
      made++;
      return new Promise<Shards>((resolve) => pending.push(resolve));
    },
    answer: (revision: string) => pending.shift()!([{ revision, event_count: 0 }]),
    get made() {
      return made;
    },
  };
}

const revisionOf = async (shards: Promise<Shards>) => (await shards)?.[0]?.revision;

describe("KeptRevisions", () => {
  it("shares one read within the window, reads again after it", async () => {
    const kept = new KeptRevisions();
    const r = reads();
    const first = kept.shards("cal_a", 0, r.read);
    const second = kept.shards("cal_a", KEPT_REVISIONS_MS - 1, r.read);
    r.answer("one");
    expect(await revisionOf(first)).toBe("one");
    expect(await revisionOf(second)).toBe("one");
    expect(r.made).toBe(1);
    const third = kept.shards("cal_a", KEPT_REVISIONS_MS, r.read);
    r.answer("two");
    expect(await revisionOf(third)).toBe("two");
    expect(r.made).toBe(2);
  });

  it("never keeps, after a change is forgotten, a read that started before it", async () => {
    const kept = new KeptRevisions();
    const r = reads();
    const raced = kept.shards("cal_a", 0, r.read);
    kept.forget("cal_a");
    r.answer("old");
    expect(await revisionOf(raced)).toBe("old");
    const after = kept.shards("cal_a", 1, r.read);
    r.answer("new");
    expect(await revisionOf(after)).toBe("new");
    expect(r.made).toBe(2);
  });

  it("keeps nothing read while a write is in flight, and reads again once it has settled", async () => {
    const kept = new KeptRevisions();
    const r = reads();
    kept.hold("cal_a");
    const during = kept.shards("cal_a", 0, r.read);
    r.answer("before the commit");
    await during;
    kept.hold("cal_a"); // a second write at once
    kept.release("cal_a");
    const stillHeld = kept.shards("cal_a", 1, r.read);
    r.answer("still before");
    await stillHeld;
    kept.release("cal_a");
    const after = kept.shards("cal_a", 2, r.read);
    r.answer("after the commit");
    expect(await revisionOf(after)).toBe("after the commit");
    expect(await revisionOf(kept.shards("cal_a", 3, r.read))).toBe("after the commit");
    expect(r.made).toBe(3);
  });

  it("holds only the calendars read within the window, and forgets a failed read", async () => {
    const kept = new KeptRevisions();
    const r = reads();
    for (let i = 0; i < 5; i++) {
      void kept.shards(`cal_${i}`, 0, r.read);
      r.answer("x");
    }
    expect(kept.size).toBe(5);
    void kept.shards("cal_late", KEPT_REVISIONS_MS, r.read);
    r.answer("y");
    expect(kept.size).toBe(1);
    const failed = kept.shards("cal_fail", KEPT_REVISIONS_MS, () => Promise.reject(new Error("unavailable")));
    await expect(failed).rejects.toThrow("unavailable");
    expect(kept.size).toBe(1);
  });

  it("keeps nothing read at a later time when the clock goes back", async () => {
    const kept = new KeptRevisions();
    const r = reads();
    void kept.shards("cal_a", 5_000, r.read);
    r.answer("later");
    void kept.shards("cal_a", 4_000, r.read);
    r.answer("earlier");
    expect(r.made).toBe(2);
  });
});
