import type { Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { paginate, type Page, type PageRequest } from "../paging.js";
import { paths } from "../paths.js";
import { viewWithinReach } from "../policy.js";
import type { CalendarRecord, EventRecord, ExceptionRecord, ShareViewRecord } from "../records.js";
import type { EventKind, ViewDisplay, ViewFilter } from "../types.js";
import { publishedSources, type EventSource } from "./sources.js";

/**
 * Every share view of a calendar, live and revoked, oldest first; to a restricted credential,
 * those within its reach (domain/policy.ts, `viewWithinReach`).
 */
export async function listViews(
  deps: Deps,
  actor: Pick<Actor, "calendars">,
  calendarId: string,
  page: PageRequest,
): Promise<Page<ShareViewRecord>> {
  const [docs, layers] = await Promise.all([
    deps.store.query(paths.views(calendarId)),
    actor.calendars === null ? [] : deps.store.query(paths.layers(calendarId)),
  ]);
  const layerRecords = layers.map((l) => l.data);
  return paginate(
    docs.map((d) => d.data).filter((view) => viewWithinReach(actor, view.filter.layers, layerRecords)),
    page,
    (v) => [v.created_at, v.id],
    "asc",
  );
}

export interface ResolvedView {
  view: ShareViewRecord;
  calendar: CalendarRecord;
}

/** `/v/{slug}`: the live view and the calendar it projects, or null when unknown or revoked. */
export async function resolveViewSlug(deps: Deps, slug: string): Promise<ResolvedView | null> {
  const owner = await deps.store.get(paths.viewSlug(slug));
  if (!owner) return null;
  const [view, calendar] = await Promise.all([
    deps.store.get(paths.view(owner.data.calendar_id, owner.data.owner_id)),
    deps.store.get(paths.calendar(owner.data.calendar_id)),
  ]);
  if (!view || !calendar || view.data.revoked_at) return null;
  return { view: view.data, calendar: calendar.data };
}

/**
 * What a view decides on: one occurrence (its own category and date, an exception's when one
 * replaces it; layer and kind are its event's), or an undated item (date null): a someday
 * event, or a series' own occurrences already cut to the view's dates (`viewRange`).
 */
export interface ViewCandidate {
  /** `main` for the calendar's own events, else the layer key. */
  layer: string;
  kind: EventKind;
  category: string | null;
  date: string | null;
}

/**
 * Whether a view shows an occurrence or a someday event: the one test pages, feeds and any
 * reading of a view apply, occurrence by occurrence. `from`/`to` bound dated items only.
 */
export function viewShows(filter: ViewFilter, item: ViewCandidate): boolean {
  if (filter.layers && !filter.layers.includes(item.layer)) return false;
  if (filter.categories && (item.category === null || !filter.categories.includes(item.category))) return false;
  if (item.kind === "someday" && !filter.include_someday) return false;
  if (item.kind === "recurring" && !filter.include_recurring) return false;
  if (item.date !== null) {
    if (filter.from && item.date < filter.from) return false;
    if (filter.to && item.date > filter.to) return false;
  }
  return true;
}

/** viewShows for one occurrence of `event`: `occurrence` is its own category and date. */
export function viewShowsOccurrence(
  filter: ViewFilter,
  layer: string,
  event: Pick<EventRecord, "kind">,
  occurrence: { category: string | null; date: string },
): boolean {
  return viewShows(filter, { layer, kind: event.kind, category: occurrence.category, date: occurrence.date });
}

/**
 * The events a view shows anything of: a one-off on its date, a series' own occurrences (its
 * category; its dates are cut later), or one occurrence an exception moved or re-categorised
 * into the view. What the feed budget ranks; the occurrences themselves are decided one by one.
 */
export function eventsShownByView<S extends { layer: string; events: EventRecord[]; exceptions: ExceptionRecord[] }>(
  filter: ViewFilter,
  sources: S[],
): S[] {
  return sources.map((source) => {
    const shownByException = new Set<string>();
    for (const e of source.exceptions) {
      if (e.cancelled || shownByException.has(e.event_id)) continue;
      if (viewShows(filter, { layer: source.layer, kind: "recurring", category: e.category, date: e.date }))
        shownByException.add(e.event_id);
    }
    const shown = (event: EventRecord) =>
      (event.kind === "recurring" && shownByException.has(event.id)) ||
      viewShows(filter, {
        layer: source.layer,
        kind: event.kind,
        category: event.category,
        date: event.kind === "one-off" ? event.date : null,
      });
    return { ...source, events: source.events.filter(shown) };
  });
}

/**
 * The lenses a view page offers and the one it opens on: each of the view's own display keys,
 * else the calendar's setting. A default the lenses do not offer is not used: the page opens
 * on the first lens it offers (pages/period.ts, chooseLens).
 */
export function viewDisplayFor(view: ShareViewRecord, calendar: CalendarRecord): ViewDisplay {
  return {
    default_view: view.display.default_view ?? calendar.default_view,
    views: view.display.views ?? calendar.views,
  };
}

/** The part of a requested date range the view allows, or null when they do not overlap. */
export function viewRange(filter: ViewFilter, from: string, to: string): { from: string; to: string } | null {
  const start = filter.from && filter.from > from ? filter.from : from;
  const end = filter.to && filter.to < to ? filter.to : to;
  return start <= end ? { from: start, to: end } : null;
}

/**
 * The sources a view shows: `main` and the layers its calendar publishes (the ownership rule
 * of `publishedSources`), narrowed by `filter.layers`.
 */
export function viewEventSources(deps: Deps, resolved: ResolvedView): Promise<EventSource[]> {
  const { layers } = resolved.view.filter;
  return publishedSources(deps, resolved.calendar, (key) => layers === null || layers.includes(key));
}
