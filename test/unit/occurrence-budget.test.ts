/** The budgets of pages and feeds (issue 9): counting without expanding, cutting by events. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  budgetedOccurrences,
  pageOccurrences,
  pageOccurrencesInTurns,
} from "../../functions/src/domain/queries/occurrences.js";
import { addDays, countOccurrences, expandRecurrence } from "../../functions/src/domain/recurrence/index.js";
import type { CalendarRecord, EventRecord } from "../../functions/src/domain/records.js";
import type { Recur } from "../../functions/src/domain/types.js";
import { withinFeedBudget } from "../../functions/src/pages/feed-budget.js";
import { makeEventRecord } from "../helpers/factories.js";

const calendar = { id: "cal_a", timezone: "UTC" } as CalendarRecord;
let counter = 0;
function event(fields: Partial<EventRecord>): EventRecord {
  counter++;
  return makeEventRecord({
    id: `evt_${String(counter).padStart(4, "0")}`,
    calendar_id: "cal_a",
    name: `event ${counter}`,
    created_by: { id: "agt_a", name: "A" },
    ...fields,
  });
}

const recurArb: fc.Arbitrary<Recur> = fc.oneof(
  fc.record({ type: fc.constant("daily" as const), interval: fc.integer({ min: 1, max: 9 }) }),
  fc.record({
    type: fc.constant("weekly" as const),
    day: fc.integer({ min: 0, max: 7 }),
    interval: fc.integer({ min: 1, max: 5 }),
  }),
  fc.record({
    type: fc.constant("monthly" as const),
    day: fc.constantFrom(-1, 1, 15, 29, 30, 31),
    interval: fc.integer({ min: 1, max: 4 }),
  }),
  fc.record({
    type: fc.constant("yearly" as const),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 31 }),
    interval: fc.integer({ min: 1, max: 3 }),
  }),
);

describe("countOccurrences", () => {
  it("counts exactly what expandRecurrence lists, for any rule, start, end and range", () => {
    fc.assert(
      fc.property(
        recurArb,
        fc.integer({ min: 0, max: 800 }),
        fc.option(fc.integer({ min: 0, max: 900 })),
        fc.integer({ min: 0, max: 900 }),
        fc.integer({ min: 0, max: 400 }),
        (recur, startOffset, untilOffset, fromOffset, length) => {
          const starts = addDays("2025-01-01", startOffset);
          const rule: Recur = {
            ...recur,
            starts,
            ...(untilOffset === null ? {} : { until: addDays(starts, untilOffset) }),
          };
          const from = addDays("2025-01-01", fromOffset);
          const to = addDays(from, length);
          expect(countOccurrences(rule, starts, from, to)).toBe(expandRecurrence(rule, starts, from, to).length);
        },
      ),
      { seed: 9, numRuns: 2000 },
    );
  });
});

describe("budgetedOccurrences", () => {
  const events = [
    event({ name: "daily 09:00", recur: { type: "daily", starts: "2026-01-01" }, start_time: "09:00" }),
    event({ name: "untimed daily", recur: { type: "daily", starts: "2026-01-01" } }),
    event({ name: "one-off 08:00", date: "2026-03-03", start_time: "08:00" }),
    event({ name: "weekly 10:00", recur: { type: "weekly", day: 2, starts: "2026-01-01" }, start_time: "10:00" }),
    event({ name: "someday" }),
  ];
  const sources = [{ layer: "main", calendar, events, exceptions: [] }];
  const names = (list: Array<{ event: EventRecord; date: string }>) => list.map((o) => `${o.date} ${o.event.name}`);

  it("draws everything, in the order the pager lists it, when it fits", () => {
    const all = pageOccurrences(sources, { from: "2026-03-01", to: "2026-03-10", limit: 1000 }).occurrences;
    const drawn = budgetedOccurrences(sources, "2026-03-01", "2026-03-10", 1000);
    expect(drawn.omitted).toBe(0);
    expect(drawn.occurrences.map((o) => [o.date, o.event.id])).toEqual(all.map((o) => [o.date, o.event_id]));
  });

  it("takes whole events in a day's order while they fit, and counts the rest", () => {
    // 10 days: untimed daily (10), one-off 08:00 (1), daily 09:00 (10), weekly 10:00 (2).
    const drawn = budgetedOccurrences(sources, "2026-03-01", "2026-03-10", 15);
    expect(new Set(drawn.occurrences.map((o) => o.event.name))).toEqual(new Set(["untimed daily", "one-off 08:00"]));
    expect(drawn.occurrences).toHaveLength(11);
    expect(drawn.omitted).toBe(12);
    expect(names(drawn.occurrences).slice(0, 4)).toEqual([
      "2026-03-01 untimed daily",
      "2026-03-02 untimed daily",
      "2026-03-03 untimed daily",
      "2026-03-03 one-off 08:00",
    ]);
    // An event that does not fit stops the drawing: later, smaller ones are not drawn either.
    expect(budgetedOccurrences(sources, "2026-03-01", "2026-03-10", 9)).toMatchObject({ occurrences: [], omitted: 23 });
  });

  it("leaves out what `include` refuses, without counting it", () => {
    const drawn = budgetedOccurrences(sources, "2026-03-01", "2026-03-10", 1000, (_layer, e) => e.start_time !== null);
    expect(drawn.omitted).toBe(0);
    expect(drawn.occurrences.every((o) => o.event.start_time !== null)).toBe(true);
    expect(drawn.occurrences).toHaveLength(13);
  });
});

describe("withinFeedBudget", () => {
  it("keeps upcoming events first, soonest first, then the latest past ones", () => {
    const past = event({ name: "past", date: "2026-01-05" });
    const older = event({ name: "older", date: "2025-06-01" });
    const ended = event({ name: "ended series", recur: { type: "daily", starts: "2026-01-01", until: "2026-02-01" } });
    const soon = event({ name: "soon", date: "2026-03-02" });
    const running = event({ name: "running", recur: { type: "weekly", day: 5, starts: "2026-01-01" } }); // next: Friday 2026-03-06
    const later = event({ name: "later", date: "2026-09-01" });
    const someday = event({ name: "someday" });
    const sources = [
      { layer: "main", calendar, events: [past, older, ended, soon, running, later, someday], exceptions: [] },
    ];
    const keep = (budget: number) => withinFeedBudget(sources, "2026-03-01", budget);

    expect(keep(10)).toEqual({ sources, omitted: 0 });
    expect(keep(3).sources[0].events.map((e) => e.name)).toEqual(["soon", "running", "later"]);
    expect(keep(3).omitted).toBe(3);
    expect(keep(5).sources[0].events.map((e) => e.name)).toEqual(["past", "ended series", "soon", "running", "later"]);
  });

  it("counts an event spanning days that began before today and still runs as upcoming, first", () => {
    const offsite = event({ name: "offsite", date: "2026-02-27", days: 3 }); // to Sunday 2026-03-01
    const over = event({ name: "over", date: "2026-02-26", days: 3 }); // ended Saturday
    const weekend = event({ name: "weekend", recur: { type: "weekly", day: 6, starts: "2026-01-03" }, days: 2 });
    const soon = event({ name: "soon", date: "2026-03-02" });
    const sources = [{ layer: "main", calendar, events: [soon, over, weekend, offsite], exceptions: [] }];
    const kept = withinFeedBudget(sources, "2026-03-01", 3);
    // The weekend series' Saturday 28 February runs into today, as the offsite does.
    expect(kept.sources[0].events.map((e) => e.name)).toEqual(["soon", "weekend", "offsite"]);
    expect(kept.omitted).toBe(1);
  });
});

describe("pageOccurrencesInTurns", () => {
  it("answers what pageOccurrences answers, letting other work run while thousands of streams start", async () => {
    const events = Array.from({ length: 5_000 }, (_, i) =>
      event({ name: `daily ${i}`, recur: { type: "daily", starts: "2026-01-01" }, start_time: "09:00" }),
    );
    const sources = [{ layer: "main", calendar, events, exceptions: [] }];
    const options = { from: "2026-03-01", to: "2026-03-31", limit: 1000 };
    let turns = 0;
    const counting = setInterval(() => (turns += 1), 0);
    try {
      const inTurns = await pageOccurrencesInTurns(sources, options);
      expect(inTurns).toEqual(pageOccurrences(sources, options));
    } finally {
      clearInterval(counting);
    }
    expect(turns).toBeGreaterThan(0);
  });
});
