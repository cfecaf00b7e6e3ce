/**
 * Builds page models from the store through the domain queries: the calendar's (or view's)
 * event sources, their events read once, occurrences expanded for the lens's period only.
 * A calendar page shows the layers it publishes (publishedSources), to anyone at /c/{slug}, or
 * to the human of one of its agents at the account's address; a view page shows what its filter
 * lets through of those.
 */
import type { Deps } from "../domain/deps.js";
import { loadOccurring, loadSomeday, readNotes } from "../domain/queries/occurring.js";
import type { LoadedSource } from "../domain/queries/occurrences.js";
import { publishedSources, type EventSource } from "../domain/queries/sources.js";
import { viewDisplayFor, viewEventSources, viewRange, viewShows, type ResolvedView } from "../domain/queries/views.js";
import { addDays, todayIn } from "../domain/recurrence/index.js";
import { revisionsKey } from "../domain/revision.js";
import { answerKey } from "../http/response-cache.js";
import { nearestElsewhere } from "./elsewhere.js";
import { colourClasses } from "./colours.js";
import { readerZone, readerZoneKey, type ReaderZone } from "./reader-zone.js";
import { pageLocale } from "./locale.js";
import { calendarUrl } from "../presenters/calendars.js";
import { viewUrl } from "../presenters/views.js";
import { subscribeChoices } from "./subscribe-control.js";
import type { CalendarRecord, CategoryColours, EventRecord, ExceptionRecord } from "../domain/records.js";
import type { Lens, ViewFilter } from "../domain/types.js";
import { PAGE_SOMEDAY_BUDGET, PAGE_SOMEDAY_COUNTED } from "./budgets.js";
import { DRAWN_DAYS_AFTER, DRAWN_DAYS_BEFORE, drawnOccurrences, everyEvent, type PlacedOnPage } from "./drawn.js";
import { toPageEvent, type PageEvent, type PageModel, type PageOccurrence, type VacatedSlot } from "./model.js";
import { allowedLenses, chooseLens, pageDate, periodFor } from "./period.js";
import { changedOccurrences, occurrenceKey, type ChangedOccurrence } from "./changes.js";

/** The page's query string: `?view=`, `?date=` and `?tz=` (anything else is ignored). */
export interface PageQuery {
  view?: unknown;
  date?: unknown;
  tz?: unknown;
  /** The reader's `Accept-Language`, most wanted first. */
  languages?: readonly string[];
}

interface Settings {
  /** The zone times are shown in: the reader's (`?tz=`), else the calendar's. */
  timezone: string;
  reader: ReaderZone;
  /** The locale dates are written in (pages/locale.ts); null for the pages' English. */
  locale: string | null;
  /** The calendar's owner colours by category (pages/colours.ts). */
  categories: CategoryColours | null;
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
  const date = pageDate(query.date, openingDate(settings.filter, today));
  return {
    today,
    lenses,
    lens,
    date,
    key: `${lens}|${date}|${today}|${readerZoneKey(settings.reader)}|${settings.locale ?? ""}`,
  };
}

/**
 * Where a page opens without a `date`: today, unless a view's dates lie wholly after it (it
 * opens at their start) or before it (at their end), so its first sight is not an empty page.
 */
