/**
 * The Subscribe control and the embeddable variant in chromium, as a visitor without JavaScript
 * sees them at desktop and phone widths: the control opens and offers its four choices; the
 * embed renders inside an iframe of a page on another origin, where the full page is refused;
 * axe-core finds no violation with the control open, in either theme.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { BrowserContext, Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, hasChromium, SIZES, startChromium, type Chromium, type Size } from "./chromium.js";
import { seedTeam, type TeamDemo } from "./moved-site.js";

type Links = { webcal: string; google: string; outlook: string };

describe.skipIf(!hasChromium)("subscribing and embedding in chromium", () => {
  let chromium: Chromium;
  let origin: string;
  let team: TeamDemo;
  // Another origin (another port): a team's site framing the calendar.
  let site: Server;
  let siteOrigin: string;

  beforeAll(async () => {
    chromium = await startChromium("2026-12-01T09:00:00.000Z", async (t) => (team = await seedTeam(t)));
    origin = chromium.origin;
    site = createServer((req, res) => {
      const src = `${origin}${decodeURIComponent((req.url ?? "/").slice(1))}`;
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      res.end(`<!doctype html><title>Team site</title><h1>Our team</h1>
<iframe src="${src}" title="Calendar" width="800" height="600"></iframe>`);
    });
    await new Promise<void>((done) => site.listen(0, "127.0.0.1", done));
    siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  }, 60_000);

  afterAll(async () => {
    await new Promise((done) => site?.close(done));
    await chromium?.close();
  });

  const context = (size: Size, scheme: "light" | "dark" = "light", audit = false) =>
    chromium.context(size, scheme, audit);

  async function openSubscribe(ctx: BrowserContext): Promise<Page> {
    const page = await ctx.newPage();
    const res = await page.goto(`${origin}/c/platform-team?view=month&date=2026-12-01`, { waitUntil: "load" });
    expect(res?.status()).toBe(200);
    await page.locator(".subscribe summary").click();
    return page;
  }

  for (const size of Object.keys(SIZES) as Size[]) {
    it(`opens the Subscribe menu without script and shows its four choices at ${size} width`, async () => {
      const ctx = await context(size);
      try {
        const page = await openSubscribe(ctx);
        expect(await page.locator(".subscribe").getAttribute("open")).toBe("");
        const subscribe = team.calendar.subscribe as Links;
        const choices = page.locator(".subscribe-menu a");
        expect(await choices.allInnerTexts()).toEqual([
          "Apple Calendar or Outlook on the desktop",
          "Google Calendar",
          "Outlook on the web",
        ]);
        for (const [i, href] of [subscribe.webcal, subscribe.google, subscribe.outlook].entries()) {
          await expect.poll(() => choices.nth(i).isVisible()).toBe(true);
          expect(await choices.nth(i).getAttribute("href")).toBe(href);
        }
        const field = page.getByLabel("Or copy the feed address into any other calendar app");
        expect(await field.isVisible()).toBe(true);
        expect(await field.isEditable()).toBe(false);
        expect(await field.inputValue()).toBe(team.calendar.feed_url);
        // Selectable whole, for the reader to copy.
        await field.selectText();
        // The menu fits the screen: nothing of it is cut off at the right.
        const box = (await page.locator(".subscribe-menu").boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(SIZES[size].width);
        await page.locator(".subscribe summary").click();
        expect(await page.locator(".subscribe").getAttribute("open")).toBeNull();
        expect(await choices.first().isVisible()).toBe(false);
      } finally {
        await ctx.close();
      }
    }, 60_000);

    it(`renders the embed inside another site's iframe, and refuses to frame the full page, at ${size} width`, async () => {
      const ctx = await context(size);
      try {
        const page = await ctx.newPage();
        const embedPath = "/c/platform-team?embed=1&view=month&date=2026-12-01";
        await page.goto(`${siteOrigin}/${encodeURIComponent(embedPath)}`, { waitUntil: "load" });
        const embedded = await childFrame(page);
        expect(embedded.url()).toBe(`${origin}${embedPath}`);
        expect(await embedded.locator(".embed-title h1").innerText()).toBe("Platform team");
        expect(await embedded.locator("#period-heading").innerText()).toBe("December 2026");
        expect(await embedded.locator(".ev").count()).toBeGreaterThan(0);
        expect(await embedded.locator(".masthead").count()).toBe(0);
        // Its arrows stay in the frame.
        await embedded.locator('a[rel="next"]').click();
        await expect.poll(() => embedded.url()).toContain("date=2027-01-01");
        expect(await embedded.locator("#period-heading").innerText()).toBe("January 2027");

        const refused = await ctx.newPage();
        await refused.goto(`${siteOrigin}/${encodeURIComponent("/c/platform-team?view=month")}`, { waitUntil: "load" });
        const blocked = await childFrame(refused);
        expect(blocked.url()).not.toBe(`${origin}/c/platform-team?view=month`);
        expect(await blocked.locator(".masthead").count()).toBe(0);
      } finally {
        await ctx.close();
      }
    }, 60_000);
  }

  for (const scheme of ["light", "dark"] as const) {
    it(`has no axe-core violation with the Subscribe menu open in ${scheme}, at both widths`, async () => {
      for (const size of Object.keys(SIZES) as Size[]) {
        const ctx = await context(size, scheme, true);
        try {
          for (const path of ["/c/platform-team?view=month&date=2026-12-01", `/v/${team.view.slug}`]) {
            const page = await ctx.newPage();
            await page.goto(`${origin}${path}`, { waitUntil: "load" });
            await page.locator(".subscribe summary").click();
            await page.locator(".embed-code summary").evaluate((el) => el.parentElement!.setAttribute("open", ""));
            expect(await axeViolations(page, `${size} ${path}`)).toEqual([]);
            await page.close();
          }
          const embed = await ctx.newPage();
          await embed.goto(`${origin}/c/platform-team?embed=1&view=week&date=2026-12-01`, { waitUntil: "load" });
          expect(await axeViolations(embed, `${size} embed`)).toEqual([]);
        } finally {
          await ctx.close();
        }
      }
    }, 90_000);
  }
});

/** The page's one iframe, once it has loaded. */
async function childFrame(page: Page): Promise<Frame> {
  await expect.poll(() => page.frames().length).toBe(2);
  return page.frames()[1];
}
