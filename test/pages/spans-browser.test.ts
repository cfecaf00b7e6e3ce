/**
 * Bars across days in chromium, at desktop and phone widths: a 3-day offsite is one bar in
 * Month, a Monday-to-Wednesday conference one bar in Week, and axe-core finds no violation
 * on either lens, or on the schedule listing the offsite as going on, in both themes.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  axeViolations,
  hasChromium,
  openPage,
  screenshot,
  screenshotPath,
  SIZES,
  startChromium,
  type Chromium,
} from "./chromium.js";
import { seedSpans } from "./span-site.js";

const MONTH = "/c/team-offsite?view=month&date=2026-12-01";
const WEEK = "/c/team-offsite?view=week&date=2026-12-07";
/** From the offsite's second day: it is listed as going on. */
const SCHEDULE = "/c/team-offsite?view=schedule&date=2026-12-03";

describe.skipIf(!hasChromium)("bars across days in chromium", () => {
  let chromium: Chromium;
  beforeAll(async () => {
    chromium = await startChromium("2026-12-01T09:00:00.000Z", seedSpans);
  }, 60_000);
  afterAll(() => chromium?.close());

  /** The left and right edges of the first match of `selector`. */
  async function edges(page: Page, selector: string): Promise<{ left: number; right: number }> {
    const box = (await page.locator(selector).first().boundingBox())!;
    return { left: box.x, right: box.x + box.width };
  }

  /** That the bar's box starts in the first day's box and ends in the last's, within 10 px. */
  async function expectAcross(page: Page, bar: string, first: string, last: string): Promise<void> {
    const { left, right } = await edges(page, bar);
    const from = await edges(page, first);
    const to = await edges(page, last);
    expect(left).toBeGreaterThanOrEqual(from.left);
    expect(left).toBeLessThan(from.left + 10);
    expect(right).toBeLessThanOrEqual(to.right);
    expect(right).toBeGreaterThan(to.right - 10);
  }

  it("draws the 3-day offsite as one bar across its days in Month at desktop width", async () => {
    const ctx = await chromium.context("desktop");
    try {
      const page = await openPage(ctx, chromium.origin, MONTH);
      const bars = page.locator("li.ev.span", { hasText: "Offsite in Leipzig" });
      expect(await bars.count()).toBe(1);
      await expectAcross(
        page,
        'li.ev.span:has-text("Offsite in Leipzig")',
        'td:has(time[datetime="2026-12-02"])',
        'td:has(time[datetime="2026-12-04"])',
      );
      // The trip goes on past Sunday: one bar a week row, marked at the row's edges.
      const trip = page.locator("li.ev.span", { hasText: "Trip to Lisbon" });
      expect(await trip.count()).toBe(2);
      expect(await trip.nth(0).getAttribute("class")).toContain("continues");
      expect(await trip.nth(1).getAttribute("class")).toContain("continued");
      // The overnight migration stays a chip on its first day.
      expect(await page.locator("li.ev:not(.span)", { hasText: "Database migration" }).count()).toBe(1);
      await screenshot(page, "month-spans-desktop.png");
    } finally {
      await ctx.close();
    }
  }, 60_000);

  it("draws Monday 09:00 to Wednesday 17:00 as one bar across three days in Week at desktop width", async () => {
    const ctx = await chromium.context("desktop");
    try {
      const page = await openPage(ctx, chromium.origin, WEEK);
      const bars = page.locator(".week-spans li.ev", { hasText: "Conference" });
      expect(await bars.count()).toBe(1);
      expect(await bars.innerText()).toContain("09:00");
      expect(await bars.innerText()).toContain("until 17:00");
      await expectAcross(
        page,
        '.week-spans li.ev:has-text("Conference")',
        'section.wday:has(time[datetime="2026-12-07"])',
        'section.wday:has(time[datetime="2026-12-09"])',
      );
      expect(await page.locator(".timed li.ev", { hasText: "Conference" }).count()).toBe(0);
      await screenshot(page, "week-spans-desktop.png");
    } finally {
      await ctx.close();
    }
  }, 60_000);

  it("lists the offsite in Schedule from its second day as going on, at desktop and phone widths", async () => {
    for (const size of Object.keys(SIZES) as Array<keyof typeof SIZES>) {
      const ctx = await chromium.context(size);
      try {
        const page = await openPage(ctx, chromium.origin, SCHEDULE);
        for (const [date, shown] of [
          ["2026-12-03", true],
          ["2026-12-04", true],
          ["2026-12-05", false],
        ] as const) {
          const offsite = page.locator(`section.agenda-day[aria-labelledby="day-${date}"] li.ev`, {
            hasText: "Offsite in Leipzig",
          });
          expect(await offsite.count(), date).toBe(shown ? 1 : 0);
          if (shown) expect(await offsite.innerText()).toMatch(/^continues · until Fri 4 Dec\s+since Wed 2 Dec/);
        }
        await screenshot(page, `schedule-going-on-${size}.png`);
      } finally {
        await ctx.close();
      }
    }
  }, 60_000);

  it("opens Week at the working day, with an overnight migration marked where it goes on", async () => {
    const ctx = await chromium.context("desktop");
    try {
      const page = await openPage(ctx, chromium.origin, "/c/team-offsite?view=week&date=2026-12-01");
      expect(await page.locator(".hours li").first().innerText()).toBe("08:00");
      const standup = (await page.locator(".timed li.ev", { hasText: "Standup" }).first().boundingBox())!;
      expect(standup.y + standup.height).toBeLessThanOrEqual(SIZES.desktop.height);
      const tuesday = page.locator('section.wday:has(time[datetime="2026-12-01"])');
      expect(await tuesday.locator(".goes-on").innerText()).toBe("continues to 02:00 →");
      const wednesday = page.locator('section.wday:has(time[datetime="2026-12-02"])');
      expect(await wednesday.locator(".untimed li.ev", { hasText: "Database migration" }).innerText()).toContain(
        "until 02:00",
      );
      await screenshot(page, "week-working-day-desktop.png");
    } finally {
      await ctx.close();
    }
  }, 60_000);

  it("draws durations to scale in Timeline: the 3-day offsite's bar is three times the 30-minute 1:1's", async () => {
    const ctx = await chromium.context("desktop");
    try {
      const page = await openPage(ctx, chromium.origin, "/c/team-offsite?view=timeline&date=2026-12-01");
      const bar = async (name: string) =>
        (await page.locator("li.tl-item", { hasText: name }).locator(".tl-bar").boundingBox())!.width;
      const offsite = await bar("Offsite in Leipzig");
      const oneOnOne = await bar("1:1 with Sam");
      expect(offsite / oneOnOne).toBeGreaterThan(2.7);
      expect(offsite / oneOnOne).toBeLessThan(3.3);
      await screenshot(page, "timeline-to-scale-desktop.png");
    } finally {
      await ctx.close();
    }
  }, 60_000);

  it("lists the offsite once, within the screen's width, on a phone", async () => {
    const ctx = await chromium.context("phone");
    try {
      const month = await openPage(ctx, chromium.origin, MONTH);
      const bar = month.locator("li.ev.span", { hasText: "Offsite in Leipzig" });
      expect(await bar.count()).toBe(1);
      expect(await bar.isVisible()).toBe(true);
      expect((await bar.boundingBox())!.width).toBeLessThanOrEqual(SIZES.phone.width);
      await screenshot(month, "month-spans-phone.png");
      const week = await openPage(ctx, chromium.origin, WEEK);
      expect(await week.locator(".week-spans li.ev", { hasText: "Conference" }).isVisible()).toBe(true);
    } finally {
      await ctx.close();
    }
  }, 60_000);

  it("shows events on a phone's first screen in Month, Week and Schedule", async () => {
    const ctx = await chromium.context("phone");
    try {
      for (const lens of ["month", "week", "schedule"]) {
        const page = await openPage(ctx, chromium.origin, `/c/team-offsite?view=${lens}&date=2026-12-01`);
        const first = (await page.locator("li.ev:visible").first().boundingBox())!;
        expect(first.y + first.height, lens).toBeLessThanOrEqual(SIZES.phone.height);
        if (lens === "month") await page.screenshot({ path: screenshotPath("phone-first-screen.png") });
        await page.close();
      }
    } finally {
      await ctx.close();
    }
  }, 60_000);

  for (const scheme of ["light", "dark"] as const) {
    it(`has no axe-core violation on Month and Week with bars, or Schedule going on, in ${scheme}`, async () => {
      for (const size of Object.keys(SIZES) as Array<keyof typeof SIZES>) {
        const ctx = await chromium.context(size, scheme, true);
        try {
          for (const path of [MONTH, WEEK, SCHEDULE, "/c/team-offsite?view=timeline&date=2026-12-01"]) {
            const page = await openPage(ctx, chromium.origin, path);
            expect(await axeViolations(page, `${size} ${path}`)).toEqual([]);
            await page.close();
          }
        } finally {
          await ctx.close();
        }
      }
    }, 60_000);
  }
});
