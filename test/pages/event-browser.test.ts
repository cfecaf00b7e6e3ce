/**
 * Event pages in chromium (as browser.test.ts runs it): an occurrence opened from each lens at
 * desktop and phone widths, a moved and a cancelled occurrence as the lenses and the event page
 * show them, crowded week days, and axe-core finding no violation on the event page in either
 * theme. Screenshots go to test/.artifacts/screenshots/ (docs/screenshots/ with UPDATE_SCREENSHOTS=1).
 */
import type { BrowserContext, Page } from "playwright-core";
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
import { seedTeam, type TeamDemo } from "./moved-site.js";

const TODAY = "2026-12-01T09:00:00.000Z";
const LENSES = ["month", "week", "schedule", "timeline"] as const;

describe.skipIf(!hasChromium)("event pages in chromium", () => {
  let chromium: Chromium;
  let team: TeamDemo;

  beforeAll(async () => {
    chromium = await startChromium(TODAY, async (t) => (team = await seedTeam(t)));
  }, 60_000);

  afterAll(() => chromium?.close());

  const context = (size: Size, scheme: "light" | "dark" = "light", audit = false) =>
    chromium.context(size, scheme, audit);
  const open = (ctx: BrowserContext, path: string): Promise<Page> => openPage(ctx, chromium.origin, path);

  /** Whether text is drawn struck through (`<s>`'s line-through, as computed). */
  const struck = (page: Page, selector: string) =>
    page
      .locator(selector)
      .first()
      .evaluate(
        (el) =>
          (globalThis as unknown as { getComputedStyle(e: unknown): Record<string, string> }).getComputedStyle(el)
            .textDecorationLine,
      );

  for (const size of Object.keys(SIZES) as Size[]) {
    it(`opens an occurrence from each lens at ${size} width`, async () => {
      const ctx = await context(size);
      try {
        for (const lens of LENSES) {
          const page = await open(ctx, `/c/platform-team?view=${lens}&date=2026-12-01`);
          const link = page.locator(`a[href="/c/platform-team/e/${team.sync.id}/2026-12-01"]`).first();
          await link.click();
          await page.waitForURL(`**/e/${team.sync.id}/2026-12-01`);
          expect(await page.locator("h1").innerText(), lens).toBe("Weekly sync");
          expect(await page.locator(".event-facts").innerText(), lens).toContain("Tuesday, December 1, 2026");
          await page.close();
        }
      } finally {
        await ctx.close();
      }
    }, 60_000);

    it(`shows a moved and a cancelled occurrence in the week, the schedule and their pages at ${size} width`, async () => {
      const ctx = await context(size);
      try {
        const week = await open(ctx, "/c/platform-team?view=week&date=2026-12-07");
        const left = week.locator("li.vacated", { hasText: "moved to Wed 9 Dec 14:00" });
        expect(await left.isVisible()).toBe(true);
        expect(await struck(week, "li.vacated s")).toBe("line-through");
        expect(await week.locator(".moved-from", { hasText: "moved from Tue 8 Dec 10:00" }).isVisible()).toBe(true);
        await screenshot(week, `event-moved-week-${size}.png`);
        await left.locator("a.change").click();
        await week.waitForURL(`**/e/${team.sync.id}/2026-12-09`);
        expect(await week.locator("main").innerText()).toContain("This occurrence moved here from Tue 8 Dec 10:00.");
        await screenshot(week, `event-page-${size}.png`);
        await week.close();

        const schedule = await open(ctx, "/c/platform-team?view=schedule&date=2026-12-14");
        const cancelled = schedule.locator("li.vacated", { hasText: "Cancelled" });
        expect(await cancelled.isVisible()).toBe(true);
        expect(await struck(schedule, "li.vacated s")).toBe("line-through");
        await cancelled.locator("a.change").click();
        await schedule.waitForURL(`**/e/${team.sync.id}/2026-12-15`);
        expect(await schedule.locator(".occurrence-status").innerText()).toBe("Cancelled");
        expect(await struck(schedule, "h1 s")).toBe("line-through");
        await screenshot(schedule, `event-cancelled-${size}.png`);
        await schedule.close();
      } finally {
        await ctx.close();
      }
    }, 60_000);
  }

  it("lays overlapping events side by side at a readable width, then +N more; a phone lists them all", async () => {
    const desktop = await context("desktop");
    const phone = await context("phone");
    try {
      const page = await open(desktop, "/c/platform-team?view=week&date=2026-12-10");
      const thursday = page.locator("section.wday", { has: page.locator('time[datetime="2026-12-10"]') });
      const drawn = thursday.locator("li.ev:visible", { hasText: "Interview: backend" });
      expect(await drawn.count()).toBe(3);
      for (const box of await Promise.all((await drawn.all()).map((chip) => chip.boundingBox())))
        expect(box!.width).toBeGreaterThanOrEqual(70);
      const more = thursday.locator(".crowded-note a");
      expect(await more.innerText()).toContain("+1 more");
      expect(await more.getAttribute("href")).toBe("?view=schedule&date=2026-12-10");
      await screenshot(page, "event-crowded-week-desktop.png");
      const list = await open(phone, "/c/platform-team?view=week&date=2026-12-10");
      const listed = list
        .locator("section.wday", { has: list.locator('time[datetime="2026-12-10"]') })
        .locator("li.ev:visible", { hasText: "Interview: backend" });
      expect(await listed.count()).toBe(4);
    } finally {
      await desktop.close();
      await phone.close();
    }
  }, 60_000);

  for (const scheme of ["light", "dark"] as const) {
    it(`has no axe-core violation on the event page in ${scheme}, at both widths`, async () => {
      for (const size of Object.keys(SIZES) as Size[]) {
        const ctx = await context(size, scheme, true);
        try {
          for (const date of ["2026-12-09", "2026-12-15"]) {
            const page = await open(ctx, `/c/platform-team/e/${team.sync.id}/${date}`);
            expect(await axeViolations(page, `${size} ${date}`)).toEqual([]);
            await page.close();
          }
        } finally {
          await ctx.close();
        }
      }
    }, 60_000);
  }
});
