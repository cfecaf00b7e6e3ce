/** readIcs on VALARMs: relative triggers before the start become alarms; the rest is left out with a reason. */
import { describe, expect, it } from "vitest";
import { calendarText, read, reasons, vevent } from "./import-text.js";

const alarm = (...lines: string[]) => [
  "BEGIN:VALARM",
  "ACTION:DISPLAY",
  "DESCRIPTION:Reminder",
  ...lines,
  "END:VALARM",
];

const withAlarms = (...alarms: string[][]) =>
  read(
    calendarText(
      vevent(
        "UID:a@x",
        "SUMMARY:Talk",
        "DTSTART;TZID=Europe/Berlin:20261202T090000",
        "DTEND;TZID=Europe/Berlin:20261202T103000",
        ...alarms.flat(),
      ),
    ),
  );

describe("readIcs, alarms", () => {
  it("reads relative triggers as minutes before the start, largest first", async () => {
    const plan = await withAlarms(alarm("TRIGGER:-PT15M"), alarm("TRIGGER:-P1D"), alarm("TRIGGER;RELATED=START:PT0S"));
    expect(plan.events[0].event.alarms).toEqual([1440, 15, 0]);
    expect(plan.skipped).toEqual([]);
  });

  it("counts a trigger related to the end from the end", async () => {
    // 90 minutes long: 120 minutes before the end is 30 before the start.
    const plan = await withAlarms(alarm("TRIGGER;RELATED=END:-PT120M"));
    expect(plan.events[0].event.alarms).toEqual([30]);
  });

  it("leaves out absolute triggers, triggers after the start and ones beyond four weeks, saying so", async () => {
    const plan = await withAlarms(
      alarm("TRIGGER;VALUE=DATE-TIME:20261201T080000Z"),
      alarm("TRIGGER:PT10M"),
      alarm("TRIGGER:-P5W"),
      alarm("TRIGGER:-PT5M"),
    );
    expect(plan.events[0].event.alarms).toEqual([5]);
    expect(reasons(plan)).toEqual([
      "a VALARM at a fixed time (2026-12-01T08:00:00Z) was left out: Almanac alarms are minutes before the start",
      "a VALARM 10 minutes after the start was left out: Almanac alarms come before it",
      "a VALARM 50400 minutes before the start was left out: Almanac alarms are at most 40320 (four weeks)",
    ]);
  });

  it("keeps the five nearest alarms and says which were left out", async () => {
    const plan = await withAlarms(...[5, 10, 15, 30, 60, 120].map((m) => alarm(`TRIGGER:-PT${m}M`)));
    expect(plan.events[0].event.alarms).toEqual([60, 30, 15, 10, 5]);
    expect(reasons(plan)).toEqual([
      "a VALARM 120 minutes before the start was left out: Almanac keeps at most 5 alarms an event",
    ]);
  });

  it("ignores Apple's ACTION:NONE placeholder quietly, and leaves out a TRIGGER that is a TIME, saying so", async () => {
    const placeholder = ["BEGIN:VALARM", "ACTION:NONE", "TRIGGER;VALUE=DATE-TIME:19760401T005545Z", "END:VALARM"];
    const plan = await withAlarms(placeholder, alarm("TRIGGER;VALUE=TIME:120000"), alarm("TRIGGER:-PT10M"));
    expect(plan.events[0].event.alarms).toEqual([10]);
    expect(reasons(plan)).toEqual([
      "a VALARM whose TRIGGER is a TIME was left out: a TRIGGER is a duration before the start or a date-time",
    ]);
  });
});
