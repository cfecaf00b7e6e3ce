import { describe, expect, it } from "vitest";
import type { Recur } from "../../functions/src/domain/types.js";
import { describeRecur } from "../../functions/src/pages/format.js";
import {
  addDays,
  countOccurrences,
  daysBetween,
  expandRecurrence,
  firstOccurrenceOnOrAfter,
  isoWeekday,
  isValidDate,
  lastOccurrence,
  occursBetween,
  recurError,
  todayIn,
  toRRule,
} from "../../functions/src/domain/recurrence/index.js";

// 2026-01-01 is a Thursday; 2026-01-05 a Monday; 2026-01-07 a Wednesday.
const DS = "2026-01-01";
const expand = (recur: Recur, from: string, to: string, defaultStarts = DS) =>
  expandRecurrence(recur, defaultStarts, from, to);

describe("date helpers", () => {
  it("isValidDate accepts only real dates in strict YYYY-MM-DD form", () => {
    expect(isValidDate("2026-02-30")).toBe(false);
    expect(isValidDate("2024-02-29")).toBe(true);
    expect(isValidDate("2025-02-29")).toBe(false);
    expect(isValidDate("2026-13-01")).toBe(false);
    expect(isValidDate("2026-1-01")).toBe(false);
    expect(isValidDate("2026-00-10")).toBe(false);
    expect(isValidDate("2026-04-31")).toBe(false);
    expect(isValidDate("2026-04-00")).toBe(false);
    expect(isValidDate("2026-12-31")).toBe(true);
    expect(isValidDate("2000-02-29")).toBe(true); // divisible by 400
    expect(isValidDate("1900-02-29")).toBe(false); // century, not leap
    expect(isValidDate("")).toBe(false);
    expect(isValidDate("2026-01-01T00:00")).toBe(false);
    expect(isValidDate(" 2026-01-01")).toBe(false);
  });

  it("addDays crosses month, year and leap-day boundaries", () => {
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2024-03-01", -1)).toBe("2024-02-29");
    expect(addDays("2025-03-01", -1)).toBe("2025-02-28");
    expect(addDays("1970-01-01", -1)).toBe("1969-12-31");
    expect(addDays("2026-03-15", 0)).toBe("2026-03-15");
    expect(() => addDays("2026-02-30", 1)).toThrow(RangeError);
  });

  it("daysBetween is b - a", () => {
    expect(daysBetween("2026-01-01", "2027-01-01")).toBe(365);
    expect(daysBetween("2024-01-01", "2025-01-01")).toBe(366);
    expect(daysBetween("2026-03-10", "2026-03-01")).toBe(-9);
    expect(daysBetween("2026-03-10", "2026-03-10")).toBe(0);
  });

  it("isoWeekday is Monday = 1 .. Sunday = 7", () => {
    expect(isoWeekday("2026-01-05")).toBe(1);
    expect(isoWeekday("2026-01-07")).toBe(3);
    expect(isoWeekday("2026-01-04")).toBe(7);
    expect(isoWeekday("1970-01-01")).toBe(4);
    expect(isoWeekday("1969-12-28")).toBe(7);
  });

  it("todayIn gives the local date in the zone", () => {
    const now = new Date("2026-03-01T12:00:00Z");
    expect(todayIn("UTC", now)).toBe("2026-03-01");
    expect(todayIn("Pacific/Auckland", now)).toBe("2026-03-02"); // UTC+13
    expect(todayIn("America/Los_Angeles", new Date("2026-03-01T05:00:00Z"))).toBe("2026-02-28"); // UTC-8
    expect(() => todayIn("Mars/Olympus_Mons", now)).toThrow(RangeError);
  });
});

describe("daily", () => {
  it("runs every day from starts", () => {
    expect(expand({ type: "daily", starts: "2026-03-10" }, "2026-03-08", "2026-03-12")).toEqual([
      "2026-03-10",
      "2026-03-11",
      "2026-03-12",
    ]);
  });

  it("counts the interval from starts, not from the range", () => {
    // 01-30, 02-02, 02-05, 02-08, ...
    expect(expand({ type: "daily", interval: 3, starts: "2026-01-30" }, "2026-02-01", "2026-02-10")).toEqual([
      "2026-02-02",
      "2026-02-05",
      "2026-02-08",
    ]);
  });

  it("until is inclusive", () => {
    expect(expand({ type: "daily", starts: "2026-03-10", until: "2026-03-12" }, "2026-03-01", "2026-03-31")).toEqual([
      "2026-03-10",
      "2026-03-11",
      "2026-03-12",
    ]);
  });

  it("crosses a leap day", () => {
    expect(expand({ type: "daily" }, "2024-02-28", "2024-03-01", "2024-01-01")).toEqual([
      "2024-02-28",
      "2024-02-29",
      "2024-03-01",
    ]);
  });
});

