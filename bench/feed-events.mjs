// The feed calendar of the benchmarks (issue 15), one definition for Almanac and for the peer
// (bench/peer.mjs): 200 events, 150 timed one-offs through 2027 and 50 weekly series, with
// notes and categories, in Europe/Berlin. Almanac is seeded through its API from this list; the
// peer gets the very same events as Almanac's own feed writes them (same UIDs and text).
const pad = (n) => String(n).padStart(2, "0");
const CATEGORIES = ["launch", "team", "ops", "design", "review"];

export const FEED_TIMEZONE = "Europe/Berlin";
export const FEED_ONE_OFFS = 150;
export const FEED_SERIES = 50;
/** The month of the time-range case: /occurrences (expanded) against CalDAV REPORT (not expanded). */
export const FEED_RANGE = { from: "2027-03-01", to: "2027-03-31" };

export function feedEvents() {
  const oneOffs = Array.from({ length: FEED_ONE_OFFS }, (_, i) => ({
    name: `Meeting ${i}`,
    date: `2027-${pad(1 + (i % 12))}-${pad(1 + ((i * 7) % 28))}`,
    start_time: `${pad(8 + (i % 10))}:${i % 2 ? "30" : "00"}`,
    end_time: `${pad(9 + (i % 10))}:${i % 2 ? "30" : "00"}`,
    category: CATEGORIES[i % CATEGORIES.length],
    notes: `Agenda of meeting ${i}: status, risks and next steps. Room ${100 + i}, see https://example.com/m/${i}.`,
  }));
  const series = Array.from({ length: FEED_SERIES }, (_, i) => ({
    name: `Weekly ${i}`,
    recur: { type: "weekly", day: 1 + (i % 5), starts: "2027-01-04" },
    start_time: `${pad(9 + (i % 8))}:15`,
    end_time: `${pad(10 + (i % 8))}:00`,
    category: CATEGORIES[i % CATEGORIES.length],
    notes: `Series ${i}: the weekly check-in.`,
  }));
  return [...oneOffs, ...series];
}
