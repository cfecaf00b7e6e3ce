/**
 * The reader's zone (pages/reader-zone.ts): `?tz=` shows a Berlin calendar's page and event
 * pages in New York time, links keep it, an unknown zone is ignored with a note, and the cache
 * keeps each zone's page apart.
 */
import request from "supertest";
import { beforeEach, describe, expect, it } from "vitest";
import { appPerTest } from "../helpers/app.js";
import { createSiteTestApp } from "./site.js";
import { seedColourZoneSite, TEAM_SLUG, type ColourZoneSite } from "./colour-zone-site.js";

const t = appPerTest(createSiteTestApp); // today is Sunday 2026-11-22
let site: ColourZoneSite;
beforeEach(async () => {
  site = await seedColourZoneSite(t);
});

async function page(path: string): Promise<string> {
  const res = await request(t.app).get(path);
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return res.text;
}

const NEW_YORK = "tz=America%2FNew_York";
const study = (text: string) => {
  const at = text.indexOf(">Usability study<");
  expect(at).toBeGreaterThan(0);
  return text.slice(text.lastIndexOf("<li", at), text.indexOf("</li>", at));
};

describe("the reader's zone", () => {
  it("shows a New York layer's event in Berlin time, and in New York time with ?tz=", async () => {
    const berlin = await page(`/c/${TEAM_SLUG}?view=schedule&date=2026-12-09`);
    expect(berlin).toContain("<li>Times in Berlin, UTC+1</li>");
    expect(study(berlin)).toContain('<time datetime="2026-12-09T15:00">15:00</time>');

    const newYork = await page(`/c/${TEAM_SLUG}?view=schedule&date=2026-12-09&${NEW_YORK}`);
    expect(newYork).toContain("<li>Times in New York, UTC\u22125</li>");
    expect(study(newYork)).toContain('<time datetime="2026-12-09T09:00">09:00</time>');
    expect(study(newYork)).toContain(`/e/${site.study.id}/2026-12-09?${NEW_YORK}"`);
    // Lenses, periods, today and the date form keep the zone; the zone form offers the way back.
    expect(newYork).toContain(`href="?view=month&amp;date=2026-12-09&amp;${NEW_YORK}"`);
    expect(newYork).toMatch(/rel="prev"/);
    const withoutZone = [...newYork.matchAll(/href="(\?view=[^"]*)"/g)].filter((m) => !m[1].includes(NEW_YORK));
    // Only the way back to the calendar's zone leaves it.
    expect(withoutZone.map((m) => m[1])).toEqual(["?view=schedule&amp;date=2026-12-09"]);
    expect(newYork).toContain('<input type="hidden" name="tz" value="America/New_York">');
    expect(newYork).toContain('name="tz" value="America/New_York" placeholder="Area/City"');
    expect(newYork).toContain("Back to the calendar's zone (Europe/Berlin)");
  });

  it("moves an occurrence to the reader's date: a Berlin 09:30 standup is 03:30 the same day in New York", async () => {
    const newYork = await page(`/c/${TEAM_SLUG}?view=week&date=2026-11-24&${NEW_YORK}`);
    expect(newYork).toContain('<time datetime="2026-11-24T03:30">03:30</time>');
    expect(newYork).not.toContain(">09:30<");
  });

  it("says on the event page which zone it shows, and that the layer's times are set in New York", async () => {
    const path = `/c/${TEAM_SLUG}/e/${site.study.id}/2026-12-09`;
    const berlin = await page(path);
    expect(berlin).toContain("15:00");
    expect(berlin).toContain("(Berlin, UTC+1)");
    expect(berlin).toContain("<dt>In its own calendar</dt>");
    expect(berlin).toContain("whose times are set in America/New_York");

    const newYork = await page(`${path}?${NEW_YORK}`);
    expect(newYork).toContain('<time datetime="2026-12-09T09:00">09:00</time>');
    expect(newYork).toContain("(New York, UTC\u22125)");
    expect(newYork).not.toContain("<dt>In its own calendar</dt>");
    expect(newYork).toContain("whose times are set in America/New_York");
    expect(newYork).toContain(`href="/c/${TEAM_SLUG}?date=2026-12-09&amp;${NEW_YORK}"`);
  });

  it("ignores an unknown zone and says so", async () => {
    const text = await page(`/c/${TEAM_SLUG}?view=schedule&date=2026-12-09&tz=Mars%2FOlympus`);
    expect(text).toContain("“Mars/Olympus” is not a time zone this page knows");
    expect(study(text)).toContain(">15:00<");
    expect(text).not.toContain("tz=Mars");
    const event = await page(`/c/${TEAM_SLUG}/e/${site.study.id}/2026-12-09?tz=Mars%2FOlympus`);
    expect(event).toContain("“Mars/Olympus” is not a time zone this page knows");
  });

  it("caches each zone's page apart: their ETags differ, and each answers 304 to its own", async () => {
    const plain = await request(t.app).get(`/c/${TEAM_SLUG}?view=month&date=2026-12-09`);
    const zoned = await request(t.app).get(`/c/${TEAM_SLUG}?view=month&date=2026-12-09&${NEW_YORK}`);
    const spelled = await request(t.app).get(`/c/${TEAM_SLUG}?view=month&date=2026-12-09&tz=america/new_york`);
    expect(plain.headers.etag).toBeTruthy();
    expect(zoned.headers.etag).not.toBe(plain.headers.etag);
    expect(spelled.headers.etag).toBe(zoned.headers.etag);
    const again = await request(t.app)
      .get(`/c/${TEAM_SLUG}?view=month&date=2026-12-09&${NEW_YORK}`)
      .set("If-None-Match", zoned.headers.etag);
    expect(again.status).toBe(304);
    const event = `/c/${TEAM_SLUG}/e/${site.study.id}/2026-12-09`;
    const eventPlain = await request(t.app).get(event);
    const eventZoned = await request(t.app).get(`${event}?${NEW_YORK}`);
    expect(eventZoned.headers.etag).not.toBe(eventPlain.headers.etag);
  });
});
