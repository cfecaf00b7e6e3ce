/** readIcs on one-off events: every value type of DTSTART, DTEND and DURATION, read into the calendar's zone. */
import { describe, expect, it } from "vitest";
import { calendarText, onlyEvent, read, reasons, vevent } from "./import-text.js";

const timing = async (text: string, timezone?: string) => {
  const { date, start_time, end_time, days } = (await onlyEvent(text, timezone)).event;
  return { date, start_time, end_time, days };
};

describe("readIcs, one-off events", () => {
  it("reads a timed event with TZID and DTEND in the calendar's zone as is", async () => {
    const text = calendarText(
      vevent(
        "UID:a@x",
        "DTSTART;TZID=Europe/Berlin:20261202T093000",
        "DTEND;TZID=Europe/Berlin:20261202T103000",
        "SUMMARY:Call",
      ),
    );
    expect(await onlyEvent(text)).toEqual({
      uid: "a@x",
      event: {
        name: "Call",
        notes: null,
        category: null,
        date: "2026-12-02",
        start_time: "09:30",
        end_time: "10:30",
        days: 1,
        alarms: [],
      },
      exceptions: [],
    });
  });

  it("reads an all-day event: DTEND is exclusive; without an end it is one day", async () => {
    const trip = calendarText(vevent("UID:t", "DTSTART;VALUE=DATE:20261202", "DTEND;VALUE=DATE:20261205"));
    expect(await timing(trip)).toEqual({ date: "2026-12-02", start_time: null, end_time: null, days: 3 });
    const day = calendarText(vevent("UID:d", "DTSTART;VALUE=DATE:20261202"));
    expect(await timing(day)).toEqual({ date: "2026-12-02", start_time: null, end_time: null, days: 1 });
    const week = calendarText(vevent("UID:w", "DTSTART;VALUE=DATE:20261228", "DURATION:P1W"));
    expect(await timing(week)).toEqual({ date: "2026-12-28", start_time: null, end_time: null, days: 7 });
  });

  it("converts UTC times into the calendar's zone, overnight within one day", async () => {
    const text = calendarText(vevent("UID:n", "DTSTART:20261202T220000Z", "DURATION:PT5H"));
    expect(await timing(text)).toEqual({ date: "2026-12-02", start_time: "23:00", end_time: "04:00", days: 1 });
  });

  it("reads a floating time in the calendar's zone", async () => {
    const text = calendarText(vevent("UID:f", "DTSTART:20260704T180000", "DTEND:20260704T193000"));
    expect(await timing(text, "America/New_York")).toEqual({
      date: "2026-07-04",
      start_time: "18:00",
      end_time: "19:30",
      days: 1,
    });
  });

  it("spans days with `days`, the end time on the last day", async () => {
    const text = calendarText(
      vevent("UID:m", "DTSTART;TZID=Europe/Berlin:20261202T090000", "DTEND;TZID=Europe/Berlin:20261204T170000"),
    );
    expect(await timing(text)).toEqual({ date: "2026-12-02", start_time: "09:00", end_time: "17:00", days: 3 });
    const nominal = calendarText(vevent("UID:p", "DTSTART;TZID=Europe/Berlin:20261202T090000", "DURATION:P2DT480M"));
    expect(await timing(nominal)).toEqual({ date: "2026-12-02", start_time: "09:00", end_time: "17:00", days: 3 });
  });

  it("leaves a timed event without an end, or with an end at its start, without end_time", async () => {
    const open = calendarText(vevent("UID:o", "DTSTART;TZID=Europe/Berlin:20261202T090000"));
    expect(await timing(open)).toEqual({ date: "2026-12-02", start_time: "09:00", end_time: null, days: 1 });
    const instant = calendarText(vevent("UID:i", "DTSTART:20261202T080000Z", "DTEND:20261202T080000Z"));
    expect(await timing(instant)).toEqual({ date: "2026-12-02", start_time: "09:00", end_time: null, days: 1 });
  });

  it("reads Windows zone names, prefixed ids and zones known only from the file's VTIMEZONE", async () => {
    const windows = calendarText(vevent("UID:w", "DTSTART;TZID=Eastern Standard Time:20261202T093000"));
    expect((await timing(windows)).start_time).toBe("15:30");
    const mozilla = calendarText(
      vevent("UID:m", "DTSTART;TZID=/mozilla.org/20050126_1/America/New_York:20261202T093000"),
    );
    expect((await timing(mozilla)).start_time).toBe("15:30");
    const citadel = calendarText(vevent("UID:c", "DTSTART;TZID=/citadel.org/20190914_1/Asia/Tokyo:20261202T093000"));
    expect(await timing(citadel)).toMatchObject({ date: "2026-12-02", start_time: "01:30" });
    const own = calendarText(
      "BEGIN:VTIMEZONE\r\nTZID:Office time\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000\r\n" +
        "TZOFFSETFROM:+0300\r\nTZOFFSETTO:+0300\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n",
      vevent("UID:v", "DTSTART;TZID=Office time:20261202T120000", "DTEND;TZID=Office time:20261202T130000"),
    );
    expect(await timing(own)).toEqual({ date: "2026-12-02", start_time: "10:00", end_time: "11:00", days: 1 });
  });

  it("reads Outlook's display names of Windows zones, with or without the offset in front", async () => {
    const eastern = calendarText(
      vevent("UID:e", 'DTSTART;TZID="(UTC-05:00) Eastern Time (US & Canada)":20261202T093000'),
    );
    expect((await timing(eastern)).start_time).toBe("15:30");
    const sydney = calendarText(
      vevent("UID:s", 'DTSTART;TZID="(GMT+10:00) Canberra, Melbourne, Sydney":20261202T093000'),
    );
    expect(await timing(sydney)).toMatchObject({ date: "2026-12-01", start_time: "23:30" });
    const berlin = calendarText(
      vevent("UID:b", 'DTSTART;TZID="Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna":20260702T093000'),
    );
    expect((await timing(berlin, "America/New_York")).start_time).toBe("03:30");
  });

  it("skips an event in an unknown zone, naming it", async () => {
    const plan = await read(calendarText(vevent("UID:u", "DTSTART;TZID=Mars/Olympus:20261202T093000")));
    expect(plan.events).toEqual([]);
    expect(plan.skipped).toEqual([{ uid: "u", reason: expect.stringContaining('unknown time zone "Mars/Olympus"') }]);
  });

  it("skips an event longer than 366 days, and one that ends before it starts", async () => {
    const long = await read(calendarText(vevent("UID:l", "DTSTART;VALUE=DATE:20260101", "DTEND;VALUE=DATE:20270105")));
    expect(reasons(long)).toEqual(["it lasts 369 days; an Almanac event spans at most 366 days"]);
    const backwards = await read(calendarText(vevent("UID:b", "DTSTART:20261202T100000Z", "DTEND:20261202T090000Z")));
    expect(reasons(backwards)).toEqual(["it ends before it starts (DTEND or DURATION)"]);
  });
});
