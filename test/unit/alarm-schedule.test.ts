/**
 * When alarms fall (functions/src/domain/alarms/schedule.ts): the next one after an instant,
 * as far ahead as it lies, and every one in a window; the first of a window is always the next.
 */
import { describe, expect, it } from "vitest";
import { alarmsBetween, nextAlarmAfter, type AlarmSource } from "../../functions/src/domain/alarms/schedule.js";
import type { EventRecord, ExceptionRecord } from "../../functions/src/domain/records.js";
import { makeCalendarRecord, makeEventRecord } from "../helpers/factories.js";

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

const source = (zone: string, event: Partial<EventRecord>, exceptions: ExceptionRecord[] = []): AlarmSource => ({
  calendar: makeCalendarRecord("cal_1", zone),
  event: makeEventRecord(event),
  exceptions,
});

/** Mondays and Thursdays; the 30th, which February lacks. */
const DAYS = { weekly: [1, 4], monthly: 30 };

describe("nextAlarmAfter", () => {
  it("finds a yearly series' next alarm a year ahead, and none after its last occurrence", () => {
    const s = source("UTC", {
      recur: { type: "yearly", month: 3, day: 1, starts: "2026-03-01", until: "2028-03-01" },
      start_time: "08:00",
      alarms: [40_320],
    });
    expect(iso(nextAlarmAfter(s, at("2026-03-01T00:00:00Z")))).toBe("2027-02-01T08:00:00.000Z");
    // 2028 is a leap year: four weeks before March 1 is February 2.
    expect(iso(nextAlarmAfter(s, at("2028-02-02T00:00:00Z")))).toBe("2028-02-02T08:00:00.000Z");
    expect(nextAlarmAfter(s, at("2028-02-02T08:00:00Z"))).toBeNull();
  });

  it("counts elapsed minutes across a DST change", () => {
    // Berlin springs forward on 2027-03-28: 24 hours before 09:00 CEST (07:00 UTC) is 08:00 CET on the 27th.
    const s = source("Europe/Berlin", { date: "2027-03-28", start_time: "09:00", alarms: [1_440] });
    expect(iso(nextAlarmAfter(s, at("2027-01-01T00:00:00Z")))).toBe("2027-03-27T07:00:00.000Z");
  });

  it("falls before the start of an event spanning days, and its change ends on the last day", () => {
    // Saturday 09:00 to Monday 17:00 in Berlin, over the autumn change on Sunday 2027-10-31.
    const s = source("Europe/Berlin", {
      date: "2027-10-30",
      days: 3,
      start_time: "09:00",
      end_time: "17:00",
      alarms: [60],
    });
    const [alarm] = alarmsBetween(s, at("2027-10-01T00:00:00Z"), at("2027-11-30T00:00:00Z"));
    expect(alarm).toMatchObject({
      date: "2027-10-30",
      start: "2027-10-30T09:00:00+02:00",
      end: "2027-11-01T17:00:00+01:00",
      due_at: "2027-10-30T06:00:00.000Z",
    });
  });

  it("has none for a someday event or an event without alarms", () => {
    expect(nextAlarmAfter(source("UTC", { alarms: [15] }), 0)).toBeNull();
    expect(nextAlarmAfter(source("UTC", { date: "2027-01-01", alarms: [] }), 0)).toBeNull();
  });

  it("is the first of every window that holds any alarm, over series with offsets up to four weeks", () => {
    const offsets = [[40_320, 0], [1_440, 15], [90], [10_080, 600, 1]];
    const types = ["daily", "weekly", "monthly"] as const;
    for (const [i, alarms] of offsets.entries()) {
      for (const type of types) {
        const s = source("America/New_York", {
          recur: {
            type,
            starts: "2026-10-30",
            interval: 1 + (i % 2),
            ...(type === "daily" ? {} : { day: DAYS[type] }),
          },
          start_time: "23:30",
          alarms,
        });
        for (let day = 0; day < 60; day += 7) {
          const after = at("2026-10-01T05:00:00Z") + day * 86_400_000;
          const first = alarmsBetween(s, after, after + 400 * 86_400_000)[0]?.at ?? null;
          expect(iso(nextAlarmAfter(s, after)), `${type} ${alarms.join(",")} +${day}d`).toBe(iso(first));
        }
      }
    }
  });
});
