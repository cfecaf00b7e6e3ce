/**
 * One occurrence's page and its single `.ics` over HTTP (docs/decisions/pages-and-feeds.md,
 * "Event pages"): what it shows, what is 404, a view's filter, and the links every lens gives.
 */
import ICAL from "ical.js";
import { beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../helpers/app.js";
import { renderPage } from "../../functions/src/pages/layout.js";
import { googleCalendarLink, outlookWebLink } from "../../functions/src/pages/event-links.js";
import { on, pageEvent, pageModel } from "./models.js";
import { seedTeam, type TeamDemo } from "./moved-site.js";
import { createSiteTestApp, seedZones, type ZonesDemo } from "./site.js";

let t: TestApp;
let team: TeamDemo;
let zones: ZonesDemo;
const get = (path: string) => t.http().get(path);
const eventPath = (id: string, date: string, base = "/c/platform-team") => `${base}/e/${id}/${date}`;

beforeAll(async () => {
  t = createSiteTestApp();
  team = await seedTeam(t);
  zones = await seedZones(t);
});

describe("an occurrence's page", () => {
  it("shows the full name, the time with its date and zone, notes as Markdown, category and rule", async () => {
    const res = await get(eventPath(team.sync.id, "2026-11-10"));
    expect(res.status).toBe(200);
    expect(res.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(res.text).toContain("<h1>Weekly sync</h1>");
    expect(res.text).toContain('<time datetime="2026-11-10">Tuesday, November 10, 2026</time>');
    expect(res.text).toContain(
      '<time datetime="2026-11-10T10:00">10:00</time>–<time datetime="2026-11-10T11:00">11:00</time>',
    );
    expect(res.text).toContain("(Europe/Berlin)");
    expect(res.text).toContain("<strong>team doc</strong>");
    expect(res.text).toContain('<a href="https://example.com/doc" rel="nofollow ugc noopener">link</a>');
    expect(res.text).toContain('<dt>Category</dt><dd><span class="category cat-');
    expect(res.text).toContain("<dt>Repeats</dt><dd>every week on Tuesday</dd>");
    expect(res.text).not.toContain("<script");
  });

  it("offers the occurrence to Google Calendar, Outlook on the web and as an .ics", async () => {
    const res = await get(eventPath(team.sync.id, "2026-11-10"));
    const links = [...res.text.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1].replaceAll("&amp;", "&"));
    const google = new URL(links.find((l) => l.startsWith("https://calendar.google.com/"))!);
    expect(google.pathname).toBe("/calendar/render");
    expect(google.searchParams.get("action")).toBe("TEMPLATE");
    expect(google.searchParams.get("text")).toBe("Weekly sync");
    // 10:00 in Berlin on standard time is 09:00 UTC.
    expect(google.searchParams.get("dates")).toBe("20261110T090000Z/20261110T100000Z");
    expect(google.searchParams.get("details")).toContain(`/c/platform-team/e/${team.sync.id}/2026-11-10`);
    const outlook = new URL(links.find((l) => l.startsWith("https://outlook.live.com/"))!);
    expect(outlook.pathname).toBe("/calendar/0/deeplink/compose");
    expect(outlook.searchParams.get("subject")).toBe("Weekly sync");
    expect(outlook.searchParams.get("startdt")).toBe("2026-11-10T09:00:00Z");
    expect(outlook.searchParams.get("enddt")).toBe("2026-11-10T10:00:00Z");
    // The notes as plain text, as the feed carries them: no Markdown syntax, the link's address kept.
    expect(outlook.searchParams.get("body")).toContain("Agenda in the team doc: link (https://example.com/doc)");
    expect(links).toContain("2026-11-10.ics");
  });

  it("adds an all-day occurrence by its date, the day after as the exclusive end", () => {
    const added = { name: "Offsite", notes: null, url: "https://a.example/c/x/e/evt_1/2026-12-31", date: "2026-12-31" };
    const google = new URL(googleCalendarLink({ ...added, instants: null }));
    expect(google.searchParams.get("dates")).toBe("20261231/20270101");
    expect(google.searchParams.get("details")).toBe(added.url);
    const outlook = new URL(outlookWebLink({ ...added, instants: null }));
    expect([...outlook.searchParams]).toEqual([
      ["subject", "Offsite"],
      ["startdt", "2026-12-31"],
      ["enddt", "2027-01-01"],
      ["allday", "true"],
      ["body", added.url],
    ]);
  });

  it("says a moved occurrence came from elsewhere, and gives the rule as what usually happens", async () => {
    const res = await get(eventPath(team.sync.id, "2026-12-09"));
    expect(res.status).toBe(200);
    expect(res.text).toContain(
      '<span class="occurrence-status">Moved</span> This occurrence moved here from Tue 8 Dec 10:00.',
    );
    expect(res.text).toContain('<time datetime="2026-12-09T14:00">14:00</time>');
    expect(res.text).toContain("<dt>Repeats</dt><dd>usually every week on Tuesday</dd>");
    expect(res.text).not.toContain("<dd>every week on Tuesday</dd>");
  });

  it("shows the slot a moved occurrence left, linking to where it went, and a cancelled one struck through", async () => {
    const left = await get(eventPath(team.sync.id, "2026-12-08"));
    expect(left.status).toBe(200);
    expect(left.text).toContain("<h1><s>Weekly sync</s></h1>");
    expect(left.text).toContain('This occurrence moved to <a href="2026-12-09">Wed 9 Dec 14:00</a>.');
    expect(left.text).not.toContain("Add to my calendar");
    const cancelled = await get(eventPath(team.sync.id, "2026-12-15"));
    expect(cancelled.status).toBe(200);
    expect(cancelled.text).toContain("<h1><s>Weekly sync</s></h1>");
    expect(cancelled.text).toContain('<span class="occurrence-status">Cancelled</span>');
    expect(cancelled.text).not.toContain("Add to my calendar");
    expect((await get(`${eventPath(team.sync.id, "2026-12-15")}.ics`)).status).toBe(404);
  });

  it("is 404, as a calendar the visitor may not see, for what the calendar's pages do not show", async () => {
    for (const path of [
      eventPath(team.sync.id, "2026-11-11"), // not a date of the series
      eventPath(team.sync.id, "2026-13-01"), // not a date
      eventPath("evt_unknown0000000000000", "2026-11-10"),
      eventPath(team.secret.id, "2026-12-09", "/c/hidden-team"), // a private calendar
      eventPath(team.secret.id, "2026-12-09"), // another calendar's event
      eventPath(team.interview.id, "2026-12-09", `/v/${team.view.slug}`), // left out by the view's filter
      eventPath(team.sync.id, "2026-11-10", "/v/no-such-view"),
      `${eventPath(team.secret.id, "2026-12-09", "/c/hidden-team")}.ics`,
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers["content-type"], path).toContain("text/html");
      expect(res.text, path).toMatch(/<h1>(Calendar|Shared calendar) not found<\/h1>/);
      expect(res.text, path).not.toContain("Secret");
    }
  });

  it("under a share view, shows what its filter lets through, and links nothing of the calendar", async () => {
    const res = await get(eventPath(team.sync.id, "2026-11-10", `/v/${team.view.slug}`));
    expect(res.status).toBe(200);
    expect(res.headers["x-robots-tag"]).toBe("noindex");
    expect(res.text).toContain("<h1>Weekly sync</h1>");
    expect(res.text).toContain(`<a href="/v/${team.view.slug}?date=2026-11-10">Team meetings</a>`);
    expect(res.text).not.toContain("/c/platform-team");
    expect(res.text).not.toContain("Platform team");
  });

  it("answers 304 to a client whose copy is current", async () => {
    const first = await get(eventPath(team.sync.id, "2026-11-10"));
    const again = await get(eventPath(team.sync.id, "2026-11-10")).set("If-None-Match", first.headers.etag);
    expect(again.status).toBe(304);
  });
});

describe("an occurrence from a layer", () => {
  it("says which layer it comes from, and its time in the layer calendar's own zone", async () => {
    const path = `/c/new-york-team/e/${zones.standup.id}/2026-11-24`;
    const week = await get("/c/new-york-team?view=week&date=2026-11-24");
    expect(week.text).toContain(`href="${path}"`);
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<time datetime="2026-11-24T03:30">03:30</time>');
    expect(res.text).toContain("(America/New_York)");
    expect(res.text).toContain(
      '<dt>In its own calendar</dt><dd><time datetime="2026-11-24">Tuesday, November 24, 2026</time>, ' +
        '<span class="when"><time datetime="2026-11-24T09:30">09:30</time>',
    );
    expect(res.text).toContain("<dt>From</dt><dd>the layer <strong>berlin-office</strong>");
    expect(res.text).toContain("whose times are set in Europe/Berlin");
    // The single .ics keeps the layer's own zone, as the feeds do.
    const ics = await get(`${path}.ics`);
    expect(ics.text).toMatch(/DTSTART;TZID=Europe\/Berlin:20261124T093000/);
  });
});

describe("an occurrence's .ics", () => {
  it("holds that occurrence alone, as one event an iCalendar library reads at its instant", async () => {
    const res = await get(`${eventPath(team.sync.id, "2026-12-09")}.ics`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toContain("text/calendar");
    const calendar = new ICAL.Component(ICAL.parse(res.text));
    const events = calendar.getAllSubcomponents("vevent");
    expect(events).toHaveLength(1);
    const event = new ICAL.Event(events[0]);
    expect(event.summary).toBe("Weekly sync");
    expect(event.isRecurring()).toBe(false);
    expect(events[0].getFirstPropertyValue("recurrence-id")).toBeNull();
    // The moved occurrence: Wednesday 14:00 in Berlin, 13:00 UTC, for an hour.
    calendar.getAllSubcomponents("vtimezone").forEach((tz) => ICAL.TimezoneService.register(new ICAL.Timezone(tz)));
    expect(event.startDate.toJSDate().toISOString()).toBe("2026-12-09T13:00:00.000Z");
    expect(event.endDate.toJSDate().toISOString()).toBe("2026-12-09T14:00:00.000Z");
    // Its own UID: imported alone, it leaves the series a subscription holds untouched.
    expect(event.uid).toBe(`${team.sync.id}_20261209@${new URL(t.deps.baseUrl).host}`);
  });

  it("is 404 under a view that does not show the event", async () => {
    expect((await get(`${eventPath(team.interview.id, "2026-12-09", `/v/${team.view.slug}`)}.ics`)).status).toBe(404);
    expect((await get(`${eventPath(team.interview.id, "2026-12-09")}.ics`)).status).toBe(200);
  });
});

describe("the lenses", () => {
  const lenses = ["month", "week", "schedule", "timeline"] as const;

  it("link every occurrence to its own page, on calendar and view pages alike", async () => {
    for (const lens of lenses) {
      const page = await get(`/c/platform-team?view=${lens}&date=2026-12-01`);
      expect(page.status).toBe(200);
      expect(page.text, lens).toContain(`href="/c/platform-team/e/${team.sync.id}/2026-12-01"`);
      const view = await get(`/v/${team.view.slug}?view=${lens}&date=2026-12-01`);
      expect(view.text, lens).toContain(`href="/v/${team.view.slug}/e/${team.sync.id}/2026-12-01"`);
    }
    // Each linked page answers.
    expect((await get(eventPath(team.sync.id, "2026-12-01"))).status).toBe(200);
  });

  it("mark a moved occurrence's origin and its old slot, and a cancelled one, in Month, Week and Schedule", async () => {
    for (const lens of ["month", "week", "schedule"] as const) {
      const page = (await get(`/c/platform-team?view=${lens}&date=2026-12-07`)).text;
      expect(page, lens).toContain('<span class="moved-from">moved from Tue 8 Dec 10:00</span>');
      const target = `/c/platform-team/e/${team.sync.id}/2026-12-09`;
      expect(page, lens).toContain(
        `<s class="name">Weekly sync</s> <a class="change" href="${target}">moved to Wed 9 Dec 14:00</a>`,
      );
    }
    for (const lens of ["month", "week", "schedule"] as const) {
      const page = (await get(`/c/platform-team?view=${lens}&date=2026-12-14`)).text;
      expect(page, lens).toContain(
        `<s class="name">Weekly sync</s> <a class="change" href="/c/platform-team/e/${team.sync.id}/2026-12-15">Cancelled</a>`,
      );
    }
    // Schedule: the moved occurrence's rule reads as what usually happens, never as its own day.
    const schedule = (await get("/c/platform-team?view=schedule&date=2026-12-09")).text;
    expect(schedule).toContain("Usually every week on Tuesday");
  });

  it("link no occurrence where the page has no event pages (a signed-in human's private calendar)", () => {
    const sync = pageEvent({ name: "Sync", date: "2026-11-24", start_time: "10:00", end_time: "11:00" });
    for (const lens of ["month", "week", "schedule", "timeline"] as const) {
      const occurrences = [on("2026-11-24", sync)];
      const links = { ...pageModel().links, eventPages: null, feed: null, subscribe: null };
      expect(renderPage(pageModel({ lens, occurrences, links })), lens).not.toContain("name-link");
      const linked = { ...links, eventPages: "/c/launch-plan/e" };
      expect(renderPage(pageModel({ lens, occurrences, links: linked })), lens).toContain(
        `<a class="name-link" href="/c/launch-plan/e/${sync.id}/2026-11-24">`,
      );
    }
  });

  it("leave the feed's RFC 5545 form as it was: EXDATE for the cancelled, RECURRENCE-ID for the moved", async () => {
    const feed = (await get("/c/platform-team.ics")).text;
    expect(feed).toMatch(/EXDATE;TZID=Europe\/Berlin:20261215T100000/);
    expect(feed).toMatch(/RECURRENCE-ID;TZID=Europe\/Berlin:20261208T100000/);
  });
});