function openingDate(filter: ViewFilter | null, today: string): string {
  if (filter?.from && filter.from > today) return filter.from;
  if (filter?.to && filter.to < today) return filter.to;
  return today;
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

  // A view's dates clip the period; its filter decides on each occurrence (an exception's category decides).
  const range = filter ? viewRange(filter, period.from, period.to) : { from: period.from, to: period.to };
  // Around the range, the days drawn.ts reaches into for other zones and overnight events.
  const loaded = range
    ? await loadOccurring(deps, sources, {
        from: addDays(range.from, -DRAWN_DAYS_BEFORE),
        to: addDays(range.to, DRAWN_DAYS_AFTER),
      })
    : [];

  // Someday events, oldest first as GET .../events lists them, up to their budget.
  const somedayRecords: Array<{ layer: string; event: EventRecord }> = [];
  if (lens === "schedule" || lens === "timeline") {
    for (const { layer, events } of await loadSomeday(deps, sources, PAGE_SOMEDAY_COUNTED)) {
      for (const event of events)
        if (event.kind === "someday" && shows(layer, event, null)) somedayRecords.push({ layer, event });
    }
  }
  somedayRecords.sort((a, b) =>
    a.event.created_at < b.event.created_at ? -1 : a.event.created_at > b.event.created_at ? 1 : 0,
  );
  const somedayShown = somedayRecords.slice(0, PAGE_SOMEDAY_BUDGET);

  const drawn = range
    ? drawnOccurrences(loaded, settings.timezone, range, everyEvent, filter)
    : { occurrences: [], continuing: [], omitted: 0 };
  // Only the schedule lens shows notes: read them for what it draws, not for the whole range.
  const notes =
    lens === "schedule"
      ? await notesShown(deps, loaded, [...drawn.occurrences, ...drawn.continuing], somedayShown)
      : null;

  const colourOf = colourClasses(settings.categories);
  // One PageEvent per event drawn, shared by all its occurrences (renderers cache per event).
  const pageEvents = new Map<EventRecord, PageEvent>();
  const pageEvent = (layer: string, event: EventRecord): PageEvent => {
    let made = pageEvents.get(event);
    if (!made) {
      const shown = notes ? { ...event, notes: notes.ofEvent(event) } : event;
      pageEvents.set(event, (made = toPageEvent(shown, layer, colourOf)));
    }
    return made;
  };
  // An occurrence an exception renamed or recategorised shows its own fields.
  const shownEvent = (o: PlacedOnPage): PageEvent => {
    const shared = pageEvent(o.layer, o.event);
    const ownNotes = notes ? notes.ofOccurrence(o) : o.notes;
    if (o.name === shared.name && o.category === shared.category && ownNotes === shared.notes) return shared;
    const colour = o.category === null ? null : colourOf(o.category);
    return { ...shared, name: o.name, category: o.category, notes: ownNotes, colour };
  };
  const someday = somedayShown.map(({ layer, event }) => pageEvent(layer, event));
  // The dates loaded: the range and the days drawn.ts reaches into.
  const near = range && { from: addDays(range.from, -DRAWN_DAYS_BEFORE), to: addDays(range.to, DRAWN_DAYS_AFTER) };
  const changed = near ? changedOccurrences(loaded, settings.timezone, near) : [];
  const changedAt = new Map(
    changed.map((c) => [occurrenceKey(c.event.calendar_id, c.event.id, c.exception.original_date), c]),
  );
  const toPage = (o: PlacedOnPage): PageOccurrence => {
    const from = changedAt.get(occurrenceKey(o.event.calendar_id, o.event.id, o.original_date))?.from;
    return {
      date: o.date,
      start_time: o.start_time,
      end_time: o.end_time,
      end_date: o.end_date,
      start: o.start,
      event: shownEvent(o),
      ...(from ? { moved_from: from } : {}),
    };
  };
  const occurrences = drawn.occurrences.map(toPage);
  const continuing = drawn.continuing.map(toPage);
  const vacated = range ? vacatedIn(changed, range, filter, (c) => pageEvent(c.layer, c.event)) : [];
  const omitted = { occurrences: drawn.omitted, someday: somedayRecords.length - someday.length };
  const elsewhere =
    occurrences.length === 0 && continuing.length === 0
      ? await nearestElsewhere(deps, sources, settings.timezone, filter, period)
      : null;
  return {
    timezone: settings.timezone,
    reader: settings.reader,
    locale: settings.locale,
    lens,
    lenses,
    date,
    today,
    occurrences,
    continuing,
    vacated,
    someday,
    omitted,
    elsewhere,
  };
}

/** `/c/{slug}`: a public or unlisted calendar, with the layers it publishes (docs/api.md#publishing). */
export async function prepareCalendarPage(
  deps: Deps,
  calendar: CalendarRecord,
  query: PageQuery,
): Promise<PreparedPage> {
  const sources = await publishedSources(deps, calendar);
  const settings = calendarSettings(calendar, query);
  const at = coordinates(deps, settings, query);
  return {
    // Pages are anonymous: revisions read a moment ago may do (domain/revision.ts, `Freshness`).
    key: answerKey("page|c", calendar.slug, await revisionsKey(deps, sources, "recent"), at.key),
    load: async () => ({
      kind: "calendar",
      title: calendar.name,
      purpose: calendar.purpose,
      links: {
        purposeMarkdown: `/c/${calendar.slug}/purpose.md`,
        feed: `/c/${calendar.slug}.ics`,
        url: calendarUrl(deps.baseUrl, calendar.slug),
        subscribe: subscribeChoices(`${calendarUrl(deps.baseUrl, calendar.slug)}.ics`, calendar.name),
        occurrencesApi: occurrencesApi(calendar, at),
        eventPages: `/c/${calendar.slug}/e`,
      },
      noindex: calendar.visibility !== "public",
      ...(await loadShown(deps, sources, settings, at)),
    }),
  };
}

function calendarSettings(calendar: CalendarRecord, query: PageQuery): Settings {
  const reader = readerZone(query.tz, calendar.timezone);
  return {
    timezone: reader.shown,
    reader,
    locale: pageLocale(calendar.locale, query.languages ?? []),
    categories: calendar.categories ?? null,
    views: calendar.views,
    defaultView: calendar.default_view,
    filter: null,
  };
}

