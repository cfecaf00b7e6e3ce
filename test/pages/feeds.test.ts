/**
 * `/c/{slug}.ics` and `/v/{slug}.ics`, read back with an independent parser (node-ical, whose
 * RRULE expansion is rrule-temporal): events, times and zones, series compared with the
 * API's own occurrences, someday events absent, caching headers, 404s and the old-slug 308.
 */
import type { Express } from "express";
import ical, { type VEvent } from "node-ical";
import request from "supertest";
import { beforeEach, describe, expect, it } from "vitest";
import { createPagesApp } from "../../functions/src/pages/app.js";
import { appPerTest } from "../helpers/app.js";
import { del, getText, patch, post } from "../helpers/http.js";
import { grantRole, mintAgent, newCalendar, newEvent, type MintedAgent } from "../helpers/factories.js";
import { expandFeed } from "../helpers/ics-oracle.js";

const t = appPerTest();
let feeds: Express;
beforeEach(() => {
  feeds = createPagesApp(t.deps);
});

interface Occ {
  event_id: string;
  date: string;
  original_date: string;
  start: string | null;
  end: string | null;
}

async function occurrences(calendarId: string, from: string, to: string): Promise<Occ[]> {
  const res = await request(t.app).get(`/v1/calendars/${calendarId}/occurrences?from=${from}&to=${to}`).expect(200);
  return res.body.occurrences;
}

function parse(text: string) {
  const data = ical.sync.parseICS(text);
  const events = Object.values(data).filter((c): c is VEvent => c?.type === "VEVENT");
  const byName = (name: string) => {
    const found = events.find((e) => e.summary === name);
    const names = events.map((e) => (typeof e.summary === "string" ? e.summary : e.summary.val));
    if (!found) throw new Error(`no event ${name} in feed: ${names.join(", ")}`);
    return found;
  };
  return { data, events, byName };
}

/** Occurrence instants of a parsed series in [from, to], as ISO strings. */
const expand = (event: VEvent, from: string, to: string): string[] =>
  event.rrule!.between(new Date(from), new Date(to), true).map((d) => d.toISOString());

const iso = (s: string) => new Date(s).toISOString();