describe("weekly", () => {
  it("day 0 and day 7 both mean Sunday", () => {
    const sundays = ["2026-01-04", "2026-01-11", "2026-01-18", "2026-01-25"];
    expect(expand({ type: "weekly", day: 0 }, "2026-01-01", "2026-01-31")).toEqual(sundays);
    expect(expand({ type: "weekly", day: 7 }, "2026-01-01", "2026-01-31")).toEqual(sundays);
  });

  it("day 1 is Monday", () => {
    expect(expand({ type: "weekly", day: 1 }, "2026-01-01", "2026-01-31")).toEqual([
      "2026-01-05",
      "2026-01-12",
      "2026-01-19",
      "2026-01-26",
    ]);
  });

  it("interval 2 from a Wednesday with day=1 skips the Monday before starts and its week", () => {
    // starts' ISO week (Jan 5-11) is period 0; its Monday precedes starts, so the first is week 2.
    const recur: Recur = { type: "weekly", day: 1, interval: 2, starts: "2026-01-07" };
    expect(expand(recur, "2026-01-01", "2026-02-28")).toEqual(["2026-01-19", "2026-02-02", "2026-02-16"]);
    expect(expand(recur, "2026-03-01", "2026-03-31")).toEqual(["2026-03-02", "2026-03-16", "2026-03-30"]);
  });

  it("interval 2 from a Wednesday with day=5 keeps the Friday of starts' week", () => {
    const recur: Recur = { type: "weekly", day: 5, interval: 2, starts: "2026-01-07" };
    expect(expand(recur, "2026-01-01", "2026-02-10")).toEqual(["2026-01-09", "2026-01-23", "2026-02-06"]);
  });

  it("interval 3 starting on the weekday itself includes starts", () => {
    const recur: Recur = { type: "weekly", day: 1, interval: 3, starts: "2026-01-05" };
    expect(expand(recur, "2026-01-01", "2026-02-28")).toEqual(["2026-01-05", "2026-01-26", "2026-02-16"]);
  });

  it("a Sunday is the last day of its ISO week for interval counting", () => {
    // starts Monday Jan 5: week 0 is Jan 5-11, so Sunday Jan 11 is in period 0.
    const recur: Recur = { type: "weekly", day: 0, interval: 2, starts: "2026-01-05" };
    expect(expand(recur, "2026-01-01", "2026-02-10")).toEqual(["2026-01-11", "2026-01-25", "2026-02-08"]);
  });
});

describe("monthly", () => {
  it("day 31 skips months without a 31st", () => {
    expect(expand({ type: "monthly", day: 31 }, "2026-01-01", "2026-12-31")).toEqual([
      "2026-01-31",
      "2026-03-31",
      "2026-05-31",
      "2026-07-31",
      "2026-08-31",
      "2026-10-31",
      "2026-12-31",
    ]);
  });

  it("day -1 is the last day of every month, Feb 28 or 29", () => {
    expect(expand({ type: "monthly", day: -1 }, "2024-01-01", "2024-04-30", "2024-01-01")).toEqual([
      "2024-01-31",
      "2024-02-29",
      "2024-03-31",
      "2024-04-30",
    ]);
    expect(expand({ type: "monthly", day: -1 }, "2026-02-01", "2026-03-01")).toEqual(["2026-02-28"]);
  });

  it("day 29 skips February except in leap years", () => {
    expect(expand({ type: "monthly", day: 29 }, "2025-01-01", "2025-04-30", "2025-01-01")).toEqual([
      "2025-01-29",
      "2025-03-29",
      "2025-04-29",
    ]);
    expect(expand({ type: "monthly", day: 29 }, "2024-02-01", "2024-02-29", "2024-01-01")).toEqual(["2024-02-29"]);
  });

  it("interval counts calendar months from starts' month", () => {
    // Jan (period 0) has its 10th before starts, so Mar, May, Jul.
    const recur: Recur = { type: "monthly", day: 10, interval: 2, starts: "2026-01-15" };
    expect(expand(recur, "2026-01-01", "2026-07-31")).toEqual(["2026-03-10", "2026-05-10", "2026-07-10"]);
  });

  it("a skipped month still counts as a period", () => {
    // Jan, Apr, Jul, Oct: April has no 31st.
    const recur: Recur = { type: "monthly", day: 31, interval: 3, starts: "2026-01-01" };
    expect(expand(recur, "2026-01-01", "2026-12-31")).toEqual(["2026-01-31", "2026-07-31", "2026-10-31"]);
  });

  it("a series that can never occur is empty and has no next occurrence", () => {
    // Every 12 months from April: always April, which has no 31st.
    const recur: Recur = { type: "monthly", day: 31, interval: 12, starts: "2026-04-01" };
    expect(expand(recur, "2026-01-01", "2030-12-31")).toEqual([]);
    expect(firstOccurrenceOnOrAfter(recur, DS, "2026-01-01")).toBeNull();
    expect(toRRule(recur, DS).dtstart).toBeNull();
  });
});

