/** buildIcs: records -> iCalendar text, checked on the text and through node-ical and ical.js (helpers/ics-oracle.ts). */
import ical, { type VEvent } from "node-ical";
import { describe, expect, it } from "vitest";
import type { EventRecord, ExceptionRecord } from "../../functions/src/domain/records.js";
import { FEED_NOTE_CHARACTERS } from "../../functions/src/pages/budgets.js";
import { buildIcs, WallClock, type IcsFeed } from "../../functions/src/pages/ics.js";
import { makeEventRecord, makeExceptionRecord } from "../helpers/factories.js";
import { expandFeed } from "../helpers/ics-oracle.js";

let counter = 0;
/** Created on 2026-03-01 and last changed on 2026-03-02 (the DTSTAMP), by one agent. */
const event = (fields: Partial<EventRecord> & Pick<EventRecord, "kind" | "name">): EventRecord =>
  makeEventRecord({
    id: `evt_${++counter}`,
    calendar_id: "cal_1",
    created_by: { id: "agt_1", name: "Agent" },
    created_at: "2026-03-01T10:00:00.000Z",
    updated_at: "2026-03-02T10:00:00.000Z",
    ...fields,
  });

const feed = (events: EventRecord[], timezone = "Europe/Berlin", extra: Partial<IcsFeed> = {}): string =>
  buildIcs({
    name: "Plan",
    description: null,
    url: "https://almanac.test/c/plan",
    uidDomain: "almanac.test",
    sources: [{ layer: "main", timezone, events, exceptions: [] }],
    ...extra,
  });

const parsedEvents = (text: string): VEvent[] =>
  Object.values(ical.sync.parseICS(text)).filter((c): c is VEvent => c?.type === "VEVENT");

const lines = (text: string): string[] => text.split("\r\n");

