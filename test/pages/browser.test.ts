/**
 * The pages in a real browser: Debian's chromium driven by playwright-core against the local
 * server (API + pages on a temporary SQLite store). Each lens and a share view, at desktop
 * and phone widths, in light and dark: no serious or critical axe-core violations, nothing
 * refused by the Content-Security-Policy, and a screenshot in test/.artifacts/screenshots/
 * (in docs/screenshots/, which the README shows, when UPDATE_SCREENSHOTS=1).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from "playwright-core";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalServer } from "../../functions/src/server.js";
import { type TestApp, testClock } from "../helpers/app.js";
import { seedDemo, seedZones, type Demo } from "./site.js";

const CHROMIUM = "/usr/bin/chromium";
/** A Tuesday, so this week's lens shows the demo's busiest days. */
const TODAY = "2026-11-24T09:00:00.000Z";
const SCREENSHOTS = resolve(
  import.meta.dirname,
  process.env.UPDATE_SCREENSHOTS === "1" ? "../../docs/screenshots" : "../.artifacts/screenshots",
);
const AXE = resolve(import.meta.dirname, "../../node_modules/axe-core/axe.min.js");

const SIZES = {
  desktop: { width: 1280, height: 860 },
  phone: { width: 390, height: 844 },
} as const;
const SCHEMES = ["light", "dark"] as const;
const MAX_SHOT_HEIGHT = 1600;
const LENSES = ["month", "week", "schedule", "timeline"] as const;

// A 1x1 amber PNG, served for the demo's image art (the browser reaches no other host).
const PIXEL = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8v5ThPwAG3AKaGvSlKQAAAABJRU5ErkJggg==",
  "base64",
);

/** What the browser-side functions below use of the DOM (the tests compile without the DOM lib). */
type BrowserGlobals = { getComputedStyle(el: unknown): Record<string, string> };

/** A computed style property of the first element the locator finds. */
const computed = (locator: Locator, property: string): Promise<string> =>
  locator.evaluate((el, prop) => (globalThis as unknown as BrowserGlobals).getComputedStyle(el)[prop], property);

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown; failureSummary?: string }>;
}

