/** Pages place an instant in the page calendar's timezone: its local date and HH:MM (pages/placement.ts). */
import { describe, expect, it } from "vitest";
import { placeInstant, placerFor } from "../../functions/src/pages/placement.js";

const at = (iso: string): number => Date.parse(iso);

describe("placing an instant in a zone", () => {
  it("gives a Berlin 09:30 the New York time of the same instant, in winter and between the two DST changes", () => {
    // Both on standard time: six hours apart.
    expect(placeInstant(at("2026-11-24T09:30:00+01:00"), "America/New_York")).toEqual({
      date: "2026-11-24",
      time: "03:30",
    });
    // New York has moved to summer time (March 14), Berlin not yet (March 28): five hours apart.
    expect(placeInstant(at("2027-03-20T09:30:00+01:00"), "America/New_York")).toEqual({
      date: "2027-03-20",
      time: "04:30",
    });
    // Both on summer time: six hours again.
    expect(placeInstant(at("2027-07-06T09:30:00+02:00"), "America/New_York")).toEqual({
      date: "2027-07-06",
      time: "03:30",
    });
  });

  it("moves an instant to the neighbouring date when the zones' dates differ", () => {
    expect(placeInstant(at("2026-11-24T05:00:00+01:00"), "America/New_York")).toEqual({
      date: "2026-11-23",
      time: "23:00",
    });
    expect(placeInstant(at("2026-11-24T20:00:00-05:00"), "Europe/Berlin")).toEqual({
      date: "2026-11-25",
      time: "02:00",
    });
    // Half-hour and three-quarter offsets.
    expect(placeInstant(at("2026-11-24T20:00:00Z"), "Asia/Kolkata")).toEqual({ date: "2026-11-25", time: "01:30" });
    expect(placeInstant(at("2026-11-24T10:15:00Z"), "Pacific/Chatham")).toEqual({ date: "2026-11-25", time: "00:00" });
  });

  it("follows New York's spring gap and autumn repeat minute by minute", () => {
    const ny = placerFor("America/New_York");
    // 2027-03-14: 01:59 EST is followed by 03:00 EDT.
    expect(ny(at("2027-03-14T06:59:00Z"))).toEqual({ date: "2027-03-14", time: "01:59" });
    expect(ny(at("2027-03-14T07:00:00Z"))).toEqual({ date: "2027-03-14", time: "03:00" });
    // 2026-11-01: 01:30 happens twice, an hour apart.
    expect(ny(at("2026-11-01T05:30:00Z"))).toEqual({ date: "2026-11-01", time: "01:30" });
    expect(ny(at("2026-11-01T06:30:00Z"))).toEqual({ date: "2026-11-01", time: "01:30" });
    expect(ny(at("2026-11-01T07:00:00Z"))).toEqual({ date: "2026-11-01", time: "02:00" });
  });

  it("places instants before 1970 and reads an unknown zone as UTC", () => {
    expect(placeInstant(at("1969-12-31T23:30:00Z"), "UTC")).toEqual({ date: "1969-12-31", time: "23:30" });
    expect(placeInstant(at("1969-12-31T23:30:00Z"), "Europe/Berlin")).toEqual({ date: "1970-01-01", time: "00:30" });
    expect(placeInstant(at("2026-11-24T09:30:00Z"), "Not/AZone")).toEqual({ date: "2026-11-24", time: "09:30" });
  });

  it("agrees with Intl at ten thousand instants over two years of DST changes in each of six zones", () => {
    const zones = ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "Pacific/Chatham", "UTC"];
    for (const zone of zones) {
      const intl = new Intl.DateTimeFormat("en-CA", {
        timeZone: zone,
        hourCycle: "h23",
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
      });
      const place = placerFor(zone);
      const differences: string[] = [];
      // Every 97 minutes and 13 seconds, so all minutes of the hour and of the day come up.
      const step = (97 * 60 + 13) * 1000;
      for (let ms = at("2026-01-01T00:00:00Z"); ms < at("2028-01-01T00:00:00Z"); ms += step) {
        const parts = Object.fromEntries(intl.formatToParts(ms).map((p) => [p.type, p.value]));
        const expected = { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
        const actual = place(ms);
        if (actual.date !== expected.date || actual.time !== expected.time)
          differences.push(`${new Date(ms).toISOString()}: ${JSON.stringify(actual)} vs ${JSON.stringify(expected)}`);
      }
      expect(differences.slice(0, 5), zone).toEqual([]);
    }
  });
});
