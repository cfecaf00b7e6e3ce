/** Pieces every lens shares: an event's label (art, name, layer), its times, its colour. */
import { html, trusted, type SafeHtml } from "./html.js";
import type { PageEvent } from "./model.js";

/** Class names for an event: its kind (`is-one-off`, `is-recurring`, `is-someday`) and its category colour. */
export const eventClasses = (event: PageEvent): string =>
  event.colour === null ? `ev is-${event.kind}` : `ev is-${event.kind} cat-${event.colour}`;

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

/** Art, name and layer tag of an event. */
export function eventLabel(event: PageEvent): SafeHtml {
  let label = labels.get(event);
  if (!label) {
    label = html`${artHtml(event.art)}<span class="name">${event.name}</span>${layerTag(event.layer)}`;
    labels.set(event, label);
  }
  return label;
}

/** `<time>` elements for an occurrence's start and end, or "" when untimed. */
export function timesHtml(date: string, event: PageEvent): SafeHtml | string {
  const { start_time: start, end_time: end } = event;
  if (!start) return "";
  const from = html`<time datetime="${date}T${start}">${start}</time>`;
  return end
    ? html`<span class="when">${from}–<time datetime="${date}T${end}">${end}</time></span>`
    : html`<span class="when">${from}</span>`;
}

export const ALL_DAY = trusted('<span class="when all-day">All day</span>');