describe("yearly", () => {
  it("Feb 29 occurs only in leap years", () => {
    expect(expand({ type: "yearly", month: 2, day: 29 }, "2023-01-01", "2032-12-31", "2023-01-01")).toEqual([
      "2024-02-29",
      "2028-02-29",
      "2032-02-29",
    ]);
  });

  it("Feb 29 skips 2100 (a century that is not a leap year)", () => {
    const recur: Recur = { type: "yearly", month: 2, day: 29, interval: 4, starts: "2096-01-01" };
    expect(firstOccurrenceOnOrAfter(recur, DS, "2096-03-01")).toBe("2104-02-29");
  });

  it("interval counts calendar years from starts' year", () => {
    // 2026-07-04 precedes starts, so the first is 2029.
    const recur: Recur = { type: "yearly", month: 7, day: 4, interval: 3, starts: "2026-07-05" };
    expect(expand(recur, "2026-01-01", "2035-12-31")).toEqual(["2029-07-04", "2032-07-04", "2035-07-04"]);
  });

  it("Feb 29 every 2 years from an odd year never occurs", () => {
    const recur: Recur = { type: "yearly", month: 2, day: 29, interval: 2, starts: "2025-01-01" };
    expect(firstOccurrenceOnOrAfter(recur, DS, "2025-01-01")).toBeNull();
    const even: Recur = { ...recur, starts: "2024-01-01" };
    expect(expand(even, "2024-01-01", "2029-12-31")).toEqual(["2024-02-29", "2028-02-29"]);
  });

  it("an impossible date (Feb 30) is an empty series", () => {
    const recur: Recur = { type: "yearly", month: 2, day: 30 };
    expect(expand(recur, "2024-01-01", "2030-12-31")).toEqual([]);
    expect(firstOccurrenceOnOrAfter(recur, DS, "2024-01-01")).toBeNull();
    expect(occursBetween(recur, DS, "2024-01-01", "2030-12-31")).toBe(false);
  });
});

describe("weekly on several days", () => {
  it("Monday to Friday, in date order whatever the order sent", () => {
    // 2026-01-01 is a Thursday: Thu, Fri, then Mon..Fri.
    const recur: Recur = { type: "weekly", day: [5, 1, 2, 3, 4], starts: "2026-01-01" };
    expect(expand(recur, "2026-01-01", "2026-01-09")).toEqual([
      "2026-01-01",
      "2026-01-02",
      "2026-01-05",
      "2026-01-06",
      "2026-01-07",
      "2026-01-08",
      "2026-01-09",
    ]);
    expect(countOccurrences(recur, DS, "2026-01-01", "2026-12-31")).toBe(261);
  });

  it("interval counts ISO weeks from starts' week; Sunday as 0 is the end of the week", () => {
    // starts Wed 2026-01-07: its week (Jan 5-11) is period 0, so Jan 11 (Sun) counts; Jan 5 is before starts.
    const recur: Recur = { type: "weekly", day: [1, 0], interval: 2, starts: "2026-01-07" };
    // Weeks 0, 2, 4: Jan 5-11, Jan 19-25, Feb 2-8.
    expect(expand(recur, "2026-01-01", "2026-02-08")).toEqual([
      "2026-01-11",
      "2026-01-19",
      "2026-01-25",
      "2026-02-02",
      "2026-02-08",
    ]);
    expect(firstOccurrenceOnOrAfter(recur, DS, "2026-01-12")).toBe("2026-01-19");
    expect(occursBetween(recur, DS, "2026-01-12", "2026-01-18")).toBe(false);
  });

  it("toRRule lists the weekdays in week order, WKST=MO", () => {
    expect(toRRule({ type: "weekly", day: [5, 3, 1], starts: "2026-01-01" }, DS)).toEqual({
      dtstart: "2026-01-02",
      rrule: "FREQ=WEEKLY;BYDAY=MO,WE,FR;WKST=MO",
    });
    expect(toRRule({ type: "weekly", day: [0, 6], interval: 3 }, DS).rrule).toBe(
      "FREQ=WEEKLY;INTERVAL=3;BYDAY=SA,SU;WKST=MO",
    );
  });
});

