import { describe, expect, it } from "vitest";
import {
  ENTRY_OVERHEAD_BYTES,
  MAX_KEY_LENGTH,
  PreparedJson,
  ResponseCache,
} from "../../functions/src/http/response-cache.js";

describe("ResponseCache", () => {
  it("computes once per key and answers later calls from memory", async () => {
    const cache = new ResponseCache();
    let computed = 0;
    const compute = async () => `value ${++computed}`;
    expect((await cache.body("a", compute)).toString()).toBe("value 1");
    expect((await cache.body("a", compute)).toString()).toBe("value 1");
    expect((await cache.body("b", compute)).toString()).toBe("value 2");
    expect(computed).toBe(2);
  });

  it("computes a key once for callers that miss it at the same time, and afresh after a failure", async () => {
    const cache = new ResponseCache();
    let computed = 0;
    let release!: () => void;
    const gate = new Promise<void>((done) => (release = done));
    const slow = async () => {
      computed++;
      await gate;
      return "rendered";
    };
    const waiting = Array.from({ length: 5 }, () => cache.body("feed", slow));
    release();
    const bodies = await Promise.all(waiting);
    expect(computed).toBe(1);
    for (const body of bodies) expect(body).toBe(bodies[0]);

    const failing = async () => {
      computed++;
      throw new Error("store busy");
    };
    await expect(Promise.all([cache.body("other", failing), cache.body("other", failing)])).rejects.toThrow(
      "store busy",
    );
    expect(computed).toBe(2);
    expect((await cache.body("other", async () => "recovered")).toString()).toBe("recovered");
  });

  it("serializes JSON once and hands it out prepared", async () => {
    const cache = new ResponseCache();
    const body = await cache.json("k", async () => ({ events: [1, 2] }));
    expect(body).toBeInstanceOf(PreparedJson);
    expect(body.body.toString()).toBe('{"events":[1,2]}');
  });

  it("evicts the least recently used entries past its budget and skips values too big to keep", async () => {
    const perEntry = 1 * 2 + 10 + ENTRY_OVERHEAD_BYTES; // a one-character key and a ten-byte value
    const cache = new ResponseCache(4 * perEntry);
    let computed = 0;
    const ten = async () => `${++computed}`.padEnd(10, ".");
    await cache.body("a", ten);
    await cache.body("b", ten);
    await cache.body("c", ten);
    await cache.body("d", ten);
    await cache.body("a", ten); // a is now the most recent
    await cache.body("e", ten); // a fifth entry: b goes first
    expect(computed).toBe(5);
    await cache.body("a", ten);
    expect(computed).toBe(5);
    await cache.body("b", ten); // then c
    expect(computed).toBe(6);
    await cache.body("d", ten);
    expect(computed).toBe(6);
    await cache.body("c", ten);
    expect(computed).toBe(7);
    // A value over a quarter of the budget is answered, not kept.
    const big = async () => "x".repeat(perEntry);
    await cache.body("f", big);
    let again = 0;
    await cache.body("f", async () => `${++again}`);
    expect(again).toBe(1);
  });

  it("counts keys and a per-entry overhead against its budget, not only values", async () => {
    // Issue 9: 40,000 unique 14 KB keys with tiny values grew a process by 700 MB.
    const budget = 64 * 1024;
    const cache = new ResponseCache(budget);
    const key = (i: number) => `${i}|${"k".repeat(400)}`;
    for (let i = 0; i < 1000; i++) await cache.body(key(i), async () => "{}");
    expect(cache.stats().bytes).toBeLessThanOrEqual(budget);
    const perEntry = key(999).length * 2 + 2 + ENTRY_OVERHEAD_BYTES;
    expect(cache.stats().entries).toBe(Math.floor(budget / perEntry));
    // The oldest went first.
    let recomputed = 0;
    await cache.body(key(0), async () => `${++recomputed}`);
    expect(recomputed).toBe(1);
  });

  it("answers keys longer than MAX_KEY_LENGTH without keeping them", async () => {
    const cache = new ResponseCache();
    let computed = 0;
    const long = "x".repeat(MAX_KEY_LENGTH + 1);
    expect((await cache.body(long, async () => `value ${++computed}`)).toString()).toBe("value 1");
    expect((await cache.body(long, async () => `value ${++computed}`)).toString()).toBe("value 2");
    expect(cache.stats()).toEqual({ entries: 0, bytes: 0 });
    await cache.body("x".repeat(MAX_KEY_LENGTH), async () => "kept");
    expect(cache.stats().entries).toBe(1);
  });
});
