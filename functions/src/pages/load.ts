/**
 * Builds page models from the store through the domain queries: the calendar's (or view's)
 * event sources, their events read once, occurrences expanded for the lens's period only.
 * Pages are anonymous: a calendar page shows the layers it publishes (publishedSources); a
 * view page shows what its filter lets through of those.
 */
import type { Deps } from "../domain/deps.js";
import { loadSourceEvents } from "../domain/queries/events.js";
import { publishedSources, type EventSource } from "../domain/queries/sources.js";
import { viewDisplayFor, viewEventSources, viewRange, viewShows, type ResolvedView } from "../domain/queries/views.js";
import { todayIn } from "../domain/recurrence/index.js";
import { revisionsKey } from "../domain/revision.js";
import type { CalendarRecord, EventRecord } from "../domain/records.js";
import type { Lens, ViewFilter } from "../domain/types.js";
import { PAGE_SOMEDAY_BUDGET } from "./budgets.js";
import { drawnOccurrences, type PlacedOnPage } from "./drawn.js";
import { categoryColours, toPageEvent, type PageEvent, type PageModel, type PageOccurrence } from "./model.js";
import { allowedLenses, chooseLens, pageDate, periodFor } from "./period.js";

/** The page's query string: `?view=` and `?date=` (anything else is ignored). */
export interface PageQuery {
  view?: unknown;
  date?: unknown;
}

interface Settings {
  timezone: string;
  views: Lens[] | null;
  defaultView: Lens | null;
  filter: ViewFilter | null;
}

type Shown = Omit<PageModel, "kind" | "title" | "purpose" | "links" | "noindex">;

/** A page about to be built: `key` names everything its HTML depends on, `load` reads the events. */
export interface PreparedPage {
  key: string;
  load: () => Promise<PageModel>;
}

/** Lens, date and today: with the sources' revisions, all a page's content depends on. */
function coordinates(deps: Deps, settings: Settings, query: PageQuery) {
  const today = todayIn(settings.timezone, deps.clock());
  const lenses = allowedLenses(settings.views);
  const lens = chooseLens(query.view, lenses, settings.defaultView);
  const date = pageDate(query.date, today);
  return { today, lenses, lens, date, key: `${lens}|${date}|${today}` };
}

async function loadShown(
  deps: Deps,
  sources: EventSource[],
  settings: Settings,
  at: ReturnType<typeof coordinates>,
): Promise<Shown> {
  const { today, lenses, lens, date } = at;
  const period = periodFor(lens, date);
  const { filter } = settings;
  const shows = (layer: string, event: EventRecord, day: string | null) =>
    !filter || viewShows(filter, { layer, kind: event.kind, category: event.category, date: day });

  const loaded = await loadSourceEvents(deps, sources);
  const colours = categoryColours(
    loaded.flatMap((source) => [...source.events, ...source.exceptions].map((e) => e.category)),
  );
  // One PageEvent per event drawn, shared by all its occurrences (renderers cache per event).
  const pageEvents = new Map<EventRecord, PageEvent>();
  const pageEvent = (layer: string, event: EventRecord): PageEvent => {
    let made = pageEvents.get(event);
    if (!made) pageEvents.set(event, (made = toPageEvent(event, layer, colours)));
    return made;
  };
  // An occurrence an exception renamed or recategorised shows its own fields.
  const shownEvent = (o: PlacedOnPage): PageEvent => {
    const shared = pageEvent(o.layer, o.event);
    if (o.name === shared.name && o.category === shared.category && o.notes === shared.notes) return shared;
    const colour = o.category === null ? null : (colours.get(o.category) ?? null);
    return { ...shared, name: o.name, category: o.category, notes: o.notes, colour };
  };

  // Someday events, oldest first as GET .../events lists them, up to their budget.
  const somedayRecords: Array<{ layer: string; event: EventRecord }> = [];
  if (lens === "schedule" || lens === "timeline") {
    for (const { layer, events } of loaded) {
      for (const event of events)
        if (event.kind === "someday" && shows(layer, event, null)) somedayRecords.push({ layer, event });
    }
  }
  somedayRecords.sort((a, b) =>
    a.event.created_at < b.event.created_at ? -1 : a.event.created_at > b.event.created_at ? 1 : 0,
  );
  const someday = somedayRecords.slice(0, PAGE_SOMEDAY_BUDGET).map(({ layer, event }) => pageEvent(layer, event));

  // A view's dates clip the period; its other filters leave whole events out.
  const range = filter ? viewRange(filter, period.from, period.to) : { from: period.from, to: period.to };
  const drawn = range
    ? drawnOccurrences(loaded, settings.timezone, range, (layer, event) => shows(layer, event, null))
    : { occurrences: [], continuing: [], omitted: 0 };
  const toPage = (o: PlacedOnPage): PageOccurrence => ({
    date: o.date,
    start_time: o.start_time,
    end_time: o.end_time,
    end_date: o.end_date,
    start: o.start,
    event: shownEvent(o),
  });
  const occurrences = drawn.occurrences.map(toPage);
  const continuing = drawn.continuing.map(toPage);
  const omitted = { occurrences: drawn.omitted, someday: somedayRecords.length - someday.length };
  return { timezone: settings.timezone, lens, lenses, date, today, occurrences, continuing, someday, omitted };
}

