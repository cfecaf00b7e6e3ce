/**
 * How long a change-feed request may hold, and how many may hold at once, under the deployed
 * function's options (functions/src/index.ts, functions/.env): docs/ARCHITECTURE.md, "Change feed".
 * Read at start into `config.changeFeed` (functions/src/config.ts).
 */
import { describe, expect, it } from "vitest";
import { readConfig } from "../../functions/src/config.js";
import { MAX_WAIT_SECONDS } from "../../functions/src/domain/queries/changes.js";

const changeFeedLimits = (env: Record<string, string | undefined>) => readConfig(env).changeFeed;

describe("config.changeFeed", () => {
  it("locally (no function options in the environment) honours wait up to 60 s, for any number of waiters", () => {
    expect(changeFeedLimits({})).toEqual({ maxHoldSeconds: MAX_WAIT_SECONDS, maxWaiters: Infinity });
  });

  it("deployed, answers 5 s before the function's timeout and Hosting's 60 s, with half the concurrency waiting", () => {
    expect(changeFeedLimits({ ALMANAC_TIMEOUT_SECONDS: "60", ALMANAC_CONCURRENCY: "80" })).toEqual({
      maxHoldSeconds: 55,
      maxWaiters: 40,
    });
    expect(changeFeedLimits({ ALMANAC_TIMEOUT_SECONDS: "540", ALMANAC_CONCURRENCY: "1" })).toEqual({
      maxHoldSeconds: 55,
      maxWaiters: 0,
    });
    expect(changeFeedLimits({ ALMANAC_TIMEOUT_SECONDS: "20" }).maxHoldSeconds).toBe(15);
    expect(changeFeedLimits({ ALMANAC_TIMEOUT_SECONDS: "3" }).maxHoldSeconds).toBe(0);
  });

  it("stops the start on a value that is no whole number", () => {
    expect(() => changeFeedLimits({ ALMANAC_TIMEOUT_SECONDS: "a minute" })).toThrow(
      'ALMANAC_TIMEOUT_SECONDS must be a whole number of at least 1, not "a minute"',
    );
    expect(() => changeFeedLimits({ ALMANAC_CONCURRENCY: "0" })).toThrow(/ALMANAC_CONCURRENCY/);
  });

  it("matches the deployed defaults in functions/.env", async () => {
    const { readFileSync } = await import("node:fs");
    const env = Object.fromEntries(
      readFileSync(new URL("../../functions/.env", import.meta.url), "utf8")
        .split("\n")
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => line.split("=", 2)),
    ) as NodeJS.ProcessEnv;
    expect(changeFeedLimits(env)).toEqual({ maxHoldSeconds: 55, maxWaiters: 40 });
  });
});