describe("monthly by position", () => {
  it("the second Tuesday", () => {
    const recur: Recur = { type: "monthly", week: 2, day: 2, starts: "2026-01-01" };
    expect(expand(recur, "2026-01-01", "2026-04-30")).toEqual(["2026-01-13", "2026-02-10", "2026-03-10", "2026-04-14"]);
    expect(toRRule(recur, DS)).toEqual({ dtstart: "2026-01-13", rrule: "FREQ=MONTHLY;BYDAY=2TU" });
  });

  it("the last Friday, every other month, from starts' month", () => {
    const recur: Recur = { type: "monthly", week: -1, day: 5, interval: 2, starts: "2026-01-31" };
    // January's last Friday (30th) is before starts: March, May.
    expect(expand(recur, "2026-01-01", "2026-06-30")).toEqual(["2026-03-27", "2026-05-29"]);
    expect(toRRule(recur, DS).rrule).toBe("FREQ=MONTHLY;INTERVAL=2;BYDAY=-1FR");
  });

  it("months without a fifth one are skipped; Sunday is 0 or 7", () => {
    // Fifth Sundays of 2026: March 29, May 31, August 30, November 29.
    const fifthSunday: Recur = { type: "monthly", week: 5, day: 0, starts: "2026-01-01" };
    const expected = ["2026-03-29", "2026-05-31", "2026-08-30", "2026-11-29"];
    expect(expand(fifthSunday, "2026-01-01", "2026-12-31")).toEqual(expected);
    expect(expand({ ...fifthSunday, day: 7 }, "2026-01-01", "2026-12-31")).toEqual(expected);
    expect(toRRule(fifthSunday, DS).rrule).toBe("FREQ=MONTHLY;BYDAY=5SU");
  });

  it("the last Monday of a month that ends on a Monday is its last day", () => {
    // 2026-08-31 is a Monday.
    expect(expand({ type: "monthly", week: -1, day: 1, starts: "2026-08-01" }, "2026-08-01", "2026-08-31")).toEqual([
      "2026-08-31",
    ]);
  });
});

