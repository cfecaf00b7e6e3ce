/**
 * readIcs on files other software wrote (test/fixtures/ics-field, its README names each
 * source): what every producer's events become in a calendar's zone, and what is left out and
 * why. The expectations come from reading each file (times converted by hand, series checked
 * against ical.js's own expansion), not from the reader's output.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ImportedEvent, ImportPlan } from "../../functions/src/domain/import/plan.js";
import { readIcs } from "../../functions/src/domain/import/read.js";
import { expandRecurrence } from "../../functions/src/domain/recurrence/index.js";
import type { Recur } from "../../functions/src/domain/types.js";

const FIELD = join(import.meta.dirname, "../fixtures/ics-field");

const read = (file: string, timezone: string): Promise<ImportPlan> =>
  readIcs(readFileSync(join(FIELD, file), "utf8"), { timezone });

const uids = (plan: ImportPlan) => plan.events.map((e) => e.uid);

function eventOf(plan: ImportPlan, uid: string): ImportedEvent {
  const found = plan.events.find((e) => e.uid === uid);
  if (!found) throw new Error(`no event ${uid} among ${JSON.stringify(uids(plan))}`);
  return found;
}

/** The dates an imported series occurs on in [from, to], by Almanac's own expansion of its `recur`. */
function seriesDates(imported: ImportedEvent, from: string, to: string): string[] {
  const input = imported.event.recur;
  if (!input) throw new Error(`${imported.uid} is not a series`);
  const recur = Object.fromEntries(Object.entries(input).filter(([, v]) => v != null)) as unknown as Recur;
  return expandRecurrence(recur, recur.starts ?? from, from, to);
}

/** The dates an imported event occurs on in [from, to], whether it is a one-off or a series. */
function datesOf(imported: ImportedEvent, from: string, to: string): string[] {
  const { date } = imported.event;
  if (date) return date >= from && date <= to ? [date] : [];
  return seriesDates(imported, from, to);
}

/** Its exceptions by original date, ascending. */
const exceptionsOf = (imported: ImportedEvent) =>
  [...imported.exceptions].sort((a, b) => a.original_date.localeCompare(b.original_date));

const cancelled = (original_date: string) => ({ original_date, change: { cancelled: true } });

describe("Google Calendar", () => {
  it("an event in UTC with four reminders, one of them by email, in London's summer time", async () => {
    const plan = await read("google-alarms.ics", "Europe/London");
    expect(uids(plan)).toEqual(["79fs7pkqvht9m5igs0vjv1sfra@google.com"]);
    expect(plan.events[0].event).toMatchObject({
      name: "event with alarms",
      date: "2024-10-04",
      start_time: "19:15",
      end_time: "20:00",
      days: 1,
      // The email reminder and a popup both at 15 minutes are one alarm.
      alarms: [15, 14, 10],
    });
    expect(plan.events[0].event.recur ?? null).toBeNull();
    expect(plan.events[0].exceptions).toEqual([]);
    expect(plan.skipped).toEqual([]);

    expect((await read("google-alarms.ics", "Europe/Berlin")).events[0].event).toMatchObject({
      start_time: "20:15",
      end_time: "21:00",
    });
  });

  it("times written in UTC land on the calendar's wall clock, the second one on the previous UTC date", async () => {
    const plan = await read("google-utc-times.ics", "America/New_York");
    expect(uids(plan)).toEqual(["3bc4jff97631or97ntnk75n4se@google.com", "14n7h56i35m32ukcq76s46d45p@google.com"]);
    expect(eventOf(plan, "3bc4jff97631or97ntnk75n4se@google.com").event).toMatchObject({
      name: "Google Calendar says this is noon to 1PM on 12/22/2021",
      date: "2021-12-22",
      start_time: "12:00",
      end_time: "13:00",
    });
    expect(eventOf(plan, "14n7h56i35m32ukcq76s46d45p@google.com").event).toMatchObject({
      name: "Google says this is 9PM to 10PM on 12/22/2021",
      date: "2021-12-22",
      start_time: "21:00",
      end_time: "22:00",
    });
    // Empty DESCRIPTION and LOCATION leave no notes.
    expect(plan.events.map((e) => e.event.notes ?? null)).toEqual([null, null]);
    expect(plan.skipped).toEqual([]);
  });

  it("a last-Friday-of-the-month series without a length, one occurrence moved two weeks earlier", async () => {
    const plan = await read("google-monthly-last-friday-moved.ics", "Europe/Berlin");
    expect(uids(plan)).toEqual(["38m812jicsrer5gorh3mlp7qhc@google.com"]);
    const karaoke = plan.events[0];
    expect(karaoke.event).toMatchObject({
      name: "Karaoke",
      start_time: "21:30",
      // DTEND equals DTSTART: no length, so no end time.
      end_time: null,
      days: 1,
      recur: { type: "monthly", week: -1, day: 5, starts: "2021-11-26" },
    });
    expect(karaoke.event.notes).toMatch(
      /^Jeden letzten Freitag im Monat <a href="https:\/\/www\.instagram\.com\/p\/CWwxmqbKXsC\/">/,
    );
    expect(seriesDates(karaoke, "2021-11-01", "2022-03-31")).toEqual([
      "2021-11-26",
      "2021-12-31",
      "2022-01-28",
      "2022-02-25",
      "2022-03-25",
    ]);
    expect(karaoke.exceptions).toHaveLength(1);
    expect(karaoke.exceptions[0]).toMatchObject({ original_date: "2021-12-31", change: { date: "2021-12-17" } });
    expect(karaoke.exceptions[0].change.cancelled).toBeFalsy();
    expect(plan.skipped).toEqual([]);

    // In Tokyo 21:30 on a Friday is Saturday morning, and the Saturday after the last Friday of
    // December 2021 is 1 January: no monthly rule holds that, so the series and its override are named instead.
    const tokyo = await read("google-monthly-last-friday-moved.ics", "Asia/Tokyo");
    expect(tokyo.events).toEqual([]);
    expect(tokyo.skipped).toEqual([
      { uid: "38m812jicsrer5gorh3mlp7qhc@google.com", reason: expect.stringContaining("2021-12-25") },
      { uid: "38m812jicsrer5gorh3mlp7qhc@google.com", reason: expect.stringMatching(/RECURRENCE-ID/) },
    ]);
  });

  it("a weekday series in Zurich with Apple's structured location beside LOCATION", async () => {
    const plan = await read("google-weekdays-apple-location.ics", "Europe/Zurich");
    expect(uids(plan)).toEqual(["BFE33ADD-5553-48B5-B5A5-F9DA5CA4C393"]);
    const sync = plan.events[0];
    expect(sync.event).toMatchObject({
      name: "Daily Sync",
      start_time: "14:00",
      end_time: "14:30",
      recur: { type: "weekly", day: [1, 2, 3, 4, 5], starts: "2016-10-28" },
      notes: "Some Description\nLocation: Roadstar 16\n12764 Happyville\nDenmark",
    });
    expect(sync.event.recur?.until ?? null).toBeNull();
    expect(sync.event.recur?.count ?? null).toBeNull();
    // Zurich leaves summer time on 30 October: the wall clock stays at 14:00.
    expect(seriesDates(sync, "2016-10-28", "2016-11-04")).toEqual([
      "2016-10-28",
      "2016-10-31",
      "2016-11-01",
      "2016-11-02",
      "2016-11-03",
      "2016-11-04",
    ]);
    expect(plan.skipped).toEqual([]);
  });
});

