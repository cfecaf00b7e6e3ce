/**
 * What a human needs to subscribe, over HTTP: the feeds' notes as plain text (read back with
 * node-ical), the page's Subscribe control against the API record's `subscribe`, the head's
 * description and Open Graph tags, the favicon, and the embeddable variant's framing headers.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import ical, { type VEvent } from "node-ical";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { createPagesApp } from "../../functions/src/pages/app.js";
import { startLocalServer } from "../../functions/src/server.js";
import { appPerTest } from "../helpers/app.js";
import { mintAgent, newCalendar, newEvent, newView } from "../helpers/factories.js";
import { tagsOf } from "./markup.js";
import { createSiteTestApp } from "./site.js";

const t = appPerTest(createSiteTestApp);

const NOTES = `Hosted by the **Platform team**, see [the agenda](https://example.com/agenda) or https://example.com/room.

- bring _slides_
- \`npm test\` passes`;

async function seed() {
  const owner = await mintAgent(t, "Planner");
  const calendar = await newCalendar(t, owner.auth, {
    name: "Platform & friends",
    slug: "platform-friends",
    timezone: "Europe/Berlin",
    visibility: "public",
    purpose: "The **platform** team's calendar.",
  });
  await newEvent(t, owner.auth, calendar.id, {
    name: "Planning",
    date: "2026-11-24",
    start_time: "10:00",
    end_time: "11:00",
    notes: NOTES,
  });
  return { owner, calendar };
}

const feedText = async (path: string) => (await request(t.app).get(path).expect(200)).text;

describe("feed notes", () => {
  it("carry the notes as plain text, links kept as addresses, and the purpose likewise", async () => {
    await seed();
    const parsed = ical.sync.parseICS(await feedText("/c/platform-friends.ics"));
    const [event] = Object.values(parsed).filter((c): c is VEvent => c?.type === "VEVENT");
    expect(event.description).toBe(
      "Hosted by the Platform team, see the agenda (https://example.com/agenda) or https://example.com/room.\n\n" +
        "- bring slides\n- npm test passes",
    );
    const calendar = Object.values(parsed).find((c) => c?.type === "VCALENDAR") as unknown as Record<string, unknown>;
    expect(calendar["WR-CALDESC"]).toBe("The platform team's calendar.");
  });
});

type Links = { webcal: string; google: string; outlook: string };

const pageText = async (path: string) => (await request(t.app).get(path).expect(200)).text;

/** The markup of the page's Subscribe control. */
function subscribeControl(page: string): string {
  const from = page.indexOf('<details class="subscribe">');
  expect(from, "the page has a Subscribe control").toBeGreaterThan(-1);
  return page.slice(from, page.indexOf("</details>", from));
}

const hrefsOf = (markup: string) =>
  tagsOf(markup)
    .filter((tag) => tag.name === "a")
    .map((tag) => tag.attrs.find((a) => a.name === "href")?.value);

describe("the Subscribe control", () => {
  it("offers exactly the calendar record's subscribe links and its feed address to copy", async () => {
    const { calendar } = await seed();
    const control = subscribeControl(await pageText("/c/platform-friends"));
    const subscribe = calendar.subscribe as Links;
    expect(hrefsOf(control)).toEqual([subscribe.webcal, subscribe.google, subscribe.outlook]);
    const field = tagsOf(control).find((tag) => tag.name === "input")!;
    expect(field.attrs).toEqual(
      expect.arrayContaining([
        { name: "readonly", value: "" },
        { name: "value", value: calendar.feed_url },
      ]),
    );
    expect(new URL(subscribe.outlook).searchParams.get("url")).toBe(calendar.feed_url);
  });

  it("offers a share view's own links, and replaces the old text links", async () => {
    const { owner, calendar } = await seed();
    const view = await newView(t, owner.auth, calendar.id, { name: "Planning only" });
    const page = await pageText(`/v/${view.slug}`);
    const { subscribe } = view as typeof view & { subscribe: Links };
    expect(hrefsOf(subscribeControl(page))).toEqual([subscribe.webcal, subscribe.google, subscribe.outlook]);
    expect(page).not.toContain("Subscribe (.ics)");
    expect(page).not.toContain(calendar.slug);
  });
});

