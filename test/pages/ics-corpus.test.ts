/**
 * Issue 12's independent check of the feeds: for every calendar of the corpus (ics-corpus.ts:
 * six zones, and a New York calendar with two of them as layers), its `.ics` feed, fetched over
 * HTTP and expanded by ical.js (helpers/ics-oracle.ts), gives exactly the occurrences of
 * `GET /occurrences` over two years, paged through: the same events, dates, original dates,
 * names, categories, and start and end instants to the millisecond.
 */
import type { Express } from "express";
import { Temporal } from "temporal-polyfill";
import { beforeEach, describe, expect, it } from "vitest";
import { createPagesApp } from "../../functions/src/pages/app.js";
import { appPerTest } from "../helpers/app.js";
import { attachLayer, mintAgent, newCalendar, newEvent, newView } from "../helpers/factories.js";
import { expandFeed, type FeedOccurrence } from "../helpers/ics-oracle.js";
import {
  allOccurrences,
  buildCorpusCalendar,
  feedText,
  type ApiOccurrence,
  type BuiltCalendar,
} from "../helpers/corpus-calendars.js";
import { CORPUS_FROM, CORPUS_TO, CORPUS_ZONES, plus } from "./ics-corpus.js";

const t = appPerTest();
let feeds: Express;
beforeEach(() => {
  feeds = createPagesApp(t.deps);
});

/** One occurrence as one comparable line. */
const lineOf = (o: {
  eventId: string;
  layer: string;
  date: string;
  originalDate: string;
  start: number | null;
  end: number | null;
  name: string;
  category: string | null;
}): string =>
  [
    o.eventId,
    o.layer,
    o.originalDate,
    o.date,
    o.start === null ? "all-day" : new Date(o.start).toISOString(),
    o.end === null ? "-" : new Date(o.end).toISOString(),
    o.name,
    o.category ?? "-",
  ].join(" | ");

const fromApi = (o: ApiOccurrence): string =>
  lineOf({
    eventId: o.event_id,
    layer: o.layer,
    date: o.date,
    originalDate: o.original_date,
    start: o.start === null ? null : Date.parse(o.start),
    end: o.end === null ? null : Date.parse(o.end),
    name: o.name,
    category: o.category,
  });

const fromFeed = (o: FeedOccurrence): string => lineOf(o);

/** What one list has that the other has not, as multisets. */
function difference(a: string[], b: string[]): string[] {
  const left = new Map<string, number>();
  for (const line of b) left.set(line, (left.get(line) ?? 0) + 1);
  const extra: string[] = [];
  for (const line of a) {
    const n = left.get(line) ?? 0;
    if (n > 0) left.set(line, n - 1);
    else extra.push(line);
  }
  return extra;
}

/** Whether HH:MM on `date` is skipped (gap) or repeated (overlap) in `zone`, as Intl's data has it. */
function dstKind(zone: string, date: string, time: string): "gap" | "overlap" | "plain" {
  const local = Temporal.PlainDateTime.from(`${date}T${time}`);
  const earlier = local.toZonedDateTime(zone, { disambiguation: "earlier" });
  const later = local.toZonedDateTime(zone, { disambiguation: "later" });
  if (earlier.epochMilliseconds === later.epochMilliseconds) return "plain";
  return earlier.toPlainDateTime().equals(local) ? "overlap" : "gap";
}