describe("Google Calendar through Apple Calendar", () => {
  it("a yearly series with one year excluded and the first moved half an hour earlier", async () => {
    const plan = await read("google-yearly-apple-none-alarms.ics", "America/Los_Angeles");
    expect(uids(plan)).toEqual(["aogpprh4bolu8ckmop49ca6404@google.com"]);
    const vespers = plan.events[0];
    expect(vespers.event).toMatchObject({
      name: "Vespers for the Feast of St. Joseph",
      start_time: "19:00",
      end_time: "20:00",
      // Apple's placeholder VALARM (ACTION:NONE) is no reminder.
      alarms: [],
      recur: { type: "yearly", month: 8, day: 1, starts: "2014-08-01" },
    });
    expect(seriesDates(vespers, "2014-01-01", "2017-12-31")).toEqual([
      "2014-08-01",
      "2015-08-01",
      "2016-08-01",
      "2017-08-01",
    ]);
    expect(vespers.exceptions).toEqual([
      { original_date: "2014-08-01", change: { start_time: "18:30", end_time: "19:30" } },
      cancelled("2016-08-01"),
    ]);
    // The placeholders are ignored quietly: nothing is left out.
    expect(plan.skipped).toEqual([]);
  });
});

describe("Google Calendar's birthdays", () => {
  it("a birthday on one day with earlier years as RDATEs, and overrides of a series the file does not hold", async () => {
    const plan = await read("google-birthday-rdates.ics", "America/Los_Angeles");
    const uid = "2014_BIRTHDAY_79d389868f96182e@google.com";
    expect(uids(plan)).toEqual([uid]);
    const birthday = plan.events[0];
    expect(birthday.event).toMatchObject({ name: "PErson #2's birthday", start_time: null, days: 1 });
    // FREQ=DAILY;COUNT=1: the one day, 10 December 2014.
    expect(datesOf(birthday, "2012-01-01", "2015-12-31")).toEqual(["2014-12-10"]);
    expect(plan.skipped.filter((s) => s.uid === uid).map((s) => s.reason)).toEqual([
      expect.stringContaining("RDATE 2013-12-10 was left out"),
      expect.stringContaining("RDATE 2012-12-10 was left out"),
    ]);
    const orphans = plan.skipped.filter((s) => s.uid === "BIRTHDAY_79d389868f96182e@google.com");
    expect(orphans).toHaveLength(3);
    for (const orphan of orphans) expect(orphan.reason).toMatch(/RECURRENCE-ID.*series is not in the text/);
    expect(plan.skipped).toHaveLength(5);
  });
});

const BLACK_BIN =
  "040000008200E00074C5B7101A82E00800000000017E1BADC42ED601000000000000000010000000FBF1FBAE2E9FBC4D81F16854E2F4D51B";
const BLUE_BIN =
  "040000008200E00074C5B7101A82E00800000000C6B92310C52ED601000000000000000010000000605B5A30BB664D469D7A9A45CF7F2FB3";

