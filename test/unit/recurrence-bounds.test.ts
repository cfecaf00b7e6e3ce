import { describe, expect, it } from "vitest";
import {
  countOccurrences,
  expandRecurrence,
  firstOccurrenceOnOrAfter,
  isInputDate,
  toRRule,
} from "../../functions/src/domain/recurrence/index.js";
import type { Recur } from "../../functions/src/domain/types.js";

/** Issue 9: no date outside the years 0001-9999 is taken as input or produced by a series. */
describe("the years 0001 to 9999", () => {
  it("isInputDate takes real dates of those years only", () => {
    for (const ok of ["0001-01-01", "2026-02-28", "2024-02-29", "9999-12-31"]) expect(isInputDate(ok), ok).toBe(true);
    for (const bad of ["0000-01-01", "0000-12-31", "10000-01-01", "2026-02-29", "+2026-01-01", "2026-1-01", ""]) {
      expect(isInputDate(bad), bad).toBe(false);
    }
  });

  it("a series without `until` ends on 9999-12-31", () => {
    const yearly: Recur = { type: "yearly", month: 2, day: 29, interval: 1000, starts: "9000-01-01" };
    expect(firstOccurrenceOnOrAfter(yearly, "9000-01-01", "9000-01-01")).toBeNull(); // 10000-02-29 is past the end
    const daily: Recur = { type: "daily", interval: 1, starts: "9999-12-30" };
    expect(expandRecurrence(daily, "9999-12-30", "9999-12-01", "9999-12-31")).toEqual(["9999-12-30", "9999-12-31"]);
    expect(countOccurrences(daily, "9999-12-30", "9999-12-01", "9999-12-31")).toBe(2);
    const every1000Years: Recur = { type: "yearly", month: 3, day: 26, interval: 1000, starts: "9000-03-26" };
    expect(firstOccurrenceOnOrAfter(every1000Years, "9000-03-26", "9500-01-01")).toBeNull();
    expect(toRRule(every1000Years, "9000-03-26").dtstart).toBe("9000-03-26");
  });
});