describe("count", () => {
  it("ends after that many occurrences, counted from the first", () => {
    const recur: Recur = { type: "weekly", day: [1, 3], count: 5, starts: "2026-01-07" };
    const all = ["2026-01-07", "2026-01-12", "2026-01-14", "2026-01-19", "2026-01-21"];
    expect(expand(recur, "2026-01-01", "2026-12-31")).toEqual(all);
    expect(countOccurrences(recur, DS, "2026-01-01", "2026-12-31")).toBe(5);
    expect(firstOccurrenceOnOrAfter(recur, DS, "2026-01-22")).toBeNull();
    expect(occursBetween(recur, DS, "2026-01-22", "2026-12-31")).toBe(false);
    expect(lastOccurrence(recur, DS)).toBe("2026-01-21");
    expect(toRRule(recur, DS)).toEqual({ dtstart: "2026-01-07", rrule: "FREQ=WEEKLY;BYDAY=MO,WE;WKST=MO;COUNT=5" });
  });

  it("skipped months do not count", () => {
    // The 31st, 3 times from January 2026: Jan, Mar, May (no 31st in February and April).
    const recur: Recur = { type: "monthly", day: 31, count: 3, starts: "2026-01-01" };
    expect(expand(recur, "2026-01-01", "2027-12-31")).toEqual(["2026-01-31", "2026-03-31", "2026-05-31"]);
    // Feb 29, twice from 2025: 2028 and 2032.
    expect(lastOccurrence({ type: "yearly", month: 2, day: 29, count: 2, starts: "2025-01-01" }, DS)).toBe(
      "2032-02-29",
    );
  });

  it("finds a far count-th occurrence arithmetically", () => {
    expect(lastOccurrence({ type: "daily", count: 10_000, starts: "2026-01-01" }, DS)).toBe(
      addDays("2026-01-01", 9999),
    );
    const weekdays: Recur = { type: "weekly", day: [1, 2, 3, 4, 5], count: 10_000, starts: "2026-01-05" };
    expect(lastOccurrence(weekdays, DS)).toBe(addDays("2026-01-05", 7 * 1999 + 4)); // 2000 weeks of 5
    const secondTuesday: Recur = { type: "monthly", week: 2, day: 2, count: 10_000, starts: "2026-01-01" };
    expect(lastOccurrence(secondTuesday, DS)!.slice(0, 7)).toBe("2859-04"); // 9999 months after January 2026
  });

  it("a count the calendar cannot hold ends on 9999-12-31", () => {
    const recur: Recur = { type: "yearly", month: 6, day: 1, count: 10_000, starts: "9990-01-01" };
    expect(lastOccurrence(recur, DS)).toBe("9999-06-01");
    expect(toRRule(recur, DS).rrule).toBe("FREQ=YEARLY;BYMONTH=6;BYMONTHDAY=1;COUNT=10000");
  });

  it("with until too (a feed clipping a series), ends at whichever comes first, written as UNTIL", () => {
    const recur: Recur = { type: "daily", count: 10, starts: "2026-01-01" };
    expect(toRRule({ ...recur, until: "2026-01-05" }, DS).rrule).toBe("FREQ=DAILY;UNTIL=20260105");
    expect(toRRule({ ...recur, until: "2026-12-31" }, DS).rrule).toBe("FREQ=DAILY;UNTIL=20260110");
    expect(expand({ ...recur, until: "2026-12-31" }, "2026-01-01", "2026-12-31")).toHaveLength(10);
  });
});

describe("lastOccurrence", () => {
  it("is null for a series without end, the last date before until otherwise", () => {
    expect(lastOccurrence({ type: "daily" }, DS)).toBeNull();
    expect(lastOccurrence({ type: "monthly", day: 31, until: "2026-06-30" }, DS)).toBe("2026-05-31");
    expect(lastOccurrence({ type: "daily", starts: "2026-03-10", until: "2026-03-01" }, DS)).toBeNull();
  });
});

describe("starts, defaultStarts and until", () => {
  it("nothing before starts", () => {
    expect(expand({ type: "daily", starts: "2026-05-10" }, "2026-05-01", "2026-05-11")).toEqual([
      "2026-05-10",
      "2026-05-11",
    ]);
    expect(expand({ type: "monthly", day: 1, starts: "2026-05-02" }, "2026-05-01", "2026-06-30")).toEqual([
      "2026-06-01",
    ]);
  });

  it("defaultStarts is used when starts is absent, and anchors the interval", () => {
    // defaultStarts Wed Jan 14: its week is period 0, so Wednesdays 14, 28.
    const recur: Recur = { type: "weekly", day: 3, interval: 2 };
    expect(expand(recur, "2026-01-01", "2026-01-31", "2026-01-14")).toEqual(["2026-01-14", "2026-01-28"]);
    expect(expand({ type: "daily" }, "2026-01-01", "2026-01-03", "2026-01-02")).toEqual(["2026-01-02", "2026-01-03"]);
  });

  it("explicit starts wins over defaultStarts", () => {
    expect(expand({ type: "daily", starts: "2026-01-03" }, "2026-01-01", "2026-01-04", "2026-01-01")).toEqual([
      "2026-01-03",
      "2026-01-04",
    ]);
  });

  it("until is inclusive for every type", () => {
    expect(expand({ type: "weekly", day: 1, until: "2026-01-12" }, "2026-01-01", "2026-01-31")).toEqual([
      "2026-01-05",
      "2026-01-12",
    ]);
    expect(expand({ type: "monthly", day: 15, until: "2026-03-15" }, "2026-01-01", "2026-12-31")).toEqual([
      "2026-01-15",
      "2026-02-15",
      "2026-03-15",
    ]);
    expect(expand({ type: "yearly", month: 6, day: 1, until: "2028-06-01" }, "2026-01-01", "2030-12-31")).toEqual([
      "2026-06-01",
      "2027-06-01",
      "2028-06-01",
    ]);
  });

  it("until before starts, or an empty range, gives nothing", () => {
    expect(expand({ type: "daily", starts: "2026-03-10", until: "2026-03-09" }, "2026-03-01", "2026-03-31")).toEqual(
      [],
    );
    expect(expand({ type: "daily" }, "2026-03-10", "2026-03-09")).toEqual([]);
  });

  it("the range bounds are inclusive", () => {
    expect(expand({ type: "weekly", day: 1 }, "2026-01-05", "2026-01-12")).toEqual(["2026-01-05", "2026-01-12"]);
  });
});