describe("Microsoft Exchange and Outlook", () => {
  it("an all-day Tuesday and Thursday series whose moved occurrence Exchange names by midnight in a Windows zone", async () => {
    const plan = await read("exchange-all-day-moved.ics", "Europe/Berlin");
    expect(uids(plan)).toEqual(["exchange-moved-recurrence"]);
    const series = plan.events[0];
    expect(series.event).toMatchObject({
      name: "Exchange Recurring Test",
      start_time: null,
      end_time: null,
      days: 1,
      recur: { type: "weekly", day: [2, 4], starts: "2026-02-19" },
    });
    // DESCRIPTION is a lone line break: no notes.
    expect(series.event.notes ?? null).toBeNull();
    expect(seriesDates(series, "2026-02-19", "2026-03-06")).toEqual([
      "2026-02-19",
      "2026-02-24",
      "2026-02-26",
      "2026-03-03",
      "2026-03-05",
    ]);
    // UNTIL=20260817T220000Z is midnight of 18 August in Berlin: the last occurrence is that Tuesday.
    expect(series.event.recur).toMatchObject({ until: "2026-08-18" });
    expect(seriesDates(series, "2026-08-10", "2026-08-31")).toEqual(["2026-08-11", "2026-08-13", "2026-08-18"]);
    expect(series.exceptions).toHaveLength(1);
    expect(series.exceptions[0]).toMatchObject({ original_date: "2026-02-26", change: { date: "2026-02-27" } });
    expect(plan.skipped).toEqual([]);
  });

  it("two fortnightly all-day bin collections in GMT Standard Time, one with three occurrences moved a day", async () => {
    const plan = await read("exchange-bin-collection.ics", "Europe/London");
    expect(uids(plan).sort()).toEqual([BLACK_BIN, BLUE_BIN].sort());
    const black = eventOf(plan, BLACK_BIN);
    expect(black.event).toMatchObject({
      name: "Refuse black bin",
      start_time: null,
      days: 1,
      recur: { type: "weekly", day: [4], interval: 2, starts: "2020-04-02" },
    });
    expect(seriesDates(black, "2020-04-01", "2020-06-01")).toEqual([
      "2020-04-02",
      "2020-04-16",
      "2020-04-30",
      "2020-05-14",
      "2020-05-28",
    ]);
    expect(exceptionsOf(black).map(({ original_date, change }) => [original_date, change.date])).toEqual([
      ["2020-04-16", "2020-04-17"],
      ["2020-05-28", "2020-05-29"],
      ["2020-09-03", "2020-09-04"],
    ]);
    const blue = eventOf(plan, BLUE_BIN);
    expect(blue.event).toMatchObject({
      name: "Blue Recycle bin",
      recur: { type: "weekly", day: [4], interval: 2, starts: "2020-04-09" },
    });
    expect(seriesDates(blue, "2020-04-01", "2020-05-31")).toEqual([
      "2020-04-09",
      "2020-04-23",
      "2020-05-07",
      "2020-05-21",
    ]);
    // UNTIL is the last Thursday's midnight in London (23:00Z the day before, in summer time).
    expect(seriesDates(black, "2020-09-01", "2020-12-31")).toEqual(["2020-09-03", "2020-09-17"]);
    expect(seriesDates(blue, "2020-09-01", "2020-12-31")).toEqual(["2020-09-10", "2020-09-24"]);
    expect(blue.exceptions).toEqual([]);
    expect(plan.skipped).toEqual([]);
  });

  it("a 'Customized Time Zone' known only from its VTIMEZONE, read in New York whose rules it copies", async () => {
    const plan = await read("exchange-customized-zone.ics", "America/New_York");
    expect(uids(plan)).toEqual(["1173422081SZR322"]);
    const lecture = plan.events[0];
    expect(lecture.event).toMatchObject({
      name: "[private]",
      start_time: "10:35",
      end_time: "11:50",
      recur: { type: "weekly", day: [2, 4], starts: "2020-08-25", until: "2020-12-17" },
      notes: "[private]\nLocation: [private]",
    });
    // New York leaves summer time on 1 November: the wall clock stays at 10:35 on both sides.
    expect(seriesDates(lecture, "2020-10-27", "2020-11-05")).toEqual([
      "2020-10-27",
      "2020-10-29",
      "2020-11-03",
      "2020-11-05",
    ]);
    expect(seriesDates(lecture, "2020-12-10", "2020-12-31")).toEqual(["2020-12-10", "2020-12-15", "2020-12-17"]);
    expect(plan.skipped).toEqual([]);

    // Berlin leaves summer time a week before New York: no one wall-clock time holds the series there.
    const berlin = await read("exchange-customized-zone.ics", "Europe/Berlin");
    expect(berlin.events).toEqual([]);
    expect(berlin.skipped).toHaveLength(1);
    expect(berlin.skipped[0].uid).toBe("1173422081SZR322");
    expect(berlin.skipped[0].reason).toMatch(/Customized Time Zone.*offset.*Europe\/Berlin.*2020-10-27/);
  });

  it("a meeting in 'Eastern Standard Time', the Windows name for New York, read in New York and in Berlin", async () => {
    const plan = await read("exchange-eastern-standard-time.ics", "America/New_York");
    expect(uids(plan)).toEqual(["minimal-demo-event-est-20241028@example.com"]);
    expect(plan.events[0].event).toMatchObject({
      name: "Anonymous Test Event for TZID",
      date: "2024-10-28",
      start_time: "17:00",
      end_time: "18:00",
    });
    expect(plan.skipped).toEqual([]);
    // Berlin is back on winter time (UTC+1) since the 27th, New York still on summer time (UTC-4).
    expect((await read("exchange-eastern-standard-time.ics", "Europe/Berlin")).events[0].event).toMatchObject({
      date: "2024-10-28",
      start_time: "22:00",
      end_time: "23:00",
    });
  });

  it("eM Client's 'W. Europe Standard Time' whose VTIMEZONE begins in the year 1", async () => {
    const plan = await read("emclient-w-europe-year-one.ics", "Europe/Berlin");
    expect(uids(plan)).toEqual(["vtimezone-year-0001-test@node-ical"]);
    expect(plan.events[0].event).toMatchObject({
      name: "Test event with year-0001 VTIMEZONE",
      date: "2024-06-01",
      start_time: "10:00",
      end_time: "11:00",
    });
    expect(plan.skipped).toEqual([]);
  });

  it("Windows Live's 99 weekdays in 'Pacific Standard Time' whose first day, a Friday, is excluded", async () => {
    const plan = await read("windows-live-weekdays-pacific.ics", "America/Los_Angeles");
    expect(uids(plan)).toEqual(["181547ec-4781-453c-a50f-2064f46fa118"]);
    const series = plan.events[0];
    expect(series.event).toMatchObject({
      name: "Rec from outlook",
      start_time: "15:00",
      end_time: "16:00",
      notes: "äöüß_<>;„’’\nLocation: äöüß_<>;„’’",
      recur: { type: "weekly", day: [1, 2, 3, 4, 5], count: 99, starts: "2014-02-21" },
    });
    // COUNT counts the excluded first day: the 99th weekday is Wednesday 9 July.
    const dates = seriesDates(series, "2014-01-01", "2014-12-31");
    expect(dates).toHaveLength(99);
    expect(dates.slice(0, 3)).toEqual(["2014-02-21", "2014-02-24", "2014-02-25"]);
    expect(dates.at(-1)).toBe("2014-07-09");
    expect(series.exceptions).toEqual([cancelled("2014-02-21")]);
    expect(plan.skipped).toEqual([]);
  });

  it("Outlook 11's weekday stand-up in 'Canberra, Melbourne, Sydney' with a five-minute reminder", async () => {
    const plan = await read("outlook-standup-alarm.ics", "Australia/Sydney");
    const uid =
      "040000008200E00074C5B7101A82E008000000002079F2E4D4A3C9010000000000000000100000006C4B4F5EBD28AD43BB7F772276780C54";
    expect(uids(plan)).toEqual([uid]);
    const standup = plan.events[0];
    expect(standup.event).toMatchObject({
      name: "Standup",
      start_time: "09:30",
      end_time: "09:45",
      alarms: [5],
      // FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR is a weekly series on weekdays.
      recur: { type: "weekly", day: [1, 2, 3, 4, 5], starts: "2009-03-10" },
    });
    // Sydney leaves summer time on 5 April 2009: the stand-up stays at 09:30.
    expect(seriesDates(standup, "2009-03-10", "2009-03-17")).toEqual([
      "2009-03-10",
      "2009-03-11",
      "2009-03-12",
      "2009-03-13",
      "2009-03-16",
      "2009-03-17",
    ]);
    expect(plan.skipped).toEqual([]);
  });
});