describe.skipIf(!existsSync(CHROMIUM))("public pages in chromium", () => {
  let browser: Browser;
  let origin: string;
  let demo: Demo;
  let close: () => Promise<void>;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "almanac-browser-"));
    const local = await startLocalServer({ port: 0, dataDir, clock: testClock(TODAY), log: () => {} });
    close = local.close;
    origin = `http://127.0.0.1:${(local.server.address() as AddressInfo).port}`;
    // supertest speaks to the listening server: seeding goes through the real API.
    demo = await seedDemo({ app: local.server } as unknown as Pick<TestApp, "app">);
    await seedZones({ app: local.server } as unknown as Pick<TestApp, "app">);
    expect((await request(local.server).get("/c/launch-plan")).status).toBe(200);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await close?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** `audit`: JavaScript on and the CSP bypassed, for axe; otherwise as a visitor without JavaScript. */
  async function context(
    size: keyof typeof SIZES,
    scheme: (typeof SCHEMES)[number],
    audit: boolean,
  ): Promise<BrowserContext> {
    const ctx = await browser.newContext({
      viewport: SIZES[size],
      colorScheme: scheme,
      bypassCSP: audit,
      javaScriptEnabled: audit,
      deviceScaleFactor: 1,
      locale: "en-US",
    });
    await ctx.route("https://images.example.com/**", (route) =>
      route.fulfill({ status: 200, contentType: "image/png", body: PIXEL }),
    );
    return ctx;
  }

  async function open(ctx: BrowserContext, path: string): Promise<{ page: Page; refused: string[] }> {
    const page = await ctx.newPage();
    const refused: string[] = [];
    page.on("console", (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) refused.push(msg.text());
    });
    const res = await page.goto(`${origin}${path}`, { waitUntil: "load" });
    expect(res?.status()).toBe(200);
    return { page, refused };
  }

  /** The whole page, cut at MAX_SHOT_HEIGHT so the committed images stay small. */
  async function screenshot(page: Page, file: string): Promise<void> {
    const height = await page.locator("html").evaluate((el) => el.scrollHeight);
    const { width } = page.viewportSize()!;
    await page.screenshot({
      path: join(SCREENSHOTS, file),
      fullPage: true,
      clip: { x: 0, y: 0, width, height: Math.min(height, MAX_SHOT_HEIGHT) },
    });
  }

  async function seriousViolations(page: Page): Promise<AxeViolation[]> {
    await page.addScriptTag({ path: AXE });
    const violations = await page.evaluate<AxeViolation[]>("axe.run(document).then((result) => result.violations)");
    return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  }

  const pages = () => [
    ...LENSES.map((lens) => ({ name: `calendar-${lens}`, path: `/c/launch-plan?view=${lens}` })),
    { name: "view-schedule", path: `/v/${demo.view.slug}` },
    // A layer in another zone, an overnight event continued the next day, short chips with layer badges.
    { name: "zones-week", path: "/c/new-york-team?view=week&date=2026-11-24" },
  ];

  for (const size of Object.keys(SIZES) as Array<keyof typeof SIZES>) {
    for (const scheme of SCHEMES) {
      it(`renders every lens and the view page at ${size} width in ${scheme}, under the CSP, accessibly`, async () => {
        const strict = await context(size, scheme, false);
        const axeContext = await context(size, scheme, true);
        try {
          for (const { name, path } of pages()) {
            const { page, refused } = await open(strict, path);
            expect(refused, `${name}: ${refused.join("\n")}`).toEqual([]);
            // The stylesheet applied (no inline styles needed): the body has the scheme's background.
            const background = await computed(page.locator("body"), "backgroundColor");
            expect(background).toBe(scheme === "light" ? "rgb(247, 246, 242)" : "rgb(19, 21, 23)");
            await screenshot(page, `${name}-${size}-${scheme}.png`);
            await page.close();

            const audited = await open(axeContext, path);
            const violations = await seriousViolations(audited.page);
            expect(
              violations.map(
                (v) =>
                  `${name}: ${v.id} (${v.impact}) ${v.help} at ${JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target))}`,
              ),
            ).toEqual([]);
            await audited.page.close();
          }
        } finally {
          await strict.close();
          await axeContext.close();
        }
      }, 120_000);
    }
  }

  it("draws the Berlin layer's 09:30 standup at 03:30 on the New York calendar, in every lens", async () => {
    const ctx = await context("desktop", "light", false);
    const quick = { timeout: 5000 };
    try {
      for (const lens of LENSES) {
        const { page, refused } = await open(ctx, `/c/new-york-team?view=${lens}&date=2026-11-24`);
        expect(refused, lens).toEqual([]);
        expect(await page.locator(".facts").innerText(quick)).toContain("Times in New York, UTC\u22125");
        // Month, week and schedule draw each occurrence (Tuesday's here); the timeline one bar for the series.
        const tuesday = page.locator(lens === "month" ? "td" : "section", {
          has: page.locator('time[datetime="2026-11-24"]'),
        });
        const standup = (
          lens === "timeline" ? page.locator(".lane", { has: page.locator("#lane-l-berlin-office") }) : tuesday
        ).locator("li.ev", { hasText: "Standup" });
        expect(await standup.count(), lens).toBe(1);
        // Its times as text (the week grid shows a short event's end only to screen readers and in the title).
        const when = (await standup.locator(".when").first().textContent(quick))!.replace(/\s+/g, " ");
        expect(when, lens).toContain("03:30–03:45");
        expect(await standup.getAttribute("title", quick), lens).toBe(
          lens === "month" || lens === "week" ? "03:30–03:45 Standup · layer berlin-office" : null,
        );
        expect(await page.locator("main").innerText(quick), lens).not.toContain("09:30");
        await screenshot(page, `zones-${lens}-desktop-light.png`);
        await page.close();
      }
    } finally {
      await ctx.close();
    }
  }, 60_000);

  it("shows a layer's whole name in a month cell where it fits, and the whole label as the chip's title", async () => {
    const ctx = await context("desktop", "light", false);
    try {
      const { page } = await open(ctx, "/c/new-york-team?view=month&date=2026-11-24");
      const chip = page.locator("td", { has: page.locator('time[datetime="2026-11-24"]') }).locator("li.ev", {
        hasText: "Standup",
      });
      expect(await chip.getAttribute("title")).toBe("03:30–03:45 Standup · layer berlin-office");
      const badge = chip.locator(".layer");
      const cut = await badge.evaluate((el) => {
        const box = el as unknown as { scrollWidth: number; clientWidth: number };
        return box.scrollWidth > box.clientWidth;
      });
      expect(cut).toBe(false);
      expect(await badge.innerText()).toContain("berlin-office");
    } finally {
      await ctx.close();
    }
  });

  it("keeps a short week chip to one line on the grid, and shows its end time in the phone's list", async () => {
    for (const [size, position] of [
      ["desktop", "absolute"],
      ["phone", "static"],
    ] as const) {
      const ctx = await context(size, "light", false);
      try {
        const { page } = await open(ctx, "/c/new-york-team?view=week&date=2026-11-24");
        const standup = page
          .locator("section", { has: page.locator('time[datetime="2026-11-24"]') })
          .locator("li.ev.short", { hasText: "Standup" });
        expect(await computed(standup.locator(".until"), "position"), size).toBe(position);
        expect(await standup.locator(".name").isVisible(), size).toBe(true);
      } finally {
        await ctx.close();
      }
    }
  });

  it("lays the month grid out as a list on a phone, and shows art images", async () => {
    const ctx = await context("phone", "light", true);
    try {
      const { page } = await open(ctx, "/c/launch-plan?view=month&date=2026-11-01");
      // Days without events and days of other months are hidden; a day with events is a block.
      expect(await computed(page.locator("td.day.empty").first(), "display")).toBe("none");
      expect(await computed(page.locator("td.day:not(.empty):not(.other-month)").first(), "display")).toBe("grid");
      expect(await computed(page.locator("table.month tbody tr").first(), "display")).toBe("block");
      const art = page.locator('img.art[referrerpolicy="no-referrer"]').first();
      const loaded = await art.evaluate((el) => {
        const img = el as unknown as { complete: boolean; naturalWidth: number };
        return img.complete && img.naturalWidth > 0;
      });
      expect(loaded).toBe(true);
    } finally {
      await ctx.close();
    }
  });
});
