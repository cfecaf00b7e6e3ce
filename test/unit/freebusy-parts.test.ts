/** The parts of free/busy one by one: working hours and days as written, bounds, and a zone's clock around DST. */
import { describe, expect, it } from "vitest";
import { parseDays, parseHours } from "../../functions/src/domain/freebusy/hours.js";
import { parseBound, rangeProblem } from "../../functions/src/domain/freebusy/range.js";
import { ZoneClock } from "../../functions/src/domain/freebusy/zone.js";

const at = (iso: string) => Date.parse(iso);
const local = (iso: string) => Date.parse(`${iso}Z`);

describe("hours and days", () => {
  it("reads HH:MM-HH:MM, 24:00 as the end of the day, and an earlier end as overnight", () => {
    expect(parseHours("09:00-17:00")).toEqual({ start: 540, end: 1020 });
    expect(parseHours("00:00-24:00")).toEqual({ start: 0, end: 1440 });
    expect(parseHours("22:00-06:00")).toEqual({ start: 1320, end: 360 });
    for (const bad of [
      "9:00-17:00",
      "09:00-09:00",
      "24:00-09:00",
      "09:00-24:01",
      "09:00",
      "09:00-17:60",
      "09:00 - 17:00",
    ]) {
      expect(parseHours(bad), bad).toBeNull();
    }
  });

  it("reads ISO weekdays as lists and upward ranges, 0 and 7 both Sunday", () => {
    expect([...parseDays("1-5")!]).toEqual([1, 2, 3, 4, 5]);
    expect([...parseDays("1,3,5")!]).toEqual([1, 3, 5]);
    expect([...parseDays("1-3,6")!]).toEqual([1, 2, 3, 6]);
    expect([...parseDays("0-6")!].sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect([...parseDays("0,7")!]).toEqual([7]);
    for (const bad of ["", "5-1", "8", "1,,2", "1-", "mon", "1-5,"]) expect(parseDays(bad), bad).toBeNull();
  });
});

describe("from and to", () => {
  it("takes dates and instants with offsets, nothing without an offset", () => {
    expect(parseBound("2026-07-06")).toEqual({ kind: "date", day: 20640 });
    expect(parseBound("2026-07-06T09:30:15+02:00")).toEqual({
      kind: "instant",
      ms: at("2026-07-06T07:30:15Z"),
      offset: 120,
    });
    expect(parseBound("2026-07-06T09:30Z")).toMatchObject({ ms: at("2026-07-06T09:30:00Z"), offset: 0 });
    for (const bad of ["2026-07-06T09:30", "2026-02-30", "2026-07-06T24:00Z", "0000-12-31", "2026-07-06 09:30Z"]) {
      expect(parseBound(bad), bad).toBeNull();
    }
  });

  it("allows 62 days on the clocks the values are written in", () => {
    const problem = (from: string, to: string) => rangeProblem(parseBound(from)!, parseBound(to)!);
    expect(problem("2026-01-01", "2026-03-03")).toBeNull();
    expect(problem("2026-01-01", "2026-03-04")).toMatch(/at most 62 days/);
    expect(problem("2026-03-01T00:00+01:00", "2026-05-02T00:00+02:00")).toBeNull(); // 62 days less an hour elapsed
    expect(problem("2026-07-06", "2026-07-06")).toBeNull(); // a whole day
    expect(problem("2026-07-06T10:00Z", "2026-07-06T10:00Z")).toMatch(/after `from`/);
  });
});

describe("a zone's clock", () => {
  const berlin = new ZoneClock("Europe/Berlin", at("2026-03-01T00:00Z"), at("2026-11-01T00:00Z"));

  it("shows no instant for a skipped hour and two stretches for a repeated one", () => {
    // 29 March: 02:00 becomes 03:00. 02:30-03:30 on the clock is 03:00-03:30 only.
    expect(berlin.instantsShowing(local("2026-03-29T02:30:00"), local("2026-03-29T03:30:00"))).toEqual([
      { start: at("2026-03-29T01:00Z"), end: at("2026-03-29T01:30Z") },
    ]);
    // 25 October: 03:00 becomes 02:00. 02:15-02:45 is passed twice.
    expect(berlin.instantsShowing(local("2026-10-25T02:15:00"), local("2026-10-25T02:45:00"))).toEqual([
      { start: at("2026-10-25T00:15Z"), end: at("2026-10-25T00:45Z") },
      { start: at("2026-10-25T01:15Z"), end: at("2026-10-25T01:45Z") },
    ]);
    expect(berlin.firstInstantAtOrAfter(local("2026-03-29T02:30:00"))).toBe(at("2026-03-29T01:00Z"));
    expect(berlin.format(at("2026-10-25T00:30Z"))).toBe("2026-10-25T02:30:00+02:00");
    expect(berlin.format(at("2026-10-25T01:30Z"))).toBe("2026-10-25T02:30:00+01:00");
  });

  it("writes local mean time to the whole minute, so the text is still that instant", () => {
    // Berlin's offset before 1893 was +00:53:28.
    const old = new ZoneClock("Europe/Berlin", at("1850-06-01T00:00Z"), at("1850-06-02T00:00Z"));
    const text = old.format(at("1850-06-01T12:00:00Z"));
    expect(text).toBe("1850-06-01T12:53:00+00:53");
    expect(Date.parse(text)).toBe(at("1850-06-01T12:00:00Z"));
  });
});