describe("Apple Calendar", () => {
  it("iCal 2.0's daily series of seven with DURATION and two days excluded, in Brisbane", async () => {
    const plan = await read("apple-ical-daily-exdates.ics", "Australia/Brisbane");
    expect(uids(plan)).toEqual(["DDC5B090-1B46-4C1D-8A3C-D305516A0B90"]);
    const series = plan.events[0];
    expect(series.event).toMatchObject({
      name: "Repeating Event",
      start_time: "12:00",
      end_time: "13:00",
      recur: { type: "daily", count: 7, starts: "2006-01-01" },
      notes: "This is a simple repeating event with a couple of days excluded.",
    });
    expect(seriesDates(series, "2005-12-01", "2006-02-01")).toEqual([
      "2006-01-01",
      "2006-01-02",
      "2006-01-03",
      "2006-01-04",
      "2006-01-05",
      "2006-01-06",
      "2006-01-07",
    ]);
    expect(exceptionsOf(series)).toEqual([cancelled("2006-01-03"), cancelled("2006-01-04")]);
    expect(plan.skipped).toEqual([]);
  });

  it("iCal 3.0's weekly three-day all-day event ended by a DATE UNTIL", async () => {
    const plan = await read("apple-ical-weekly-three-days.ics", "America/Los_Angeles");
    expect(uids(plan)).toEqual(["E32D796B-E2AC-4DC5-AAA1-DBE6E3701F55-002"]);
    const series = plan.events[0];
    expect(series.event).toMatchObject({
      name: "Recurring-2",
      start_time: null,
      end_time: null,
      // DTEND 2006-09-03 is exclusive: Thursday to Saturday.
      days: 3,
      recur: { type: "weekly", day: [4], starts: "2006-08-31", until: "2006-09-30" },
    });
    expect(seriesDates(series, "2006-08-01", "2006-12-31")).toEqual([
      "2006-08-31",
      "2006-09-07",
      "2006-09-14",
      "2006-09-21",
      "2006-09-28",
    ]);
    expect(plan.skipped).toEqual([]);
  });

  it("an iPhone appointment in Vienna, with an escaped semicolon in its location, read in Vienna and in New York", async () => {
    const plan = await read("apple-ios-appointment.ics", "Europe/Vienna");
    expect(uids(plan)).toEqual(["af64eb20-7d10-4482-8b22-921f7656390a"]);
    expect(plan.events[0].event).toMatchObject({
      name: "Antrag auf ID Austria",
      date: "2026-05-22",
      start_time: "10:30",
      end_time: "10:40",
      days: 1,
      notes: "Passwesen\nAntrag auf ID Austria\nLocation: Hauptstraße 1-5; 4041 Linz",
    });
    expect(plan.skipped).toEqual([]);

    expect((await read("apple-ios-appointment.ics", "America/New_York")).events[0].event).toMatchObject({
      date: "2026-05-22",
      start_time: "04:30",
      end_time: "04:40",
    });
  });
});

describe("Apple iCal 1.5's bill reminder", () => {
  it("a monthly all-day series on the 24th with a reminder the day before; the two dates it overrides are exceptions", async () => {
    const plan = await read("apple-ical-monthly-bill-overrides.ics", "America/Indiana/Indianapolis");
    expect(uids(plan)).toEqual(["D9182220"]);
    const bill = plan.events[0];
    expect(bill.event).toMatchObject({
      name: "Pay AmEx bill",
      start_time: null,
      days: 1,
      // TRIGGER:-P1D before an all-day event: 1,440 minutes before the day begins.
      alarms: [1440],
      recur: { type: "monthly", day: 24, starts: "2004-02-24" },
    });
    expect(seriesDates(bill, "2004-01-01", "2004-06-30")).toEqual([
      "2004-02-24",
      "2004-03-24",
      "2004-04-24",
      "2004-05-24",
      "2004-06-24",
    ]);
    // The file both excludes and overrides 24 February and 24 March: neither stays as the series planned it.
    expect(exceptionsOf(bill).map((e) => e.original_date)).toEqual(["2004-02-24", "2004-03-24"]);
    for (const skip of plan.skipped) expect(skip.uid).toBe("D9182220");
  });
});

describe("Apple Calendar statuses", () => {
  it("macOS's tentative, confirmed and status-less events are imported; the cancelled one is named and left out", async () => {
    const plan = await read("apple-macos-statuses.ics", "America/Vancouver");
    expect(uids(plan)).toEqual([
      "31a1ffc9-9b76-465b-ae4a-cadb694c9d37",
      "F00F3710-BF4D-46D3-9A2C-1037AB24C6AC",
      "99F615DE-82C6-4CEF-97B8-CD0D3E1EE0D3",
    ]);
    // The first is written in UTC: 23:00Z is 16:00 in Vancouver's summer (UTC-7).
    expect(plan.events.map(({ event: e }) => [e.name, e.date, e.start_time, e.end_time])).toEqual([
      ["Tentative", "2022-07-04", "16:00", "16:50"],
      ["Confirmed", "2022-07-05", "09:00", "10:00"],
      ["No Status", "2022-07-07", "09:00", "10:00"],
    ]);
    expect(plan.skipped).toEqual([
      { uid: "8CAB46C5-669F-4249-B1AD-52BFA72F4E0A", reason: expect.stringContaining("STATUS:CANCELLED") },
    ]);
  });
});

