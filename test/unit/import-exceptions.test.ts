/** readIcs on a series' EXDATEs and RECURRENCE-ID overrides, and on the overrides it cannot place. */
import { describe, expect, it } from "vitest";
import { calendarText, onlyEvent, read, vevent } from "./import-text.js";

const SERIES = [
  "UID:s@x",
  "SUMMARY:Standup",
  "DESCRIPTION:Daily sync",
  "CATEGORIES:work",
  "DTSTART;TZID=Europe/Berlin:20260302T090000",
  "DURATION:PT15M",
  "RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=10",
];
const override = (recurrenceId: string, ...lines: string[]) =>
  vevent("UID:s@x", `RECURRENCE-ID;TZID=Europe/Berlin:${recurrenceId}`, ...lines);

describe("readIcs, exceptions", () => {
  it("cancels each EXDATE's occurrence, in every value form", async () => {
    const text = calendarText(
      vevent(
        ...SERIES,
        "EXDATE;TZID=Europe/Berlin:20260309T090000,20260316T090000",
        "EXDATE:20260323T080000Z",
        "EXDATE;VALUE=DATE:20260330",
      ),
    );
    expect((await onlyEvent(text)).exceptions).toEqual(
      ["2026-03-09", "2026-03-16", "2026-03-23", "2026-03-30"].map((original_date) => ({
        original_date,
        change: { cancelled: true },
      })),
    );
  });

  it("says an EXDATE off the series changes nothing", async () => {
    const plan = await read(calendarText(vevent(...SERIES, "EXDATE;TZID=Europe/Berlin:20260310T090000")));
    expect(plan.events[0].exceptions).toEqual([]);
    expect(plan.skipped).toEqual([
      { uid: "s@x", reason: "EXDATE 2026-03-10 is not a date of the series; it changes nothing" },
    ]);
  });

  it("reads an override as what differs from the series: moved, retimed, renamed, its own alarms", async () => {
    const text = calendarText(
      vevent(...SERIES),
      override(
        "20260309T090000",
        "SUMMARY:Standup (long)",
        "DESCRIPTION:Daily sync",
        "CATEGORIES:work",
        "DTSTART;TZID=Europe/Berlin:20260310T100000",
        "DTEND;TZID=Europe/Berlin:20260310T110000",
        "BEGIN:VALARM",
        "ACTION:DISPLAY",
        "TRIGGER:-PT5M",
        "END:VALARM",
      ),
      override(
        "20260316T090000",
        "SUMMARY:Standup",
        "DESCRIPTION:Daily sync",
        "CATEGORIES:work",
        "DTSTART;TZID=Europe/Berlin:20260316T090000",
        "DURATION:PT15M",
      ),
      override("20260323T090000", "STATUS:CANCELLED", "DTSTART;TZID=Europe/Berlin:20260323T090000"),
      override("20260330T090000", "SUMMARY:Planning", "DTSTART;VALUE=DATE:20260330"),
    );
    expect((await onlyEvent(text)).exceptions).toEqual([
      {
        original_date: "2026-03-09",
        change: { date: "2026-03-10", start_time: "10:00", end_time: "11:00", name: "Standup (long)", alarms: [5] },
      },
      { original_date: "2026-03-23", change: { cancelled: true } },
      {
        original_date: "2026-03-30",
        change: { start_time: null, end_time: null, name: "Planning", notes: null, category: null },
      },
    ]);
  });

  it("skips overrides it cannot place, saying why", async () => {
    const text = calendarText(
      vevent(...SERIES, "EXDATE;TZID=Europe/Berlin:20260309T090000"),
      override("20260309T090000", "SUMMARY:Moved", "DTSTART;TZID=Europe/Berlin:20260309T100000"),
      override("20260310T090000", "SUMMARY:Tuesday", "DTSTART;TZID=Europe/Berlin:20260310T100000"),
      vevent(
        "UID:s@x",
        "RECURRENCE-ID;RANGE=THISANDFUTURE;TZID=Europe/Berlin:20260316T090000",
        "DTSTART;TZID=Europe/Berlin:20260316T100000",
      ),
      vevent("UID:lost@x", "RECURRENCE-ID:20260316T080000Z", "DTSTART:20260316T090000Z"),
    );
    const plan = await read(text);
    expect(plan.events[0].exceptions).toEqual([{ original_date: "2026-03-09", change: { cancelled: true } }]);
    expect(plan.skipped).toEqual([
      { uid: "s@x", reason: "the override of 2026-03-09 was left out: an EXDATE cancels that occurrence" },
      { uid: "s@x", reason: "an override: its RECURRENCE-ID (2026-03-10) is not a date of the series" },
      {
        uid: "s@x",
        reason:
          "an override: its RECURRENCE-ID has RANGE=THISANDFUTURE (it changes the rest of the series), " +
          "which Almanac cannot store",
      },
      { uid: "lost@x", reason: "an override (RECURRENCE-ID) whose series is not in the text, or was not imported" },
    ]);
  });

  it("places an override of a series in another zone on the calendar's dates", async () => {
    const text = calendarText(
      vevent("UID:t@x", "DTSTART:20261102T230000Z", "DURATION:PT1H", "RRULE:FREQ=DAILY;COUNT=5"),
      vevent("UID:t@x", "RECURRENCE-ID:20261103T230000Z", "DTSTART:20261104T000000Z", "DURATION:PT1H"),
    );
    const { event, exceptions } = await onlyEvent(text, "Asia/Tokyo");
    expect(event).toMatchObject({ start_time: "08:00", recur: { type: "daily", starts: "2026-11-03" } });
    expect(exceptions).toEqual([{ original_date: "2026-11-04", change: { start_time: "09:00", end_time: "10:00" } }]);
  });
});
