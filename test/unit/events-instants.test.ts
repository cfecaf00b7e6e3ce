import fc from "fast-check";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { instantFormatter } from "../../functions/src/domain/events/instants.js";
import { daysBetween } from "../../functions/src/domain/recurrence/index.js";

/** The formatter over a one-day range. */
const at = (zone: string, date: string, time: string) => instantFormatter(zone, date, date)(0, time);

const ZONES = [
  "UTC",
  "Europe/Berlin",
  "America/New_York",
  "Australia/Lord_Howe",
  "Asia/Kolkata",
  "America/St_Johns",
  "Pacific/Chatham",
  "Africa/Casablanca",
  "America/Santiago",
];

describe("instantFormatter", () => {
  it("gives the offset of the moment, and the first instant of a repeated hour", () => {
    const year = instantFormatter("Europe/Berlin", "2026-01-01", "2026-12-31");
    const berlin = (date: string, time: string) => year(daysBetween("2026-01-01", date), time);
    expect(berlin("2026-03-28", "09:30")).toBe("2026-03-28T09:30:00+01:00");
    expect(berlin("2026-03-29", "01:59")).toBe("2026-03-29T01:59:00+01:00");
    expect(berlin("2026-03-29", "02:30")).toBe("2026-03-29T03:30:00+02:00"); // skipped hour moves forward
    expect(berlin("2026-03-29", "03:00")).toBe("2026-03-29T03:00:00+02:00");
    expect(berlin("2026-10-25", "02:30")).toBe("2026-10-25T02:30:00+02:00"); // repeated hour: first instant
    expect(berlin("2026-10-25", "03:00")).toBe("2026-10-25T03:00:00+01:00");
    expect(at("Asia/Kolkata", "2026-01-01", "00:00")).toBe("2026-01-01T00:00:00+05:30");
    expect(at("America/St_Johns", "2026-07-01", "23:59")).toBe("2026-07-01T23:59:00-02:30");
    // Lord Howe shifts by 30 minutes.
    expect(at("Australia/Lord_Howe", "2026-07-01", "12:00")).toBe("2026-07-01T12:00:00+10:30");
  });

  it("writes an offset of local mean time (in seconds, before standard time) to the whole minute", () => {
    // Kiritimati ran at -10:29:20 before 1901.
    expect(at("Pacific/Kiritimati", "0001-01-01", "23:00")).toBe("0001-01-01T23:00:00-10:29");
    const f = instantFormatter("Pacific/Kiritimati", "0001-01-01", "0001-01-01");
    expect(f.at(Date.parse("0001-01-02T09:29:00Z") + 60 * 60_000)).toBe("0001-01-02T00:00:00-10:29");
    expect(at("Europe/Berlin", "1800-06-01", "12:00")).toBe("1800-06-01T12:00:00+00:53");
  });

  it("agrees with luxon on the instant and offset for any zone, date and time", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: 0, max: 365 * 12 }),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        (zone, dayOffset, h, m) => {
          const date = DateTime.fromISO("2020-01-01", { zone: "UTC" }).plus({ days: dayOffset }).toISODate()!;
          checkAgainstLuxon(zone, date, h, m);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("agrees with luxon on the days the offset changes, at every minute", () => {
    const cases = ZONES.flatMap((zone) => transitionDays(zone).map((date) => ({ zone, date })));
    expect(cases.length).toBeGreaterThan(50);
    fc.assert(
      fc.property(
        fc.constantFrom(...cases),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        ({ zone, date }, h, m) => checkAgainstLuxon(zone, date, h, m),
      ),
      { numRuns: 2000 },
    );
  });
});

/** Local dates in 2020..2031 whose offset differs from the day before's, plus both neighbours. */
function transitionDays(zone: string): string[] {
  const out: string[] = [];
  let day = DateTime.fromISO("2020-01-01", { zone });
  let previous = day.offset;
  for (let i = 0; i < 365 * 12; i++) {
    day = day.plus({ days: 1 });
    const next = day.plus({ days: 1 }).startOf("day");
    if (next.offset !== previous) out.push(day.toISODate()!, next.toISODate()!);
    previous = next.offset;
  }
  return out;
}

function checkAgainstLuxon(zone: string, date: string, h: number, m: number): void {
  const time = `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`;
  const out = at(zone, date, time);
  const parsed = DateTime.fromISO(out, { setZone: true });
  expect(parsed.isValid).toBe(true);
  const inZone = parsed.setZone(zone);
  // The printed offset is the zone's offset at that instant, and the wall time matches it.
  expect(parsed.offset).toBe(inZone.offset);
  expect(inZone.toFormat("yyyy-MM-dd'T'HH:mm")).toBe(out.slice(0, 16));
  const wall = DateTime.fromObject(
    { year: +date.slice(0, 4), month: +date.slice(5, 7), day: +date.slice(8, 10), hour: h, minute: m },
    { zone },
  );
  if (wall.toFormat("yyyy-MM-dd HH:mm") === `${date} ${time}`) {
    // An existing local time is kept, at its first instant when it occurs twice.
    expect(out.slice(0, 16)).toBe(`${date}T${time}`);
    const shift = Math.abs(inZone.plus({ days: 1 }).offset - inZone.minus({ days: 1 }).offset);
    if (shift > 0) expect(inZone.minus({ minutes: shift }).toFormat("yyyy-MM-dd HH:mm")).not.toBe(`${date} ${time}`);
  } else {
    // A skipped local time moves forward, past the gap.
    expect(out.slice(0, 16) > `${date}T${time}`).toBe(true);
  }
}
