/** The public pages over HTTP: lenses, navigation, fallbacks, 404s, 308s, purpose.md, share views. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import request from "supertest";
import { beforeEach, describe, expect, it } from "vitest";
import type { HttpDeps } from "../../functions/src/http/deps.js";
import { createPagesApp } from "../../functions/src/pages/app.js";
import { STYLESHEET_NAME } from "../../functions/src/pages/style.js";
import { startLocalServer } from "../../functions/src/server.js";
import { appPerTest, type TestApp } from "../helpers/app.js";
import {
  attachLayer,
  grantRole,
  mintAgent,
  newCalendar,
  newEvent,
  newView,
  patchCalendar,
} from "../helpers/factories.js";
import { createSiteTestApp, DEMO_PURPOSE, seedDemo, type Demo } from "./site.js";

const t = appPerTest(createSiteTestApp); // today is Sunday 2026-11-22 (UTC clock 10:00, Europe/Paris 11:00)
let demo: Demo;
beforeEach(async () => {
  demo = await seedDemo(t);
});

const page = (path: string) => request(t.app).get(path);
const count = (text: string, needle: string): number => text.split(needle).length - 1;

function expectHtml(res: request.Response, status: number): void {
  expect(res.status, res.text.slice(0, 300)).toBe(status);
  expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
  expect(res.text).toMatch(/^<!doctype html>/);
}

describe("GET /c/{slug}", () => {
  it("shows the calendar's name, purpose as Markdown and its events with the layer's, in the month lens by default", async () => {
    const res = await page("/c/launch-plan");
    expectHtml(res, 200);
    expect(res.text).toContain("<h1>Launch Plan Q4</h1>");
    expect(res.text).toContain(
      "<p>Everything that has to happen for the <strong>Q4 launch</strong>, in one place.</p>",
    );
    expect(res.text).toContain(
      '<a href="https://example.com/design" rel="nofollow ugc noopener">design team\'s calendar</a>',
    );
    expect(res.text).toContain('<table class="month">');
    expect(res.text).toContain('<h2 id="period-heading">November 2026</h2>');
    // Recurring occurrences expanded with their times: Standup on each Monday of the grid (Nov 2 .. Nov 30).
    for (const day of ["02", "09", "16", "23", "30"])
      expect(res.text).toContain(`<time datetime="2026-11-${day}T09:00">09:00</time>`);
    // The design layer's weekly review (Wednesdays from Nov 4 to Dec 2 in the grid), marked with its key.
    expect(
      count(
        res.text,
        '<span class="name">Design review</span></a><span class="layer"><span class="visually-hidden">layer </span>design</span>',
      ),
    ).toBe(5);
    expect(res.text).toContain('<td class="day today empty" aria-current="date">');
    // Public: no noindex.
    expect(res.headers["x-robots-tag"]).toBeUndefined();
    expect(res.text).not.toContain('name="robots"');
  });

  it("sends helmet's headers with a CSP that allows no script and no inline style", async () => {
    const res = await page("/c/launch-plan");
    const csp = res.headers["content-security-policy"];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("img-src 'self' https:");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src|unsafe-inline/);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["referrer-policy"]).toBe("no-referrer");
    expect(res.headers["cache-control"]).toBe("no-cache");
    expect(res.text).not.toMatch(/<script|\sstyle=/i);
  });

  it("renders each lens chosen by ?view=", async () => {
    const week = await page("/c/launch-plan?view=week&date=2026-11-26");
    expect(week.text).toContain('<div class="week slots-');
    expect(week.text).toContain('<h2 id="period-heading">Nov 23 – 29, 2026</h2>');
    // Overlapping events on Thursday share the width in two lanes.
    expect(week.text).toMatch(
      /lanes-2"><li class="ev is-one-off cat-\d at-13 len-4 lane-1" title="[^"]*">.*Press briefing/,
    );

    const schedule = await page("/c/launch-plan?view=schedule");
    expect(schedule.text).toContain('<h2 id="period-heading">Nov 22 – Dec 19, 2026</h2>');
    expect(schedule.text).toContain('<time datetime="2026-11-23">Monday, November 23, 2026</time>');
    expect(schedule.text).toContain('<h2 id="someday-heading">Someday</h2>');
    for (const name of ["Write the postmortem", "Localize the docs", "Icon refresh"])
      expect(schedule.text).toContain(`<span class="name">${name}</span>`);
    expect(schedule.text).toContain("<p>Agree on <strong>scope</strong> and owners.</p>");

    const timeline = await page("/c/launch-plan?view=timeline");
    expect(timeline.text).toContain('class="timeline days-98"');
    expect(timeline.text).toContain('id="lane-l-design">design');
    expect(timeline.text).toContain('id="lane-someday">Someday');
    expect(timeline.text).toContain("every week on Monday · 13 in view");

    // Someday events never show in the month or week lens.
    expect(week.text).not.toContain("Write the postmortem");
  });

  it("moves in time with ?date= and links the previous and next periods and the other lenses", async () => {
    const res = await page("/c/launch-plan?view=month&date=2026-12-15");
    expect(res.text).toContain('<h2 id="period-heading">December 2026</h2>');
    expect(res.text).toContain('href="?view=month&amp;date=2026-11-01" rel="prev"');
    expect(res.text).toContain('href="?view=month&amp;date=2027-01-01" rel="next"');
    expect(res.text).toContain('<a href="?view=month">Today</a>');
    for (const lens of ["week", "schedule", "timeline"])
      expect(res.text).toContain(`href="?view=${lens}&amp;date=2026-12-15"`);
    expect(res.text).toContain('<span class="name">Budget review</span>'); // monthly on the 15th
    expect(res.text).not.toContain('aria-current="date"'); // today is not in December's grid

    // A date that is not a real date falls back to today.
    const bad = await page("/c/launch-plan?view=month&date=2026-02-30");
    expect(bad.text).toContain('<h2 id="period-heading">November 2026</h2>');
  });

  it("falls back to the default view, else the first allowed lens, when ?view= is not allowed", async () => {
    await patchCalendar(t, demo.owner.auth, demo.calendar.id, {
      views: ["schedule", "timeline"],
      default_view: "timeline",
    });
    const byDefault = await page("/c/launch-plan");
    expect(byDefault.text).toContain('class="timeline');
    const notAllowed = await page("/c/launch-plan?view=month");
    expect(notAllowed.text).toContain('class="timeline');
    expect(notAllowed.text).not.toContain("?view=month");
    expect(notAllowed.text).not.toContain("?view=week");

    await patchCalendar(t, demo.owner.auth, demo.calendar.id, { views: ["week", "schedule"], default_view: null });
    const first = await page("/c/launch-plan?view=nonsense");
    expect(first.text).toContain('<div class="week slots-');
    expect(first.text).toContain('<a href="?view=week&amp;date=2026-11-22" aria-current="page">Week</a>');
  });

  it("marks unlisted calendars noindex, in the header and a robots meta tag", async () => {
    const cal = await newCalendar(t, demo.owner.auth, { name: "Quiet plans", slug: "quiet-plans" });
    const res = await page("/c/quiet-plans");
    expectHtml(res, 200);
    expect(res.headers["x-robots-tag"]).toBe("noindex");
    expect(res.text).toContain('<meta name="robots" content="noindex">');
    expect(cal.slug).toBe("quiet-plans");
  });

  it("does not publish a private layer its owners only read (test/pages/publishing.test.ts has the rule)", async () => {
    const author = await mintAgent(t, "Author");
    const secret = await newCalendar(t, author.auth, { name: "Secret", visibility: "private" });
    await newEvent(t, author.auth, secret.id, { name: "Secret meeting", date: "2026-11-25" });
    await grantRole(t, author.auth, secret.id, demo.owner.agentId, "reader");
    await attachLayer(t, demo.owner.auth, demo.calendar.id, secret.id, "secret");
    const res = await page("/c/launch-plan?view=schedule");
    expect(res.text).not.toContain("Secret meeting");
    expect(res.text).not.toContain(">secret<");
  });

  it("answers 404 pages for private calendars and unknown slugs", async () => {
    const secret = await newCalendar(t, demo.owner.auth, {
      name: "Hidden",
      slug: "hidden-plans",
      visibility: "private",
    });
    for (const path of [
      "/c/hidden-plans",
      "/c/hidden-plans/purpose.md",
      "/c/no-such-calendar",
      "/c/NOT_A_SLUG",
      "/c/launch-plan/nothing-here",
      "/c/x",
    ]) {
      const res = await page(path);
      expectHtml(res, 404);
      expect(res.text).toContain("<h1>Calendar not found</h1>");
      expect(res.headers["x-robots-tag"]).toBe("noindex");
      expect(res.text).not.toContain("Hidden");
    }
    // An earlier slug of a private calendar is 404 too, not a redirect that would reveal it.
    await patchCalendar(t, demo.owner.auth, secret.id, { slug: "hidden-renamed" });
    expectHtml(await page("/c/hidden-plans?view=week"), 404);
  });

  it("redirects every earlier slug with 308 to the same path and query under the current one", async () => {
    await patchCalendar(t, demo.owner.auth, demo.calendar.id, { slug: "launch-q4" });
    await patchCalendar(t, demo.owner.auth, demo.calendar.id, { slug: "launch-final" });
    for (const [from, to] of [
      ["/c/launch-plan", "/c/launch-final"],
      ["/c/launch-q4?view=week&date=2026-12-01", "/c/launch-final?view=week&date=2026-12-01"],
      ["/c/launch-plan/purpose.md", "/c/launch-final/purpose.md"],
      ["/c/launch-plan.ics", "/c/launch-final.ics"],
      ["/c/launch-plan/anything/below", "/c/launch-final/anything/below"],
    ]) {
      const res = await page(from);
      expect(res.status, from).toBe(308);
      expect(res.headers.location).toBe(to);
    }
    expectHtml(await page("/c/launch-final?view=week"), 200);
  });

  it("answers 405 to other methods and serves HEAD", async () => {
    const res = await request(t.app).post("/c/launch-plan").send("x=1");
    expectHtml(res, 405);
    expect(res.headers.allow).toBe("GET, HEAD");
    const head = await request(t.app).head("/c/launch-plan");
    expect(head.status).toBe(200);
    expect(head.headers["content-type"]).toBe("text/html; charset=utf-8");
  });

  it("answers a 500 page without details when the store fails, and logs the error", async () => {
    const logs: string[] = [];
    const failing: HttpDeps = {
      ...t.deps,
      log: (line) => logs.push(line),
      store: { ...t.deps.store, get: () => Promise.reject(new Error("disk on fire")) },
    };
    const res = await request(createPagesApp(failing)).get("/c/launch-plan");
    expectHtml(res, 500);
    expect(res.text).not.toContain("disk on fire");
    expect(logs.some((line) => line.includes("disk on fire"))).toBe(true);
  });
});

describe("GET /c/{slug}/purpose.md", () => {
  it("serves the purpose verbatim as text/markdown, empty when there is none", async () => {
    const res = await page("/c/launch-plan/purpose.md");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/markdown; charset=utf-8");
    expect(res.text).toBe(DEMO_PURPOSE);
    expect(res.headers["x-robots-tag"]).toBeUndefined();

    const empty = await page(`/c/${demo.design.slug}/purpose.md`);
    expect(empty.status).toBe(200);
    expect(empty.text).toBe("");

    await newCalendar(t, demo.owner.auth, { name: "Unlisted", slug: "unlisted-one", purpose: "<b>raw</b>" });
    const unlisted = await page("/c/unlisted-one/purpose.md");
    expect(unlisted.text).toBe("<b>raw</b>");
    expect(unlisted.headers["x-robots-tag"]).toBe("noindex");
    expect(unlisted.headers["x-content-type-options"]).toBe("nosniff");
  });
});

describe("GET /v/{slug}", () => {
  it("shows the view's name and its filtered events in its allowed lenses", async () => {
    const res = await page(`/v/${demo.view.slug}`);
    expectHtml(res, 200);
    expect(res.text).toContain("<h1>Launch for partners</h1>");
    expect(res.text).toContain('<div class="agenda">'); // display.default_view: schedule
    expect(res.text).toContain('<a href="?view=month&amp;date=2026-11-22">Month</a>');
    expect(res.text).not.toMatch(/\?view=(week|timeline)/);
    // categories launch, marketing, design: the design layer's review is in, the team's standup is not.
    expect(res.text).toContain('<span class="name">Press briefing</span>');
    expect(res.text).toContain('<span class="name">Design review</span>');
    expect(res.text).toContain('<span class="name">Localize the docs</span>');
    for (const hidden of ["Standup", "Kickoff", "Retro", "Write the postmortem", "Budget review"])
      expect(res.text).not.toContain(hidden);
    expect((await page(`/v/${demo.view.slug}?view=week`)).text).toContain('<div class="agenda">');
    expect((await page(`/v/${demo.view.slug}?view=month`)).text).toContain('<table class="month">');
  });

  it("reveals nothing of the calendar behind it, and sends no referrer and noindex", async () => {
    for (const lens of ["month", "schedule"]) {
      const res = await page(`/v/${demo.view.slug}?view=${lens}`);
      for (const secret of [
        demo.calendar.name,
        demo.calendar.slug,
        demo.calendar.id,
        demo.design.id,
        "Everything that has to happen",
        "purpose.md",
        "/c/",
        demo.owner.agentName,
        demo.owner.agentId,
      ]) {
        expect(res.text, secret).not.toContain(secret);
      }
      expect(res.text).toContain(`href="/v/${demo.view.slug}.ics"`);
      expect(res.headers["referrer-policy"]).toBe("no-referrer");
      expect(res.headers["x-robots-tag"]).toBe("noindex");
      expect(res.text).toContain('<meta name="robots" content="noindex">');
    }
  });

  it("falls back to the calendar's lenses when the view sets none, and applies its dates", async () => {
    await patchCalendar(t, demo.owner.auth, demo.calendar.id, {
      views: ["week", "timeline"],
      default_view: "timeline",
    });
    const view = await newView(t, demo.owner.auth, demo.calendar.id, {
      name: "December only",
      filter: { from: "2026-12-01", to: "2026-12-31", include_someday: false },
    });
    const res = await page(`/v/${view.slug}`);
    expect(res.text).toContain('class="timeline');
    // Today is 2026-11-22, before the view's dates: the page opens at their start.
    expect(res.text).toContain('<a href="?view=week&amp;date=2026-12-01">Week</a>');
    expect(res.text).toContain("Launch day");
    expect(res.text).not.toContain("Kickoff"); // November
    expect(res.text).not.toContain("Write the postmortem"); // someday excluded
    expect(res.text).toContain("No someday plans.");
    // Asked for a date, it shows that date; a view whose dates have passed opens at their end.
    expect((await page(`/v/${view.slug}?view=week&date=2026-11-22`)).text).toContain(
      'href="?view=week&amp;date=2026-11-22"',
    );
    const past = await newView(t, demo.owner.auth, demo.calendar.id, {
      name: "October",
      filter: { from: "2026-10-01", to: "2026-10-31" },
    });
    expect((await page(`/v/${past.slug}`)).text).toContain('<a href="?view=week&amp;date=2026-10-31">Week</a>');
  });

  it("answers 404 pages for revoked and unknown views", async () => {
    const revoke = await request(t.app)
      .delete(`/v1/calendars/${demo.calendar.id}/views/${demo.view.id}`)
      .set(demo.owner.auth);
    expect(revoke.status).toBe(200);
    for (const path of [`/v/${demo.view.slug}`, "/v/unknown-view-slug", "/v/x/y"]) {
      const res = await page(path);
      expectHtml(res, 404);
      expect(res.text).toContain("<h1>Shared calendar not found</h1>");
      expect(res.text).not.toContain("/c/");
    }
  });
});

describe("the stylesheet", () => {
  it("is served under /c/ and /v/, cached for a year under its hash, briefly under an older one", async () => {
    for (const area of ["c", "v"]) {
      const res = await page(`/${area}/_assets/${STYLESHEET_NAME}`);
      expect(res.status).toBe(200);
      expect(res.headers["content-type"]).toBe("text/css; charset=utf-8");
      expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      expect(res.text).toContain("prefers-color-scheme:dark");
    }
    const older = await page("/c/_assets/style.0123456789ab.css");
    expect(older.status).toBe(200);
    expect(older.headers["cache-control"]).toBe("public, max-age=300");
    expectHtml(await page("/c/_assets/other.css"), 404);
  });
});

describe("the local server", () => {
  it("serves the pages beside the API, as Hosting's rewrites do", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "almanac-pages-"));
    const local = await startLocalServer({ port: 0, dataDir, log: () => {} });
    try {
      const minted = await mintAgent({ app: local.server } as unknown as Pick<TestApp, "app">, "Local");
      const res = await request(local.server).get(`/c/${minted.calendarSlug}`);
      expectHtml(res, 200);
      expect(res.text).toContain("<h1>Local</h1>");
      expectHtml(await request(local.server).get("/v/nothing-here"), 404);
      expect((await request(local.server).get("/v1/me")).body.error.code).toBe("unauthorized");
    } finally {
      await local.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
