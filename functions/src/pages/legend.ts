/** The legend of a page's categories, and the stylesheet of the owner colours it shows. */
import { ownColoursSheet } from "./colours.js";
import { html, type SafeHtml } from "./html.js";
import type { PageEvent, PageModel } from "./model.js";

/** Every event the page draws: occurrences, those running on from before, vacated slots, someday plans. */
const eventsOn = (model: PageModel): PageEvent[] => [
  ...model.occurrences.map((o) => o.event),
  ...model.continuing.map((o) => o.event),
  ...model.vacated.map((v) => v.event),
  ...model.someday,
];

/** Each category on the page once, by name, with its colour's class. */
function categoriesOn(events: readonly PageEvent[]): Array<{ category: string; colour: string }> {
  const seen = new Map<string, string>();
  for (const { category, colour } of events) if (category !== null && colour !== null) seen.set(category, colour);
  return [...seen].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([category, colour]) => ({ category, colour }));
}

/** "Categories: ● design ● launch"; nothing when the page shows no category. */
export function legendHtml(model: PageModel): SafeHtml | "" {
  const categories = categoriesOn(eventsOn(model));
  if (categories.length === 0) return "";
  const items = categories.map(
    ({ category, colour }) => html`<li><span class="category ${colour}">${category}</span></li>`,
  );
  return html`<section class="legend" aria-labelledby="legend-heading"><h2 id="legend-heading">Categories</h2>\
<ul>${items}</ul></section>`;
}

/** The `<link>` of the owner colours' stylesheet, when any category shown has one. */
export function ownColoursLink(area: "c" | "v", events: readonly PageEvent[]): SafeHtml | "" {
  const sheet = ownColoursSheet(
    area,
    events.map((e) => e.colour),
  );
  return sheet ? html`<link rel="stylesheet" href="${sheet}">\n` : "";
}

export const pageColoursLink = (model: PageModel): SafeHtml | "" =>
  ownColoursLink(model.kind === "calendar" ? "c" : "v", eventsOn(model));
