/**
 * A local server with a seeded store and a chromium to read it with, as the page browser tests
 * use them: contexts at desktop and phone sizes in either theme, pages opened by path,
 * screenshots to test/.artifacts/screenshots/ (docs/screenshots/ with UPDATE_SCREENSHOTS=1),
 * and axe-core's violations in words.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { expect } from "vitest";
import { startLocalServer } from "../../functions/src/server.js";
import { type TestApp, testClock } from "../helpers/app.js";

export const CHROMIUM = "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM);
export const SIZES = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } } as const;
export type Size = keyof typeof SIZES;
const SCREENSHOTS = resolve(
  import.meta.dirname,
  process.env.UPDATE_SCREENSHOTS === "1" ? "../../docs/screenshots" : "../.artifacts/screenshots",
);
const AXE = resolve(import.meta.dirname, "../../node_modules/axe-core/axe.min.js");
const MAX_SHOT_HEIGHT = 1600;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown }>;
}

export interface Chromium {
  origin: string;
  /** `audit`: JavaScript on and the CSP bypassed, for axe; otherwise a visitor without JavaScript. */
  context(size: Size, scheme?: "light" | "dark", audit?: boolean): Promise<BrowserContext>;
  /** A visitor with JavaScript, under the pages' CSP, whose browser is set to `timezoneId` and `locale`. */
  scripted(size: Size, timezoneId: string, locale: string): Promise<BrowserContext>;
  close(): Promise<void>;
}

/** Starts the server at `today`, seeds it, and launches chromium. */
export async function startChromium(
  today: string,
  seed: (t: Pick<TestApp, "app">) => Promise<unknown>,
): Promise<Chromium> {
  const dataDir = mkdtempSync(join(tmpdir(), "almanac-chromium-"));
  const local = await startLocalServer({ port: 0, dataDir, clock: testClock(today), log: () => {} });
  await seed({ app: local.server } as unknown as Pick<TestApp, "app">);
  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    origin: `http://127.0.0.1:${(local.server.address() as AddressInfo).port}`,
    context: (size, scheme = "light", audit = false) =>
      browser.newContext({
        viewport: SIZES[size],
        colorScheme: scheme,
        bypassCSP: audit,
        javaScriptEnabled: audit,
        deviceScaleFactor: 1,
        locale: "en-US",
      }),
    scripted: (size, timezoneId, locale) =>
      browser.newContext({ viewport: SIZES[size], deviceScaleFactor: 1, timezoneId, locale }),
    close: async () => {
      await browser.close();
      await local.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Opens `path` in a new page of `ctx`, expecting a 200. */
export async function openPage(ctx: BrowserContext, origin: string, path: string): Promise<Page> {
  const page = await ctx.newPage();
  const res = await page.goto(`${origin}${path}`, { waitUntil: "load" });
  expect(res?.status(), path).toBe(200);
  return page;
}

/** Where a screenshot named `file` goes. */
export const screenshotPath = (file: string): string => join(SCREENSHOTS, file);

/** The page's top, up to 1600 px, as `file`. */
export async function screenshot(page: Page, file: string): Promise<void> {
  const height = await page.locator("html").evaluate((el) => el.scrollHeight);
  const { width } = page.viewportSize()!;
  await page.screenshot({
    path: join(SCREENSHOTS, file),
    fullPage: true,
    clip: { x: 0, y: 0, width, height: Math.min(height, MAX_SHOT_HEIGHT) },
  });
}

/** axe-core's violations on the page, one line each, labelled with `where`. */
export async function axeViolations(page: Page, where: string): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate<AxeViolation[]>("axe.run(document).then((r) => r.violations)");
  return violations.map(
    (v) => `${where}: ${v.id} (${v.impact}) ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`,
  );
}
