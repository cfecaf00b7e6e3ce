/**
 * The new rule shapes (weekday lists, monthly positions, count) as the .ics feed writes them,
 * whole or cut to a share view's dates: the feed's DTSTART and RRULE, expanded by
 * rrule-temporal (an RFC 5545 library this project did not write), give exactly the dates of
 * expandRecurrence within the range. A cut feed moves DTSTART to the range's first occurrence,
 * so a COUNT left in it would count again from there.
 */
import fc from "fast-check";
import { RRuleTemporal } from "rrule-temporal";
import { describe, expect, it } from "vitest";
import { addDays, expandRecurrence } from "../../functions/src/domain/recurrence/index.js";
import type { Recur } from "../../functions/src/domain/types.js";
import { buildIcs, type IcsFeed } from "../../functions/src/pages/ics.js";
import { makeEventRecord } from "../helpers/factories.js";

const CREATED = "2027-01-01";

/** The feed's dates of one series: all-day in UTC, or at 09:30 in Berlin (UNTIL is then a UTC time). */
function feedDates(recur: Recur, range: IcsFeed["range"], through: string, timed = false): string[] {
  const event = makeEventRecord({
    recur,
    start_time: timed ? "09:30" : null,
    end_time: timed ? "10:00" : null,
    created_at: `${CREATED}T10:00:00.000Z`,
    updated_at: `${CREATED}T10:00:00.000Z`,
  });
  const text = buildIcs({
    name: "Plan",
    description: null,
    url: "https://almanac.test/c/plan",
    uidDomain: "almanac.test",
    sources: [{ layer: "main", timezone: timed ? "Europe/Berlin" : "UTC", events: [event], exceptions: [] }],
    range,
  });
  // The VEVENT's own lines (a VTIMEZONE before it has DTSTART and RRULE lines too).
  const lines =
    text
      .replace(/\r\n[ \t]/g, "")
      .split("BEGIN:VEVENT")[1]
      ?.split("\r\n") ?? [];
  const dtstart = lines.find((l) => l.startsWith("DTSTART"));
  const rrule = lines.find((l) => l.startsWith("RRULE:"));
  if (!dtstart) return [];
  if (!rrule) return [dtstart.replace(/^.*:(\d{4})(\d{2})(\d{2}).*$/, "$1-$2-$3")];
  const rule = new RRuleTemporal({ rruleString: `${dtstart}\n${rrule}` });
  return rule.all((dt) => dt.toPlainDate().toString() <= through).map((dt) => dt.toPlainDate().toString());
}

const dayArb = fc.integer({ min: 0, max: 800 }).map((n) => addDays(CREATED, n));
const recurArb: fc.Arbitrary<Recur> = fc
  .record({
    shape: fc.oneof(
      fc.record({
        type: fc.constant("weekly" as const),
        day: fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 7 }),
      }),
      fc.record({
        type: fc.constant("monthly" as const),
        week: fc.constantFrom(1, 2, 3, 4, 5, -1),
        day: fc.integer({ min: 0, max: 7 }),
      }),
      fc.record({ type: fc.constant("monthly" as const), day: fc.constantFrom(-1, 1, 29, 30, 31) }),
      fc.record({ type: fc.constant("daily" as const) }),
    ),
    interval: fc.integer({ min: 1, max: 3 }),
    starts: dayArb,
    end: fc.oneof(fc.record({ count: fc.integer({ min: 1, max: 40 }) }), fc.record({ until: dayArb }), fc.constant({})),
  })
  .map(({ shape, interval, starts, end }) => ({ ...shape, interval, starts, ...end }));

const rangeArb: fc.Arbitrary<IcsFeed["range"]> = fc.oneof(
  fc.constant(undefined),
  fc.record({ from: fc.option(dayArb, { nil: null }), to: fc.option(dayArb, { nil: null }) }),
);

describe("feeds of the new rule shapes", () => {
  it("a counted series cut to a view's dates keeps its own end", () => {
    // Ten Tuesdays and Thursdays from Tuesday 2027-01-05; the view starts on the 3rd week.
    const recur: Recur = { type: "weekly", day: [2, 4], starts: "2027-01-05", count: 10 };
    const all = expandRecurrence(recur, CREATED, "2027-01-01", "2027-12-31");
    expect(all.at(-1)).toBe("2027-02-04");
    expect(feedDates(recur, { from: "2027-01-18", to: null }, "2027-12-31")).toEqual(
      all.filter((d) => d >= "2027-01-18"),
    );
    expect(feedDates(recur, { from: null, to: "2027-12-31" }, "2027-12-31")).toEqual(all);
    expect(feedDates(recur, { from: "2027-01-18", to: "2027-01-31" }, "2027-12-31", true)).toEqual(
      all.filter((d) => d >= "2027-01-18" && d <= "2027-01-31"),
    );
  });

  it("whole or cut, the feed's rule expands to the dates of expandRecurrence", () => {
    fc.assert(
      fc.property(recurArb, rangeArb, fc.boolean(), (recur, range, timed) => {
        const through = addDays(CREATED, 3 * 366);
        const from = range?.from ?? "0001-01-01";
        const to = range?.to && range.to < through ? range.to : through;
        const expected = from <= to ? expandRecurrence(recur, CREATED, from, to) : [];
        expect(feedDates(recur, range, to, timed)).toEqual(expected);
      }),
      { numRuns: 100 },
    );
  });
});
