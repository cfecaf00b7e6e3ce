/** Pieces every lens shares: an event's label (art, name, layer), its times, its colour. */
import { html, trusted } from "./html.js";
export const CATEGORY_COLOURS = 8;
const colourOf = new Map();
/** A stable colour slot for a category name (FNV-1a), so a category looks the same everywhere. */
export function categoryColour(category) {
    let slot = colourOf.get(category);
    if (slot === undefined) {
        let hash = 0x811c9dc5;
        for (let i = 0; i < category.length; i++)
            hash = Math.imul(hash ^ category.charCodeAt(i), 0x01000193);
        slot = (hash >>> 0) % CATEGORY_COLOURS;
        if (colourOf.size < 10_000)
            colourOf.set(category, slot);
    }
    return slot;
}
/** Class names for an event: its kind and its category colour. */
export function eventClasses(event) {
    const colour = event.category ? ` cat-${categoryColour(event.category)}` : "";
    return `ev ${event.kind}${colour}`;
}
/** An https URL to show as an image, or null for emoji and text art. */
export function artImageUrl(art) {
    if (!/^https:\/\//i.test(art))
        return null;
    try {
        const url = new URL(art);
        return url.protocol === "https:" ? url.href : null;
    }
    catch {
        return null;
    }
}
function artHtml(art) {
    if (!art)
        return "";
    const src = artImageUrl(art);
    // Decorative beside the name (alt=""); no referrer leaks the page's address to the image host.
    if (src)
        return html `<img class="art" src="${src}" alt="" width="20" height="20" loading="lazy" decoding="async" referrerpolicy="no-referrer">`;
    return html `<span class="art">${art}</span>`;
}
export function layerTag(layer) {
    return layer === "main" ? "" : html `<span class="layer"><span class="visually-hidden">layer </span>${layer}</span>`;
}
// Rendered once per event and reused for each of its occurrences on the page.
const labels = new WeakMap();
/** Art, name and layer tag of an event. */
export function eventLabel(event) {
    let label = labels.get(event);
    if (!label) {
        label = html `${artHtml(event.art)}<span class="name">${event.name}</span>${layerTag(event.layer)}`;
        labels.set(event, label);
    }
    return label;
}
/** `<time>` elements for an occurrence's start and end, or "" when untimed. */
export function timesHtml(date, event) {
    const { start_time: start, end_time: end } = event;
    if (!start)
        return "";
    const from = html `<time datetime="${date}T${start}">${start}</time>`;
    return end ? html `<span class="when">${from}–<time datetime="${date}T${end}">${end}</time></span>` : html `<span class="when">${from}</span>`;
}
/** A `<time>` element for a date with a visible label. */
export const dateHtml = (date, label) => html `<time datetime="${date}">${label}</time>`;
export const ALL_DAY = trusted('<span class="when all-day">All day</span>');
//# sourceMappingURL=parts.js.map