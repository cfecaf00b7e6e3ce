/** loadOnce (lazy.ts): what the local server and feeds load on first use. */
import { describe, expect, it } from "vitest";
import { loadOnce } from "../../functions/src/lazy.js";

describe("loadOnce", () => {
  it("loads on the first call, not before, and shares that load with every later call", async () => {
    let loads = 0;
    const app = loadOnce(async () => ({ id: ++loads }));
    expect(loads).toBe(0);
    const [a, b] = await Promise.all([app(), app()]);
    expect(await app()).toBe(a);
    expect(b).toBe(a);
    expect(loads).toBe(1);
  });

  it("tries again after a failed load instead of keeping the failure", async () => {
    let loads = 0;
    const app = loadOnce(async () => {
      if (++loads === 1) throw new Error("module missing");
      return "loaded";
    });
    await expect(app()).rejects.toThrow("module missing");
    expect(await app()).toBe("loaded");
    expect(loads).toBe(2);
  });
});
