import { describe, expect, it } from "vitest";
import { PreparedJson, ResponseCache } from "../../functions/src/http/response-cache.js";

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

  it("serializes JSON once and hands it out prepared", async () => {
    const cache = new ResponseCache();
    const body = await cache.json("k", async () => ({ events: [1, 2] }));
    expect(body).toBeInstanceOf(PreparedJson);
    expect(body.body.toString()).toBe('{"events":[1,2]}');
  });

  it("evicts the least recently used entries past its budget and skips values too big to keep", async () => {
    const cache = new ResponseCache(40);
    let computed = 0;
    const ten = async () => `${++computed}`.padEnd(10, ".");
    await cache.body("a", ten);
    await cache.body("b", ten);
    await cache.body("c", ten);
    await cache.body("a", ten); // a is now the most recent
    await cache.body("d", ten);
    await cache.body("e", ten); // over 40 chars: b goes first, then c
    expect(computed).toBe(5);
    await cache.body("a", ten);
    expect(computed).toBe(5);
    await cache.body("b", ten);
    expect(computed).toBe(6);
    const big = async () => "x".repeat(11);
    await cache.body("big", big);
    let again = 0;
    await cache.body("big", async () => `${++again}`);
    expect(again).toBe(1);
  });
});
