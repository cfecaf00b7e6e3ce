/**
 * The cut of a feed to FEED_EVENT_BUDGET events (budgets.ts). A subscriber cares about what
 * comes next, so events that occur on or after today go first (soonest first), then past ones
 * (most recent first); ties by creation. An event spanning days that began before today and
 * still runs is upcoming. Someday events never appear in a feed and take no place.
 */
import { daysOf, earliestStartCovering, lastDayOf } from "../domain/events/span.js";
import { defaultStartsOf } from "../domain/events/stored.js";
import { firstOccurrenceOnOrAfter, lastOccurrence, recurError } from "../domain/recurrence/index.js";
import type { CalendarRecord, EventRecord } from "../domain/records.js";
import { FEED_EVENT_BUDGET } from "./budgets.js";

interface FeedSource {
  layer: string;
  calendar: CalendarRecord;
  events: EventRecord[];
}

interface Ranked {
  source: number;
  event: EventRecord;
  upcoming: boolean;
  /** The next date on or after today when upcoming, else the last date it had. */
  date: string;
}

/** The sources with at most `budget` dated events among them, and how many were left out. */
export function withinFeedBudget<S extends FeedSource>(
  sources: S[],
  today: string,
  budget = FEED_EVENT_BUDGET,
): { sources: S[]; omitted: number } {
  const ranked: Ranked[] = [];
  sources.forEach((source, i) => {
    for (const event of source.events) {
      const placed = place(event, source.calendar, today);
      if (placed) ranked.push({ source: i, event, ...placed });
    }
  });
  if (ranked.length <= budget) return { sources, omitted: 0 };
  ranked.sort(
    (a, b) =>
      Number(b.upcoming) - Number(a.upcoming) ||
      (a.upcoming ? compare(a.date, b.date) : compare(b.date, a.date)) ||
      compare(a.event.created_at, b.event.created_at) ||
      compare(a.event.id, b.event.id),
  );
  const kept = new Set(ranked.slice(0, budget).map((r) => r.event));
  return {
    sources: sources.map((source) => ({ ...source, events: source.events.filter((e) => kept.has(e)) })),
    omitted: ranked.length - budget,
  };
}

function place(
  event: EventRecord,
  calendar: CalendarRecord,
  today: string,
): { upcoming: boolean; date: string } | null {
  if (event.kind === "one-off" && event.date) {
    return { upcoming: lastDayOf(event.date, daysOf(event)) >= today, date: event.date };
  }
  if (event.kind !== "recurring" || !event.recur || recurError(event.recur) !== null) return null;
  const starts = event.recur.starts ?? defaultStartsOf(event, calendar);
  const next = firstOccurrenceOnOrAfter(event.recur, starts, earliestStartCovering(today, daysOf(event)));
  // A series with nothing left has ended: by its `until`, or on its `count`-th occurrence (a rule
  // that never occurs is refused on write).
  if (next !== null) return { upcoming: true, date: next };
  const ended = event.recur.count != null ? lastOccurrence(event.recur, starts) : event.recur.until;
  return { upcoming: false, date: ended ?? starts };
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