/** `/c/{slug}`: a public or unlisted calendar, with the layers it publishes (DECISIONS section 7). */
export async function prepareCalendarPage(
  deps: Deps,
  calendar: CalendarRecord,
  query: PageQuery,
): Promise<PreparedPage> {
  const sources = await publishedSources(deps, calendar);
  const settings = {
    timezone: calendar.timezone,
    views: calendar.views,
    defaultView: calendar.default_view,
    filter: null,
  };
  const at = coordinates(deps, settings, query);
  return {
    key: `page|c|${calendar.slug}|${await revisionsKey(deps, sources)}|${at.key}`,
    load: async () => ({
      kind: "calendar",
      title: calendar.name,
      purpose: calendar.purpose,
      links: {
        purposeMarkdown: `/c/${calendar.slug}/purpose.md`,
        feed: `/c/${calendar.slug}.ics`,
        occurrencesApi: occurrencesApi(calendar, at),
      },
      noindex: calendar.visibility !== "public",
      ...(await loadShown(deps, sources, settings, at)),
    }),
  };
}

/**
 * `/v/{slug}`: the view's name and what its filter shows, in its lenses (else the
 * calendar's). Nothing of the calendar itself (id, name, slug, purpose, url) goes in.
 */
export async function prepareViewPage(deps: Deps, resolved: ResolvedView, query: PageQuery): Promise<PreparedPage> {
  const { view, calendar } = resolved;
  const sources = await viewEventSources(deps, resolved);
  const display = viewDisplayFor(view, calendar);
  const settings = {
    timezone: calendar.timezone,
    views: display.views,
    defaultView: display.default_view,
    filter: view.filter,
  };
  const at = coordinates(deps, settings, query);
  return {
    // The calendar's revision covers its settings even when the filter leaves `main` out.
    key: `page|v|${view.id}|${view.updated_at}|${calendar.revision}|${await revisionsKey(deps, sources)}|${at.key}`,
    load: async () => ({
      kind: "view",
      title: view.name,
      purpose: null,
      links: { purposeMarkdown: null, feed: `/v/${view.slug}.ics`, occurrencesApi: null },
      noindex: true,
      ...(await loadShown(deps, sources, settings, at)),
    }),
  };
}

/** The API call listing every occurrence of a calendar page's period (paged), for the budget note. */
function occurrencesApi(calendar: CalendarRecord, at: ReturnType<typeof coordinates>): string {
  const { from, to } = periodFor(at.lens, at.date);
  return `/v1/calendars/${calendar.id}/occurrences?from=${from}&to=${to}`;
}
