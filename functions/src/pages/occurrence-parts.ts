/**
 * What lenses add to an occurrence: the link to its own page (pages/event-page.ts), where a
 * moved one came from, and the struck-through entry a cancelled or moved one leaves in its slot.
 */
import { weekdayDayMonth } from "./format.js";
import { html, type SafeHtml } from "./html.js";
import type { PageModel, PageOccurrence, VacatedSlot } from "./model.js";
import type { PlacedSlot } from "./changes.js";
import { layerTag, timesHtml } from "./parts.js";
import { tzParam } from "./reader-zone.js";

type Linked = Pick<PageModel, "links" | "reader">;

/** The path of an occurrence's own page, or null where the page links none (a private calendar). */
export function occurrenceHref(model: Linked, eventId: string, date: string): string | null {
  const base = model.links.eventPages;
  return base ? `${base}/${encodeURIComponent(eventId)}/${date}${tzParam(model.reader, true)}` : null;
}

/** A vacated slot is drawn in a lens's lists beside occurrences; this tells them apart. */
export const isVacated = (o: PageOccurrence | VacatedSlot): o is VacatedSlot => "moved_to" in o;

/** "Tue 8 Dec 10:00", or "10:00" when on `day`, or "Tue 8 Dec" when untimed. */
export function slotWords(slot: PlacedSlot, day: string | null): string {
  const date = slot.date === day && slot.start_time ? "" : weekdayDayMonth(slot.date);
  return [date, slot.start_time ?? ""].filter(Boolean).join(" ");
}

/** "moved from Tue 8 Dec" under a moved occurrence's name; nothing for others. */
export function movedFromHtml(o: PageOccurrence): SafeHtml | "" {
  if (!o.moved_from) return "";
  return html`<span class="moved-from">moved from ${slotWords(o.moved_from, o.date)}</span>`;
}

/**
 * A slot an occurrence left: its times and name struck through, then "Cancelled" or "moved to …",
 * which links to the occurrence's page (where it went, for a moved one).
 */
export function vacatedHtml(model: Linked, v: VacatedSlot, withTimes = true): SafeHtml {
  const target = v.moved_to ?? v;
  const href = occurrenceHref(model, v.event.id, target.date);
  const words = v.moved_to ? `moved to ${slotWords(v.moved_to, v.date)}` : "Cancelled";
  const status = href
    ? html`<a class="change" href="${href}">${words}</a>`
    : html`<span class="change">${words}</span>`;
  return html`${withTimes ? timesHtml(v) : ""}<s class="name">${v.event.name}</s>${layerTag(v.event.layer)} ${status}`;
}

/** Occurrences and vacated slots in one list, by date, then start (untimed first); stable. */
export function withVacated(
  occurrences: readonly PageOccurrence[],
  vacated: readonly VacatedSlot[],
): Array<PageOccurrence | VacatedSlot> {
  if (vacated.length === 0) return [...occurrences];
  const at = (o: PageOccurrence) => o.start ?? Number.MIN_SAFE_INTEGER;
  return [...occurrences, ...vacated].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : at(a) - at(b)));
}
