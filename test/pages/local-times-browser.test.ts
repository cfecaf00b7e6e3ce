/**
 * The claim page's times in the reader's zone, in chromium: its script (web/local-times.ts)
 * writes the link's expiry in the browser's zone and locale, naming the zone, under the
 * pages' CSP; without script the page keeps it in UTC, named. The account page's times are
 * the same `<time class="instant">` (pages/humans/views.ts, `when`).
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureWebBundle } from "../helpers/accounts.js";
import { post } from "../helpers/http.js";
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

/** Minted now, the claim link expires in 7 days: 2026-12-01 14:00 UTC. */
const NOW = "2026-11-24T14:00:00.000Z";

describe.skipIf(!hasChromium)("the claim page's times in the reader's zone", () => {
  let chromium: Chromium;
  let claimPath: string;

  beforeAll(async () => {
    ensureWebBundle();
    chromium = await startChromium(NOW, async (t) => {
      const minted = await post(t, "/v1/mint").send({ name: "Scout", calendar: { name: "Scout plans" } });
      claimPath = new URL(minted.body.claim_url as string).pathname;
    });
  }, 120_000);
  afterAll(() => chromium?.close());

  const expiry = (page: Page) => page.locator("p.who", { hasText: "This link works once" });

  for (const [zone, locale, shown] of [
    ["America/New_York", "en-US", "Dec 1, 2026, 9:00 AM New York time, UTC\u22125"],
    ["Asia/Kolkata", "en-GB", "1 Dec 2026, 19:30 Kolkata time, UTC+5:30"],
    ["UTC", "en-GB", "1 Dec 2026, 14:00 UTC"],
  ] as const) {
    it(`shows the link's expiry in ${zone} time to a browser set to it`, async () => {
      const ctx = await chromium.scripted("desktop", zone, locale);
      try {
        const page = await openPage(ctx, chromium.origin, claimPath);
        const time = expiry(page).locator("time.instant");
        await expect.poll(() => time.innerText()).toBe(shown);
        expect(await time.getAttribute("datetime")).toBe("2026-12-01T14:00:00.000Z");
        expect(await time.getAttribute("title")).toBe("2026-12-01 14:00 UTC");
        expect(await expiry(page).innerText()).toBe(`This link works once, until ${shown} (in 7 days).`);
        if (zone === "America/New_York") await screenshot(page, "claim-new-york-desktop.png");
      } finally {
        await ctx.close();
      }
    }, 60_000);
  }

  it("keeps the expiry in UTC, named, without script", async () => {
    const ctx = await chromium.context("phone");
    try {
      const page = await openPage(ctx, chromium.origin, claimPath);
      expect(await expiry(page).innerText()).toBe("This link works once, until 2026-12-01 14:00 UTC (in 7 days).");
    } finally {
      await ctx.close();
    }
  }, 60_000);

  for (const scheme of ["light", "dark"] as const) {
    it(`has no axe-core violation on the claim page with its times rewritten, in ${scheme}`, async () => {
      for (const size of Object.keys(SIZES) as Size[]) {
        const ctx = await chromium.context(size, scheme, true);
        try {
          const page = await openPage(ctx, chromium.origin, claimPath);
          await expect.poll(() => expiry(page).locator("time.instant").getAttribute("title")).not.toBeNull();
          expect(await axeViolations(page, `${size} claim page`)).toEqual([]);
        } finally {
          await ctx.close();
        }
      }
    }, 60_000);
  }
});