describe("firstOccurrenceOnOrAfter and occursBetween", () => {
  const biweekly: Recur = { type: "weekly", day: 1, interval: 2, starts: "2026-01-07" };

  it("finds the next occurrence, inclusive of the date", () => {
    expect(firstOccurrenceOnOrAfter(biweekly, DS, "2026-01-01")).toBe("2026-01-19");
    expect(firstOccurrenceOnOrAfter(biweekly, DS, "2026-01-20")).toBe("2026-02-02");
    expect(firstOccurrenceOnOrAfter(biweekly, DS, "2026-02-02")).toBe("2026-02-02");
  });

  it("respects until", () => {
    expect(firstOccurrenceOnOrAfter({ ...biweekly, until: "2026-02-01" }, DS, "2026-01-20")).toBeNull();
    expect(firstOccurrenceOnOrAfter({ ...biweekly, until: "2026-02-02" }, DS, "2026-01-20")).toBe("2026-02-02");
  });

  it("jumps far ahead without scanning", () => {
    expect(firstOccurrenceOnOrAfter({ type: "yearly", month: 2, day: 29 }, DS, "2025-03-01")).toBe("2028-02-29");
    const far = firstOccurrenceOnOrAfter({ type: "daily", interval: 7 }, DS, "2300-01-01");
    expect(far).not.toBeNull();
    expect(daysBetween(DS, far!) % 7).toBe(0);
    expect(daysBetween("2300-01-01", far!)).toBeLessThan(7);
  });

  it("occursBetween", () => {
    expect(occursBetween(biweekly, DS, "2026-01-01", "2026-01-18")).toBe(false);
    expect(occursBetween(biweekly, DS, "2026-01-01", "2026-01-19")).toBe(true);
    expect(occursBetween(biweekly, DS, "2026-01-20", "2026-02-01")).toBe(false);
    expect(occursBetween({ ...biweekly, until: "2026-01-31" }, DS, "2026-01-20", "2026-12-31")).toBe(false);
  });
});

describe("toRRule", () => {
  it("weekly with interval and until", () => {
    expect(toRRule({ type: "weekly", day: 1, interval: 2, starts: "2026-01-07", until: "2026-12-31" }, DS)).toEqual({
      dtstart: "2026-01-19",
      rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;WKST=MO;UNTIL=20261231",
    });
  });

  it("weekly day 0 and 7 are SU", () => {
    expect(toRRule({ type: "weekly", day: 0 }, DS).rrule).toBe("FREQ=WEEKLY;BYDAY=SU;WKST=MO");
    expect(toRRule({ type: "weekly", day: 7 }, DS)).toEqual({
      dtstart: "2026-01-04",
      rrule: "FREQ=WEEKLY;BYDAY=SU;WKST=MO",
    });
  });

  it("daily omits INTERVAL when 1 and starts at defaultStarts", () => {
    expect(toRRule({ type: "daily" }, DS)).toEqual({ dtstart: DS, rrule: "FREQ=DAILY" });
    expect(toRRule({ type: "daily", interval: 3 }, DS).rrule).toBe("FREQ=DAILY;INTERVAL=3");
  });

  it("monthly -1 is BYMONTHDAY=-1", () => {
    expect(toRRule({ type: "monthly", day: -1, starts: "2024-02-10" }, DS)).toEqual({
      dtstart: "2024-02-29",
      rrule: "FREQ=MONTHLY;BYMONTHDAY=-1",
    });
  });

  it("yearly Feb 29", () => {
    expect(toRRule({ type: "yearly", month: 2, day: 29 }, DS)).toEqual({
      dtstart: "2028-02-29",
      rrule: "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29",
    });
  });

  it("dtstart is null for an empty series", () => {
    expect(toRRule({ type: "daily", starts: "2026-03-10", until: "2026-03-01" }, DS)).toEqual({
      dtstart: null,
      rrule: "FREQ=DAILY;UNTIL=20260301",
    });
  });
});

