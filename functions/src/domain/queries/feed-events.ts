/**
 * What an iCalendar feed reads: at most `budget` dated events, those that occur on or after
 * today first (soonest first), then past ones (latest first), as pages/feed-budget.ts ranks
 * them, with the exceptions of the series kept. Nothing reads a whole calendar:
 *   per source, in sort-key order (one-offs sort by date): upcoming one-offs, at most `budget`;
 *              one-offs spanning days that began before and still run (span_end >= today);
 *              series still running (series_end >= today);
 *   only while fewer than `budget` are upcoming, per source: the latest past one-offs and the
 *              latest ended series, at most what is missing;
 * all without notes. The events kept are then read whole by id (a feed shows their notes),
 * and their calendars' exceptions, within READ_BUDGET.
 */
import type { Deps } from "../deps.js";
import { KIND_GROUP } from "../events/stored.js";
import { paths } from "../paths.js";
import type { EventRecord, ExceptionRecord } from "../records.js";
import { EVENT_FIELDS, queryWithinBudget } from "./occurring.js";
import type { EventSource } from "./sources.js";
import { eachInTurn } from "../yield.js";

export interface FeedSource extends EventSource {
  events: EventRecord[];
  exceptions: ExceptionRecord[];
}

type Candidates = EventSource & { events: EventRecord[] };

/** Ranks candidates and keeps `budget` of them: pages/feed-budget.ts, given by the caller. */
export type FeedCut = (
  sources: Candidates[],
  today: string,
  budget: number,
) => { sources: Candidates[]; omitted: number };

const ONE_OFF_GROUP = `${KIND_GROUP["one-off"]} `;
const SERIES_GROUP = `${KIND_GROUP.recurring} `;

/** Candidates for the feed of each source, without notes. */
async function candidates(deps: Deps, sources: readonly EventSource[], today: string, budget: number) {
  const upcoming = await eachInTurn(
    sources.map(({ calendar }) => async () => {
      const events = paths.events(calendar.id);
      const [oneOffs, running, series] = await Promise.all([
        deps.store.query(events, {
          where: [
            ["sort_key", ">=", `${ONE_OFF_GROUP}${today}`],
            ["sort_key", "<", SERIES_GROUP],
          ],
          orderBy: [["sort_key", "asc"]],
          select: EVENT_FIELDS,
          limit: budget,
        }),
        queryWithinBudget(deps, events, { where: [["span_end", ">=", today]], select: EVENT_FIELDS }),
        queryWithinBudget(deps, events, { where: [["series_end", ">=", today]], select: EVENT_FIELDS }),
      ]);
      // What began before today is not among the one-offs from today on.
      const begun = running.filter((d) => d.data.date !== null && d.data.date < today);
      return [...oneOffs, ...begun, ...series].map((d) => d.data);
    }),
  );
  const missing = budget - upcoming.reduce((n, events) => n + events.length, 0);
  if (missing <= 0) return upcoming;
  const past = await eachInTurn(
    sources.map(({ calendar }) => async () => {
      const events = paths.events(calendar.id);
      const [oneOffs, series] = await Promise.all([
        deps.store.query(events, {
          where: [
            ["sort_key", ">=", ONE_OFF_GROUP],
            ["sort_key", "<", `${ONE_OFF_GROUP}${today}`],
          ],
          orderBy: [["sort_key", "desc"]],
          select: EVENT_FIELDS,
          limit: missing,
        }),
        deps.store.query(events, {
          where: [["series_end", "<", today]],
          orderBy: [["series_end", "desc"]],
          select: EVENT_FIELDS,
          limit: missing,
        }),
      ]);
      return [...oneOffs, ...series].map((d) => d.data);
    }),
  );
  // A one-off still running is among the upcoming ones and, begun before today, the past ones too.
  return upcoming.map((events, i) => {
    const have = new Set(events.map((e) => e.id));
    return [...events, ...past[i].filter((e) => !have.has(e.id))];
  });
}

/**
 * The feed's sources: the events `cut` keeps, read whole, and the exceptions of its series.
 * `keep` leaves events out before the cut (a share view's filter); a calendar from before
 * stored spans is read whole, within READ_BUDGET.
 */