describe("GET /c/{slug}.ics", () => {
  let owner: MintedAgent;
  let calendarId: string;
  let slug: string;

  beforeEach(async () => {
    owner = await mintAgent(t, "Planner", { calendar: { name: "Launch, Q1; plan", timezone: "Europe/Berlin" } });
    calendarId = owner.calendarId;
    slug = owner.calendarSlug;
  });

  it("serves one-off, recurring and all-day events with zones, and leaves someday events out", async () => {
    await newEvent(t, owner, calendarId, { name: "Launch day", date: "2026-12-01" });
    await newEvent(t, owner, calendarId, {
      name: "Review",
      date: "2026-12-02",
      start_time: "09:30",
      end_time: "10:15",
      category: "ops",
      notes: "Bring the numbers,\nand the plan.",
    });
    const standup = await newEvent(t, owner, calendarId, {
      name: "Standup",
      recur: { type: "weekly", day: 1, starts: "2026-11-23", until: "2027-04-26" },
      start_time: "10:00",
      end_time: "10:30",
    });
    const monthEnd = await newEvent(t, owner, calendarId, {
      name: "Month end",
      recur: { type: "monthly", day: -1, starts: "2026-11-01" },
    });
    await newEvent(t, owner, calendarId, { name: "Someday idea" });

    const { res, text } = await getText(feeds, `/c/${slug}.ics`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/calendar; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("no-cache");
    expect(res.headers["access-control-allow-origin"]).toBe("*");
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(res.headers["x-robots-tag"]).toBe("noindex"); // minted calendars are unlisted

    const { data, events, byName } = parse(text);
    expect(data.vcalendar?.["WR-CALNAME"]).toBe("Launch, Q1; plan");
    expect(events.map((e) => e.summary).sort()).toEqual(["Launch day", "Month end", "Review", "Standup"]);
    expect(text).not.toContain("Someday idea");

    // All-day: DATE values, the next day as exclusive end.
    const launch = byName("Launch day");
    expect(launch.datetype).toBe("date");
    expect(text).toContain("DTSTART;VALUE=DATE:20261201");
    expect(text).toContain("DTEND;VALUE=DATE:20261202");

    // Timed: local time with the calendar's TZID, and a VTIMEZONE for it.
    const review = byName("Review");
    expect(review.datetype).toBe("date-time");
    expect(text).toContain("DTSTART;TZID=Europe/Berlin:20261202T093000");
    expect(iso(review.start as unknown as string)).toBe("2026-12-02T08:30:00.000Z");
    expect(iso(review.end as unknown as string)).toBe("2026-12-02T09:15:00.000Z");
    expect(review.categories).toEqual(["ops"]);
    expect(review.description).toBe("Bring the numbers,\nand the plan.");
    expect(text).toMatch(/BEGIN:VTIMEZONE\r\nTZID:Europe\/Berlin\r\n/);
    expect(
      Object.values(data).some((c) => c?.type === "VTIMEZONE" && (c as { tzid: string }).tzid === "Europe/Berlin"),
    ).toBe(true);

    // A weekly series across the March 2027 change to summer time: the parser's expansion
    // of our RRULE gives exactly the API's occurrences, instant for instant.
    const series = byName("Standup");
    expect(text).toMatch(/RRULE:FREQ=WEEKLY;BYDAY=MO;WKST=MO;UNTIL=\d{8}T\d{6}Z/);
    const fromApi = (await occurrences(calendarId, "2026-11-01", "2027-06-30")).filter(
      (o) => o.event_id === standup.id,
    );
    expect(fromApi).toHaveLength(23);
    expect(expand(series, "2026-11-01T00:00:00Z", "2027-06-30T00:00:00Z")).toEqual(fromApi.map((o) => iso(o.start!)));
    expect(fromApi.at(-1)!.start).toBe("2027-04-26T10:00:00+02:00");

    // An untimed monthly series: DATE start, the same dates as the API.
    const monthly = byName("Month end");
    expect(monthly.datetype).toBe("date");
    const monthDates = (await occurrences(calendarId, "2026-11-01", "2027-10-31"))
      .filter((o) => o.event_id === monthEnd.id)
      .map((o) => o.date);
    const parsedDates = expand(monthly, "2026-11-01T00:00:00Z", "2027-10-31T00:00:00Z").map((d) => d.slice(0, 10));
    expect(parsedDates).toEqual(monthDates);
    expect(parsedDates.slice(0, 4)).toEqual(["2026-11-30", "2026-12-31", "2027-01-31", "2027-02-28"]);
  });

  it("raises SEQUENCE when a time changes, and writes exceptions as EXDATE and RECURRENCE-ID overrides", async () => {
    const series = await newEvent(t, owner, calendarId, {
      name: "Night job",
      recur: { type: "daily", starts: "2027-03-26", until: "2027-03-31" },
      start_time: "02:30",
      end_time: "03:00",
    });
    const sequences = async () => (await getText(feeds, `/c/${slug}.ics`)).text.match(/\r\nSEQUENCE:\d+/g);
    expect(await sequences()).toEqual(["\r\nSEQUENCE:0"]);
    const eventPath = `/v1/calendars/${calendarId}/events/${series.id}`;
    await patch(t, eventPath, owner.auth).send({ name: "Night batch" }).expect(200);
    expect(await sequences()).toEqual(["\r\nSEQUENCE:0"]); // a new name is no new time
    await patch(t, eventPath, owner.auth).send({ end_time: "03:15" }).expect(200);
    expect(await sequences()).toEqual(["\r\nSEQUENCE:1"]);

    const occurrence = (date: string) => `${eventPath}/occurrences/${date}`;
    await patch(t, occurrence("2027-03-27"), owner.auth).send({ cancelled: true }).expect(200);
    await patch(t, occurrence("2027-03-29"), owner.auth).send({ start_time: "22:00", end_time: "01:00" }).expect(200);
    const { text } = await getText(feeds, `/c/${slug}.ics`);
    expect(text.endsWith("END:VCALENDAR\r\n")).toBe(true);
    const lines = text.split("\r\n");
    expect(lines).toContain("EXDATE;TZID=Europe/Berlin:20270327T023000");
    expect(lines).toContain("RECURRENCE-ID;TZID=Europe/Berlin:20270329T023000");
    expect(lines.filter((l) => l.startsWith("DURATION:"))).toEqual(["DURATION:PT45M", "DURATION:PT180M"]);
    expect(lines.filter((l) => l.startsWith("SEQUENCE:"))).toEqual(["SEQUENCE:1", "SEQUENCE:2"]);
    expect(text).not.toMatch(/\r\nDTEND[;:]/);

    // What a client expands is what /occurrences says, ends included (02:30 does not exist on the 28th).
    const expanded = expandFeed(text, "2027-03-01", "2027-04-30").occurrences;
    const api = (await occurrences(calendarId, "2027-03-01", "2027-04-30")).filter((o) => o.event_id === series.id);
    expect(
      expanded.map((o) => [o.date, iso(new Date(o.start!).toISOString()), iso(new Date(o.end!).toISOString())]),
    ).toEqual(api.map((o) => [o.date, iso(o.start!), iso(o.end!)]));
    expect(api.map((o) => o.start)).toEqual([
      "2027-03-26T02:30:00+01:00",
      "2027-03-28T03:30:00+02:00",
      "2027-03-29T22:00:00+02:00",
      "2027-03-30T02:30:00+02:00",
      "2027-03-31T02:30:00+02:00",
    ]);
  });

  it("answers 304 to a matching If-None-Match, and a new ETag once the calendar changes", async () => {
    await newEvent(t, owner, calendarId, { name: "First", date: "2026-12-01" });
    const first = await request(feeds).get(`/c/${slug}.ics`).expect(200);
    const etag = first.headers.etag;

    const again = await request(feeds).get(`/c/${slug}.ics`).set("If-None-Match", etag);
    expect(again.status).toBe(304);
    expect(again.text ?? "").toBe("");
    expect(again.headers.etag).toBe(etag);
    await request(feeds).head(`/c/${slug}.ics`).set("If-None-Match", etag).expect(304);
    // As Firebase Hosting forwards it: with `Cache-Control: no-cache`; also weak and listed tags.
    await request(feeds)
      .get(`/c/${slug}.ics`)
      .set("If-None-Match", etag)
      .set("Cache-Control", "no-cache, no-store")
      .expect(304);
    await request(feeds).get(`/c/${slug}.ics`).set("If-None-Match", `"other", W/${etag}`).expect(304);
    await request(feeds).get(`/c/${slug}.ics`).set("If-None-Match", '"other"').expect(200);

    await newEvent(t, owner, calendarId, { name: "Second", date: "2026-12-02" });
    const changed = await request(feeds).get(`/c/${slug}.ics`).set("If-None-Match", etag);
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.text).toContain("SUMMARY:Second");
  });

  it("includes visible layers in their own zone, and leaves out private layers its owner only reads", async () => {
    const other = await mintAgent(t, "Ops team");
    const opsCalendar = await newCalendar(t, other, { name: "Ops", visibility: "public" });
    await patch(t, `/v1/calendars/${opsCalendar.id}`, other.auth).send({ timezone: "America/New_York" }).expect(200);
    await newEvent(t, other, opsCalendar.id, {
      name: "Deploy window",
      date: "2026-12-03",
      start_time: "18:00",
      end_time: "19:00",
    });
    const secret = await newCalendar(t, other, { name: "Secret", visibility: "private" });
    await grantRole(t, other.auth, secret.id, owner.agentId, "reader");
    await newEvent(t, other, secret.id, { name: "Hidden meeting", date: "2026-12-04" });
    await post(t, `/v1/calendars/${calendarId}/layers`, owner.auth)
      .send({ calendar_id: opsCalendar.id, key: "ops" })
      .expect(200);
    await post(t, `/v1/calendars/${calendarId}/layers`, owner.auth)
      .send({ calendar_id: secret.id, key: "secret" })
      .expect(200);

    const { text } = await getText(feeds, `/c/${slug}.ics`);
    const { byName } = parse(text);
    const deploy = byName("Deploy window");
    expect(text).toContain("DTSTART;TZID=America/New_York:20261203T180000");
    expect(iso(deploy.start as unknown as string)).toBe("2026-12-03T23:00:00.000Z");
    expect(text).toContain("X-ALMANAC-LAYER:ops");
    expect(text).toMatch(/BEGIN:VTIMEZONE\r\nTZID:America\/New_York\r\n/);
    expect(text).not.toContain("Hidden meeting");
  });

  it("answers 404 in plain text for private and unknown calendars, and 308 for an old slug", async () => {
    const hidden = await newCalendar(t, owner, { name: "Hidden", visibility: "private" });
    for (const path of [`/c/${hidden.slug}.ics`, "/c/no-such-calendar.ics", "/c/NOT_A_SLUG.ics"]) {
      const res = await request(feeds).get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8");
      expect(res.headers["access-control-allow-origin"]).toBe("*");
      expect(res.text).toMatch(/no feed/);
    }

    await patch(t, `/v1/calendars/${calendarId}`, owner.auth).send({ slug: "renamed-plan" }).expect(200);
    const moved = await request(feeds).get(`/c/${slug}.ics?x=1`);
    expect(moved.status).toBe(308);
    expect(moved.headers.location).toBe("/c/renamed-plan.ics?x=1");
    expect(moved.headers["access-control-allow-origin"]).toBe("*");
    await request(feeds).get("/c/renamed-plan.ics").expect(200);
  });

  it("answers a CORS preflight, and 405 to other methods", async () => {
    const pre = await request(feeds).options(`/c/${slug}.ics`).expect(204);
    expect(pre.headers["access-control-allow-origin"]).toBe("*");
    expect(pre.headers["access-control-allow-headers"]).toBe("If-None-Match");
    const res = await request(feeds).post(`/c/${slug}.ics`);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("GET, HEAD, OPTIONS");
  });
});