describe("buildIcs", () => {
  it("keeps a wall-clock time that falls in a DST gap, so the series keeps its time of day", () => {
    // 2026-03-29 is Berlin's spring-forward day: 02:00-03:00 does not exist. A luxon DateTime
    // would write 03:30, and every later week would move to 03:30 with it.
    const text = feed([
      event({
        kind: "recurring",
        name: "Night job",
        recur: { type: "weekly", day: 7, starts: "2026-03-29" },
        start_time: "02:30",
      }),
    ]);
    expect(text).toContain("DTSTART;TZID=Europe/Berlin:20260329T023000");
    const [series] = parsedEvents(text);
    // RFC 5545 3.3.5: the missing local time is read with the offset before the gap.
    // (node-ical then carries 03:30 into later weeks; RFC 5545 keeps DTSTART's 02:30.)
    expect(
      series
        .rrule!.between(new Date("2026-03-28T00:00:00Z"), new Date("2026-03-30T00:00:00Z"), true)
        .map((d) => d.toISOString()),
    ).toEqual(["2026-03-29T01:30:00.000Z"]);
  });

  it("writes UTC times with Z and no VTIMEZONE for a UTC calendar", () => {
    const text = feed(
      [
        event({ kind: "one-off", name: "Call", date: "2026-12-02", start_time: "09:30", end_time: "10:00" }),
        event({
          kind: "recurring",
          name: "Daily",
          recur: { type: "daily", starts: "2026-12-01", until: "2026-12-10" },
          start_time: "08:00",
        }),
      ],
      "UTC",
    );
    expect(lines(text)).toContain("DTSTART:20261202T093000Z");
    expect(lines(text)).toContain("DURATION:PT30M");
    expect(lines(text)).toContain("RRULE:FREQ=DAILY;UNTIL=20261210T235959Z");
    expect(text).not.toContain("TZID");
    expect(text).not.toContain("VTIMEZONE");
  });

  it("ends a timed series at the end of its last day in UTC, an untimed one with a DATE", () => {
    const text = feed([
      event({
        kind: "recurring",
        name: "Timed",
        recur: { type: "weekly", day: 1, starts: "2026-06-01", until: "2026-06-29" },
        start_time: "23:30",
      }),
      event({
        kind: "recurring",
        name: "Untimed",
        recur: { type: "monthly", day: 15, starts: "2026-06-01", until: "2026-09-15" },
      }),
    ]);
    expect(text).toContain("RRULE:FREQ=WEEKLY;BYDAY=MO;WKST=MO;UNTIL=20260629T215959Z");
    expect(text).toContain("RRULE:FREQ=MONTHLY;BYMONTHDAY=15;UNTIL=20260915\r\n");
    const byName = new Map(parsedEvents(text).map((e) => [e.summary, e]));
    // The last Monday, 23:30 CEST, is still inside the series.
    expect(
      byName
        .get("Timed")!
        .rrule!.all()
        .map((d) => d.toISOString())
        .at(-1),
    ).toBe("2026-06-29T21:30:00.000Z");
    expect(byName.get("Untimed")!.rrule!.all()).toHaveLength(4);
  });

  it("writes no DTEND for a timed event without an end time", () => {
    const text = feed([event({ kind: "one-off", name: "Ping", date: "2026-12-02", start_time: "09:30" })]);
    expect(text).toContain("DTSTART;TZID=Europe/Berlin:20261202T093000");
    expect(text).not.toContain("DTEND");
  });

  it("leaves out someday events, empty series and records with an invalid rule", () => {
    const text = feed([
      event({ kind: "someday", name: "Someday" }),
      event({ kind: "recurring", name: "Never", recur: { type: "yearly", month: 2, day: 30 } }),
      event({ kind: "recurring", name: "Ended", recur: { type: "daily", starts: "2026-05-01", until: "2026-04-01" } }),
      event({ kind: "recurring", name: "Broken", recur: { type: "weekly", day: 9 } }),
      event({ kind: "one-off", name: "Kept", date: "2026-05-01" }),
    ]);
    expect(parsedEvents(text).map((e) => e.summary)).toEqual(["Kept"]);
  });

  it("cuts to a range: one-off events outside go, series keep their phase between the ends", () => {
    const fortnightly = event({
      kind: "recurring",
      name: "Fortnightly",
      recur: { type: "weekly", day: 3, interval: 2, starts: "2026-11-23" },
      start_time: "15:00",
    });
    const range = { from: "2027-01-01", to: "2027-01-31" };
    const text = feed(
      [
        fortnightly,
        event({ kind: "one-off", name: "Before", date: "2026-12-31" }),
        event({ kind: "one-off", name: "Inside", date: "2027-01-31" }),
        event({ kind: "recurring", name: "Over", recur: { type: "daily", starts: "2026-01-01", until: "2026-12-31" } }),
      ],
      "Europe/Berlin",
      { range },
    );
    const byName = new Map(parsedEvents(text).map((e) => [e.summary, e]));
    expect([...byName.keys()].sort()).toEqual(["Fortnightly", "Inside"]);
    expect(text).toContain("DTSTART;TZID=Europe/Berlin:20270106T150000");
    expect(
      byName
        .get("Fortnightly")!
        .rrule!.all()
        .map((d) => d.toISOString()),
    ).toEqual(["2027-01-06T14:00:00.000Z", "2027-01-20T14:00:00.000Z"]);
  });

  it("carries at most FEED_NOTE_CHARACTERS of an event's notes, and short notes whole", () => {
    const long = "word ".repeat(FEED_NOTE_CHARACTERS);
    const text = feed([
      event({ kind: "one-off", name: "Long", date: "2026-05-04", notes: long }),
      event({ kind: "one-off", name: "Short", date: "2026-05-05", notes: "bring the slides" }),
    ]);
    const [cutEvent, shortEvent] = parsedEvents(text);
    expect(shortEvent.description).toBe("bring the slides");
    const cut = cutEvent.description as unknown;
    expect(typeof cut === "string" && cut.startsWith(long.slice(0, FEED_NOTE_CHARACTERS).trim())).toBe(true);
    expect(cut).toMatch(/… \(shortened: the calendar's web page shows the whole notes\)$/);
    expect(String(cut).length).toBeLessThan(FEED_NOTE_CHARACTERS + 100);
  });

  it("is deterministic and ordered by date, whatever the order of the records", () => {
    const a = event({ kind: "one-off", name: "A", date: "2026-05-02" });
    const b = event({ kind: "one-off", name: "B", date: "2026-05-01", start_time: "10:00" });
    const one = feed([a, b]);
    expect(feed([b, a])).toBe(one);
    expect(parsedEvents(one).map((e) => e.summary)).toEqual(["B", "A"]);
    expect(one).toContain("DTSTAMP:20260302T100000Z"); // the record's last change, not the clock
  });

  it("escapes text so that no value can start a line of its own", () => {
    const text = feed(
      [event({ kind: "one-off", name: "Hi\r\nX-INJECTED:1", date: "2026-05-01", notes: "a;b,c\\d" })],
      "Europe/Berlin",
      {
        name: "Team\nBEGIN:VEVENT",
        description: "Why, and how;\nnext",
      },
    );
    expect(lines(text).filter((l) => l.startsWith("X-INJECTED"))).toEqual([]);
    expect(lines(text).filter((l) => l === "BEGIN:VEVENT")).toHaveLength(1);
    const parsed = ical.sync.parseICS(text);
    expect(parsed.vcalendar?.["WR-CALNAME"]).toBe("Team\nBEGIN:VEVENT");
    expect(parsed.vcalendar?.["WR-CALDESC"]).toBe("Why, and how;\nnext");
    const [only] = parsedEvents(text);
    expect(only.summary).toBe("Hi\nX-INJECTED:1");
    expect(only.description).toBe("a;b,c\\d");
  });

  it("gives each zone one VTIMEZONE covering the earliest year written", () => {
    const text = buildIcs({
      name: "Plan",
      description: null,
      url: "https://almanac.test/c/plan",
      uidDomain: "almanac.test",
      sources: [
        {
          layer: "main",
          timezone: "Europe/Berlin",
          events: [event({ kind: "one-off", name: "Old", date: "2020-02-01", start_time: "09:00" })],
          exceptions: [],
        },
        {
          layer: "ops",
          timezone: "Europe/Berlin",
          events: [event({ kind: "one-off", name: "New", date: "2026-02-01", start_time: "09:00" })],
          exceptions: [],
        },
        {
          layer: "tokyo",
          timezone: "Asia/Tokyo",
          events: [event({ kind: "one-off", name: "Untimed", date: "2026-02-01" })],
          exceptions: [],
        },
      ],
    });
    expect(text.match(/BEGIN:VTIMEZONE/g)).toHaveLength(1); // untimed events need no zone
    expect(text).toContain("TZID:Europe/Berlin\r\nBEGIN:STANDARD\r\nDTSTART:20200101T000000");
    expect(text).toContain("X-ALMANAC-LAYER:ops");
  });
});

describe("WallClock", () => {
  it("formats its own reading and refuses to be moved to another zone", () => {
    const clock = new WallClock("2026-03-29", "02:30", "Europe/Berlin");
    expect(clock.setZone("Europe/Berlin").toFormat("yyyyLLdd")).toBe("20260329");
    expect(clock.toFormat("HHmmss")).toBe("023000");
    expect(() => clock.setZone("America/New_York")).toThrow(/asked for zone/);
    expect(new WallClock("2026-03-29", null, "Europe/Berlin").setZone("utc").toFormat("yyyyLLdd")).toBe("20260329");
    expect(new WallClock("2026-03-29", "10:00", "UTC").setZone("utc").toJSON()).toBe("2026-03-29T10:00:00");
  });
});

describe("buildIcs: lengths, SEQUENCE and exceptions (docs/api.md#icalendar-feeds)", () => {
  const exception = makeExceptionRecord;

  const withExceptions = (
    events: EventRecord[],
    exceptions: ExceptionRecord[],
    timezone = "Europe/Berlin",
    range?: IcsFeed["range"],
  ): string =>
    buildIcs({
      name: "Plan",
      description: null,
      url: "https://almanac.test/c/plan",
      uidDomain: "almanac.test",
      sources: [{ layer: "main", timezone, events, exceptions }],
      range,
    });

  it("writes a timed length as DURATION (overnight included), never DTEND, and ends the text with CRLF", () => {
    const text = feed([
      event({ kind: "one-off", name: "Gap", date: "2027-03-28", start_time: "02:30", end_time: "03:00" }),
      event({ kind: "one-off", name: "Night", date: "2027-03-27", start_time: "22:00", end_time: "02:00" }),
      event({
        kind: "recurring",
        name: "Yearly",
        recur: { type: "yearly", month: 3, day: 28, starts: "2027-03-28" },
        start_time: "02:30",
        end_time: "03:30",
      }),
    ]);
    expect(text.endsWith("END:VCALENDAR\r\n")).toBe(true);
    expect(text).not.toMatch(/\r\nDTEND[;:]/);
    expect(text.match(/\r\nDURATION:[^\r]*/g)).toEqual([
      "\r\nDURATION:PT240M",
      "\r\nDURATION:PT30M",
      "\r\nDURATION:PT60M",
    ]);
    // Read back independently: 02:30 does not exist that day, so it starts at 03:30+02:00 and lasts 30 minutes.
    const found = expandFeed(text, "2027-01-01", "2028-12-31").occurrences;
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    expect(found.map((o) => [o.name, o.date, iso(o.start), iso(o.end)])).toEqual(
      expect.arrayContaining([
        ["Gap", "2027-03-28", "2027-03-28T01:30:00.000Z", "2027-03-28T02:00:00.000Z"],
        // 22:00 to 02:00 is four hours of elapsed time: 03:00 by the clock, which skipped an hour.
        ["Night", "2027-03-27", "2027-03-27T21:00:00.000Z", "2027-03-28T01:00:00.000Z"],
        ["Yearly", "2027-03-28", "2027-03-28T01:30:00.000Z", "2027-03-28T02:30:00.000Z"],
        ["Yearly", "2028-03-28", "2028-03-28T00:30:00.000Z", "2028-03-28T01:30:00.000Z"],
      ]),
    );
  });

  it("writes the record's sequence as SEQUENCE, 0 when absent", () => {
    const text = feed([
      event({ kind: "one-off", name: "Fresh", date: "2027-01-05" }),
      event({ kind: "one-off", name: "Moved twice", date: "2027-01-06", sequence: 2 }),
    ]);
    expect(text.match(/\r\nSEQUENCE:\d+/g)).toEqual(["\r\nSEQUENCE:0", "\r\nSEQUENCE:2"]);
  });

  it("writes cancellations as EXDATE and changes as RECURRENCE-ID overrides, in the series' form", () => {
    const timed = event({
      kind: "recurring",
      name: "Night job",
      recur: { type: "daily", starts: "2027-03-26", until: "2027-03-31" },
      start_time: "02:30",
      end_time: "03:00",
      sequence: 1,
    });
    const allDay = event({
      kind: "recurring",
      name: "Review",
      recur: { type: "weekly", day: 5, starts: "2027-03-26" },
    });
    const text = withExceptions(
      [timed, allDay],
      [
        exception(timed, "2027-03-27", { cancelled: true }),
        exception(timed, "2027-03-29", { cancelled: true }),
        exception(timed, "2027-03-28", { start_time: "10:00", end_time: "09:00", name: "Late", sequence: 2 }),
        exception(allDay, "2027-04-02", { cancelled: true }),
        exception(allDay, "2027-04-09", { date: "2027-04-10", start_time: "09:00", end_time: "09:45" }),
      ],
    );
    const lines = text.split("\r\n");
    expect(lines).toContain("EXDATE;TZID=Europe/Berlin:20270327T023000,20270329T023000");
    expect(lines).toContain("RECURRENCE-ID;TZID=Europe/Berlin:20270328T023000");
    expect(lines).toContain("EXDATE;VALUE=DATE:20270402");
    expect(lines).toContain("RECURRENCE-ID;VALUE=DATE:20270409");
    expect(lines.filter((l) => l === `UID:${timed.id}@almanac.test`)).toHaveLength(2);

    const found = expandFeed(text, "2027-03-01", "2027-04-30").occurrences;
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    expect(
      found.filter((o) => o.eventId === timed.id).map((o) => [o.originalDate, o.name, iso(o.start), iso(o.end)]),
    ).toEqual([
      ["2027-03-26", "Night job", "2027-03-26T01:30:00.000Z", "2027-03-26T02:00:00.000Z"],
      // Moved within its day, overnight: 10:00 to 09:00 the next day.
      ["2027-03-28", "Late", "2027-03-28T08:00:00.000Z", "2027-03-29T07:00:00.000Z"],
      ["2027-03-30", "Night job", "2027-03-30T00:30:00.000Z", "2027-03-30T01:00:00.000Z"],
      ["2027-03-31", "Night job", "2027-03-31T00:30:00.000Z", "2027-03-31T01:00:00.000Z"],
    ]);
    expect(found.filter((o) => o.eventId === allDay.id).map((o) => [o.originalDate, o.date, iso(o.start)])).toEqual([
      ["2027-03-26", "2027-03-26", null],
      ["2027-04-09", "2027-04-10", "2027-04-10T07:00:00.000Z"],
      ["2027-04-16", "2027-04-16", null],
      ["2027-04-23", "2027-04-23", null],
      ["2027-04-30", "2027-04-30", null],
    ]);
  });

  it("in a view's range: moved out is an EXDATE, moved in from outside the cut series is an event of its own", () => {
    const weekly = event({
      kind: "recurring",
      name: "Sync",
      recur: { type: "weekly", day: 3, starts: "2027-01-06" },
      start_time: "15:00",
      end_time: "15:30",
    });
    const text = withExceptions(
      [weekly],
      [
        exception(weekly, "2027-01-13", { date: "2027-02-10" }), // out of January
        exception(weekly, "2027-02-03", { date: "2027-01-28", start_time: "09:00" }), // into January
        exception(weekly, "2027-01-20", { name: "Sync (short)", end_time: "15:15" }),
      ],
      "UTC",
      { from: "2027-01-01", to: "2027-01-31" },
    );
    const lines = text.split("\r\n");
    expect(lines).toContain("EXDATE:20270113T150000Z");
    expect(lines).toContain("RECURRENCE-ID:20270120T150000Z");
    expect(lines).toContain(`UID:${weekly.id}_20270203@almanac.test`);
    expect(text).not.toContain("20270203T"); // nothing of February's occurrence but its id
    const found = expandFeed(text, "2026-01-01", "2028-12-31").occurrences;
    expect(found.map((o) => [o.date, o.name, new Date(o.start!).toISOString().slice(11, 16)])).toEqual([
      ["2027-01-06", "Sync", "15:00"],
      ["2027-01-20", "Sync (short)", "15:00"],
      ["2027-01-27", "Sync", "15:00"],
      ["2027-01-28", "Sync", "09:00"],
    ]);
  });
});
