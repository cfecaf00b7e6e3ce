import { describe, expect, it } from "vitest";
import { DomainError } from "../../functions/src/domain/errors.js";
import {
  applyEventPatch,
  eventFieldsFromCreate,
  normalizeRecur,
  type EventFields,
} from "../../functions/src/domain/events/rules.js";

const START = "2026-11-22";

function fieldOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof DomainError && err.code === "invalid_event") return String(err.details?.field);
    throw err;
  }
  throw new Error("expected invalid_event");
}

const base: EventFields = eventFieldsFromCreate(
  {
    name: "Talk",
    date: "2026-12-01",
    start_time: "10:00",
    end_time: "11:00",
    category: "talks",
    notes: "n",
    art: "🎤",
  },
  START,
);

describe("event rules", () => {
  it("decides the kind from date and recur", () => {
    expect(base.kind).toBe("one-off");
    expect(eventFieldsFromCreate({ name: "x", recur: { type: "daily" } }, START).kind).toBe("recurring");
    expect(eventFieldsFromCreate({ name: "x" }, START).kind).toBe("someday");
  });

  it("applies the PATCH transitions of docs/api.md#schedule-kinds", () => {
    const recurring = applyEventPatch(base, { recur: { type: "weekly", day: 2 } }, START);
    expect(recurring).toMatchObject({
      kind: "recurring",
      date: null,
      recur: { type: "weekly", day: 2, interval: 1, starts: START },
    });
    const dated = applyEventPatch(recurring, { date: "2027-01-01" }, START);
    expect(dated).toMatchObject({ kind: "one-off", date: "2027-01-01", recur: null });
    expect(applyEventPatch(dated, { date: null, recur: null }, START)).toMatchObject({
      kind: "someday",
      date: null,
      recur: null,
    });
    expect(applyEventPatch(recurring, { recur: null }, START).kind).toBe("someday");
    // date: null on a recurring event leaves the rule alone.
    expect(applyEventPatch(recurring, { date: null }, START).kind).toBe("recurring");
    expect(applyEventPatch(base, { start_time: null }, START)).toMatchObject({ start_time: null, end_time: null });
    expect(applyEventPatch(base, { end_time: null }, START)).toMatchObject({ start_time: "10:00", end_time: null });
    expect(applyEventPatch(base, { notes: null, category: null, art: null }, START)).toMatchObject({
      notes: null,
      category: null,
      art: null,
      name: "Talk",
    });
    expect(applyEventPatch(base, {}, START)).toEqual(base);
  });

  it("names the field that breaks a rule", () => {
    expect(fieldOf(() => applyEventPatch(base, { date: "2027-01-01", recur: { type: "daily" } }, START))).toBe("recur");
    expect(fieldOf(() => applyEventPatch(base, { end_time: "10:00" }, START))).toBe("end_time");
    expect(fieldOf(() => applyEventPatch(base, { start_time: "11:00" }, START))).toBe("start_time");
    expect(fieldOf(() => applyEventPatch(base, { start_time: null, end_time: "12:00" }, START))).toBe("end_time");
    expect(fieldOf(() => normalizeRecur({ type: "weekly", day: 9 }, START))).toBe("recur.day");
    expect(fieldOf(() => normalizeRecur({ type: "weekly", day: 1, month: 2 }, START))).toBe("recur.month");
    expect(fieldOf(() => normalizeRecur({ type: "yearly", day: 1 }, START))).toBe("recur.month");
    expect(fieldOf(() => normalizeRecur({ type: "daily", interval: 0 }, START))).toBe("recur.interval");
    expect(fieldOf(() => normalizeRecur({ type: "daily", until: "2026-11-21" }, START))).toBe("recur.until");
    expect(fieldOf(() => normalizeRecur({ type: "yearly", month: 4, day: 31 }, START))).toBe("recur");
    expect(fieldOf(() => normalizeRecur({ type: "monthly", day: 31, interval: 12, starts: "2026-04-01" }, START))).toBe(
      "recur",
    );
    expect(fieldOf(() => normalizeRecur({ type: "fortnightly" } as never, START))).toBe("recur.type");
    expect(fieldOf(() => normalizeRecur({ type: "weekly", day: [1, 1] }, START))).toBe("recur.day");
    expect(fieldOf(() => normalizeRecur({ type: "weekly", day: [0, 7] }, START))).toBe("recur.day");
    expect(fieldOf(() => normalizeRecur({ type: "weekly", day: [] }, START))).toBe("recur.day");
    expect(fieldOf(() => normalizeRecur({ type: "monthly", day: [1, 15] }, START))).toBe("recur.day");
    expect(fieldOf(() => normalizeRecur({ type: "monthly", week: 6, day: 2 }, START))).toBe("recur.week");
    expect(fieldOf(() => normalizeRecur({ type: "monthly", week: 2, day: 15 }, START))).toBe("recur.day");
    expect(fieldOf(() => normalizeRecur({ type: "weekly", week: 2, day: 2 }, START))).toBe("recur.week");
    expect(fieldOf(() => normalizeRecur({ type: "daily", count: 0 }, START))).toBe("recur.count");
    expect(fieldOf(() => normalizeRecur({ type: "daily", count: 10_001 }, START))).toBe("recur.count");
    expect(fieldOf(() => normalizeRecur({ type: "daily", count: 3, until: "2027-01-01" }, START))).toBe("recur.count");
  });

  it("says what is wrong with a rule and how to write it", () => {
    const messageOf = (fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        if (err instanceof DomainError) return err.message;
      }
      throw new Error("expected a DomainError");
    };
    expect(messageOf(() => normalizeRecur({ type: "weekly", day: [0, 1, 7] }, START))).toBe(
      "`recur.day` is invalid: weekly day list must name each weekday once (0 and 7 are both Sunday)",
    );
    expect(messageOf(() => normalizeRecur({ type: "daily", count: 3, until: "2027-01-01" }, START))).toBe(
      "`recur.count` cannot be sent with `recur.until`: end the series either after `count` occurrences or on the `until` date",
    );
    expect(messageOf(() => applyEventPatch(base, { end_time: "10:00" }, START))).toBe(
      "`end_time` is 10:00, the same as the other time: send an `end_time` after `start_time` (10:00), " +
        "an earlier one for an event that ends the next day (22:00 to 02:00), or `end_time: null`",
    );
  });

  it("takes an end_time earlier than start_time: the event ends the next day", () => {
    expect(applyEventPatch(base, { start_time: "22:00", end_time: "02:00" }, START)).toMatchObject({
      start_time: "22:00",
      end_time: "02:00",
    });
    expect(applyEventPatch(base, { end_time: "09:59" }, START)).toMatchObject({
      start_time: "10:00",
      end_time: "09:59",
    });
    expect(applyEventPatch(base, { start_time: "23:59", end_time: "00:00" }, START).end_time).toBe("00:00");
  });

  it("stores weekday lists, positions and counts as sent", () => {
    expect(normalizeRecur({ type: "weekly", day: [5, 0, 3], count: 12, week: null }, START)).toEqual({
      type: "weekly",
      day: [5, 0, 3],
      interval: 1,
      starts: START,
      count: 12,
    });
    expect(normalizeRecur({ type: "monthly", week: -1, day: 5, interval: 2 }, START)).toEqual({
      type: "monthly",
      week: -1,
      day: 5,
      interval: 2,
      starts: START,
    });
  });

  it("stores rules explicitly: starts and interval filled, absent keys left out", () => {
    expect(normalizeRecur({ type: "monthly", day: -1, interval: null, until: null }, START)).toEqual({
      type: "monthly",
      day: -1,
      interval: 1,
      starts: START,
    });
    expect(normalizeRecur({ type: "weekly", day: 0, starts: "2026-01-04", until: "2026-01-04" }, START)).toEqual({
      type: "weekly",
      day: 0,
      interval: 1,
      starts: "2026-01-04",
      until: "2026-01-04",
    });
  });
});