describe("invalid rules", () => {
  const bad: [string, Recur][] = [
    ["weekly day 8", { type: "weekly", day: 8 }],
    ["weekly without day", { type: "weekly" }],
    ["monthly day 0", { type: "monthly", day: 0 }],
    ["monthly day -2", { type: "monthly", day: -2 }],
    ["monthly day 32", { type: "monthly", day: 32 }],
    ["yearly month 13", { type: "yearly", month: 13, day: 1 }],
    ["yearly without month", { type: "yearly", day: 1 }],
    ["yearly day -1", { type: "yearly", month: 1, day: -1 }],
    ["daily with a day", { type: "daily", day: 1 }],
    ["monthly with a month", { type: "monthly", day: 1, month: 2 }],
    ["interval 0", { type: "daily", interval: 0 }],
    ["interval 1.5", { type: "daily", interval: 1.5 }],
    ["starts not a date", { type: "daily", starts: "2026-02-30" }],
    ["until not a date", { type: "daily", until: "2026-1-01" }],
    ["unknown type", { type: "hourly" as Recur["type"] }],
    ["weekly empty day list", { type: "weekly", day: [] }],
    ["weekly day list with a repeat", { type: "weekly", day: [1, 3, 1] }],
    ["weekly day list with 0 and 7 (both Sunday)", { type: "weekly", day: [0, 1, 7] }],
    ["weekly day list with 8", { type: "weekly", day: [1, 8] }],
    ["weekly day list of 8", { type: "weekly", day: [0, 1, 2, 3, 4, 5, 6, 1] }],
    ["monthly day list", { type: "monthly", day: [1, 15] }],
    ["monthly week 6", { type: "monthly", week: 6, day: 2 }],
    ["monthly week 0", { type: "monthly", week: 0, day: 2 }],
    ["monthly week -2", { type: "monthly", week: -2, day: 2 }],
    ["monthly week with day 8", { type: "monthly", week: 1, day: 8 }],
    ["monthly week with day -1", { type: "monthly", week: 1, day: -1 }],
    ["monthly week without day", { type: "monthly", week: 1 }],
    ["weekly with a week", { type: "weekly", day: 1, week: 2 }],
    ["yearly with a week", { type: "yearly", month: 1, day: 1, week: 1 }],
    ["count 0", { type: "daily", count: 0 }],
    ["count 2.5", { type: "daily", count: 2.5 }],
  ];

  it.each(bad)("%s is rejected", (_, recur) => {
    expect(recurError(recur)).toEqual(expect.any(String));
    expect(() => expand(recur, "2026-01-01", "2026-01-31")).toThrow(RangeError);
  });

  it("valid rules pass, with nulls treated as absent", () => {
    expect(recurError({ type: "yearly", month: 2, day: 30 })).toBeNull();
    expect(recurError({ type: "monthly", day: -1, interval: 5, starts: "2026-01-01", until: "2027-01-01" })).toBeNull();
    const withNulls = { type: "daily", day: null, interval: null, until: null } as unknown as Recur;
    expect(recurError(withNulls)).toBeNull();
    expect(expand(withNulls, "2026-01-01", "2026-01-02")).toEqual(["2026-01-01", "2026-01-02"]);
  });

  it("rejects invalid range dates", () => {
    expect(() => expand({ type: "daily" }, "2026-02-30", "2026-03-31")).toThrow(RangeError);
    expect(() => firstOccurrenceOnOrAfter({ type: "daily" }, DS, "2026-13-01")).toThrow(RangeError);
    expect(() => expand({ type: "daily" }, "2026-01-01", "2026-01-31", "nope")).toThrow(RangeError);
  });
});

describe("describeRecur (the pages' label) names the new shapes", () => {
  it("weekday lists in week order, positions, counts", () => {
    expect(describeRecur({ type: "weekly", day: [5, 1, 3] })).toBe("every week on Monday, Wednesday and Friday");
    expect(describeRecur({ type: "weekly", day: [0, 6], interval: 2 })).toBe("every 2 weeks on Saturday and Sunday");
    expect(describeRecur({ type: "monthly", week: 2, day: 2 })).toBe("every month on the second Tuesday");
    expect(describeRecur({ type: "monthly", week: -1, day: 5, count: 12 })).toBe(
      "every month on the last Friday, 12 times",
    );
    expect(describeRecur({ type: "daily", count: 1 })).toBe("every day, 1 time");
  });
});
