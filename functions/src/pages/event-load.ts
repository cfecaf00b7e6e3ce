/**
 * One occurrence's page (`/c/{slug}/e/{eventId}/{date}`, `/v/{slug}/e/...`): found as the
 * calendar's (or the view's) page would draw it on `date` in the page's zone, so what a lens
 * links to is exactly what this shows, and nothing a page would not show is found. A date a
 * series' occurrence left (cancelled, or moved away) is found too, as that slot.
 */
import type { Deps } from "../domain/deps.js";
import { errors } from "../domain/errors.js";
import { loadOccurring, readNotes } from "../domain/queries/occurring.js";
import type { LoadedSource } from "../domain/queries/occurrences.js";
import { publishedSources, type EventSource } from "../domain/queries/sources.js";
import { viewEventSources, viewRange, type ResolvedView } from "../domain/queries/views.js";
import { addDays, isValidDate } from "../domain/recurrence/index.js";
import type { CalendarRecord, CategoryColours, EventRecord } from "../domain/records.js";
import { revisionsKey } from "../domain/revision.js";
import type { ViewFilter } from "../domain/types.js";
import { answerKey } from "../http/response-cache.js";
import { changedOccurrences, occurrenceKey, type PlacedSlot } from "./changes.js";
import { DRAWN_DAYS_AFTER, DRAWN_DAYS_BEFORE, drawnOccurrences, type PlacedOnPage } from "./drawn.js";
import { vacatedIn } from "./load.js";
import { colourClasses } from "./colours.js";
import { readerZone, readerZoneKey, type ReaderZone } from "./reader-zone.js";
import { pageLocale } from "./locale.js";

/** What the reader asks for: a zone (`?tz=`) and, most wanted first, languages (`Accept-Language`). */
export interface ReaderAsks {
  tz: unknown;
  languages: readonly string[];
}
import { toPageEvent, type PageEvent, type VacatedSlot } from "./model.js";
import { placeOccurrence, placerFor } from "./placement.js";

export interface EventPageModel {
  kind: "calendar" | "view";
  /** The calendar's name, or the share view's. */
  title: string;
  /** `/c/{slug}` or `/v/{slug}`: the calendar's (or view's) page. */
  home: string;
  /** Absolute address of this page, for the links that add it elsewhere. */
  url: string;
  /** The page's zone: every time shown is in it (the reader's `?tz=`, else the calendar's). */
  timezone: string;
  reader: ReaderZone;
  /** The locale its dates are written in (pages/locale.ts); null for the pages' English. */
  locale: string | null;
  date: string;
  event: PageEvent;
  /** The occurrence in the page's zone (a vacated slot: where it was). */
  at: PlacedSlot;
  state: "scheduled" | "moved" | "cancelled" | "moved away";
  /** Where the series had it (moved), or where it went (moved away). */
  elsewhere: PlacedSlot | null;
  /** A layer event's own calendar zone and times there, when that zone is not the page's or the calendar's. */
  own: { timezone: string; at: PlacedSlot } | null;
  /** Instants (UTC ms) of a timed occurrence, for the links that add it to another calendar. */
  instants: { start: number; end: number | null } | null;
  noindex: boolean;
}

/** The occurrence as a one-off event in its own calendar's zone: what its single `.ics` holds. */
export interface SingleOccurrence {
  title: string;
  url: string;
  timezone: string;
  layer: string;
  event: EventRecord;
}

export interface PreparedEvent {
  key: string;
  /** The page's model, and the event it adds to a calendar (null for a vacated slot); throws not_found. */
  load: () => Promise<{ model: EventPageModel; single: SingleOccurrence | null }>;
}

interface Where {
  kind: "calendar" | "view";
  title: string;
  home: string;
  timezone: string;
  reader: ReaderZone;
  locale: string | null;
  /** The calendar's owner colours by category (pages/colours.ts). */
  categories: CategoryColours | null;
  filter: ViewFilter | null;
  noindex: boolean;
}

export async function prepareCalendarEvent(
  deps: Deps,
  calendar: CalendarRecord,
  eventId: string,
  date: string,
  asked: ReaderAsks,
): Promise<PreparedEvent> {
  const sources = await publishedSources(deps, calendar);
  const reader = readerZone(asked.tz, calendar.timezone);
  const locale = pageLocale(calendar.locale, asked.languages);
  const where: Where = {
    kind: "calendar",
    title: calendar.name,
    home: `/c/${calendar.slug}`,
    timezone: reader.shown,
    reader,
    locale,
    categories: calendar.categories ?? null,
    filter: null,
    noindex: calendar.visibility !== "public",
  };
  return {
    key: answerKey(
      "event|c",
      calendar.slug,
      await revisionsKey(deps, sources, "recent"),
      eventId,
      date,
      readerZoneKey(reader),
      locale ?? "",
    ),
    load: () => loadEvent(deps, sources, where, eventId, date),
  };
}

