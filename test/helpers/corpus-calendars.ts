/**
 * The feed corpus's calendars (test/pages/ics-corpus.ts) as the API builds them, their feeds as
 * the pages app serves them, and their occurrences as `/occurrences` answers them, paged
 * through: shared by the feed check (test/pages/ics-corpus.test.ts) and the import round trip
 * (test/import/round-trip.test.ts).
 */
import type { Express } from "express";
import { expect } from "vitest";
import { corpusEvents, type CorpusZone } from "../pages/ics-corpus.js";
import type { TestApp } from "./app.js";
import { newCalendar, newEvent, type MintedAgent } from "./factories.js";
import { get, getText, patch } from "./http.js";

export interface ApiOccurrence {
  event_id: string;
  layer: string;
  date: string;
  end_date: string;
  original_date: string;
  start: string | null;
  end: string | null;
  name: string;
  category: string | null;
}

/** Every occurrence in [from, to] through `/occurrences`: one request per year at most, each paged through. */
export async function allOccurrences(
  t: Pick<TestApp, "app">,
  owner: MintedAgent,
  calendarId: string,
  from: string,
  to: string,
) {
  const found: ApiOccurrence[] = [];
  let pages = 0;
  for (const [lo, hi] of yearWindows(from, to)) {
    let cursor: string | null = null;
    do {
      const query = `from=${lo}&to=${hi}&limit=400${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const res = await get(t, `/v1/calendars/${calendarId}/occurrences?${query}`, owner.auth).expect(200);
      found.push(...(res.body.occurrences as ApiOccurrence[]));
      cursor = res.body.next_cursor as string | null;
      pages++;
    } while (cursor !== null);
  }
  return { occurrences: found, pages };
}

/** [from, to] cut into windows of one calendar year (the API's range is at most 366 days). */
function yearWindows(from: string, to: string): Array<[string, string]> {
  const windows: Array<[string, string]> = [];
  for (let year = Number(from.slice(0, 4)); year <= Number(to.slice(0, 4)); year++) {
    const lo = `${year}-01-01` < from ? from : `${year}-01-01`;
    const hi = `${year}-12-31` > to ? to : `${year}-12-31`;
    windows.push([lo, hi]);
  }
  return windows;
}

/** A calendar's (`c`) or share view's (`v`) feed as the pages app serves it, whole. */
export async function feedText(feeds: Express, slug: string, kind: "c" | "v" = "c"): Promise<string> {
  const { res, text } = await getText(feeds, `/${kind}/${slug}.ics`);
  expect(res.status).toBe(200);
  expect(res.headers["x-almanac-events-omitted"]).toBeUndefined();
  return text;
}

export interface BuiltCalendar {
  name: string;
  calendarId: string;
  slug: string;
  events: number;
  series: number;
  exceptions: number;
}

/** A public calendar in the zone holding the corpus's events and exceptions, written through the API. */
export async function buildCorpusCalendar(
  t: Pick<TestApp, "app">,
  owner: MintedAgent,
  z: CorpusZone,
): Promise<BuiltCalendar> {
  const calendar = await newCalendar(t, owner, { name: `Corpus ${z.zone}`, timezone: z.zone, visibility: "public" });
  const built: BuiltCalendar = {
    name: z.zone,
    calendarId: calendar.id,
    slug: calendar.slug,
    events: 0,
    series: 0,
    exceptions: 0,
  };
  for (const spec of corpusEvents(z)) {
    const event = await newEvent(t, owner, calendar.id, { name: spec.name, ...spec.body });
    built.events++;
    if (spec.body.recur) built.series++;
    for (const { date, change } of spec.exceptions ?? []) {
      const path = `/v1/calendars/${calendar.id}/events/${event.id}/occurrences/${date}`;
      const res = await patch(t, path, owner.auth).send(change);
      expect(res.status, `${z.zone} ${spec.name} ${date}: ${JSON.stringify(res.body)}`).toBe(200);
      built.exceptions++;
    }
  }
  return built;
}
