/**
 * The consent page of /mcp's authorization server in Debian's chromium (playwright-core): it
 * passes axe (no serious or critical violations) at desktop and phone widths in light and dark,
 * and under its own CSP a click on Allow reaches the app's redirect URI (browsers hold the
 * redirect after a form to `form-action`). Signed in with the fake sign-in of
 * test/helpers/accounts.ts; the sign-in itself in a browser is test/pages/accounts-browser.test.ts's.
 * Screenshots go to test/.artifacts/screenshots/ (to docs/screenshots/ with UPDATE_SCREENSHOTS=1).
 */
import { existsSync, mkdirSync } from "node:fs";
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { chromium, type Browser } from "playwright-core";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimAgent, createAccountsTestApp, Human, type AccountsTestApp } from "../helpers/accounts.js";
import { pkce, testClientMetadata } from "../helpers/oauth.js";

const CHROMIUM = "/usr/bin/chromium";
const AXE = resolve(import.meta.dirname, "../../node_modules/axe-core/axe.min.js");
const SCREENSHOTS = resolve(
  import.meta.dirname,
  process.env.UPDATE_SCREENSHOTS === "1" ? "../../docs/screenshots" : "../.artifacts/screenshots",
);
const SIZES = { desktop: { width: 1280, height: 860 }, phone: { width: 390, height: 844 } } as const;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown }>;
}

const listen = async (handler: RequestListener): Promise<{ server: Server; origin: string }> => {
  const server = createServer(handler);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
};

describe.skipIf(!existsSync(CHROMIUM))("the consent page in chromium", () => {
  let t: AccountsTestApp;
  let app: { server: Server; origin: string };
  let callback: { server: Server; origin: string };
  const arrived: URL[] = [];
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    let handle: RequestListener = (_req, res) => res.end();
    app = await listen((req, res) => handle(req, res));
    t = createAccountsTestApp(undefined, undefined, app.origin);
    handle = t.app;
    callback = await listen((req, res) => {
      arrived.push(new URL(req.url ?? "/", callback.origin));
      res.end("back in the app");
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    for (const { server } of [app, callback]) await new Promise<void>((done) => server.close(() => done()));
    await t.close();
  });

  /** A registered client redirecting to the callback server, and the consent page of one of its requests. */
  async function consentPath(): Promise<string> {
    const metadata = { ...testClientMetadata("Calendar Copilot"), redirect_uris: [`${callback.origin}/callback`] };
    const registered = await request(t.app).post("/register").send(metadata);
    const query = new URLSearchParams({
      response_type: "code",
      client_id: registered.body.client_id as string,
      redirect_uri: `${callback.origin}/callback`,
      code_challenge: pkce().challenge,
      code_challenge_method: "S256",
      scope: "agent:read calendar:read calendar:write",
      state: "browser-1",
      resource: `${app.origin}/mcp`,
    });
    const authorize = await request(t.app).get(`/authorize?${query.toString()}`);
    expect(authorize.status, authorize.text).toBe(302);
    return new URL(authorize.headers.location).pathname;
  }

  it("passes axe at two widths in two schemes, and Allow reaches the app under the page's CSP", async () => {
    const human = await new Human(t).signIn(t.accounts, "ada", "ada@example.com");
    await claimAgent(t, human, "Scout");
    await claimAgent(t, human, "Planner");
    const [name, value] = human.cookie!.split(/=(.*)/s);
    const path = await consentPath();

    for (const size of Object.keys(SIZES) as Array<keyof typeof SIZES>) {
      for (const scheme of ["light", "dark"] as const) {
        // CSP off only here, so that axe can be injected.
        const ctx = await browser.newContext({ viewport: SIZES[size], colorScheme: scheme, bypassCSP: true });
        await ctx.addCookies([{ name, value, url: app.origin }]);
        const page = await ctx.newPage();
        expect((await page.goto(`${app.origin}${path}`))?.status()).toBe(200);
        await page.addScriptTag({ path: AXE });
        const violations = await page.evaluate<AxeViolation[]>("axe.run(document).then((r) => r.violations)");
        const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
        expect(
          serious.map((v) => `${size} ${scheme}: ${v.id} ${v.help} ${JSON.stringify(v.nodes[0]?.target)}`),
        ).toEqual([]);
        if ((size === "desktop") === (scheme === "light")) {
          const height = await page.locator("html").evaluate((el) => el.scrollHeight);
          await page.screenshot({
            path: join(SCREENSHOTS, `consent-${size}-${scheme}.png`),
            fullPage: true,
            clip: { x: 0, y: 0, width: SIZES[size].width, height: Math.min(height, 1600) },
          });
        }
        await ctx.close();
      }
    }

    const ctx = await browser.newContext();
    await ctx.addCookies([{ name, value, url: app.origin }]);
    const page = await ctx.newPage();
    const refused: string[] = [];
    page.on("console", (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) refused.push(msg.text());
    });
    await page.goto(`${app.origin}${path}`);
    await page.getByRole("radio", { name: /^Planner/ }).check();
    await page.getByRole("checkbox", { name: /^Create calendars/ }).uncheck();
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL(`${callback.origin}/callback?**`);
    await ctx.close();
    expect(refused).toEqual([]);
    // The browser asks the callback for its favicon too.
    const answer = arrived.find((url) => url.pathname === "/callback");
    expect(answer?.searchParams.get("state")).toBe("browser-1");
    expect(answer?.searchParams.get("code")).toBeTruthy();
  }, 120_000);
});