export async function prepareViewEvent(
  deps: Deps,
  resolved: ResolvedView,
  eventId: string,
  date: string,
  asked: ReaderAsks,
): Promise<PreparedEvent> {
  const { view, calendar } = resolved;
  const sources = await viewEventSources(deps, resolved);
  const reader = readerZone(asked.tz, calendar.timezone);
  const locale = pageLocale(calendar.locale, asked.languages);
  const where: Where = {
    kind: "view",
    title: view.name,
    home: `/v/${view.slug}`,
    timezone: reader.shown,
    reader,
    locale,
    categories: calendar.categories ?? null,
    filter: view.filter,
    noindex: true,
  };
  const revisions = await revisionsKey(deps, sources, "recent");
  return {
    key: answerKey(
      "event|v",
      view.id,
      view.updated_at,
      calendar.revision,
      revisions,
      eventId,
      date,
      readerZoneKey(reader),
      locale ?? "",
    ),
    load: () => loadEvent(deps, sources, where, eventId, date),
  };
}

async function loadEvent(deps: Deps, sources: EventSource[], where: Where, eventId: string, date: string) {
  const notFound = errors.notFound("event");
  if (!isValidDate(date)) throw notFound;
  const { filter, timezone } = where;
  const range = filter ? viewRange(filter, date, date) : { from: date, to: date };
  if (!range) throw notFound;
  const near = { from: addDays(date, -DRAWN_DAYS_BEFORE), to: addDays(date, DRAWN_DAYS_AFTER) };
  const loaded = await loadOccurring(deps, sources, near);
  const drawn = drawnOccurrences(loaded, timezone, range, (_layer, e) => e.id === eventId, filter);
  const found = drawn.occurrences.find((o) => o.event.id === eventId && o.date === date);
  const changed = changedOccurrences(loaded, timezone, near).filter((c) => c.event.id === eventId);
  const colours = colourClasses(where.categories);
  const page = (fields: Omit<EventPageModel, keyof Where | "url" | "date">): EventPageModel => ({
    ...where,
    url: `${deps.baseUrl}${where.home}/e/${encodeURIComponent(eventId)}/${date}`,
    date,
    ...fields,
  });
  if (!found) {
    const slot = vacatedIn(changed, range, filter, (c) => toPageEvent(c.event, c.layer, colours)).find(
      (v) => v.date === date,
    );
    if (!slot) throw notFound;
    return { model: page(vacatedFields(slot)), single: null };
  }
  const exception = loaded
    .flatMap((s) => s.exceptions)
    .find((x) => x.event_id === eventId && x.original_date === found.original_date);
  const notes = await readNotes(deps, { events: [found.event], exceptions: exception ? [exception] : [] });
  const shown = {
    ...found.event,
    name: found.name,
    category: found.category,
    notes: notes.get(`${found.event.calendar_id}/${(exception ?? found.event).id}`) ?? null,
  };
  const event = toPageEvent(shown, found.layer, colours);
  const movedFrom = changed.find(
    (c) =>
      occurrenceKey(c.event.calendar_id, c.event.id, c.exception.original_date) ===
      occurrenceKey(found.event.calendar_id, eventId, found.original_date),
  )?.from;
  const ownZone = zoneOf(loaded, found.layer);
  const model = page({
    event,
    at: {
      date: found.date,
      start_time: found.start_time,
      end_time: found.end_time,
      end_date: found.end_date,
      start: found.start,
    },
    state: movedFrom ? "moved" : "scheduled",
    elsewhere: movedFrom ?? null,
    // A layer from another zone says so, also when the reader's zone happens to be its own.
    own:
      ownZone === timezone && ownZone === where.reader.calendar
        ? null
        : { timezone: ownZone, at: ownSlot(found, ownZone) },
    instants: found.start === null ? null : { start: found.start, end: found.end },
  });
  return { model, single: singleOccurrence(model, found, shown, ownZone) };
}

const zoneOf = (loaded: readonly LoadedSource[], layer: string): string =>
  loaded.find((s) => s.layer === layer)!.calendar.timezone;

/** An occurrence's date and times in its own calendar's zone. */
function ownSlot(o: PlacedOnPage, zone: string): PlacedSlot {
  return { ...placeOccurrence({ date: o.date, start: o.start, end: o.end }, placerFor(zone)), start: o.start };
}

function vacatedFields(slot: VacatedSlot) {
  const { event, moved_to, ...at } = slot;
  return {
    event,
    at,
    state: moved_to ? ("moved away" as const) : ("cancelled" as const),
    elsewhere: moved_to,
    own: null,
    instants: null,
  };
}

function singleOccurrence(model: EventPageModel, o: PlacedOnPage, shown: EventRecord, zone: string): SingleOccurrence {
  const own = ownSlot(o, zone);
  const date = o.start === null ? o.date : own.date;
  return {
    title: model.title,
    url: model.url,
    timezone: zone,
    layer: o.layer,
    event: {
      ...shown,
      // Its own UID: added on its own, it must not replace the series a subscriber's feed holds.
      id: `${o.event.id}_${date.replaceAll("-", "")}`,
      kind: "one-off",
      date,
      recur: null,
      start_time: o.start === null ? null : own.start_time,
      end_time: o.start === null ? null : own.end_time,
      alarms: o.alarms,
      series_end: undefined,
    },
  };
}
