/**
 * The reader's time zone: `?tz=Area/City` shows a page's times in that zone instead of the
 * calendar's, placed server-side (pages stay free of script). Links between lenses, periods and
 * event pages carry it on. An unknown zone is ignored, and the page says so.
 */
import { DateTime, IANAZone } from "luxon";
import { html, type SafeHtml } from "./html.js";

export interface ReaderZone {
  /** The zone times are shown in: the reader's, else the calendar's. */
  shown: string;
  /** The calendar's own zone. */
  calendar: string;
  /** The `?tz=` the page applies and its links carry; null without one (or an unknown one). */
  tz: string | null;
  /** A `?tz=` that names no zone, to say it was ignored; else null. */
  unknown: string | null;
}

export function readerZone(tz: unknown, calendarZone: string): ReaderZone {
  const base = { shown: calendarZone, calendar: calendarZone, tz: null, unknown: null };
  if (typeof tz !== "string" || tz.trim() === "") return base;
  const asked = tz.trim();
  if (!IANAZone.isValidZone(asked)) return { ...base, unknown: asked };
  // Intl spells the zone canonically ("europe/berlin" -> "Europe/Berlin"), so one zone has one cache key.
  const zone = new Intl.DateTimeFormat("en-US", { timeZone: asked }).resolvedOptions().timeZone;
  return { ...base, shown: zone, tz: zone };
}

/** What a page's cache key needs of the reader's zone. */
export const readerZoneKey = (reader: ReaderZone): string => `${reader.shown}|${reader.unknown ?? ""}`;

/** `&tz=…` (or `?tz=…` with `first`) for a link that keeps the reader's zone; "" without one. */
export function tzParam(reader: Pick<ReaderZone, "tz">, first = false): string {
  if (!reader.tz) return "";
  return `${first ? "?" : "&"}tz=${encodeURIComponent(reader.tz)}`;
}

/** "UTC+1", "UTC−5", "UTC+5:30", "UTC" on `date` in `zone`. */
function offsetWords(zone: string, date: string): string {
  const minutes = DateTime.fromISO(`${date}T12:00`, { zone }).offset;
  if (minutes === 0) return "UTC";
  const sign = minutes > 0 ? "+" : "\u2212";
  const abs = Math.abs(minutes);
  const rest = abs % 60 ? `:${String(abs % 60).padStart(2, "0")}` : "";
  return `UTC${sign}${Math.floor(abs / 60)}${rest}`;
}

/** "Berlin, UTC+1", "New York, UTC−5", "UTC": the zone's city and its offset on `date`. */
export function zoneLabel(zone: string, date: string): string {
  const offset = offsetWords(zone, date);
  if (!zone.includes("/")) return zone === "UTC" ? "UTC" : `${zone}, ${offset}`;
  const city = zone.slice(zone.lastIndexOf("/") + 1).replaceAll("_", " ");
  return `${city}, ${offset}`;
}

/** The page's note that a `?tz=` was not a zone it knows; nothing otherwise. */
export function unknownZoneNote(reader: ReaderZone): SafeHtml | "" {
  if (!reader.unknown) return "";
  return html`<p class="budget-note" role="note">“${reader.unknown}” is not a time zone this page knows, so times \
are in the calendar's zone, ${reader.calendar}. Name a zone as Area/City, such as Europe/Berlin or America/New_York.</p>`;
}

/**
 * The reader's choice of zone: a GET form that keeps the page's lens and date, and a link back
 * to the calendar's zone when another is shown.
 */
export function zoneForm(reader: ReaderZone, keep: Record<string, string>, home: string): SafeHtml {
  const hidden = Object.entries(keep).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  );
  const back = reader.tz ? html` <a href="${home}">Back to the calendar's zone (${reader.calendar})</a>` : "";
  return html`<form class="zone-form" method="get">${hidden}<label for="reader-zone">Show times in</label>\
<input id="reader-zone" type="text" name="tz" value="${reader.shown}" placeholder="Area/City" autocomplete="off" \
spellcheck="false"><button type="submit">Show</button>${back}</form>`;
}
