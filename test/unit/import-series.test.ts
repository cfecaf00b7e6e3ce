/** readIcs on series: each RRULE kind Almanac can hold, checked against ical.js's expansion, and the ones it cannot. */
import { describe, expect, it } from "vitest";
import { calendarText, onlyEvent, read, reasons, vevent } from "./import-text.js";

const series = (dtstart: string, rrule: string, ...extra: string[]) =>
  calendarText(vevent("UID:s@x", "SUMMARY:Series", dtstart, "DURATION:PT1H", `RRULE:${rrule}`, ...extra));

const recurOf = async (text: string, timezone?: string) => (await onlyEvent(text, timezone)).event.recur;

const BERLIN_MONDAY = "DTSTART;TZID=Europe/Berlin:20260302T090000";

describe("readIcs, series Almanac can hold", () => {
  it("reads a daily rule with INTERVAL and COUNT", async () => {
    expect(await recurOf(series(BERLIN_MONDAY, "FREQ=DAILY;INTERVAL=2;COUNT=5"))).toEqual({
      type: "daily",
      interval: 2,
      starts: "2026-03-02",
      count: 5,
    });
  });

  it("reads a daily rule on weekdays as a weekly one", async () => {
    expect(await recurOf(series(BERLIN_MONDAY, "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR"))).toEqual({
      type: "weekly",
      day: [1, 2, 3, 4, 5],
      interval: 1,
      starts: "2026-03-02",
    });
  });

  it("reads a weekly rule with a weekday list, or on DTSTART's weekday", async () => {
    expect(await recurOf(series(BERLIN_MONDAY, "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;WKST=MO"))).toMatchObject({
      type: "weekly",
      day: [1, 4],
      interval: 2,
    });
    expect(await recurOf(series(BERLIN_MONDAY, "FREQ=WEEKLY"))).toMatchObject({ type: "weekly", day: [1] });
  });

  it("reads a weekly Berlin series into a Berlin calendar across the March DST change", async () => {
    const event = await onlyEvent(series("DTSTART;TZID=Europe/Berlin:20260316T090000", "FREQ=WEEKLY;BYDAY=MO;COUNT=6"));
    expect(event.event).toMatchObject({ start_time: "09:00", end_time: "10:00", recur: { count: 6 } });
  });

  it("reads monthly rules by day of month, n-th weekday, BYSETPOS, last day, and DTSTART's day", async () => {
    expect(await recurOf(series(BERLIN_MONDAY, "FREQ=MONTHLY;BYMONTHDAY=2"))).toMatchObject({
      type: "monthly",
      day: 2,
    });
    expect(await recurOf(series(BERLIN_MONDAY, "FREQ=MONTHLY"))).toMatchObject({ type: "monthly", day: 2 });
    const second = "DTSTART;TZID=Europe/Berlin:20260310T090000"; // the second Tuesday of March
    expect(await recurOf(series(second, "FREQ=MONTHLY;BYDAY=2TU"))).toMatchObject({ type: "monthly", week: 2, day: 2 });
    expect(await recurOf(series(second, "FREQ=MONTHLY;BYDAY=TU;BYSETPOS=2"))).toMatchObject({ week: 2, day: 2 });
    const lastFriday = "DTSTART;TZID=Europe/Berlin:20260327T090000";
    expect(await recurOf(series(lastFriday, "FREQ=MONTHLY;BYDAY=-1FR"))).toMatchObject({ week: -1, day: 5 });
    const lastDay = "DTSTART;VALUE=DATE:20260131";
    expect(await recurOf(series(lastDay, "FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=24"))).toMatchObject({ day: -1, count: 24 });
  });

  it("reads yearly rules by month and day", async () => {
    const birthday = "DTSTART;VALUE=DATE:20260714";
    expect(await recurOf(series(birthday, "FREQ=YEARLY"))).toEqual({
      type: "yearly",
      month: 7,
      day: 14,
      interval: 1,
      starts: "2026-07-14",
    });
    expect(await recurOf(series(birthday, "FREQ=YEARLY;BYMONTH=7;BYMONTHDAY=14"))).toMatchObject({ month: 7, day: 14 });
    const leap = "DTSTART;VALUE=DATE:20280229";
    expect(await recurOf(series(leap, "FREQ=YEARLY;COUNT=3"))).toMatchObject({ month: 2, day: 29, count: 3 });
  });

  it("ends a series at UNTIL's local date in the calendar's zone", async () => {
    // 21:59:59 UTC is 23:59:59 in Berlin (summer): the 29th is the last date.
    const timed = series("DTSTART;TZID=Europe/Berlin:20260601T233000", "FREQ=WEEKLY;BYDAY=MO;UNTIL=20260629T215959Z");
    expect(await recurOf(timed)).toMatchObject({ until: "2026-06-29" });
    // UNTIL before the day's start time: that day's occurrence is not in the series.
    const early = series("DTSTART;TZID=Europe/Berlin:20260601T090000", "FREQ=DAILY;UNTIL=20260605T060000Z");
    expect(await recurOf(early)).toMatchObject({ until: "2026-06-04" });
    const allDay = series("DTSTART;VALUE=DATE:20260915", "FREQ=MONTHLY;UNTIL=20261215");
    expect(await recurOf(allDay)).toMatchObject({ until: "2026-12-15" });
    // An all-day series' UTC UNTIL is read in the event's zone: 23:00Z on the 15th is midnight of
    // the 16th in Berlin, which keeps Monday the 16th; in UTC the series ends on the 15th.
    const midnight = (dtstart: string) =>
      series(dtstart, "FREQ=WEEKLY;UNTIL=20260315T230000Z").replace("DURATION:PT1H\r\n", "");
    expect(await recurOf(midnight("DTSTART;VALUE=DATE:20260302"))).toMatchObject({ until: "2026-03-16" });
    expect(await recurOf(midnight("DTSTART;VALUE=DATE:20260302"), "UTC")).toMatchObject({ until: "2026-03-15" });
    const sabre = midnight("DTSTART;TZID=Europe/Berlin;VALUE=DATE:20260302");
    expect(await recurOf(sabre, "UTC")).toMatchObject({ until: "2026-03-16" });
  });

  it("reads a series whose UNTIL is before DTSTART as DTSTART's one occurrence, as Apple iCal 1.0 wrote it", async () => {
    const text = series("DTSTART;TZID=Europe/Berlin:20260302T090000", "FREQ=WEEKLY;UNTIL=20260301T080000Z");
    const plan = await read(text);
    expect(plan.skipped).toEqual([]);
    expect(plan.events[0].event).toMatchObject({ date: "2026-03-02", start_time: "09:00", end_time: "10:00" });
    expect(plan.events[0].event.recur ?? null).toBeNull();
  });

  it("reads a series in another zone when its offset from the calendar's is the same on each of its dates", async () => {
    // Tokyo keeps no DST: 09:00 there is always 00:00 UTC.
    const tokyo = series("DTSTART;TZID=Asia/Tokyo:20260302T090000", "FREQ=WEEKLY;BYDAY=MO,TH");
    expect((await onlyEvent(tokyo, "UTC")).event).toMatchObject({
      start_time: "00:00",
      recur: { type: "weekly", day: [1, 4] },
    });
    // July 4th falls between the DST changes of New York and of Berlin every year: always 15:00 in Berlin.
    const july = series("DTSTART;TZID=America/New_York:20260704T090000", "FREQ=YEARLY");
    expect((await onlyEvent(july)).event).toMatchObject({
      start_time: "15:00",
      recur: { type: "yearly", month: 7, day: 4 },
    });
  });

  it("skips a monthly New York series in a Berlin calendar on the first year its date falls between the changes", async () => {
    // The 1st of November 2027 is a Monday: New York keeps summer time until the 7th, Berlin left it on 31 October.
    const plan = await read(series("DTSTART;TZID=America/New_York:20260101T090000", "FREQ=MONTHLY;BYMONTHDAY=1"));
    expect(reasons(plan)).toEqual([
      "the series is in America/New_York, whose offset from Europe/Berlin changes during it " +
        "(on 2027-11-01 it starts at 14:00 in Europe/Berlin, not 15:00); a calendar in America/New_York can hold it",
    ]);
  });

  it("reads a series in a zone known only from the file's VTIMEZONE, and skips one that drifts", async () => {
    const zone = (rules: string) => `BEGIN:VTIMEZONE\r\nTZID:Office time\r\n${rules}END:VTIMEZONE\r\n`;
    const fixed = zone(
      "BEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nTZOFFSETFROM:+0300\r\nTZOFFSETTO:+0300\r\nEND:STANDARD\r\n",
    );
    const weekly = vevent("UID:o@x", "DTSTART;TZID=Office time:20260302T120000", "DURATION:PT1H", "RRULE:FREQ=WEEKLY");
    expect((await onlyEvent(calendarText(fixed, weekly), "UTC")).event).toMatchObject({
      start_time: "09:00",
      recur: { type: "weekly", day: [1] },
    });
    const summer = zone(
      "BEGIN:STANDARD\r\nDTSTART:19701025T030000\r\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\n" +
        "TZOFFSETFROM:+0400\r\nTZOFFSETTO:+0300\r\nEND:STANDARD\r\n" +
        "BEGIN:DAYLIGHT\r\nDTSTART:19700329T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\n" +
        "TZOFFSETFROM:+0300\r\nTZOFFSETTO:+0400\r\nEND:DAYLIGHT\r\n",
    );
    expect(reasons(await read(calendarText(summer, weekly), "UTC"))).toEqual([
      "the series is in Office time, whose offset from UTC changes during it (on 2026-03-30 it starts at 08:00 in UTC, not 09:00)",
    ]);
  });

  it("moves the weekdays when the calendar's zone puts the start on another date", async () => {
    // Mondays 20:00 in New York are Tuesdays 01:00 in UTC while New York keeps EST (November to March).
    const winter = series("DTSTART;TZID=America/New_York:20261102T200000", "FREQ=WEEKLY;BYDAY=MO;COUNT=12");
    expect((await onlyEvent(winter, "UTC")).event).toMatchObject({
      start_time: "01:00",
      recur: { type: "weekly", day: [2], starts: "2026-11-03", count: 12 },
    });
  });
});