export async function loadFeedEvents(
  deps: Deps,
  sources: readonly EventSource[],
  today: string,
  budget: number,
  cut: FeedCut,
  keep?: (layer: string, event: EventRecord) => boolean,
): Promise<{ sources: FeedSource[]; omitted: number }> {
  // The usual feed: every dated event fits, counted by the store, so all are read whole at once.
  const dated = await countDated(deps, sources);
  if (sources.every((s) => s.calendar.event_sort_keys) && dated <= budget) {
    const all = await eachInTurn(sources.map((s) => () => readDated(deps, s, keep)));
    const ranked = cut(all, today, budget);
    return {
      sources: ranked.sources.map((s, i) => ({ ...s, exceptions: all[i].exceptions })),
      omitted: ranked.omitted,
    };
  }
  const spanned = sources.filter((s) => s.calendar.event_spans);
  const read = await candidates(deps, spanned, today, budget);
  const older = await eachInTurn(
    sources
      .filter((s) => !s.calendar.event_spans)
      .map((s) => async () => {
        const docs = await queryWithinBudget(deps, paths.events(s.calendar.id), { select: EVENT_FIELDS });
        return { ...s, events: docs.map((d) => d.data) };
      }),
  );
  const ranked = cut(
    [...spanned.map((s, i) => ({ ...s, events: read[i] })), ...older].map((s) => ({
      ...s,
      events: keep ? s.events.filter((e) => keep(s.layer, e)) : s.events,
    })),
    today,
    budget,
  );
  const whole = await eachInTurn(ranked.sources.map((s) => () => readWhole(deps, s)));
  // The candidates are a part of each calendar: what the feed leaves out is counted apart, by
  // the store, when nothing filters the events (a view's filter cannot be counted so).
  const kept = whole.reduce((n, s) => n + s.events.length, 0);
  return { sources: whole, omitted: keep ? ranked.omitted : Math.max(ranked.omitted, dated - kept) };
}

/** Every dated event of a calendar that holds no more than a feed carries, whole, with its exceptions. */
async function readDated(
  deps: Deps,
  source: EventSource,
  keep: ((layer: string, event: EventRecord) => boolean) | undefined,
): Promise<FeedSource> {
  const { calendar } = source;
  const [events, exceptions] = await Promise.all([
    deps.store.query(paths.events(calendar.id), { where: [["sort_key", "<", `${KIND_GROUP.someday} `]] }),
    queryWithinBudget(deps, paths.exceptions(calendar.id)),
  ]);
  const kept = events.map((d) => d.data).filter((e) => !keep || keep(source.layer, e));
  return { ...source, events: kept, exceptions: exceptions.map((d) => d.data) };
}

/** The kept events with their notes, and the exceptions of the kept series. */
async function readWhole(deps: Deps, source: EventSource & { events: EventRecord[] }): Promise<FeedSource> {
  const { calendar } = source;
  const series = new Set(source.events.filter((e) => e.kind === "recurring").map((e) => e.id));
  const [events, exceptions] = await Promise.all([
    deps.store.getAll(source.events.map((e) => paths.event(calendar.id, e.id))),
    series.size === 0 ? [] : queryWithinBudget(deps, paths.exceptions(calendar.id)),
  ]);
  return {
    layer: source.layer,
    calendar,
    events: events.flatMap((d) => (d ? [d.data] : [])),
    exceptions: exceptions.map((d) => d.data).filter((x) => series.has(x.event_id)),
  };
}

/** The one-off and recurring events of the sources (their sort keys come before the someday group's). */
async function countDated(deps: Deps, sources: readonly EventSource[]): Promise<number> {
  const counts = await Promise.all(
    sources.map(({ calendar }) =>
      calendar.event_sort_keys
        ? deps.store.count(paths.events(calendar.id), { where: [["sort_key", "<", `${KIND_GROUP.someday} `]] })
        : Promise.resolve(0),
    ),
  );
  return counts.reduce((a, b) => a + b, 0);
}
