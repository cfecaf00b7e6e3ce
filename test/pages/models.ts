/** Plain page models for renderer tests: no store, no clock. */
import { toPageEvent, type PageEvent, type PageModel, type PageOccurrence } from "../../functions/src/pages/model.js";
import { makeEventRecord } from "../helpers/factories.js";

let counter = 0;

/** An event as a page shows it, on the main layer; a category takes the first colour unless `colour` says otherwise. */
export function pageEvent(fields: Partial<PageEvent> & { name: string }): PageEvent {
  const { layer = "main", colour, ...event } = fields;
  const colours = new Map(event.category ? [[event.category, 0]] : []);
  const shown = toPageEvent(makeEventRecord({ id: `evt_${++counter}`, ...event }), layer, colours);
  return colour === undefined ? shown : { ...shown, colour };
}

export const on = (date: string, event: PageEvent): PageOccurrence => ({ date, event });

export function pageModel(fields: Partial<PageModel> = {}): PageModel {
  return {
    kind: "calendar",
    title: "Launch Plan",
    purpose: null,
    links: { purposeMarkdown: "/c/launch-plan/purpose.md", feed: "/c/launch-plan.ics", occurrencesApi: null },
    timezone: "Europe/Paris",
    lens: "month",
    lenses: ["month", "week", "schedule", "timeline"],
    date: "2026-11-24",
    today: "2026-11-24",
    occurrences: [],
    someday: [],
    omitted: { occurrences: 0, someday: 0 },
    noindex: false,
    ...fields,
  };
}
