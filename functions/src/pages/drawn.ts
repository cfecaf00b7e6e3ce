/**
 * The occurrences a page draws, placed in the page calendar's timezone (docs/api.md#time-zones-on-pages).
 * A layer from another zone can have an occurrence dated a day (two across the date line)
 * before or after the period in its own zone that falls inside the period in the page's, so
 * those edge days are expanded too, for such layers only, and the day before for overnight
 * events, whose end the week lens draws. A calendar whose sources share its zone is expanded
 * over exactly its period, and its budget note counts exactly; with layers in other zones the
 * edge days share what the budget leaves, and their undrawn occurrences count as omitted
 * (a few of which would have fallen outside the period). */
import { IANAZone } from "luxon";
import {
  budgetedOccurrences,
  everyEvent,
  type LoadedSource,
  type PlacedOccurrence,
} from "../domain/queries/occurrences.js";
import { addDays } from "../domain/recurrence/index.js";
import type { EventRecord } from "../domain/records.js";
import type { ViewFilter } from "../domain/types.js";
import { PAGE_OCCURRENCE_BUDGET } from "./budgets.js";
import { placeOccurrence, placerFor, type PagePlace } from "./placement.js";

export { everyEvent };

/**
 * The days around the period whose occurrences a page can draw: across the date line a
 * layer's date is up to two days off the page's, and an overnight event runs into the next.
 * The page reads this much more than its period (pages/load.ts).
 */
export const DRAWN_DAYS_BEFORE = 3;
export const DRAWN_DAYS_AFTER = 2;

/** An occurrence placed on the page: the query's occurrence, its date and times now the page zone's. */
export type PlacedOnPage = Omit<PlacedOccurrence, keyof PagePlace> & PagePlace;

export interface Drawn {
  /** Those starting in the period, by date, then start instant (untimed first), then the query's order. */
  occurrences: PlacedOnPage[];
  /** Those starting before the period and still running in it. */
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

/**
 * `include` leaves events out altogether; `view`, a share view's filter, decides on each
 * occurrence by its own category and date (in its own zone, as `/occurrences` dates it), on
 * the edge days too.
 */
export function drawnOccurrences(
  sources: LoadedSource[],
  zone: string,
  range: { from: string; to: string },
  include: (layer: string, event: EventRecord) => boolean = everyEvent,
  view: ViewFilter | null = null,
): Drawn {
  const foreign = sources.filter((s) => s.calendar.timezone !== zone);
  const foreignLayers = new Set(foreign.map((s) => s.layer));
  const main = budgetedOccurrences(sources, range.from, range.to, PAGE_OCCURRENCE_BUDGET, include, view);
  const found: PlacedOccurrence[] = [...main.occurrences];
  let omitted = main.omitted;
  const edge = (from: string, to: string, crosses: (layer: string, event: EventRecord) => boolean) => {
    const budget = Math.max(0, PAGE_OCCURRENCE_BUDGET - found.length);
    const wanted = (l: string, e: EventRecord) => crosses(l, e) && include(l, e);
    const more = budgetedOccurrences(sources, from, to, budget, wanted, view);
    found.push(...more.occurrences);
    omitted += more.omitted;
  };
  // How many days a layer's date can be off the page's for one instant: 1 between most zones,
  // 2 across the date line's far ends (Kiritimati, +14, and Pago Pago, -11). Offsets are read
  // once a day: a zone changes offset at most a few times a year.
  const reach = reachOf(
    zone,
    foreign.map((s) => s.calendar.timezone),
    range,
  );
  const nightly = overnightEvents(sources);
  // Before: what a zone's offset brings in, and a day more for what runs past midnight into the period.
  if (foreign.length > 0 || nightly.size > 0)
    edge(
      addDays(range.from, -reach - 1),
      addDays(range.from, -1),
      (l, e) => foreignLayers.has(l) || nightly.has(`${l}|${e.id}`),
    );
  if (reach > 0) edge(addDays(range.to, 1), addDays(range.to, reach), (l) => foreignLayers.has(l));

  const place = placerFor(zone);
  const occurrences: PlacedOnPage[] = [];
  const continuing: PlacedOnPage[] = [];
  for (const o of found) {
    const placed: PlacedOnPage = { ...o, ...placeOccurrence(o, place) };
    // An all-day occurrence keeps its own dates: its last day, when it spans several.
    if (o.start === null && o.end_date > o.date) placed.end_date = o.end_date;
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

const DAY_MINUTES = 24 * 60;

/** A zone's offset in minutes at midnight UTC of each day of the range and the day after. */
function dailyOffsets(zone: string, range: { from: string; to: string }): number[] {
  const tz = IANAZone.create(zone);
  const offsets: number[] = [];
  for (let date = range.from; date <= addDays(range.to, 1); date = addDays(date, 1))
    offsets.push(tz.isValid ? tz.offset(Date.parse(`${date}T00:00:00Z`)) : 0); // as placerFor reads an unknown zone
  return offsets;
}

/** Whole days by which the page's local date and a layer zone's can differ for one instant over the range. */
function reachOf(pageZone: string, zones: Iterable<string>, range: { from: string; to: string }): number {
  const page = dailyOffsets(pageZone, range);
  let most = 0;
  for (const zone of new Set(zones)) {
    const other = dailyOffsets(zone, range);
    for (let i = 0; i < page.length; i++) most = Math.max(most, Math.abs(page[i] - other[i]));
  }
  return Math.ceil(most / DAY_MINUTES);
}

/** Whether an occurrence that started earlier is still running on `date` (an end at 00:00 is not). */
const runsInto = (o: PagePlace, date: string): boolean =>
  o.end_date !== null && (o.end_date > date || (o.end_date === date && o.end_time !== "00:00"));