describe("Mozilla Thunderbird", () => {
  it("an event in Los Angeles with a reminder at its start", async () => {
    const plan = await read("thunderbird-alarm-at-start.ics", "America/Los_Angeles");
    expect(uids(plan)).toEqual(["a6b8cf4d-b7fa-4939-a039-003db08bf7a7"]);
    expect(plan.events[0].event).toMatchObject({
      name: "event",
      date: "2024-10-04",
      start_time: "03:00",
      end_time: "04:00",
      alarms: [0],
      notes: "alarm at start of event",
    });
    expect(plan.skipped).toEqual([]);
  });

  it("a daily series of three whose second occurrence is a cancelled override", async () => {
    const plan = await read("thunderbird-cancelled-occurrence.ics", "Europe/Berlin");
    expect(uids(plan)).toEqual(["b65c2b5b-b785-4edc-9560-e0379036d1f2"]);
    const series = plan.events[0];
    expect(series.event).toMatchObject({
      name: "one is cancelled",
      start_time: "22:00",
      end_time: "23:00",
      recur: { type: "daily", count: 3, starts: "2020-01-28" },
    });
    expect(seriesDates(series, "2020-01-01", "2020-02-29")).toEqual(["2020-01-28", "2020-01-29", "2020-01-30"]);
    expect(series.exceptions).toEqual([cancelled("2020-01-29")]);
    expect(plan.skipped).toEqual([]);

    // 22:00 in Berlin's winter is 06:00 the next morning in Tokyo: the series and its cancelled day move with it.
    const tokyo = (await read("thunderbird-cancelled-occurrence.ics", "Asia/Tokyo")).events[0];
    expect(tokyo.event).toMatchObject({
      start_time: "06:00",
      end_time: "07:00",
      recur: { type: "daily", count: 3, starts: "2020-01-29" },
    });
    expect(tokyo.exceptions).toEqual([cancelled("2020-01-30")]);
  });

  it("two daily series ended by UNTIL, one occurrence renamed and two retimed", async () => {
    const plan = await read("thunderbird-moved-occurrences.ics", "Europe/Berlin");
    expect(uids(plan)).toEqual(["5d4c6843-9300-4f91-8d88-6094d4b0b840", "a0c78729-30b1-4ba3-a86e-6aedd995d788"]);

    const test7 = eventOf(plan, "5d4c6843-9300-4f91-8d88-6094d4b0b840");
    expect(test7.event).toMatchObject({
      name: "test7",
      start_time: "04:00",
      end_time: "05:00",
      notes: "description should be the same",
      // UNTIL 03:00Z is 04:00 in Berlin, the last start itself.
      recur: { type: "daily", starts: "2019-03-18", until: "2019-03-20" },
    });
    expect(seriesDates(test7, "2019-03-01", "2019-03-31")).toEqual(["2019-03-18", "2019-03-19", "2019-03-20"]);
    expect(test7.exceptions).toHaveLength(1);
    // The override replaces the occurrence: its LOCATION is the notes, the series' DESCRIPTION is not.
    expect(test7.exceptions).toEqual([
      { original_date: "2019-03-19", change: { name: "test7 - edited", notes: "Location: location" } },
    ]);

    const moved = eventOf(plan, "a0c78729-30b1-4ba3-a86e-6aedd995d788");
    expect(moved.event).toMatchObject({
      name: "New Event",
      start_time: "02:00",
      end_time: "03:00",
      recur: { type: "daily", starts: "2019-03-07", until: "2019-03-10" },
    });
    expect(seriesDates(moved, "2019-03-01", "2019-03-31")).toEqual([
      "2019-03-07",
      "2019-03-08",
      "2019-03-09",
      "2019-03-10",
    ]);
    const [earlier, later] = exceptionsOf(moved);
    expect(exceptionsOf(moved)).toHaveLength(2);
    // The 8th's override has both DTEND and DURATION:PT0S; DTEND gives its hour.
    expect(earlier).toMatchObject({ original_date: "2019-03-08", change: { start_time: "01:00", end_time: "02:00" } });
    expect(later).toMatchObject({ original_date: "2019-03-09", change: { start_time: "03:00", end_time: "04:00" } });
    expect(plan.skipped).toEqual([]);
  });
});

describe("python icalendar", () => {
  it("khal's weekly shift in Berlin with overrides named in UTC: one moved two hours, one cancelled", async () => {
    const plan = await read("khal-weekly-moved-and-cancelled.ics", "Europe/Berlin");
    expect(uids(plan)).toEqual(["event_rrule_recurrence_id"]);
    const work = plan.events[0];
    expect(work.event).toMatchObject({
      name: "Arbeit",
      start_time: "07:00",
      end_time: "12:00",
      recur: { type: "weekly", day: [1], starts: "2014-06-30" },
    });
    expect(seriesDates(work, "2014-06-01", "2014-08-31")).toEqual([
      "2014-06-30",
      "2014-07-07",
      "2014-07-14",
      "2014-07-21",
      "2014-07-28",
      "2014-08-04",
    ]);
    const [movedShift, cancelledShift] = exceptionsOf(work);
    expect(exceptionsOf(work)).toHaveLength(2);
    // RECURRENCE-ID 05:00Z is 07:00 in Berlin's summer: the occurrences of the 7th and the 14th.
    expect(movedShift).toMatchObject({
      original_date: "2014-07-07",
      change: { start_time: "09:00", end_time: "14:00" },
    });
    expect(movedShift.change.date ?? "2014-07-07").toBe("2014-07-07");
    expect(cancelledShift).toEqual(cancelled("2014-07-14"));
    expect(plan.skipped).toEqual([]);
  });
});

describe("khal's zones from pytz", () => {
  it("a monthly series with RDATEs in three other zones and an override off the rule, beside an evening in London", async () => {
    const plan = await read("khal-custom-zones-rdates.ics", "Europe/Berlin");
    expect(uids(plan)).toEqual(["abcde", "123"]);
    const series = eventOf(plan, "abcde");
    // 09:30 in Europe_Berlin, a zone of a DTSTART and RDATEs (CEST from 30 March), to 10:30 in
    // America_New_York (EDT): 16:30 in Berlin.
    expect(series.event).toMatchObject({
      name: "An Event",
      start_time: "09:30",
      end_time: "16:30",
      days: 1,
      recur: { type: "monthly", day: 9, count: 6, starts: "2014-04-09" },
    });
    expect(seriesDates(series, "2014-01-01", "2014-12-31")).toEqual([
      "2014-04-09",
      "2014-05-09",
      "2014-06-09",
      "2014-07-09",
      "2014-08-09",
      "2014-09-09",
    ]);
    expect(series.exceptions).toEqual([]);
    expect(plan.skipped.map((s) => [s.uid, s.reason])).toEqual([
      ["abcde", expect.stringContaining("RDATE 2014-04-11T11:30:00, 2014-04-13T11:30:00 was left out")],
      ["abcde", expect.stringContaining("RDATE 2014-04-15T11:30:00 was left out")],
      ["abcde", expect.stringContaining("RDATE 2014-04-18T11:30:00 was left out")],
      // RECURRENCE-ID 07:00 in Europe_Amsterdam on 7 July: the rule only meets the 9th.
      ["abcde", expect.stringMatching(/RECURRENCE-ID \(2014-07-07\) is not a date of the series/)],
    ]);
    // Europe_London's VTIMEZONE has RRULEs: 19:30 in British summer time.
    expect(eventOf(plan, "123").event).toMatchObject({ date: "2014-05-09", start_time: "20:30", end_time: "21:30" });
    expect(eventOf(await read("khal-custom-zones-rdates.ics", "America/New_York"), "123").event).toMatchObject({
      date: "2014-05-09",
      start_time: "14:30",
      end_time: "15:30",
    });
  });
});