describe("readIcs, series Almanac cannot hold", () => {
  const skipReason = async (text: string, timezone?: string) => {
    const plan = await read(text, timezone);
    expect(plan.events).toEqual([]);
    return reasons(plan);
  };

  it("names the rule part it cannot represent", async () => {
    expect(await skipReason(series(BERLIN_MONDAY, "FREQ=DAILY;BYHOUR=9,17"))).toEqual([
      "RRULE BYHOUR is not a rule Almanac can represent",
    ]);
    expect(await skipReason(series(BERLIN_MONDAY, "FREQ=HOURLY"))).toEqual([
      "RRULE FREQ=HOURLY is not a rule Almanac can represent",
    ]);
    expect(await skipReason(series(BERLIN_MONDAY, "FREQ=YEARLY;BYWEEKNO=10"))).toEqual([
      "RRULE BYWEEKNO is not a rule Almanac can represent",
    ]);
    expect(await skipReason(series(BERLIN_MONDAY, "FREQ=MONTHLY;BYMONTHDAY=2,16"))).toEqual([
      "RRULE BYMONTHDAY=2,16 is not a rule Almanac can represent",
    ]);
    expect(await skipReason(series(BERLIN_MONDAY, "FREQ=YEARLY;BYYEARDAY=61"))).toEqual([
      "RRULE BYYEARDAY is not a rule Almanac can represent",
    ]);
  });

  it("skips a New York series in a Berlin calendar: the offset between them changes", async () => {
    const [reason] = await skipReason(series("DTSTART;TZID=America/New_York:20260302T090000", "FREQ=WEEKLY;BYDAY=MO"));
    expect(reason).toBe(
      "the series is in America/New_York, whose offset from Europe/Berlin changes during it " +
        "(on 2026-03-09 it starts at 14:00 in Europe/Berlin, not 15:00); a calendar in America/New_York can hold it",
    );
  });

  it("skips a series whose DTSTART is not on its rule", async () => {
    const [reason] = await skipReason(series(BERLIN_MONDAY, "FREQ=WEEKLY;BYDAY=TU;COUNT=3"));
    expect(reason).toMatch(/^its DTSTART \(2026-03-02\) is not a date of its RRULE/);
  });

  it("skips a series whose weeks start on Sunday where that changes its dates", async () => {
    // Every other week on Sunday and Monday: with weeks from Sunday both fall in one week.
    const [reason] = await skipReason(
      series("DTSTART;TZID=Europe/Berlin:20260301T090000", "FREQ=WEEKLY;INTERVAL=2;BYDAY=SU,MO;WKST=SU"),
    );
    expect(reason).toMatch(
      /^its RRULE gives other dates than the weekly series Almanac could store: first difference on /,
    );
  });

  it("skips two RRULEs, EXRULE, and a COUNT above Almanac's limit", async () => {
    expect(await skipReason(series(BERLIN_MONDAY, "FREQ=DAILY", "RRULE:FREQ=WEEKLY"))).toEqual([
      "it has 2 RRULEs; an Almanac series follows one rule",
    ]);
    expect(await skipReason(series(BERLIN_MONDAY, "FREQ=DAILY", "EXRULE:FREQ=WEEKLY"))).toEqual([
      "EXRULE is not something Almanac can represent",
    ]);
    expect(await skipReason(series(BERLIN_MONDAY, "FREQ=DAILY;COUNT=20000"))).toEqual([
      "RRULE COUNT=20000 (Almanac's most is 10000) is not a rule Almanac can represent",
    ]);
  });
});