/**
 * A calendar of one of a signed-in human's agents, private ones included (pages/humans/calendars.ts):
 * what its `/c/{slug}` page shows, in the same lenses. It links nothing a private calendar
 * answers 404 at (feed, purpose.md, the API), and has no key: it is never cached.
 */
export async function loadAccountCalendarPage(
  deps: Deps,
  calendar: CalendarRecord,
  query: PageQuery,
  back: { href: string; label: string },
): Promise<PageModel> {
  const sources = await publishedSources(deps, calendar);
  const settings = calendarSettings(calendar, query);
  const at = coordinates(deps, settings, query);
  return {
    kind: "calendar",
    title: calendar.name,
    purpose: calendar.purpose,
    links: { purposeMarkdown: null, feed: null, subscribe: null, occurrencesApi: null, eventPages: null, back },
    noindex: true,
    ...(await loadShown(deps, sources, settings, at)),
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
  const settings: Settings = {
    ...calendarSettings(calendar, query),
    views: display.views,
    defaultView: display.default_view,
    filter: view.filter,
  };
  const at = coordinates(deps, settings, query);
  return {
    // The calendar's revision covers its settings even when the filter leaves `main` out.
    key: answerKey(
      "page|v",
      view.id,
      view.updated_at,
      calendar.revision,
      await revisionsKey(deps, sources, "recent"),
      at.key,
    ),
    load: async () => ({
      kind: "view",
      title: view.name,
      purpose: null,
      links: {
        purposeMarkdown: null,
        feed: `/v/${view.slug}.ics`,
        url: viewUrl(deps.baseUrl, view.slug),
        subscribe: subscribeChoices(`${viewUrl(deps.baseUrl, view.slug)}.ics`, view.name),
        occurrencesApi: null,
        eventPages: `/v/${view.slug}/e`,
      },
      noindex: true,
      ...(await loadShown(deps, sources, settings, at)),
    }),
  };
}

/**
 * The slots in `range` that cancelled or moved occurrences left, in order; under a view, only
 * those of occurrences it shows (a cancelled one on its own date and category, a moved one where it went).
 */
export function vacatedIn(
  changed: readonly ChangedOccurrence[],
  range: { from: string; to: string },
  filter: ViewFilter | null,
  pageEvent: (c: ChangedOccurrence) => PageEvent,
): VacatedSlot[] {
  const shown = changed.filter(({ layer, event, exception: x, from }) => {
    if (from.date < range.from || from.date > range.to) return false;
    const date = x.cancelled ? x.original_date : x.date;
    return !filter || viewShows(filter, { layer, kind: event.kind, category: x.category, date });
  });
  const byTime = (a: VacatedSlot, b: VacatedSlot) =>
    a.date < b.date ? -1 : a.date > b.date ? 1 : (a.start ?? -Infinity) - (b.start ?? -Infinity);
  return shown.map((c) => ({ ...c.from, event: pageEvent(c), moved_to: c.to })).sort(byTime);
}

/** The API call listing every occurrence of a calendar page's period (paged), for the budget note. */
function occurrencesApi(calendar: CalendarRecord, at: ReturnType<typeof coordinates>): string {
  const { from, to } = periodFor(at.lens, at.date);
  return `/v1/calendars/${calendar.id}/occurrences?from=${from}&to=${to}`;
}

/**
 * The notes of what a page draws, read by id: occurrences and someday events are read without
 * them (queries/occurring.ts). An occurrence an exception changed shows the exception's notes.
 */
async function notesShown(
  deps: Deps,
  loaded: readonly LoadedSource[],
  drawn: readonly PlacedOnPage[],
  someday: ReadonlyArray<{ event: EventRecord }>,
) {
  const exceptionOf = new Map<string, ExceptionRecord>();
  const occurrenceKey = (calendarId: string, eventId: string, originalDate: string) =>
    `${calendarId}/${eventId}/${originalDate}`;
  for (const source of loaded)
    for (const x of source.exceptions) exceptionOf.set(occurrenceKey(x.calendar_id, x.event_id, x.original_date), x);
  const exceptionFor = (o: PlacedOnPage) =>
    exceptionOf.get(occurrenceKey(o.event.calendar_id, o.event.id, o.original_date));
  const events = new Set([...drawn.map((o) => o.event), ...someday.map((r) => r.event)]);
  const exceptions = drawn.map(exceptionFor).filter((x): x is ExceptionRecord => x !== undefined);
  const read = await readNotes(deps, { events: [...events], exceptions });
  const of = (calendarId: string, id: string) => read.get(`${calendarId}/${id}`) ?? null;
  return {
    ofEvent: (event: EventRecord) => of(event.calendar_id, event.id),
    ofOccurrence: (o: PlacedOnPage) => of(o.event.calendar_id, (exceptionFor(o) ?? o.event).id),
  };
}