describe("GET /v/{slug}.ics", () => {
  it("applies the view's filter and reveals nothing of the calendar", async () => {
    const owner = await mintAgent(t, "Planner", {
      calendar: { name: "Secret Project Atlas", timezone: "Europe/Berlin" },
    });
    const cal = owner.calendarId;
    await newEvent(t, owner, cal, { name: "Ops review", date: "2027-01-05", start_time: "09:00", category: "ops" });
    await newEvent(t, owner, cal, { name: "Board dinner", date: "2027-01-06", category: "board" });
    await newEvent(t, owner, cal, { name: "Ops too late", date: "2027-03-01", category: "ops" });
    const weekly = await newEvent(t, owner, cal, {
      name: "Ops sync",
      recur: { type: "weekly", day: 3, interval: 2, starts: "2026-11-23" },
      start_time: "15:00",
      category: "ops",
    });
    await newEvent(t, owner, cal, { name: "Ops someday", category: "ops" });
    const view = await post(t, `/v1/calendars/${cal}/views`, owner.auth)
      .send({
        name: "Ops, January",
        filter: { categories: ["ops"], from: "2027-01-01", to: "2027-01-31", include_someday: true },
      })
      .expect(200);

    const { res, text } = await getText(feeds, `/v/${view.body.slug}.ics`);
    expect(res.status).toBe(200);
    expect(res.headers["x-robots-tag"]).toBe("noindex");
    const { data, events, byName } = parse(text);
    expect(data.vcalendar?.["WR-CALNAME"]).toBe("Ops, January");
    expect(text).toContain(`\r\nURL:https://almanac.test/v/${view.body.slug}\r\n`);
    expect(events.map((e) => e.summary).sort()).toEqual(["Ops review", "Ops sync"]);
    for (const secret of ["Secret Project Atlas", owner.calendarSlug, cal, "/c/", owner.agentName])
      expect(text).not.toContain(secret);

    // The fortnightly series keeps its phase and stays inside January.
    const sync = byName("Ops sync");
    const fromApi = (await occurrences(cal, "2027-01-01", "2027-01-31")).filter((o) => o.event_id === weekly.id);
    expect(fromApi.map((o) => o.date)).toEqual(["2027-01-06", "2027-01-20"]); // Nov 25, Dec 9, Dec 23, then these
    expect(expand(sync, "2026-11-01T00:00:00Z", "2027-12-31T00:00:00Z")).toEqual(fromApi.map((o) => iso(o.start!)));
  });

  it("is 404 once the view is revoked, or for an unknown slug", async () => {
    const owner = await mintAgent(t, "Planner");
    const view = await post(t, `/v1/calendars/${owner.calendarId}/views`, owner.auth).send({ name: "All" }).expect(200);
    await request(feeds).get(`/v/${view.body.slug}.ics`).expect(200);
    await del(t, `/v1/calendars/${owner.calendarId}/views/${view.body.id}`, owner.auth).expect(200);
    const gone = await request(feeds).get(`/v/${view.body.slug}.ics`);
    expect(gone.status).toBe(404);
    expect(gone.headers["content-type"]).toBe("text/plain; charset=utf-8");
    await request(feeds).get("/v/unknown-view.ics").expect(404);
  });
});
