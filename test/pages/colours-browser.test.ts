/**
 * Category colours and the reader's zone in chromium (test/pages/chromium.ts), at desktop and
 * phone widths: a category keeps its drawn colour across two months and beside a new category,
 * an owner's colour is drawn, the zone form and `?tz=` show a New York layer's event in New
 * York time on the lens and its event page, and axe-core finds no violation on the month and
 * event pages in either theme.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  axeViolations,
  hasChromium,
  openPage,
  screenshot,
  SIZES,
  startChromium,
  type Chromium,
  type Size,
} from "./chromium.js";
import { seedColourZoneSite, TEAM_SLUG, type ColourZoneSite } from "./colour-zone-site.js";

const TODAY = "2026-11-22T10:00:00.000Z";

/** The browser's getComputedStyle, which this package's types (no DOM) do not declare. */
type BrowserGlobals = { getComputedStyle(el: unknown, pseudo?: string): Record<string, string> };

describe.skipIf(!hasChromium)("category colours and the reader's zone in chromium", () => {
  let chromium: Chromium;
  let site: ColourZoneSite;

  beforeAll(async () => {
    chromium = await startChromium(TODAY, async (t) => {
      site = await seedColourZoneSite(t);
    });
  }, 60_000);

  afterAll(async () => {
    await chromium?.close();
  });

  const open = (ctx: Awaited<ReturnType<Chromium["context"]>>, path: string) => openPage(ctx, chromium.origin, path);

  /** The colour drawn beside every chip of an event (its left border), as the browser computes it. */
  const drawn = (page: Page, name: string): Promise<string[]> =>
    page
      .locator(".ev", { hasText: name })
      .evaluateAll((chips) => [
        ...new Set(
          chips.map((chip) => (globalThis as unknown as BrowserGlobals).getComputedStyle(chip).borderLeftColor),
        ),
      ]);

  const legendColour = (page: Page, category: string): Promise<string> =>
    page
      .locator(".legend .category", { hasText: category })
      .evaluate((el) => (globalThis as unknown as BrowserGlobals).getComputedStyle(el, "::before").backgroundColor);

  for (const size of Object.keys(SIZES) as Size[]) {
    it(`keeps a category's colour across two months and a new category, on a ${size}`, async () => {
      const ctx = await chromium.context(size);
      try {
        const november = await open(ctx, `/c/${TEAM_SLUG}?view=month&date=2026-11-24`);
        const december = await open(ctx, `/c/${TEAM_SLUG}?view=month&date=2026-12-09`);
        const standup = await drawn(november, "Standup");
        expect(standup).toHaveLength(1);
        expect(await drawn(december, "Standup")).toEqual(standup);
        expect(await legendColour(november, "team")).toBe(standup[0]);
        expect(await legendColour(december, "team")).toBe(standup[0]);
        expect(await drawn(december, "Hiring panel")).toEqual([await legendColour(december, "hiring")]);
        // The owner's colour, from the stylesheet the page names.
        expect(await drawn(november, "Launch review")).toEqual(["rgb(31, 107, 87)"]);
        expect(await legendColour(november, "launch")).toBe("rgb(31, 107, 87)");
        await screenshot(december, `month-colours-${size}.png`);
      } finally {
        await ctx.close();
      }
    }, 60_000);

    it(`shows a New York layer's event in the zone the reader picks, on a ${size}`, async () => {
      const ctx = await chromium.context(size);
      try {
        const page = await open(ctx, `/c/${TEAM_SLUG}?view=schedule&date=2026-12-09`);
        const study = page.locator(".ev", { hasText: "Usability study" });
        expect(await study.locator(".when").first().innerText()).toMatch(/^15:00/);
        await page.fill("#reader-zone", "America/New_York");
        await Promise.all([page.waitForURL(/tz=America%2FNew_York/), page.click(".zone-form button")]);
        expect(await page.locator(".facts").innerText()).toContain("Times in New York, UTC\u22125");
        expect(await study.locator(".when").first().innerText()).toMatch(/^09:00/);
        await Promise.all([page.waitForURL(/\/e\//), study.locator("a.name-link").click()]);
        expect(page.url()).toContain(`/e/${site.study.id}/2026-12-09?tz=America%2FNew_York`);
        const facts = await page.locator(".event-facts").innerText();
        expect(facts).toContain("09:00");
        expect(facts).toContain("New York, UTC\u22125");
        expect(facts).toContain("whose times are set in America/New_York");
      } finally {
        await ctx.close();
      }
    }, 60_000);
  }

  for (const scheme of ["light", "dark"] as const) {
    it(`has no axe-core violation on the month and event pages in ${scheme}, at both widths`, async () => {
      const paths = [
        `/c/${TEAM_SLUG}?view=month&date=2026-11-24`,
        `/c/${TEAM_SLUG}?view=month&date=2026-12-09&tz=America%2FNew_York`,
        `/c/${TEAM_SLUG}?view=month&date=2026-12-09&tz=Mars%2FOlympus`,
        `/c/${TEAM_SLUG}/e/${site.study.id}/2026-12-09`,
      ];
      for (const size of Object.keys(SIZES) as Size[]) {
        const ctx = await chromium.context(size, scheme, true);
        try {
          for (const path of paths) {
            const page = await open(ctx, path);
            expect(await axeViolations(page, `${size} ${path}`)).toEqual([]);
            await page.close();
          }
        } finally {
          await ctx.close();
        }
      }
    }, 90_000);
  }
});
