/** readIcs: what is not an event, cancelled, duplicated or too much, and the text that is not iCalendar at all. */
import { describe, expect, it } from "vitest";
import { DomainError } from "../../functions/src/domain/errors.js";
import { MAX_IMPORT_EVENTS } from "../../functions/src/domain/import/plan.js";
import { calendarText, component, onlyEvent, read, vevent } from "./import-text.js";

const ONE_DAY = "DTSTART;VALUE=DATE:20261202";

describe("readIcs, skips and limits", () => {
  it("lists components that are not events", async () => {
    const plan = await read(
      calendarText(
        component("VTODO", ["UID:t@x", "SUMMARY:Task"]),
        component("VJOURNAL", ["UID:j@x"]),
        component("VFREEBUSY", ["UID:f@x"]),
      ),
    );
    expect(plan).toEqual({
      name: null,
      events: [],
      skipped: [
        { uid: "t@x", reason: "VTODO: only events are imported" },
        { uid: "j@x", reason: "VJOURNAL: only events are imported" },
        { uid: "f@x", reason: "VFREEBUSY: only events are imported" },
      ],
    });
  });

  it("gives the calendar's own name (X-WR-CALNAME) as text, its escapes undone, or null", async () => {
    const named = (line: string) =>
      `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n${line}\r\n${vevent("UID:n@x", ONE_DAY)}END:VCALENDAR\r\n`;
    expect((await read(named("X-WR-CALNAME:Team\\, Berlin\\; all\\nhands"))).name).toBe("Team, Berlin; all hands");
    // Folded, as producers write a long name.
    expect((await read(named("X-WR-CALNAME:Public holidays in\r\n  Germany"))).name).toBe("Public holidays in Germany");
    expect((await read(named("X-WR-CALNAME:   "))).name).toBeNull();
    expect((await read(named("X-WR-TIMEZONE:Europe/Berlin"))).name).toBeNull();
  });

  it("skips cancelled events and the second of two with one UID", async () => {
    const plan = await read(
      calendarText(
        vevent("UID:c@x", ONE_DAY, "STATUS:CANCELLED"),
        vevent("UID:d@x", ONE_DAY, "SUMMARY:First"),
        vevent("UID:d@x", ONE_DAY, "SUMMARY:Second"),
      ),
    );
    expect(plan.events.map((e) => e.event.name)).toEqual(["First"]);
    expect(plan.skipped).toEqual([
      { uid: "c@x", reason: "cancelled in the file (STATUS:CANCELLED)" },
      { uid: "d@x", reason: "duplicate UID: an earlier event in the text has it; only the first is imported" },
    ]);
  });

  it("gives an event without UID one derived from what it is, the same on every reading", async () => {
    const text = calendarText(vevent(ONE_DAY, "SUMMARY:Fair"));
    const uid = (await onlyEvent(text)).uid;
    expect(uid).toMatch(/^[0-9a-f]{32}@import\.almanac$/);
    expect((await onlyEvent(text)).uid).toBe(uid);
    expect((await onlyEvent(calendarText(vevent(ONE_DAY, "SUMMARY:Other")))).uid).not.toBe(uid);
    // Two events of one start and summary that differ in their end, notes, place or rule are two events.
    const variants = [
      "DTEND;VALUE=DATE:20261204",
      "DESCRIPTION:Stand 12",
      "LOCATION:Hall 2",
      "RRULE:FREQ=YEARLY;COUNT=2",
      "DURATION:P2D",
    ];
    const plan = await read(
      calendarText(vevent(ONE_DAY, "SUMMARY:Fair"), ...variants.map((v) => vevent(ONE_DAY, "SUMMARY:Fair", v))),
    );
    expect(plan.skipped).toEqual([]);
    expect(new Set(plan.events.map((e) => e.uid)).size).toBe(variants.length + 1);
  });

  it("reads SUMMARY, DESCRIPTION, LOCATION, URL and CATEGORIES into name, notes and category", async () => {
    const { event } = await onlyEvent(
      calendarText(
        vevent(
          ONE_DAY,
          "SUMMARY:  Team \\n  dinner ",
          "DESCRIPTION:Bring a dish",
          "LOCATION:Main St 1",
          "URL:https://example.com/dinner",
          "CATEGORIES:social,food",
        ),
      ),
    );
    expect(event).toMatchObject({
      name: "Team dinner",
      notes: "Bring a dish\nLocation: Main St 1\nhttps://example.com/dinner",
      category: "social",
    });
    expect((await onlyEvent(calendarText(vevent(ONE_DAY)))).event.name).toBe("Untitled");
  });

  it("cuts long text to what an event holds, and says so", async () => {
    const plan = await read(
      calendarText(vevent("UID:l@x", ONE_DAY, `SUMMARY:${"a".repeat(250)}`, `CATEGORIES:${"c".repeat(70)}`)),
    );
    expect(plan.events[0].event).toMatchObject({ name: "a".repeat(200), category: "c".repeat(64) });
    expect(plan.skipped).toEqual([
      { uid: "l@x", reason: "SUMMARY cut to 200 characters" },
      { uid: "l@x", reason: "CATEGORIES cut to 64 characters" },
    ]);
  });

  it("says what a one-off event's EXDATE and RDATE were", async () => {
    const plan = await read(
      calendarText(vevent("UID:r@x", ONE_DAY, "EXDATE;VALUE=DATE:20261203", "RDATE;VALUE=DATE:20261204")),
    );
    expect(plan.events).toHaveLength(1);
    expect(plan.skipped.map((s) => s.reason)).toEqual([
      "its EXDATE was left out: the event does not repeat (it has no RRULE)",
      "RDATE 2026-12-04 was left out: an Almanac series has no extra dates",
    ]);
  });

  it("skips an event with a value that cannot be read, and reads the others", async () => {
    const plan = await read(calendarText(vevent("UID:bad@x", "DTSTART:2026"), vevent("UID:good@x", ONE_DAY)));
    expect(plan.events.map((e) => e.uid)).toEqual(["good@x"]);
    expect(plan.skipped).toEqual([
      { uid: "bad@x", reason: 'it could not be read: invalid date-time value: "2026--T::"' },
    ]);
  });

  it("skips a component whose line the parser refuses, naming the line, and reads the others", async () => {
    const text = calendarText(
      vevent("UID:rule@x", ONE_DAY, "RRULE:FREQ=BOGUS"),
      vevent("UID:zone@x", 'DTSTART;TZID="W. Europe Standard Time:20260609T090000"'),
      vevent("UID:date@x", "DTSTART;VALUE=DATE:Next Year"),
      vevent("UID:good@x", ONE_DAY),
    );
    const plan = await read(text);
    expect(plan.events.map((e) => e.uid)).toEqual(["good@x"]);
    expect(plan.skipped).toEqual([
      {
        uid: "rule@x",
        reason:
          'VEVENT could not be parsed at line 7: invalid frequency "BOGUS" ' +
          'expected: "SECONDLY, MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY, YEARLY"',
      },
      {
        uid: "zone@x",
        reason:
          "VEVENT could not be parsed at line 11: Missing parameter value in " +
          `'DTSTART;TZID="W. Europe Standard Time:20260609T090000"'`,
      },
      { uid: "date@x", reason: 'it could not be read: Could not extract integer from "Next"' },
    ]);
  });

  it("reads an RRULE list written with spaces, and a date written without VALUE=DATE", async () => {
    const text = calendarText(
      vevent("UID:s@x", "DTSTART:20260302T090000Z", "RRULE:FREQ=WEEKLY;BYDAY=MO, WE,  FR;COUNT=6"),
      vevent("UID:d@x", "DTSTART:20260101", "DTEND:20260102", "RRULE:"),
    );
    const plan = await read(text, "UTC");
    expect(plan.skipped).toEqual([]);
    expect(plan.events[0].event.recur).toMatchObject({ type: "weekly", day: [1, 3, 5], count: 6 });
    expect(plan.events[1].event).toMatchObject({ date: "2026-01-01", start_time: null, end_time: null, days: 1 });
    expect(plan.events[1].event.recur ?? null).toBeNull();
  });

  it("reads every VCALENDAR of a text that holds several", async () => {
    const text = calendarText(vevent("UID:a@x", ONE_DAY)) + calendarText(vevent("UID:b@x", ONE_DAY));
    expect((await read(text)).events.map((e) => e.uid)).toEqual(["a@x", "b@x"]);
    expect((await read(`\uFEFF${text}`)).events.map((e) => e.uid)).toEqual(["a@x", "b@x"]);
  });

  it("refuses a text that is not iCalendar, naming the parser's reason", async () => {
    const refusal = async (text: string) => {
      try {
        await read(text);
      } catch (error) {
        expect(error).toBeInstanceOf(DomainError);
        return { code: (error as DomainError).code, message: (error as DomainError).message };
      }
      throw new Error("expected a refusal");
    };
    expect(await refusal("hello world")).toEqual({
      code: "invalid_request",
      message: 'the body is not iCalendar text (RFC 5545) at line 1: invalid line (no token ";" or ":") "hello world"',
    });
    expect(await refusal("")).toMatchObject({ message: expect.stringContaining("BEGIN:VCALENDAR ... END:VCALENDAR") });
    expect(await refusal(component("VEVENT", [ONE_DAY]))).toMatchObject({ code: "invalid_request" });
  });

  it("lets other work run while it reads a long text", async () => {
    const many = Array.from({ length: 2000 }, (_, i) => vevent(`UID:${i}@x`, ONE_DAY, `SUMMARY:Event ${i}`));
    let others = 0;
    let reading = true;
    const other = () => {
      others++;
      if (reading) setImmediate(other);
    };
    setImmediate(other);
    const plan = await read(calendarText(...many));
    reading = false;
    expect(plan.events).toHaveLength(2000);
    expect(others).toBeGreaterThan(0);
  });

  it(`refuses a text of more than ${MAX_IMPORT_EVENTS} events`, async () => {
    const many = Array.from({ length: MAX_IMPORT_EVENTS + 1 }, (_, i) => vevent(`UID:${i}@x`, ONE_DAY));
    await expect(read(calendarText(...many))).rejects.toThrow(
      `the text holds ${MAX_IMPORT_EVENTS + 1} events (VEVENTs, overrides included); at most ${MAX_IMPORT_EVENTS} are read`,
    );
  });
});
