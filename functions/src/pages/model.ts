/**
 * The page model: everything a public page shows, as plain data. The loader builds it from
 * the store; the renderers turn it into HTML and never read the store themselves.
 */
import type { EventRecord } from "../domain/records.js";
import type { Lens } from "../domain/types.js";
import type { PlacedSlot } from "./changes.js";
import type { SubscribeChoices } from "./subscribe-control.js";
import type { ReaderZone } from "./reader-zone.js";

/** An event as pages show it; `layer` is `main` for the calendar's own, else the layer key. */
export type PageEvent = Pick<
  EventRecord,
  "id" | "kind" | "name" | "date" | "recur" | "start_time" | "end_time" | "category" | "notes" | "art"
> & {
  layer: string;
  /** The class that colours its category (pages/colours.ts), null without a category. */
  colour: string | null;
};

/**
 * One dated happening of a one-off or recurring event, placed in the page calendar's timezone
 * by its instant (pages/placement.ts): a layer event from another zone shows the page's local
 * time, and moves to the neighbouring date when its instant falls there. An all-day one keeps
 * its own date.
 */
export interface PageOccurrence {
  /** The local date it starts on in the page's zone. */
  date: string;
  /** HH:MM in the page's zone; null when it has no time (`end_time` also when it has no end). */
  start_time: string | null;
  end_time: string | null;
  /** The date it ends on when that is later than `date` (it runs past midnight); else null. */
  end_date: string | null;
  /** Its start instant (UTC epoch ms), null when untimed: the order within a day. */
  start: number | null;
  /** Name, category and notes as shown: the occurrence's own when an exception changed them. */
  event: PageEvent;
  /** Where the series had it, when an exception moved it (pages/changes.ts); absent otherwise. */
  moved_from?: PlacedSlot;
}

/**
 * The slot a series' occurrence left, drawn struck through: it was cancelled, or moved to
 * `moved_to` (both in the page's zone).
 */
export interface VacatedSlot extends PlacedSlot {
  event: PageEvent;
  moved_to: PlacedSlot | null;
}

/** The nearest occurrence outside the period: where a page with nothing in it points. */
export interface NearbyOccurrence {
  date: string;
  name: string;
}

/** Set only when the period shows nothing dated: the nearest occurrences after and before it. */
export interface Elsewhere {
  next: NearbyOccurrence | null;
  previous: NearbyOccurrence | null;
}

export interface PageModel {
  kind: "calendar" | "view";
  /** The calendar's name, or the share view's name. */
  title: string;
  /** Markdown; calendar pages only (a view never reveals its calendar's purpose). */
  purpose: string | null;
  /**
   * Same-origin paths of the page's alternate formats, and (calendar pages only) the API call
   * that lists every occurrence of the period.
   */
  links: {
    purposeMarkdown: string | null;
    feed: string | null;
    /** The feed's absolute address and calendar apps' ways to subscribe to it (the API's `subscribe`). */
    subscribe: SubscribeChoices | null;
    /** The page's absolute address (its Open Graph url and embed snippet); absent where it is not shared. */
    url?: string | null;
    occurrencesApi: string | null;
    /**
     * The path each occurrence's own page is under (`/c/{slug}/e`, `/v/{slug}/e`), followed by
     * `/{eventId}/{date}`; absent or null where those pages would answer 404 (a signed-in human's private calendar).
     */
    eventPages?: string | null;
    /** Where a signed-in human came from (an agent's calendar opened from the account page). */
    back?: { href: string; label: string };
  };
  /** The zone every time is shown in: the reader's `?tz=`, else the calendar's. */
  timezone: string;
  /** The reader's choice of zone (pages/reader-zone.ts): what links carry on and the page says. */
  reader: ReaderZone;
  /** The locale its dates are written in (pages/locale.ts); null for the pages' English. */
  locale: string | null;
  lens: Lens;
  /** Allowed lenses, in canonical order. */
  lenses: Lens[];
  /** The date the page was asked for (or today), and today in the calendar's timezone. */
  date: string;
  today: string;
  /** Occurrences starting within the lens's period, by date, then start instant (untimed first). */
  occurrences: PageOccurrence[];
  /** Occurrences that start before the period and still run in it (Month and Week draw their rest). */
  continuing: PageOccurrence[];
  /** Slots of the period that cancelled or moved occurrences left (Month, Week and Schedule mark them). */
  vacated: VacatedSlot[];
  /** Undated events; shown by the schedule and timeline lenses. */
  someday: PageEvent[];
  /** What the page's budgets (budgets.ts) left undrawn: occurrences of the period, someday events. */
  omitted: { occurrences: number; someday: number };
  /** Where the nearest occurrences are when the period has none (pages/elsewhere.ts); else null. */
  elsewhere: Elsewhere | null;
  /** Unlisted calendars and share views: keep out of search engines. */
  noindex: boolean;
}

export const toPageEvent = (event: EventRecord, layer: string, colourOf: (category: string) => string): PageEvent => ({
  id: event.id,
  layer,
  kind: event.kind,
  name: event.name,
  date: event.date,
  recur: event.recur,
  start_time: event.start_time,
  end_time: event.end_time,
  category: event.category,
  notes: event.notes,
  art: event.art,
  colour: event.category === null ? null : colourOf(event.category),
});