describe("other producers", () => {
  it("Zimbra's first-Tuesday series with excluded dates and a moved first occurrence", async () => {
    const plan = await read("zimbra-rdates-exdates-overrides.ics", "America/Los_Angeles");
    expect(uids(plan)).toEqual(["623c13c0-6c2b-45d6-a12b-c33ad61c4868"]);
    const series = plan.events[0];
    expect(series.event).toMatchObject({
      name: "Crazy Event Thingy!",
      start_time: "10:00",
      end_time: "10:30",
      alarms: [5],
      notes: "IAM FOO\nLocation: PLACE",
      recur: { type: "monthly", week: 1, day: 2, starts: "2012-10-02" },
    });
    expect(seriesDates(series, "2012-10-01", "2013-06-30")).toEqual([
      "2012-10-02",
      "2012-11-06",
      "2012-12-04",
      "2013-01-01",
      "2013-02-05",
      "2013-03-05",
      "2013-04-02",
      "2013-05-07",
      "2013-06-04",
    ]);
    const byDate = new Map(series.exceptions.map((e) => [e.original_date, e.change]));
    expect([...byDate.keys()].sort()).toEqual(["2012-10-02", "2012-12-04", "2013-02-05", "2013-04-02"]);
    expect(byDate.get("2012-10-02")).toMatchObject({ start_time: "15:00", end_time: "15:30", notes: "I HAZ CHANGED!" });
    for (const date of ["2012-12-04", "2013-02-05", "2013-04-02"])
      expect(byDate.get(date)).toEqual({ cancelled: true });

    // Extra dates have no place in an Almanac series: each RDATE line is named, and so is the
    // override of one of them (5 November, a Monday the rule never reaches).
    const reasons = plan.skipped.map((s) => [s.uid, s.reason]);
    const uid = "623c13c0-6c2b-45d6-a12b-c33ad61c4868";
    expect(reasons).toHaveLength(6);
    expect(reasons).toContainEqual([null, expect.stringMatching(/^X-UNKNOWN: /)]);
    for (const rdate of [
      "2023-11-23T09:00:00Z",
      "2023-11-25T09:00:00Z/2023-11-25T12:30:00Z",
      "2012-11-05T10:00:00",
      "2012-11-10T10:00:00, 2012-11-30T10:00:00",
    ]) {
      expect(reasons).toContainEqual([uid, expect.stringContaining(`RDATE ${rdate} was left out`)]);
    }
    expect(reasons).toContainEqual([
      uid,
      expect.stringMatching(/override.*RECURRENCE-ID \(2012-11-05\) is not a date of the series/),
    ]);
  });

  it("Nextcloud's yearly all-day event with four reminders, two of them more than a week before", async () => {
    const plan = await read("nextcloud-yearly-alarms.ics", "Europe/Berlin");
    expect(uids(plan)).toEqual(["3e5e45db-d8e5-46c3-af61-0f64916acc73"]);
    const series = plan.events[0];
    expect(series.event).toMatchObject({
      name: "Foobar",
      start_time: null,
      days: 1,
      recur: { type: "yearly", month: 7, day: 1, starts: "2025-07-01" },
      // -P1W6DT15H, -P6DT15H (by email), -PT15H and PT0S, in minutes before the day begins.
      alarms: [19_620, 9_540, 900, 0],
    });
    expect(seriesDates(series, "2025-01-01", "2027-12-31")).toEqual(["2025-07-01", "2026-07-01", "2027-07-01"]);
    expect(plan.skipped).toEqual([]);
  });

  it("Lotus Notes' five-day daily meeting in its own 'Eastern' zone with 2005's rules", async () => {
    const plan = await read("lotus-notes-daily.ics", "America/New_York");
    expect(uids(plan)).toEqual(["E88157FE01BE8A5C85256FDB006EBCC3-Lotus_Notes_Generated"]);
    const series = plan.events[0];
    expect(series.event).toMatchObject({
      name: "5 day daily repeating meeting",
      start_time: "09:00",
      end_time: "10:00",
      recur: { type: "daily", count: 5, starts: "2005-04-11" },
    });
    expect(seriesDates(series, "2005-04-01", "2005-04-30")).toEqual([
      "2005-04-11",
      "2005-04-12",
      "2005-04-13",
      "2005-04-14",
      "2005-04-15",
    ]);
    expect(plan.skipped).toEqual([]);
  });

  it("Evolution's event in a /softwarestudio.org/ zone id, read in Chicago and in Berlin", async () => {
    const plan = await read("evolution-chicago.ics", "America/Chicago");
    expect(uids(plan)).toEqual(["20080624T213648Z-4959-1000-1-6@randy-ubuntu"]);
    expect(plan.events[0].event).toMatchObject({
      name: "test",
      date: "2008-06-24",
      start_time: "13:00",
      end_time: "14:30",
      notes: "Location: test location",
    });
    expect(plan.skipped).toEqual([]);
    expect((await read("evolution-chicago.ics", "Europe/Berlin")).events[0].event).toMatchObject({
      date: "2008-06-24",
      start_time: "20:00",
      end_time: "21:30",
    });
  });

  it("DAVx5's weekly series with DURATION, nine EXDATEs in UTC and an UNTIL a second before a start", async () => {
    const plan = await read("davx5-weekly-exdates-in-utc.ics", "Europe/Berlin");
    expect(uids(plan)).toEqual(["f0f31ddb-6918-46af-a5a1-0a7254fbce71"]);
    const series = plan.events[0];
    expect(series.event).toMatchObject({
      name: "Test",
      start_time: "16:15",
      // DURATION:PT1H30M.
      end_time: "17:45",
      notes: "Location: Example",
      recur: { type: "weekly", day: [2], starts: "2019-10-15" },
    });
    // UNTIL 15:14:59Z is 16:14:59 in Berlin on 4 February: that Tuesday's 16:15 is past it.
    const dates = seriesDates(series, "2019-10-01", "2020-03-31");
    expect(dates).toHaveLength(16);
    expect(dates.at(-1)).toBe("2020-01-28");
    // The EXDATEs are 14:15Z in summer time and 15:15Z after 27 October: 16:15 in Berlin each time.
    expect(series.exceptions).toEqual(
      [
        "2019-10-15",
        "2019-10-22",
        "2019-11-05",
        "2019-11-19",
        "2019-11-26",
        "2019-12-03",
        "2019-12-17",
        "2019-12-24",
        "2019-12-31",
      ].map(cancelled),
    );
    expect(plan.skipped).toEqual([]);
  });

  it("Meetup's evening in Phoenix, its DESCRIPTION folded inside an escape, with LOCATION and URL in the notes", async () => {
    const plan = await read("meetup-monthly-meetup.ics", "America/Phoenix");
    expect(uids(plan)).toEqual(["event_nsmxnyppbfc@meetup.com"]);
    const meetup = plan.events[0].event;
    expect(meetup).toMatchObject({
      name: "Phoenix Drupal User Group Monthly Meetup",
      date: "2011-11-09",
      start_time: "19:00",
      end_time: "21:00",
    });
    const notes = String(meetup.notes).split("\n");
    expect(notes.slice(0, 4)).toEqual([
      "Phoenix Drupal User Group",
      "Wednesday, November 9 at 7:00 PM",
      "",
      "Customizing node display with template pages in Drupal 6",
    ]);
    expect(notes.slice(-2)).toEqual([
      "Location: Open Source Project Tempe (1415 E University Dr. #103A, Tempe, AZ 85281)",
      "http://www.meetup.com/Phoenix-Drupal-User-Group/events/33627272/",
    ]);
    expect(plan.skipped).toEqual([]);
    // Phoenix keeps UTC-7 all year; Berlin is at UTC+1 in November: 03:00 the next morning.
    expect((await read("meetup-monthly-meetup.ics", "Europe/Berlin")).events[0].event).toMatchObject({
      date: "2011-11-10",
      start_time: "03:00",
      end_time: "05:00",
    });
  });

  it("Confluence's all-day event with a category, beside an ORGANIZER line broken without a fold", async () => {
    const plan = await read("confluence-all-day-category.ics", "America/Los_Angeles");
    expect(uids(plan)).toEqual(["20211215T205931Z-1325586105@confluence.sd.apple.com"]);
    expect(plan.events[0].event).toMatchObject({
      name: "test",
      date: "2021-12-15",
      start_time: null,
      days: 1,
      category: "other",
      notes: "test event",
    });
    expect(plan.skipped).toEqual([]);
  });

  it("a school holiday feed's forty summer days, all-day dates with a TZID, the same in Berlin and New York", async () => {
    for (const timezone of ["Europe/Berlin", "America/New_York"]) {
      const plan = await read("sabredav-summer-school-holidays.ics", timezone);
      expect(uids(plan)).toEqual(["56df0d2b37ded@67.calovo"]);
      expect(plan.events[0].event).toMatchObject({
        name: "Sommerferien Sachsen",
        date: "2018-07-02",
        start_time: null,
        // DTEND 2018-08-11 is exclusive: 2 July to 10 August.
        days: 40,
        notes: "Deine Ferien. In deinem Kalender. Immer aktuell.\nhttp://i.cal.to/r/1AHk",
      });
      expect(plan.skipped).toEqual([]);
    }
  });

  it("Trumba's Grand Prix in UTC with a category, on Melbourne's evening clock", async () => {
    const plan = await read("trumba-grand-prix.ics", "Australia/Melbourne");
    expect(uids(plan)).toEqual(["http://2012.f1calendar.com#GP1_2012"]);
    expect(plan.events[0].event).toMatchObject({
      name: "Australian Grand Prix",
      date: "2012-03-18",
      // 06:00Z is 17:00 in Melbourne's summer time (UTC+11).
      start_time: "17:00",
      end_time: "19:00",
      category: "Grand Prix",
      notes: "Location: Melbourne",
    });
    expect(plan.skipped).toEqual([]);
  });

  it("a WordPress Events Calendar feed's floating all-but-an-hour day with a category", async () => {
    const plan = await read("events-calendar-school-day.ics", "America/Los_Angeles");
    expect(uids(plan)).toEqual(["1891-1709856000-1709942399@www.washougal.k12.wa.us"]);
    const day = plan.events[0].event;
    expect(day).toMatchObject({
      name: "Possible Snow Makeup Day",
      date: "2024-06-27",
      start_time: "00:00",
      end_time: "23:00",
      category: "School Events",
    });
    expect(day.notes).toMatch(/^This day is a snow makeup day, and will be added back to the calendar if needed\. /);
    expect(day.notes).toMatch(/\nhttps:\/\/www\.washougal\.k12\.wa\.us\/hathaway\/event\/possible-snow-makeup-day\/$/);
    expect(plan.skipped).toEqual([]);
  });

  it("Outlook Web Access's events without UID get a UID from what they are, the same on every read", async () => {
    const first = await read("exchange-owa-no-uid.ics", "America/New_York");
    const again = await read("exchange-owa-no-uid.ics", "America/New_York");
    const all = (plan: ImportPlan) => [...uids(plan), ...plan.skipped.map((s) => s.uid)];
    expect(all(first)).toHaveLength(4);
    expect(new Set(all(first)).size).toBe(4);
    for (const uid of all(first)) expect(uid).toMatch(/@import\.almanac$/);
    expect(all(again)).toEqual(all(first));
    // Their TZIDs are Outlook's display names, without a VTIMEZONE: read as the zones they name.
    expect(first.events.map((e) => e.event)).toMatchObject([
      // 13:30-15:00 in Sydney (AEDT, +11) is the evening before in New York (EDT).
      { name: "TEST Syd", date: "2020-10-27", start_time: "22:30", end_time: "00:00", days: 1 },
      { name: "TEST", date: "2020-10-28", start_time: "13:30", end_time: "15:00", days: 1 },
      { name: "TEST 3", date: "2020-11-02", start_time: "13:30", end_time: "15:00", days: 1 },
    ]);
    // TEST2 starts on a Monday, which its Thursday and Friday rule does not hold.
    expect(first.skipped.map((s) => s.reason)).toEqual([
      expect.stringContaining("its DTSTART (2020-11-02) is not a date of its RRULE"),
    ]);
    const sydney = await read("exchange-owa-no-uid.ics", "Australia/Sydney");
    expect(sydney.events[0].event).toMatchObject({ date: "2020-10-28", start_time: "13:30", end_time: "15:00" });
  });

  it("a Thunderbird override exported without its series is named, not dropped", async () => {
    const plan = await read("thunderbird-override-without-series.ics", "Australia/Melbourne");
    expect(plan.events).toEqual([]);
    expect(plan.skipped).toEqual([
      {
        uid: "d5eb7c8b-3a23-4abc-b05c-1108e6460caa",
        reason: expect.stringMatching(/RECURRENCE-ID.*series is not in the text/),
      },
    ]);
  });

  it("ownCloud's file of tasks imports no event and names both tasks", async () => {
    const plan = await read("owncloud-tasks-only.ics", "Europe/Paris");
    expect(plan.events).toEqual([]);
    expect(plan.skipped).toEqual([
      { uid: "0aa462f13c", reason: expect.stringMatching(/^VTODO: /) },
      { uid: "5e05bbcf34", reason: expect.stringMatching(/^VTODO: /) },
    ]);
  });
});

