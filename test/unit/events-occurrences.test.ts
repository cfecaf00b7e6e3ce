import { describe, expect, it } from "vitest";
import { expandOccurrences } from "../helpers/occurrences.js";
import { expandRecurrence } from "../../functions/src/domain/recurrence/index.js";
import type { EventRecord } from "../../functions/src/domain/records.js";
import type { Recur } from "../../functions/src/domain/types.js";
import { makeCalendarRecord, makeEventRecord } from "../helpers/factories.js";

const calendar = makeCalendarRecord;

let seq = 0;
/** Ids and creation times in the order made: a second apart, so ties of date and time break by creation. */
function event(calendarId: string, fields: Partial<EventRecord>): EventRecord {
  seq++;
  return makeEventRecord({
    id: `evt_${String(seq).padStart(6, "0")}`,
    calendar_id: calendarId,
    name: `event ${seq}`,
    created_at: new Date(Date.UTC(2026, 0, 1) + seq * 1000).toISOString(),
    ...fields,
  });
}

const time = (i: number) => `${String(6 + (i % 14)).padStart(2, "0")}:${i % 2 ? "30" : "00"}`;

/** 1,000 recurring events over three calendars in three zones: weekly, monthly and yearly rules, most timed. */
function thousandSeries() {
  const zones = ["Europe/Berlin", "America/New_York", "Asia/Tokyo"];
  return zones.map((zone, z) => {
    const cal = calendar(`cal_${z}`, zone);
    const events = Array.from({ length: z === 0 ? 334 : 333 }, (_, i) => {
      const recur: Recur =
        i % 10 < 8
          ? { type: "weekly", day: (i % 7) + 1, interval: 1 + (i % 2), starts: "2025-06-01" }
          : i % 10 === 8
            ? { type: "monthly", day: (i % 28) + 1, starts: "2025-01-01" }
            : { type: "yearly", month: (i % 12) + 1, day: (i % 28) + 1, starts: "2020-01-01" };
      return event(cal.id, { recur, start_time: i % 5 ? time(i) : null, end_time: i % 5 ? "21:00" : null });
    });
    return { layer: z === 0 ? "main" : `layer-${z}`, calendar: cal, events, exceptions: [] };
  });
}

describe("expandOccurrences", () => {
  // Speed is measured by `npm run bench` (occurrences case), not here: timings on a shared machine are noise.
  it("expands 1,000 recurring events over 366 days into every occurrence of every rule", () => {
    const sources = thousandSeries();
    const result = expandOccurrences(sources, "2026-01-01", "2027-01-01");
    const expected = sources
      .flatMap((s) => s.events)
      .reduce((sum, e) => sum + expandRecurrence(e.recur!, e.recur!.starts!, "2026-01-01", "2027-01-01").length, 0);
    expect(result.length).toBeGreaterThan(30_000);
    expect(result).toHaveLength(expected);
  });

  it("sorts by start instant (all-day at the start of its date), then creation; skips someday events", () => {
    const cal = calendar("cal_a", "UTC");
    const events = [
      event("cal_a", { name: "someday" }),
      event("cal_a", { name: "late", date: "2026-05-02", start_time: "20:00" }),
      event("cal_a", { name: "daily", recur: { type: "daily", starts: "2026-05-01" }, start_time: "08:00" }),
      event("cal_a", { name: "untimed", date: "2026-05-02" }),
      event("cal_a", { name: "same time, later", date: "2026-05-02", start_time: "08:00" }),
    ];
    const out = expandOccurrences(
      [{ layer: "main", calendar: cal, events, exceptions: [] }],
      "2026-05-01",
      "2026-05-02",
    );
    expect(out.map((o) => `${o.date} ${o.name}`)).toEqual([
      "2026-05-01 daily",
      "2026-05-02 untimed",
      "2026-05-02 daily",
      "2026-05-02 same time, later",
      "2026-05-02 late",
    ]);
    expect(out[0]).toEqual({
      event_id: events[2].id,
      layer: "main",
      date: "2026-05-01",
      end_date: "2026-05-01",
      days: 1,
      original_date: "2026-05-01",
      start_time: "08:00",
      end_time: null,
      name: "daily",
      category: null,
      start: "2026-05-01T08:00:00+00:00",
      end: null,
      alarms: [],
    });
  });

  it("falls back to the creation date in the calendar's zone when a stored rule has no starts", () => {
    const cal = calendar("cal_t", "Pacific/Kiritimati");
    // Created 2026-05-01T12:00Z, which is already 2026-05-02 at UTC+14.
    const daily = event("cal_t", { recur: { type: "daily" }, created_at: "2026-05-01T12:00:00.000Z" });
    const out = expandOccurrences(
      [{ layer: "main", calendar: cal, events: [daily], exceptions: [] }],
      "2026-04-28",
      "2026-05-03",
    );
    expect(out.map((o) => o.date)).toEqual(["2026-05-02", "2026-05-03"]);
  });

  it("answers nothing for an empty or reversed range", () => {
    const cal = calendar("cal_e", "UTC");
    const events = [event("cal_e", { date: "2026-05-01" })];
    expect(
      expandOccurrences([{ layer: "main", calendar: cal, events, exceptions: [] }], "2026-05-02", "2026-05-01"),
    ).toEqual([]);
    expect(
      expandOccurrences([{ layer: "main", calendar: cal, events, exceptions: [] }], "2026-05-01", "2026-05-01"),
    ).toHaveLength(1);
  });
});
