/** domain/events/alarms.ts: what a client may send, the list an occurrence follows, and the instants alarms fall at. */
import { describe, expect, it } from "vitest";
import {
  alarmInstants,
  effectiveAlarms,
  normalizeAlarms,
  startInstant,
} from "../../functions/src/domain/events/alarms.js";
import { DomainError } from "../../functions/src/domain/errors.js";
import { instantFormatter } from "../../functions/src/domain/events/instants.js";

const refusal = (list: unknown[]) => {
  try {
    normalizeAlarms(list);
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    const e = err as DomainError;
    expect(e.code).toBe("invalid_event");
    expect(e.details?.field).toBe("alarms");
    return e.message;
  }
  throw new Error(`${JSON.stringify(list)} was accepted`);
};

const iso = (ms: number) => new Date(ms).toISOString();

describe("normalizeAlarms", () => {
  it("keeps distinct whole minutes from 0 to 40,320, largest first", () => {
    expect(normalizeAlarms([])).toEqual([]);
    expect(normalizeAlarms([15, 0, 40_320, 60, 1440])).toEqual([40_320, 1440, 60, 15, 0]);
  });

  it("refuses each problem on `alarms`, saying what to send", () => {
    expect(refusal([1, 2, 3, 4, 5, 6])).toContain("holds 6 alarms: send at most 5");
    expect(refusal([-1])).toContain("holds -1: each alarm is a whole number of minutes");
    expect(refusal([40_321])).toContain("from 0 to 40320");
    expect(refusal([1.5])).toContain("holds 1.5");
    expect(refusal(["15"])).toContain('holds "15"');
    expect(refusal([null])).toContain("holds null");
    expect(refusal(["x".repeat(500)])).toMatch(/holds "x{30}…: /);
    expect(refusal([15, 60, 15])).toContain("lists 15 twice");
  });
});

describe("effectiveAlarms", () => {
  it("takes the exception's own list, even an empty one, else the event's; none stored is none", () => {
    expect(effectiveAlarms({ alarms: [30] })).toEqual([30]);
    expect(effectiveAlarms({ alarms: [30] }, { alarms: [5] })).toEqual([5]);
    expect(effectiveAlarms({ alarms: [30] }, { alarms: [] })).toEqual([]);
    expect(effectiveAlarms({ alarms: [30] }, {})).toEqual([30]);
    expect(effectiveAlarms({})).toEqual([]);
  });
});

describe("alarmInstants", () => {
  it("counts minutes of elapsed time back from a timed start, across a DST change", () => {
    // Berlin springs forward on 2027-03-28: a day before 09:00 CEST is 08:00 CET.
    expect(alarmInstants({ instant: "2027-03-28T09:00:00+02:00" }, [1440, 15, 0]).map(iso)).toEqual([
      "2027-03-27T07:00:00.000Z",
      "2027-03-28T06:45:00.000Z",
      "2027-03-28T07:00:00.000Z",
    ]);
    expect(alarmInstants({ instant: Date.parse("2027-03-28T07:00:00Z") }, [60]).map(iso)).toEqual([
      "2027-03-28T06:00:00.000Z",
    ]);
  });

  it("starts an all-day occurrence at its date's first instant in the calendar's zone", () => {
    expect(iso(startInstant({ date: "2027-03-28", timezone: "Europe/Berlin" }))).toBe("2027-03-27T23:00:00.000Z");
    expect(alarmInstants({ date: "2027-03-29", timezone: "Europe/Berlin" }, [1440]).map(iso)).toEqual([
      "2027-03-27T22:00:00.000Z", // 24 hours before 00:00 CEST: 23:00 CET on the 27th, not its midnight
    ]);
    expect(iso(startInstant({ date: "2027-01-01", timezone: "Asia/Kolkata" }))).toBe("2026-12-31T18:30:00.000Z");
    expect(iso(startInstant({ date: "2027-01-01", timezone: "UTC" }))).toBe("2027-01-01T00:00:00.000Z");
  });

  it("starts a day whose midnight the clocks skip when they resume, as occurrences order it", () => {
    // Chile moves from 00:00 to 01:00 on 2026-09-06: the day begins at 01:00 -03:00.
    const start = startInstant({ date: "2026-09-06", timezone: "America/Santiago" });
    expect(iso(start)).toBe("2026-09-06T04:00:00.000Z");
    expect(Date.parse(instantFormatter("America/Santiago", "2026-09-06", "2026-09-06")(0, "00:00"))).toBe(start);
  });
});
