/**
 * What `days` means (functions/src/domain/events/span.ts) and how the event rules take it
 * (events/rules.ts): the end of a timed span, its end date, which ranges hold it, and the
 * refusals a write meets.
 */
import { describe, expect, it } from "vitest";
import { DomainError } from "../../functions/src/domain/errors.js";
import { applyEventPatch, eventFieldsFromCreate } from "../../functions/src/domain/events/rules.js";
import {
  coversRange,
  earliestStartCovering,
  endAfterStart,
  endDateOf,
  lastDayOf,
} from "../../functions/src/domain/events/span.js";

const TODAY = "2026-11-22";

function refusedField(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError && err.code === "invalid_event") return String(err.details?.field);
    throw err;
  }
  throw new Error("expected invalid_event");
}

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

describe("days in the event rules", () => {
  const dated = { name: "Offsite", date: "2026-12-07" };

  it("defaults to one, keeps what a PATCH leaves out, and takes null as one", () => {
    const offsite = eventFieldsFromCreate({ ...dated, days: 3 }, TODAY);
    expect(eventFieldsFromCreate(dated, TODAY).days).toBe(1);
    expect(applyEventPatch(offsite, { date: "2026-12-14" }, TODAY)).toMatchObject({ date: "2026-12-14", days: 3 });
    expect(applyEventPatch(offsite, { days: null }, TODAY).days).toBe(1);
    // A stored event from before spans has none: one.
    const { days: _none, ...older } = eventFieldsFromCreate(dated, TODAY);
    expect(applyEventPatch(older, { name: "Renamed" }, TODAY).days).toBe(1);
  });

  it("refuses days on a someday event, and sets them back to one when an event becomes someday", () => {
    expect(refusedField(() => eventFieldsFromCreate({ name: "Later", days: 2 }, TODAY))).toBe("days");
    const offsite = eventFieldsFromCreate({ ...dated, days: 3 }, TODAY);
    expect(applyEventPatch(offsite, { date: null }, TODAY)).toMatchObject({ kind: "someday", days: 1 });
    expect(refusedField(() => applyEventPatch(offsite, { date: null, days: 3 }, TODAY))).toBe("days");
    expect(eventFieldsFromCreate({ name: "Later", days: 1 }, TODAY).days).toBe(1);
  });

  it("asks a timed span for its end time, and lets it equal the start time", () => {
    expect(refusedField(() => eventFieldsFromCreate({ ...dated, days: 2, start_time: "09:00" }, TODAY))).toBe(
      "end_time",
    );
    const timed = { ...dated, start_time: "09:00", end_time: "09:00" };
    expect(eventFieldsFromCreate({ ...timed, days: 2 }, TODAY).end_time).toBe("09:00");
    expect(refusedField(() => eventFieldsFromCreate(timed, TODAY))).toBe("end_time");
  });

  it("refuses a one-off span past 9999-12-31, not a series that reaches it", () => {
    expect(refusedField(() => eventFieldsFromCreate({ name: "End", date: "9999-12-30", days: 3 }, TODAY))).toBe("days");
    expect(eventFieldsFromCreate({ name: "End", date: "9999-12-30", days: 2 }, TODAY).days).toBe(2);
    const series = { name: "End", recur: { type: "daily" as const, starts: "9999-12-30" }, days: 5 };
    expect(eventFieldsFromCreate(series, TODAY).days).toBe(5);
  });
});