describe("lines a strict parser refuses", () => {
  it("Calendar Labs' holidays: dates without VALUE=DATE, a DTEND equal to DTSTART and an empty RRULE", async () => {
    const plan = await read("calendarlabs-germany-holidays.ics", "Europe/Berlin");
    expect(plan.skipped).toEqual([]);
    expect(plan.events).toHaveLength(34);
    for (const { event } of plan.events) {
      expect(event).toMatchObject({ start_time: null, end_time: null, days: 1 });
      expect(event.recur ?? null).toBeNull();
    }
    const byDate = (date: string) => plan.events.filter((e) => e.event.date === date).map((e) => e.event.name);
    expect(byDate("2019-01-01")).toEqual(["New Year's Day"]);
    expect(byDate("2020-01-06")).toEqual(["Epiphany (BW, BY & ST)"]);
    expect(byDate("2020-12-26")).toEqual(["Boxing Day"]);
  });

  it("python icalendar's holidays: bare dates, LOCATION after DESCRIPTION in the notes", async () => {
    const plan = await read("python-icalendar-holidays.ics", "Europe/Berlin");
    expect(plan.skipped).toEqual([]);
    expect(
      plan.events.map(({ event: { name, date, start_time, days, notes } }) => [date, name, start_time, days, notes]),
    ).toEqual([
      ["2022-01-01", "New Year's Day", null, 1, "Happy New Year!"],
      ["2022-01-07", "Orthodox Christmas", null, 1, "It is Christmas again!\nLocation: Russia"],
      ["2022-03-08", "International Women's Day", null, 1, "May the feminine be honoured!"],
    ]);
  });

  it("Lanyrd's conferences: the one whose DTSTART is no date is skipped, the other eight read", async () => {
    const plan = await read("lanyrd-conferences.ics", "UTC");
    expect(plan.skipped).toEqual([
      { uid: "sdfkf09fsd0", reason: 'it could not be read: Could not extract integer from "Next"' },
    ]);
    expect(
      plan.events.map(({ event: { date, start_time, end_time, days } }) => [date, start_time, end_time, days]),
    ).toEqual([
      // Dyncon starts at 20:00 UTC and ends with an all-day DTEND: midnight two days later.
      ["2011-03-12", "20:00", "00:00", 3],
      ["2011-03-24", null, null, 1],
      ["2011-05-02", null, null, 2],
      ["2011-05-05", null, null, 1],
      ["2011-05-13", null, null, 2],
      ["2011-05-18", null, null, 3],
      ["2011-06-11", null, null, 2],
      ["2011-11-29", null, null, 4],
    ]);
    expect(plan.events[0].event.name).toBe("Dyncon 2011");
  });

  it("Exchange's Windows zones with a quoted TZID that swallowed its value: that event skipped, the others read", async () => {
    const plan = await read("exchange-windows-zones.ics", "America/Los_Angeles");
    expect(plan.skipped).toEqual([
      {
        uid: expect.stringMatching(/^040000008200E00074C5B7101A82E008000000008001F1896B63D3/),
        reason: expect.stringMatching(
          /^VEVENT could not be parsed at line 152: Missing parameter value in 'DTSTART;TZID=/,
        ),
      },
    ]);
    const [test, summary, series] = plan.events;
    // 09:00 in W. Europe Standard Time (CEST) is midnight in Los Angeles (PDT).
    expect(test.event).toMatchObject({ name: "test", date: "2020-09-10", start_time: "00:00", end_time: "00:30" });
    expect(summary.event).toMatchObject({ name: "Not the actual summary 1", date: "2020-09-15", start_time: "08:30" });
    expect(summary.event.end_time).toBe("09:30");
    expect(series.event).toMatchObject({
      name: "Not the actual summary either",
      start_time: "12:00",
      end_time: "12:30",
      recur: { type: "weekly", day: [2, 4, 5, 7], starts: "2020-07-07", until: "2021-03-09" },
    });
    expect(series.exceptions.map((e) => e.original_date)).toEqual([
      "2020-07-21",
      "2020-07-23",
      "2020-07-28",
      "2020-08-13",
      "2020-08-25",
      "2020-09-03",
    ]);
    for (const exception of series.exceptions) expect(exception.change).toEqual({ cancelled: true });
  });

  it("Exchange CDO's daily standup on weekdays, its BYDAY list written with spaces", async () => {
    const plan = await read("exchange-cdo-daily-standup.ics", "Europe/Berlin");
    expect(plan.skipped).toEqual([]);
    const [standup] = plan.events;
    expect(standup.event).toMatchObject({
      name: "Sprint 25 Daily Standup",
      start_time: "10:00",
      end_time: "10:30",
      recur: { type: "weekly", day: [1, 2, 3, 4, 5], starts: "2015-07-03", until: "2015-07-22" },
    });
    // UNTIL=20150722T080000Z is 10:00 in Berlin's summer: the 22nd is the last.
    expect(seriesDates(standup, "2015-07-01", "2015-07-31")).toEqual([
      "2015-07-03",
      "2015-07-06",
      "2015-07-07",
      "2015-07-08",
      "2015-07-09",
      "2015-07-10",
      "2015-07-13",
      "2015-07-14",
      "2015-07-15",
      "2015-07-16",
      "2015-07-17",
      "2015-07-20",
      "2015-07-21",
      "2015-07-22",
    ]);
  });
});
