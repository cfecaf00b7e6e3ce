/**
 * What `days` means (functions/src/domain/events/span.ts): the end of a timed span, its end
 * date, and which ranges hold it. The rules' defaults and refusals: events-rules.test.ts.
 */
import { describe, expect, it } from "vitest";
import {
  coversRange,
  earliestStartCovering,
  endAfterStart,
  endDateOf,
  lastDayOf,
} from "../../functions/src/domain/events/span.js";

describe("a span of days", () => {
  it("ends after whole days, then the elapsed time from the start time", () => {
    expect(endAfterStart(1, "09:00", "17:00")).toEqual({ days: 0, minutes: 480 });
    expect(endAfterStart(1, "22:00", "02:00")).toEqual({ days: 0, minutes: 240 });
    expect(endAfterStart(3, "09:00", "17:00")).toEqual({ days: 2, minutes: 480 });
    // Ending earlier in the day than it starts: the last stretch begins the evening before.
    expect(endAfterStart(3, "22:00", "02:00")).toEqual({ days: 1, minutes: 240 });
    expect(endAfterStart(2, "09:00", "09:00")).toEqual({ days: 0, minutes: 1440 });
  });

  it("ends on its last date, a one-day overnight occurrence on the next", () => {
    const on = (start_time: string | null, end_time: string | null) => ({ date: "2026-12-30", start_time, end_time });
    expect(endDateOf(on(null, null), 3)).toBe("2027-01-01");
    expect(endDateOf(on("09:00", "17:00"), 1)).toBe("2026-12-30");
    expect(endDateOf(on("22:00", "02:00"), 1)).toBe("2026-12-31");
    expect(endDateOf(on("22:00", "02:00"), 3)).toBe("2027-01-01");
    expect(endDateOf(on("09:00", null), 1)).toBe("2026-12-30");
    expect(lastDayOf("9999-12-30", 5)).toBe("9999-12-31");
  });

  it("is in a range when one of its dates is", () => {
    expect(coversRange("2026-12-07", 3, "2026-12-09", "2026-12-20")).toBe(true);
    expect(coversRange("2026-12-07", 3, "2026-12-10", "2026-12-20")).toBe(false);
    expect(coversRange("2026-12-07", 1, "2026-12-01", "2026-12-06")).toBe(false);
    expect(earliestStartCovering("2026-12-09", 3)).toBe("2026-12-07");
    expect(earliestStartCovering("0001-01-02", 366)).toBe("0001-01-01");
  });
});
