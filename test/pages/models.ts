/** Plain page models for renderer tests: no store, no clock. */
import type { PageEvent, PageModel, PageOccurrence } from "../../functions/src/pages/model.js";

let counter = 0;

export function pageEvent(fields: Partial<PageEvent> & { name: string }): PageEvent {
  const kind = fields.kind ?? (fields.recur ? "recurring" : fields.date ? "one-off" : "someday");
  return {
    id: `evt_${++counter}`,
    layer: "main",
    kind,
    date: null,
    recur: null,
    start_time: null,
    end_time: null,
    category: null,
    notes: null,
    art: null,
    colour: fields.category ? 0 : null,
    ...fields,
  };
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
