/**
 * Calendar and view records carry `subscribe`: the links that add their feed to Apple Calendar
 * or Outlook on the desktop (`webcal:`), Google Calendar and Outlook on the web, beside `url`
 * and `feed_url` (docs/api.md#feed-urls). A feed that answers no one (a private calendar, a
 * revoked view) offers none.
 */
import request from "supertest";
import { beforeEach, describe, expect, it } from "vitest";
import { createPagesApp } from "../../functions/src/pages/app.js";
import { appPerTest } from "../helpers/app.js";
import { mintAgent, newCalendar, newView, patchCalendar, type MintedAgent } from "../helpers/factories.js";
import { del, get } from "../helpers/http.js";

const t = appPerTest();
let scout: MintedAgent;

beforeEach(async () => {
  scout = await mintAgent(t);
});

type Links = { webcal: string; google: string; outlook: string };
/** A calendar or view record, as far as these tests read it. */
type WithFeed = { id: string; feed_url: string; subscribe: Links };
const withFeed = (record: object) => record as WithFeed;

/** The feed each link adds, read back out of it: every one must name `feedUrl`. */
function feedsNamed(links: Links): string[] {
  const google = new URL(links.google);
  const outlook = new URL(links.outlook);
  expect(google.origin + google.pathname).toBe("https://calendar.google.com/calendar/r");
  expect(outlook.origin + outlook.pathname).toBe("https://outlook.live.com/calendar/0/addfromweb");
  const cid = google.searchParams.get("cid")!;
  return [links.webcal, cid]
    .map((webcal) => webcal.replace(/^webcal:/, "https:"))
    .concat(outlook.searchParams.get("url")!);
}

describe("subscribe links on calendar records", () => {
  it("spells out webcal, Google Calendar and Outlook links of the feed, the name encoded", async () => {
    const cal = withFeed(await newCalendar(t, scout, { name: "R&D: launch plan", slug: "rd-launch" }));
    expect(cal.feed_url).toBe("https://almanac.test/c/rd-launch.ics");
    expect(cal.subscribe).toEqual({
      webcal: "webcal://almanac.test/c/rd-launch.ics",
      google: "https://calendar.google.com/calendar/r?cid=webcal%3A%2F%2Falmanac.test%2Fc%2Frd-launch.ics",
      outlook:
        "https://outlook.live.com/calendar/0/addfromweb?url=https%3A%2F%2Falmanac.test%2Fc%2Frd-launch.ics" +
        "&name=R%26D%3A%20launch%20plan",
    });
    expect(new URL(cal.subscribe.outlook).searchParams.get("name")).toBe("R&D: launch plan");
    expect(feedsNamed(cal.subscribe)).toEqual([cal.feed_url, cal.feed_url, cal.feed_url]);
  });

  it("leads to a feed that answers: each link's feed is the calendar's .ics", async () => {
    const cal = withFeed(await newCalendar(t, scout, { name: "Launch", visibility: "public" }));
    const pages = createPagesApp(t.deps);
    for (const feed of new Set(feedsNamed(cal.subscribe))) {
      const res = await request(pages).get(new URL(feed).pathname);
      expect(res.status, feed).toBe(200);
      expect(res.headers["content-type"]).toMatch(/^text\/calendar/);
    }
  });

  it("is on every answer that carries the calendar: mint, GET, PATCH; null while it is private", async () => {
    const minted = (await get(t, `/v1/calendars/${scout.calendarId}`, scout.auth).expect(200)).body;
    expect(minted.subscribe.webcal).toBe(minted.feed_url.replace(/^https:/, "webcal:"));

    const secret = await newCalendar(t, scout, { name: "Secret", visibility: "private" });
    expect(secret.feed_url).toMatch(/\.ics$/);
    expect(secret.subscribe).toBeNull();
    expect((await get(t, `/v1/calendars/${secret.id}`, scout.auth).expect(200)).body.subscribe).toBeNull();

    const opened = withFeed(await patchCalendar(t, scout, secret.id, { visibility: "unlisted", name: "Open plan" }));
    expect(opened.subscribe).toMatchObject({ webcal: opened.feed_url.replace(/^https:/, "webcal:") });
    expect(new URL(opened.subscribe.outlook).searchParams.get("name")).toBe("Open plan");
  });
});

describe("subscribe links on share views", () => {
  it("name the view's feed, not the calendar's, and are null once the view is revoked", async () => {
    const view = withFeed(await newView(t, scout, scout.calendarId, { name: "Press" }));
    expect(view.feed_url).toMatch(/^https:\/\/almanac\.test\/v\/[a-z0-9]+\.ics$/);
    expect(feedsNamed(view.subscribe)).toEqual([view.feed_url, view.feed_url, view.feed_url]);
    expect(new URL(view.subscribe.outlook).searchParams.get("name")).toBe("Press");

    const path = `/v1/calendars/${scout.calendarId}/views`;
    await del(t, `${path}/${view.id}`, scout.auth).expect(200);
    const listed = (await get(t, path, scout.auth).expect(200)).body.views;
    expect(listed).toEqual([expect.objectContaining({ id: view.id, feed_url: view.feed_url, subscribe: null })]);
  });
});
