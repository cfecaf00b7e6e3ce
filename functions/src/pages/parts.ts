/** Pieces every lens shares: an event's label (art, name, layer), its times, its colour. */
import { html, trusted, type SafeHtml } from "./html.js";
import { daysBetween } from "../domain/recurrence/index.js";
import type { PageEvent, PageOccurrence } from "./model.js";
import { clockTime } from "./locale.js";

/** Class names for an event: its kind (`is-one-off`, `is-recurring`, `is-someday`) and its category colour. */
export const eventClasses = (event: PageEvent): string =>
  event.colour === null ? `ev is-${event.kind}` : `ev is-${event.kind} ${event.colour}`;

/** An https URL to show as an image, or null for emoji and text art. */
export function artImageUrl(art: string): string | null {
  if (!/^https:\/\//i.test(art)) return null;
  try {
    const url = new URL(art);
    return url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

function artHtml(art: string | null): SafeHtml | string {
  if (!art) return "";
  const src = artImageUrl(art);
  // Decorative beside the name (alt=""); no referrer leaks the page's address to the image host.
  if (src)
    return html`<img class="art" src="${src}" alt="" width="20" height="20" decoding="async" referrerpolicy="no-referrer">`;
  return html`<span class="art">${art}</span>`;
}

export function layerTag(layer: string): SafeHtml | string {
  return layer === "main" ? "" : html`<span class="layer"><span class="visually-hidden">layer </span>${layer}</span>`;
}

// Rendered once per event and reused for each of its occurrences on the page.
const labels = new WeakMap<PageEvent, SafeHtml>();

/** Art, name and layer tag of an event; with `href`, the name links to the occurrence's own page. */
export function eventLabel(event: PageEvent, href?: string | null): SafeHtml {
  if (href)
    return html`${artHtml(event.art)}<a class="name-link" href="${href}"><span class="name">${event.name}</span></a>\
${layerTag(event.layer)}`;
  let label = labels.get(event);
  if (!label) {
    label = html`${artHtml(event.art)}<span class="name">${event.name}</span>${layerTag(event.layer)}`;
    labels.set(event, label);
  }
  return label;
}

/** How many days after it starts an occurrence ends, 0 when on its date or at the next midnight. */
function daysLater(o: PageTimes): number {
  if (o.end_date === null) return 0;
  const days = daysBetween(o.date, o.end_date);
  return o.end_time === "00:00" ? days - 1 : days;
}

/** What the time labels need of an occurrence (pages show times in the page calendar's zone). */
export type PageTimes = Pick<PageOccurrence, "date" | "start_time" | "end_time" | "end_date">;

/**
 * `<time>` elements for an occurrence's start and end ("+1" when it ends the next day), or ""
 * when untimed. `endApart` wraps the end in `<span class="until">`, which the stylesheet may hide.
 */
export function timesHtml(o: PageTimes, endApart = false): SafeHtml | string {
  const { start_time: start, end_time: end } = o;
  if (!start) return "";
  const from = html`<time datetime="${o.date}T${start}">${clockTime(start)}</time>`;
  if (!end) return html`<span class="when">${from}</span>`;
  const later = daysLater(o);
  const mark =
    later > 0
      ? html`<abbr class="next-day" title="${later === 1 ? "the next day" : `${later} days later`}">+${later}</abbr>`
      : "";
  const until = html`–<time datetime="${o.end_date ?? o.date}T${end}">${clockTime(end)}</time>${mark}`;
  return html`<span class="when">${from}${endApart ? html`<span class="until">${until}</span>` : until}</span>`;
}

/** "09:30–10:30 Standup · layer design": the whole label as plain text, for a `title` where a chip is cut. */
export function plainLabel(o: PageTimes, event: PageEvent): string {
  const later = o.start_time && o.end_time ? daysLater(o) : 0;
  const times = o.start_time
    ? `${o.start_time}${o.end_time ? `–${o.end_time}${later > 0 ? ` (+${later})` : ""}` : ""} `
    : "";
  return `${times}${event.name}${event.layer === "main" ? "" : ` · layer ${event.layer}`}`;
}

export const ALL_DAY = trusted('<span class="when all-day">All day</span>');
