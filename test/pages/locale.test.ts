/**
 * Dates in the reader's locale (pages/locale.ts): the calendar's `locale`, else Accept-Language;
 * English readers keep the pages' own labels. The cache keeps each locale's page apart.
 */
import request from "supertest";
import { beforeEach, describe, expect, it } from "vitest";
import { appPerTest } from "../helpers/app.js";
import { patch } from "../helpers/http.js";
import { createSiteTestApp } from "./site.js";
import { seedColourZoneSite, TEAM_SLUG, type ColourZoneSite } from "./colour-zone-site.js";

const t = appPerTest(createSiteTestApp); // today is Sunday 2026-11-22
let site: ColourZoneSite;
beforeEach(async () => {
  site = await seedColourZoneSite(t);
});

const get = (path: string, language?: string) => {
  const req = request(t.app).get(path);
  return language ? req.set("Accept-Language", language) : req;
};
const eventPath = () => `/c/${TEAM_SLUG}/e/${site.study.id}/2026-12-09`;

describe("dates in the reader's locale", () => {
  it("writes dates in English without Accept-Language, and in German for a German reader", async () => {
    const english = await get(eventPath());
    expect(english.text).toContain("Wednesday, December 9, 2026");
    expect(english.headers.vary).toMatch(/Accept-Language/i);

    const german = await get(eventPath(), "de-DE,de;q=0.9,en;q=0.5");
    expect(german.status).toBe(200);
    expect(german.text).toContain("Mittwoch, 9. Dezember 2026");
    expect(german.text).toContain(">15:00<");
    expect(german.headers.etag).not.toBe(english.headers.etag);

    const month = await get(`/c/${TEAM_SLUG}?view=month&date=2026-12-09`, "de");
    expect(month.text).toContain("Dezember 2026");
    expect(month.text).toContain('<time datetime="2026-12-09T09:30">09:30</time>');
    expect(month.text).toContain('<th scope="col"><abbr title="Montag">Mo</abbr></th>');
    expect(month.headers.vary).toMatch(/Accept-Language/i);
  });

  it("keeps English for an English reader, and for languages Intl does not know", async () => {
    expect((await get(eventPath(), "en-GB,en;q=0.8")).text).toContain("Wednesday, December 9, 2026");
    expect((await get(eventPath(), "xx-unknown")).text).toContain("Wednesday, December 9, 2026");
  });

  it("writes the calendar's locale whatever the reader's, with its clock", async () => {
    await patch(t, `/v1/calendars/${site.team.id}`, site.owner.auth).send({ locale: "en-US" });
    const american = await get(eventPath(), "de");
    expect(american.text).toContain("Wednesday, December 9, 2026");
    expect(american.text).toMatch(/>3:00\sPM</);

    await patch(t, `/v1/calendars/${site.team.id}`, site.owner.auth).send({ locale: "de" });
    const german = await get(eventPath(), "en-US");
    expect(german.text).toContain("Mittwoch, 9. Dezember 2026");
    expect(german.text).toContain(">15:00<");
  });
});