describe("days in the event rules", () => {
  const dated = { name: "Offsite", date: "2026-12-07" };

  it("defaults to one, keeps what a PATCH leaves out, and takes null as one", () => {
    const offsite = eventFieldsFromCreate({ ...dated, days: 3 }, START);
    expect(eventFieldsFromCreate(dated, START).days).toBe(1);
    expect(applyEventPatch(offsite, { date: "2026-12-14" }, START)).toMatchObject({ date: "2026-12-14", days: 3 });
    expect(applyEventPatch(offsite, { days: null }, START).days).toBe(1);
    // A stored event from before spans has none: one.
    const { days: _none, ...older } = eventFieldsFromCreate(dated, START);
    expect(applyEventPatch(older, { name: "Renamed" }, START).days).toBe(1);
  });

  it("refuses days on a someday event, and sets them back to one when an event becomes someday", () => {
    expect(fieldOf(() => eventFieldsFromCreate({ name: "Later", days: 2 }, START))).toBe("days");
    const offsite = eventFieldsFromCreate({ ...dated, days: 3 }, START);
    expect(applyEventPatch(offsite, { date: null }, START)).toMatchObject({ kind: "someday", days: 1 });
    expect(fieldOf(() => applyEventPatch(offsite, { date: null, days: 3 }, START))).toBe("days");
    expect(eventFieldsFromCreate({ name: "Later", days: 1 }, START).days).toBe(1);
  });

  it("asks a timed span for its end time, and lets it equal the start time", () => {
    expect(fieldOf(() => eventFieldsFromCreate({ ...dated, days: 2, start_time: "09:00" }, START))).toBe("end_time");
    const timed = { ...dated, start_time: "09:00", end_time: "09:00" };
    expect(eventFieldsFromCreate({ ...timed, days: 2 }, START).end_time).toBe("09:00");
    expect(fieldOf(() => eventFieldsFromCreate(timed, START))).toBe("end_time");
  });

  it("refuses a one-off span past 9999-12-31, not a series that reaches it", () => {
    expect(fieldOf(() => eventFieldsFromCreate({ name: "End", date: "9999-12-30", days: 3 }, START))).toBe("days");
    expect(eventFieldsFromCreate({ name: "End", date: "9999-12-30", days: 2 }, START).days).toBe(2);
    const series = { name: "End", recur: { type: "daily" as const, starts: "9999-12-30" }, days: 5 };
    expect(eventFieldsFromCreate(series, START).days).toBe(5);
  });
});
