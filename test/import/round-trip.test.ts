/**
 * Import reads back what Almanac's feeds write: every calendar of the feed corpus
 * (test/pages/ics-corpus.ts: six zones, DST gaps and overlaps, month ends, every frequency,
 * until and count edges, moved, changed and cancelled occurrences), its `.ics` feed imported
 * into an empty calendar of the same zone, gives the same occurrences over two years, and the
 * same entries on the month, week, schedule and timeline pages; a second import changes nothing.
 */
import type { Express } from "express";
import request from "supertest";
import { beforeEach, describe, expect, it } from "vitest";
import { createPagesApp } from "../../functions/src/pages/app.js";
import { appPerTest } from "../helpers/app.js";
import { allOccurrences, buildCorpusCalendar, feedText, type ApiOccurrence } from "../helpers/corpus-calendars.js";
import { mintAgent, newCalendar, type MintedAgent } from "../helpers/factories.js";
import { get, post } from "../helpers/http.js";
import { CORPUS_FROM, CORPUS_TO, CORPUS_ZONES } from "../pages/ics-corpus.js";

const t = appPerTest();
let pages: Express;
beforeEach(() => {
  pages = createPagesApp(t.deps);
});

/** An occurrence without the ids that differ between the two calendars. */
const lineOf = (o: ApiOccurrence): string =>
  [o.original_date, o.date, o.end_date, o.start ?? "all-day", o.end ?? "-", o.name, o.category ?? "-"].join(" | ");

const importFeed = (owner: MintedAgent, calendarId: string, text: string) =>
  post(t, `/v1/calendars/${calendarId}/import`, owner.auth).set("Content-Type", "text/calendar").send(text);

/**
 * What a page shows of its events, whatever order it lists events at one instant in: every
 * entry's title (time and name) and the occurrence each links to, sorted.
 */
async function entriesOf(slug: string, query: string): Promise<string[]> {
  const res = await request(pages).get(`/c/${slug}?${query}`).expect(200);
  const titles = [...res.text.matchAll(/<li class="ev[^"]*"[^>]*title="([^"]*)"/g)].map((m) => `title ${m[1]}`);
  const links = [...res.text.matchAll(/href="\/c\/[^/]+\/e\/evt_[A-Za-z0-9]+\/([0-9-]+)"/g)].map((m) => `link ${m[1]}`);
  return [...titles, ...links].sort();
}

describe("importing Almanac's own feeds", () => {
  it(
    "gives the same occurrences and pages in every zone of the feed corpus, and again nothing new",
    { timeout: 300_000 },
    async () => {
      const owner = await mintAgent(t, "Round trip");
      let compared = 0;
      for (const z of CORPUS_ZONES) {
        const source = await buildCorpusCalendar(t, owner, z);
        const copy = await newCalendar(t, owner, { name: `Copy ${z.zone}`, timezone: z.zone, visibility: "public" });
        const text = await feedText(pages, source.slug);

        const first = await importFeed(owner, copy.id, text).expect(200);
        expect(first.body, z.zone).toEqual({
          created: source.events,
          updated: 0,
          unchanged: 0,
          deleted: 0,
          skipped: [],
        });

        const [original, imported] = await Promise.all([
          allOccurrences(t, owner, source.calendarId, CORPUS_FROM, CORPUS_TO),
          allOccurrences(t, owner, copy.id, CORPUS_FROM, CORPUS_TO),
        ]);
        // Occurrences at one instant are listed in their events' creation order, which the import does not keep.
        expect(imported.occurrences.map(lineOf).sort(), z.zone).toEqual(original.occurrences.map(lineOf).sort());
        compared += original.occurrences.length;

        for (const query of [
          "view=month&date=2027-03-15",
          "view=week&date=2027-10-31",
          "view=schedule&date=2027-04-01",
          "view=timeline&date=2027-01-01",
        ]) {
          const [a, b] = await Promise.all([entriesOf(source.slug, query), entriesOf(copy.slug, query)]);
          expect(a.length, `${z.zone} ${query}`).toBeGreaterThan(0);
          expect(b, `${z.zone} ${query}`).toEqual(a);
        }

        const again = await importFeed(owner, copy.id, text).expect(200);
        expect(again.body, z.zone).toEqual({
          created: 0,
          updated: 0,
          unchanged: source.events,
          deleted: 0,
          skipped: [],
        });
        const events = await get(t, `/v1/calendars/${copy.id}/events?limit=200`, owner.auth).expect(200);
        expect(events.body.events.every((e: { ical_uid: string | null }) => e.ical_uid !== null)).toBe(true);
      }
      console.log(`import round trip: ${CORPUS_ZONES.length} zones, ${compared} occurrences compared, 0 differences`);
    },
  );
});
