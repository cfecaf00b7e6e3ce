/**
 * Category colours (pages/colours.ts): a category's colour comes from its name (or its
 * owner's colour), the same on every lens, period and event page, whatever else the page
 * shows; every page has a legend of its categories.
 */
import request from "supertest";
import { beforeEach, describe, expect, it } from "vitest";
import { paletteSlot } from "../../functions/src/pages/colours.js";
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

/** The colour class on each chip of an event, by name. */
function chipColours(text: string, name: string): Set<string> {
  const chips = [...text.matchAll(/<(?:li|div|article)[^>]*class="ev [^"]*"[^>]*>[\s\S]*?<\/(?:li|div|article)>/g)];
  const of = chips.filter((m) => m[0].includes(`>${name}</span>`));
  return new Set(of.map((m) => /class="ev is-[a-z-]+ ((?:cat|own)-[0-9a-f]+)/.exec(m[0])?.[1] ?? "none"));
}

const legend = (text: string): string[] => {
  const start = text.indexOf('<section class="legend"');
  if (start < 0) return [];
  const section = text.slice(start, text.indexOf("</section>", start));
  return [...section.matchAll(/<span class="category ([^"]+)">([^<]+)<\/span>/g)].map((m) => `${m[2]}:${m[1]}`);
};

describe("category colours", () => {
  it("keeps a category's colour across two months, a new category and every lens", async () => {
    const team = `cat-${paletteSlot("team")}`;
    const november = await page(`/c/${TEAM_SLUG}?view=month&date=2026-11-24`);
    const december = await page(`/c/${TEAM_SLUG}?view=month&date=2026-12-09`);
    expect(chipColours(november, "Standup")).toEqual(new Set([team]));
    expect(chipColours(december, "Standup")).toEqual(new Set([team]));
    expect(chipColours(december, "Hiring panel")).toEqual(new Set([`cat-${paletteSlot("hiring")}`]));
    for (const view of ["week", "schedule", "timeline"]) {
      const text = await page(`/c/${TEAM_SLUG}?view=${view}&date=2026-12-09`);
      expect(legend(text), view).toContain(`team:${team}`);
    }
    const schedule = await page(`/c/${TEAM_SLUG}?view=schedule&date=2026-12-09`);
    expect(schedule).toContain(`<span class="category ${team}">team</span>`);
  });

  it("lists the page's categories in a legend, by name", async () => {
    expect(legend(await page(`/c/${TEAM_SLUG}?view=month&date=2026-11-24`))).toEqual([
      "launch:own-1f6b57",
      `team:cat-${paletteSlot("team")}`,
    ]);
    expect(legend(await page(`/c/${TEAM_SLUG}?view=month&date=2026-12-09`))).toEqual([
      `hiring:cat-${paletteSlot("hiring")}`,
      `research:cat-${paletteSlot("research")}`,
      `team:cat-${paletteSlot("team")}`,
    ]);
  });

  it("applies an owner's colour through a stylesheet named by its colours, on the lens and the event page", async () => {
    const text = await page(`/c/${TEAM_SLUG}?view=month&date=2026-11-24`);
    expect(chipColours(text, "Launch review")).toEqual(new Set(["own-1f6b57"]));
    expect(text).toContain('<link rel="stylesheet" href="/c/_assets/colours.1f6b57.css">');
    const sheet = await request(t.app).get("/c/_assets/colours.1f6b57.css");
    expect(sheet.status).toBe(200);
    expect(sheet.headers["content-type"]).toMatch(/^text\/css/);
    expect(sheet.headers["cache-control"]).toContain("immutable");
    expect(sheet.text).toBe(".own-1f6b57{--cat:#1f6b57}");
    expect((await request(t.app).get("/c/_assets/colours.1f6b5.css")).status).toBe(404);
    // A page with no owner colour on it links no such sheet.
    expect(await page(`/c/${TEAM_SLUG}?view=month&date=2026-12-09`)).not.toContain("colours.");

    const ids = [...text.matchAll(/href="(\/c\/berlin-team\/e\/[^/"]+\/2026-11-25)"/g)].map((m) => m[1]);
    const review = await page(ids.find((href) => text.includes(`${href}"><span class="name">Launch review`))!);
    expect(review).toContain('<span class="category own-1f6b57">launch</span>');
    expect(review).toContain('<link rel="stylesheet" href="/c/_assets/colours.1f6b57.css">');
    const study = await page(`/c/${TEAM_SLUG}/e/${site.study.id}/2026-12-09`);
    expect(study).toContain(`<span class="category cat-${paletteSlot("research")}">research</span>`);
  });
});
