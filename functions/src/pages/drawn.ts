/**
 * The occurrences a page draws, placed in the page calendar's timezone (DECISIONS section 9).
 * A layer from another zone can have an occurrence dated the day before or after the period
 * in its own zone that falls inside the period in the page's, so those edge days are expanded
 * too, for such layers only (and the day before for overnight events, whose end the week lens
 * draws): a calendar whose sources share its zone is expanded over exactly its period, and
 * its budget note counts exactly.
 */
import { budgetedOccurrences, type LoadedSource, type PlacedOccurrence } from "../domain/queries/occurrences.js";
import { addDays } from "../domain/recurrence/index.js";
import type { EventRecord } from "../domain/records.js";
import { PAGE_OCCURRENCE_BUDGET } from "./budgets.js";
import { placeOccurrence, placerFor, type PagePlace } from "./placement.js";

/** An occurrence placed on the page: the query's occurrence, its date and times now the page zone's. */
export type PlacedOnPage = Omit<PlacedOccurrence, keyof PagePlace> & PagePlace;

export interface Drawn {
  /** Those starting in the period, by date, then start instant (untimed first), then the query's order. */
  occurrences: PlacedOnPage[];
  /** Timed ones starting before the period and still running in it. */
  continuing: PlacedOnPage[];
  omitted: number;
}

/** An end before the start (or equal) is on the next day. */
const overnight = (t: { start_time: string | null; end_time: string | null }): boolean =>
  t.start_time !== null && t.end_time !== null && t.end_time <= t.start_time;

/** Events of the sources that run overnight, or have an occurrence an exception made so. */
function overnightEvents(sources: LoadedSource[]): Set<string> {
  const ids = new Set<string>();
  for (const s of sources) {
    for (const e of s.events) if (overnight(e)) ids.add(`${s.layer}|${e.id}`);
    for (const x of s.exceptions) if (!x.cancelled && overnight(x)) ids.add(`${s.layer}|${x.event_id}`);
  }
  return ids;
}

export function drawnOccurrences(
  sources: LoadedSource[],
  zone: string,
  range: { from: string; to: string },
  include: (layer: string, event: EventRecord) => boolean,
): Drawn {
  const foreign = new Set(sources.filter((s) => s.calendar.timezone !== zone).map((s) => s.layer));
  const main = budgetedOccurrences(sources, range.from, range.to, PAGE_OCCURRENCE_BUDGET, include);
  const found: PlacedOccurrence[] = [...main.occurrences];
  let omitted = main.omitted;
  const edge = (date: string, crosses: (layer: string, event: EventRecord) => boolean) => {
    const budget = Math.max(0, PAGE_OCCURRENCE_BUDGET - found.length);
    const more = budgetedOccurrences(sources, date, date, budget, (l, e) => crosses(l, e) && include(l, e));
    found.push(...more.occurrences);
    omitted += more.omitted;
  };
  const nightly = overnightEvents(sources);
  if (foreign.size > 0 || nightly.size > 0)
    edge(addDays(range.from, -1), (l, e) => foreign.has(l) || nightly.has(`${l}|${e.id}`));
  if (foreign.size > 0) edge(addDays(range.to, 1), (l) => foreign.has(l));

  const place = placerFor(zone);
  const occurrences: PlacedOnPage[] = [];
  const continuing: PlacedOnPage[] = [];
  for (const o of found) {
    const placed: PlacedOnPage = { ...o, ...placeOccurrence(o, place) };
    if (placed.date >= range.from && placed.date <= range.to) occurrences.push(placed);
    else if (placed.date < range.from && runsInto(placed, range.from)) continuing.push(placed);
  }
  // Stable: equal instants keep the query's order (layer, the event's creation, id).
  const byInstant = (a: PlacedOnPage, b: PlacedOnPage) =>
    a.date < b.date
      ? -1
      : a.date > b.date
        ? 1
        : (a.start ?? Number.MIN_SAFE_INTEGER) - (b.start ?? Number.MIN_SAFE_INTEGER);
  occurrences.sort(byInstant);
  continuing.sort(byInstant);
  return { occurrences, continuing, omitted };
}

/** Whether an occurrence that started earlier is still running on `date` (an end at 00:00 is not). */
const runsInto = (o: PagePlace, date: string): boolean =>
  o.end_date !== null && (o.end_date > date || (o.end_date === date && o.end_time !== "00:00"));
