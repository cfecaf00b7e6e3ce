/** Plain page models for renderer tests: no store, no clock. */
import { subscribeChoices } from "../../functions/src/pages/subscribe-control.js";
import { toPageEvent, type PageEvent, type PageModel, type PageOccurrence } from "../../functions/src/pages/model.js";
import { addDays } from "../../functions/src/domain/recurrence/index.js";
import { makeEventRecord } from "../helpers/factories.js";

let counter = 0;

/** An event as a page shows it, on the main layer; a category takes the first colour unless `colour` says otherwise. */
export function pageEvent(fields: Partial<PageEvent> & { name: string }): PageEvent {
  const { layer = "main", colour, ...event } = fields;
  const shown = toPageEvent(makeEventRecord({ id: `evt_${++counter}`, ...event }), layer, () => "cat-0");
  return colour === undefined ? shown : { ...shown, colour };
}

/**
 * An occurrence of `event` on `date` at the event's own times, as when the page shares the
 * event's zone (an end at or before the start is on the next day); `at` overrides the times.
 */
export function on(
  date: string,
  event: PageEvent,
  at: Partial<Pick<PageOccurrence, "start_time" | "end_time" | "end_date">> = {},
): PageOccurrence {
  const { start_time = event.start_time, end_time = event.end_time } = at;
  const overnight = start_time !== null && end_time !== null && end_time <= start_time;
  const end_date = at.end_date !== undefined ? at.end_date : overnight ? addDays(date, 1) : null;
  const start = start_time === null ? null : Date.parse(`${date}T${start_time}:00Z`);
  return { date, start_time, end_time, end_date, start, event };
}

export function pageModel(fields: Partial<PageModel> = {}): PageModel {
  const zone = fields.timezone ?? "Europe/Paris";
  return {
    reader: { shown: zone, calendar: zone, tz: null, unknown: null },
    locale: null,
    kind: "calendar",
    title: "Launch Plan",
    purpose: null,
    links: {
      purposeMarkdown: "/c/launch-plan/purpose.md",
      feed: "/c/launch-plan.ics",
      url: "https://almanac.example/c/launch-plan",
      subscribe: subscribeChoices("https://almanac.example/c/launch-plan.ics", "Launch Plan"),
      occurrencesApi: null,
    },
    timezone: "Europe/Paris",
    lens: "month",
    lenses: ["month", "week", "schedule", "timeline"],
    date: "2026-11-24",
    today: "2026-11-24",
    occurrences: [],
    continuing: [],
    vacated: [],
    someday: [],
    omitted: { occurrences: 0, someday: 0 },
    elsewhere: null,
    noindex: false,
    ...fields,
  };
}