describe("the feed corpus (issue 12)", () => {
  it("has its DST edges where the zones have them", () => {
    for (const z of CORPUS_ZONES.filter((c) => c.observesDst)) {
      for (const date of z.gap.dates) expect(dstKind(z.zone, date, z.gap.time), `${z.zone} ${date}`).toBe("gap");
      for (const date of z.overlap.dates)
        expect(dstKind(z.zone, date, z.overlap.time), `${z.zone} ${date}`).toBe("overlap");
      // The hour before the gap time, and the gap time's end, are ordinary.
      expect(dstKind(z.zone, z.gap.dates[0], plus(z.gap.time, -60))).toBe("plain");
    }
  });

  it(
    "expands every calendar's feed, with an iCalendar library we did not write, to exactly its /occurrences",
    { timeout: 300_000 },
    async () => {
      const owner = await mintAgent(t, "Corpus keeper");
      const built: BuiltCalendar[] = [];
      for (const z of CORPUS_ZONES) built.push(await buildCorpusCalendar(t, owner, z));

      // A New York calendar with Berlin and Chatham as layers: one feed, three zones.
      const host = await newCalendar(t, owner, {
        name: "Corpus host",
        timezone: "America/New_York",
        visibility: "public",
      });
      await newEvent(t, owner, host.id, {
        name: "Host standup",
        recur: { type: "weekly", day: [1, 3, 5], starts: "2027-01-01" },
        start_time: "09:30",
        end_time: "09:45",
      });
      await newEvent(t, owner, host.id, {
        name: "Host night shift",
        recur: { type: "daily", starts: "2027-03-10", until: "2027-03-20" },
        start_time: "23:00",
        end_time: "07:00",
      });
      await attachLayer(t, owner, host.id, built[0].calendarId, "berlin");
      await attachLayer(t, owner, host.id, built[3].calendarId, "chatham");
      const layered: BuiltCalendar = {
        name: "America/New_York + Berlin and Chatham layers",
        calendarId: host.id,
        slug: host.slug,
        events: 2,
        series: 2,
        exceptions: 0,
      };

      let occurrences = 0;
      let instants = 0;
      let atDstEdges = 0;
      let icalJsOff = 0;
      let pages = 0;
      let viewOccurrences = 0;
      for (const calendar of [...built, layered]) {
        const text = await feedText(feeds, calendar.slug);
        expect(text.endsWith("END:VCALENDAR\r\n")).toBe(true);
        const feed = expandFeed(text, CORPUS_FROM, CORPUS_TO);
        const api = await allOccurrences(t, owner, calendar.calendarId, CORPUS_FROM, CORPUS_TO);
        const feedLines = feed.occurrences.map(fromFeed);
        const apiLines = api.occurrences.map(fromApi);
        expect(
          {
            missingFromFeed: difference(apiLines, feedLines).slice(0, 20),
            notInApi: difference(feedLines, apiLines).slice(0, 20),
          },
          calendar.name,
        ).toEqual({ missingFromFeed: [], notInApi: [] });
        expect(feedLines.length, calendar.name).toBe(apiLines.length);
        occurrences += apiLines.length;
        instants += api.occurrences.reduce((n, o) => n + (o.start === null ? 0 : 1) + (o.end === null ? 0 : 1), 0);
        atDstEdges += feed.atDstEdges;
        icalJsOff += feed.icalJsOffAtDstEdges;
        pages += api.pages;
      }

      // Share views cut the series to their dates (COUNT becomes UNTIL, a moved DTSTART, occurrences
      // moved in or out): their feeds give /occurrences of exactly those dates.
      const cuts: Array<[BuiltCalendar, string, string]> = [
        [built[0], "2027-03-20", "2027-10-31"],
        [built[3], "2027-02-03", "2028-04-02"],
        [built[5], "2027-05-05", "2027-12-30"],
      ];
      for (const [calendar, from, to] of cuts) {
        const view = await newView(t, owner, calendar.calendarId, { name: `Cut ${from}`, filter: { from, to } });
        const feed = expandFeed(await feedText(feeds, view.slug, "v"), CORPUS_FROM, CORPUS_TO);
        const api = await allOccurrences(t, owner, calendar.calendarId, from, to);
        const feedLines = feed.occurrences.map(fromFeed);
        const apiLines = api.occurrences.map(fromApi);
        const name = `${calendar.name} view ${from}..${to}`;
        expect(
          {
            missingFromFeed: difference(apiLines, feedLines).slice(0, 20),
            notInApi: difference(feedLines, apiLines).slice(0, 20),
          },
          name,
        ).toEqual({ missingFromFeed: [], notInApi: [] });
        viewOccurrences += apiLines.length;
      }

      const calendars = built.length + 1;
      const events = [...built, layered].reduce((n, c) => n + c.events, 0);
      const series = [...built, layered].reduce((n, c) => n + c.series, 0);
      const exceptions = built.reduce((n, c) => n + c.exceptions, 0);
      console.log(
        `ics corpus: ${calendars} calendars (${CORPUS_ZONES.map((z) => z.zone).join(", ")}, and a New York host ` +
          `with two of them as layers, compared again through it), ${events} events (${series} series, ` +
          `${events - series} one-off), ` +
          `${exceptions} exceptions; ${CORPUS_FROM}..${CORPUS_TO}: ${occurrences} occurrences compared ` +
          `(${instants} start and end instants, ${pages} pages of /occurrences), 0 differences; ` +
          `${atDstEdges} starts at a DST gap or overlap, of which ical.js alone would misplace ${icalJsOff}; ` +
          `and ${cuts.length} share views' feeds (${viewOccurrences} occurrences), 0 differences`,
      );
      // The corpus does reach the edges it is about.
      expect(atDstEdges).toBeGreaterThan(100);
    },
  );
});