/** The content of `<meta {attribute}="{name}" content="…">`, decoded. */
function metaContent(page: string, attribute: "name" | "property", name: string): string | undefined {
  const tag = tagsOf(page).find(
    (t) => t.name === "meta" && t.attrs.some((a) => a.name === attribute && a.value === name),
  );
  return tag?.attrs.find((a) => a.name === "content")?.value;
}

describe("the head", () => {
  it("describes a calendar page for search results and unfurls, with the favicon", async () => {
    await seed();
    const page = await pageText("/c/platform-friends");
    const named = ["description", "twitter:card"].map((name) => [name, metaContent(page, "name", name)]);
    const og = ["og:title", "og:description", "og:type", "og:url"].map((name) => [
      name,
      metaContent(page, "property", name),
    ]);
    expect(Object.fromEntries([...named, ...og])).toEqual({
      description: "The platform team's calendar.",
      "twitter:card": "summary",
      "og:title": "Platform & friends",
      "og:description": "The platform team's calendar.",
      "og:type": "website",
      "og:url": "https://almanac.test/c/platform-friends",
    });
    expect(page).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
  });

  it("describes an event page by its name, date, times and notes, and a share view without its calendar", async () => {
    const { owner, calendar } = await seed();
    const [occurrence] = (
      await request(t.app)
        .get(`/v1/calendars/${calendar.id}/occurrences?from=2026-11-24&to=2026-11-24`)
        .set(owner.auth)
        .expect(200)
    ).body.occurrences;
    const path = `/c/platform-friends/e/${occurrence.event_id}/2026-11-24`;
    const event = await pageText(path);
    expect(metaContent(event, "property", "og:title")).toBe("Planning");
    // "Add to my calendar" hands Google and Outlook the notes as plain text too.
    const added = hrefsOf(event).filter((href) =>
      /^https:\/\/(calendar\.google|outlook\.live)\.com\//.test(href ?? ""),
    );
    expect(added).toHaveLength(2);
    for (const href of added) {
      const params = new URL(href!).searchParams;
      expect(params.get("details") ?? params.get("body")).toMatch(
        /^Hosted by the Platform team, see the agenda \(https:/,
      );
    }
    expect(metaContent(event, "property", "og:url")).toBe(`https://almanac.test${path}`);
    expect(metaContent(event, "name", "description")).toMatch(
      /^Tuesday, November 24, 2026, 10:00–11:00 \(Europe\/Berlin\) · Platform & friends · Hosted by the Platform team/,
    );
    const view = await newView(t, owner.auth, calendar.id, { name: "Planning only" });
    const viewPage = await pageText(`/v/${view.slug}`);
    expect(metaContent(viewPage, "property", "og:title")).toBe("Planning only");
    expect(metaContent(viewPage, "property", "og:url")).toBe(view.url);
    expect(metaContent(viewPage, "name", "description")).not.toContain("Platform");
  });

  it("describes error pages too", async () => {
    const missing = await request(t.app).get("/c/no-such-calendar").expect(404);
    expect(metaContent(missing.text, "property", "og:title")).toBe("Calendar not found");
    expect(metaContent(missing.text, "name", "description")).toMatch(/^There is no public calendar at this address/);
    expect(missing.text).toContain('<link rel="icon" href="/favicon.svg"');
  });

  it("gives the claim and account pages the favicon", async () => {
    const claim = await request(createPagesApp(t.deps)).get("/claim/no-such-link");
    expect(claim.status).toBeGreaterThanOrEqual(400);
    expect(claim.text).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
  });
});

describe("the favicon", () => {
  it("is served from hosting/ by the local server, as Hosting serves it", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "almanac-favicon-"));
    const local = await startLocalServer({ port: 0, dataDir, log: () => {} });
    try {
      const res = await request(local.server).get("/favicon.svg").expect(200);
      expect(res.headers["content-type"]).toMatch(/^image\/svg\+xml/);
      expect(res.text ?? res.body.toString()).toBe(
        readFileSync(resolve(import.meta.dirname, "../../hosting/favicon.svg"), "utf8"),
      );
    } finally {
      await local.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("the embeddable variant", () => {
  const csp = (res: request.Response) => String(res.headers["content-security-policy"]);

  it("may be framed by any site with ?embed=1, and every other page refuses framing", async () => {
    const { owner, calendar } = await seed();
    const view = await newView(t, owner.auth, calendar.id, { name: "Planning only" });
    for (const path of ["/c/platform-friends", `/v/${view.slug}`]) {
      const embedded = await request(t.app).get(`${path}?embed=1&view=week`).expect(200);
      expect(csp(embedded), path).toContain("frame-ancestors *");
      expect(csp(embedded), path).toContain("default-src 'none'");
      expect(embedded.headers["x-frame-options"], path).toBeUndefined();
      for (const other of [path, `${path}?embed=0`, `${path}?embed=true`]) {
        const res = await request(t.app).get(other).expect(200);
        expect(csp(res), other).toContain("frame-ancestors 'none'");
        expect(res.headers["x-frame-options"], other).toBe("SAMEORIGIN");
      }
    }
    for (const path of ["/c/platform-friends/purpose.md?embed=1", "/c/no-such-calendar?embed=1"]) {
      const res = await request(t.app).get(path);
      expect(csp(res), path).toContain("frame-ancestors 'none'");
    }
  });

  it("shows the name and a link to the full page instead of the masthead and footer, and is cached apart", async () => {
    await seed();
    const full = await request(t.app).get("/c/platform-friends?view=month&date=2026-11-24").expect(200);
    const embedded = await request(t.app).get("/c/platform-friends?view=month&date=2026-11-24&embed=1").expect(200);
    expect(embedded.headers.etag).not.toBe(full.headers.etag);
    expect(embedded.text).toContain('<base target="_blank">');
    expect(embedded.text).toContain('<div class="embed-title"><h1>Platform &amp; friends</h1>');
    expect(embedded.text).toContain('Times in Berlin, UTC+1</span> <a href="?view=month&amp;date=2026-11-24">Open');
    expect(embedded.text).toContain('href="?view=month&amp;date=2026-12-01&amp;embed=1" target="_self" rel="next"');
    const zoned = await request(t.app).get(
      "/c/platform-friends?view=month&date=2026-11-24&embed=1&tz=America/New_York",
    );
    expect(zoned.text).toContain('href="?view=month&amp;date=2026-12-01&amp;tz=America%2FNew_York&amp;embed=1"');
    for (const chrome of ['class="masthead"', "<footer", 'class="subscribe"', 'class="lenses"'])
      expect(embedded.text).not.toContain(chrome);
    expect(full.text).toContain('class="masthead"');
    // The full page's footer gives the snippet to paste.
    const field = tagsOf(full.text).find((tag) =>
      tag.attrs.some((a) => a.name === "id" && a.value === "embed-snippet"),
    );
    const snippet = field?.attrs.find((a) => a.name === "value")?.value;
    expect(snippet).toBe(
      '<iframe src="https://almanac.test/c/platform-friends?embed=1" title="Platform &amp; friends" width="800" height="600"></iframe>',
    );
    // A copy cached for one is never served for the other.
    const again = await request(t.app).get("/c/platform-friends?view=month&date=2026-11-24").expect(200);
    expect(again.text).toContain('class="masthead"');
    const revalidated = await request(t.app)
      .get("/c/platform-friends?view=month&date=2026-11-24&embed=1")
      .set("If-None-Match", String(embedded.headers.etag))
      .expect(304);
    expect(csp(revalidated)).toContain("frame-ancestors *");
  });
});
