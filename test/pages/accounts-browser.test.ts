/**
 * The humans' half in a real browser: Debian's chromium (playwright-core) against the local
 * server, signing in through the Firebase Auth emulator (firebase-tools, started here as
 * `npm start` starts it: functions/src/local-auth.ts) with the bundled Firebase JS SDK, under
 * the pages' strict CSP. In order:
 *   1. mint anonymously;
 *   2. open claim_url, sign in (an email link: the emulator keeps it, the page shows it), confirm;
 *   3. /account lists the agent;
 *   4. the agent keeps a private calendar: its link on /account opens it, in each lens;
 *   5. create an onboard token there, mint with it: linked at once (claim_url null, listed);
 *   6. an MCP client (the SDK's) connects by OAuth: alice allows it for the second agent on the
 *      consent page, in the browser, under its CSP; the client then acts as that agent;
 *   7. revoke the first agent from /account, confirming: its token answers 401;
 *   8. a second account sees none of it, nor the private calendar;
 *   9. the claim link again: 410.
 * The claim and account pages, and the private calendar's, pass axe (no serious or critical
 * violations) at desktop and phone widths in light and dark; screenshots go to test/.artifacts/screenshots/ (to
 * docs/screenshots/, which the README shows, with UPDATE_SCREENSHOTS=1).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalAuthEmulator, type LocalAuthEmulator } from "../../functions/src/local-auth.js";
import { startLocalServer } from "../../functions/src/server.js";
import { ensureWebBundle } from "../helpers/accounts.js";
import { MemoryOAuthClient, testClientMetadata } from "../helpers/oauth.js";
import { freePort } from "../helpers/ports.js";

const CHROMIUM = "/usr/bin/chromium";
const FIREBASE = resolve(import.meta.dirname, "../../node_modules/.bin/firebase");
const SCREENSHOTS = resolve(
  import.meta.dirname,
  process.env.UPDATE_SCREENSHOTS === "1" ? "../../docs/screenshots" : "../.artifacts/screenshots",
);
const AXE = resolve(import.meta.dirname, "../../node_modules/axe-core/axe.min.js");
const SIZES = { desktop: { width: 1280, height: 860 }, phone: { width: 390, height: 844 } } as const;
const STEP = 60_000;
/** Steps that also run axe at two widths in two schemes. */
const AUDITED_STEP = 420_000;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown }>;
}

describe.skipIf(!existsSync(CHROMIUM) || !existsSync(FIREBASE))(
  "claim and account pages in chromium, on the Auth emulator",
  () => {
    let browser: Browser;
    let origin: string;
    let dataDir: string;
    let emulator: LocalAuthEmulator | null;
    let close: () => Promise<void>;
    const logs: string[] = [];

    // What the steps hand on to each other.
    let first: { token: string; agentId: string; claimUrl: string };
    let alice: BrowserContext;
    let alicePage: Page;
    let refused: string[];

    beforeAll(async () => {
      ensureWebBundle();
      dataDir = mkdtempSync(join(tmpdir(), "almanac-accounts-browser-"));
      // The server's firebase-admin and the pages' SDK both use the emulator this sets up.
      delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
      emulator = await startLocalAuthEmulator({ dataDir, log: () => {} });
      expect(emulator).not.toBeNull();
      await emulator!.ready;
      const port = await freePort();
      origin = `http://127.0.0.1:${port}`;
      const local = await startLocalServer({ port, dataDir, baseUrl: origin, log: (line) => logs.push(line) });
      close = local.close;
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
      });
      mkdirSync(SCREENSHOTS, { recursive: true });
    }, 240_000);

    afterAll(async () => {
      await browser?.close();
      await close?.();
      await emulator?.stop();
      delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    }, 60_000);

    async function api(path: string, init: { token?: string; body?: unknown } = {}) {
      const res = await fetch(`${origin}${path}`, {
        method: init.body ? "POST" : "GET",
        headers: {
          ...(init.body ? { "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() } : {}),
          ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
        },
        body: init.body ? JSON.stringify(init.body) : undefined,
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    }

    /** A browser profile; `audit` turns the CSP off so that axe can be injected. */
    async function context(size: keyof typeof SIZES, scheme: "light" | "dark", audit = false, timezoneId?: string) {
      const ctx = await browser.newContext({
        viewport: SIZES[size],
        colorScheme: scheme,
        bypassCSP: audit,
        deviceScaleFactor: 1,
        locale: "en-US",
        timezoneId,
      });
      // Nothing leaves this machine (the emulator's own pages would reach for CDNs).
      await ctx.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort());
      return ctx;
    }

    function watch(page: Page): string[] {
      const seen: string[] = [];
      page.on("console", (msg) => {
        if (/Content Security Policy|Refused to/i.test(msg.text())) seen.push(msg.text());
      });
      return seen;
    }

    async function screenshot(page: Page, file: string) {
      const height = await page.locator("html").evaluate((el) => el.scrollHeight);
      const { width } = page.viewportSize()!;
      await page.screenshot({
        path: join(SCREENSHOTS, file),
        clip: { x: 0, y: 0, width, height: Math.min(height, 1600) },
      });
    }

    /** Signs in on the page open in `page` with an email link, as a person does on `npm start`. */
    async function signInByEmail(page: Page, email: string) {
      await page.getByLabel("Email address").fill(email);
      await page.getByRole("button", { name: "Email me a link" }).click();
      const link = page.locator("#signin-emulator-link a");
      await link.waitFor({ timeout: 20_000 });
      await link.click();
      // The link goes through the emulator and back; the page then trades the ID token for the session.
      await page.locator(".who", { hasText: email }).waitFor({ timeout: 30_000 });
    }

    /** axe on the page at `path`, as the signed-in context sees it, at each size and scheme. */
    async function audit(from: BrowserContext, path: string, name: string) {
      const cookies = await from.cookies();
      for (const size of Object.keys(SIZES) as Array<keyof typeof SIZES>) {
        for (const scheme of ["light", "dark"] as const) {
          const ctx = await context(size, scheme, true);
          await ctx.addCookies(cookies);
          const page = await ctx.newPage();
          const res = await page.goto(`${origin}${path}`);
          expect(res?.status()).toBe(200);
          const background = await page
            .locator("body")
            .evaluate((el) => (globalThis as any).getComputedStyle(el).backgroundColor as string);
          expect(background).toBe(scheme === "light" ? "rgb(247, 246, 242)" : "rgb(19, 21, 23)");
          await page.addScriptTag({ path: AXE });
          const violations = await page.evaluate<AxeViolation[]>("axe.run(document).then((r) => r.violations)");
          const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
          expect(
            serious.map((v) => `${name} ${size} ${scheme}: ${v.id} ${v.help} ${JSON.stringify(v.nodes[0]?.target)}`),
          ).toEqual([]);
          // Two of the four: desktop in light, phone in dark.
          if ((size === "desktop") === (scheme === "light")) await screenshot(page, `${name}-${size}-${scheme}.png`);
          await ctx.close();
        }
      }
    }

    it("1. mints anonymously: a claim_url comes back", { timeout: STEP }, async () => {
      const minted = await api("/v1/mint", { body: { name: "Scout", calendar: { name: "Scout's plans" } } });
      expect(minted.status).toBe(200);
      first = { token: minted.body.token, agentId: minted.body.agent.id, claimUrl: minted.body.claim_url };
      expect(first.claimUrl).toMatch(new RegExp(`^${origin}/claim/svc_claim_`));
      expect((await api("/v1/me", { token: first.token })).body.agent.claimed).toBe(false);
    });

    it("2. opens claim_url, signs in through the Auth emulator, confirms", { timeout: AUDITED_STEP }, async () => {
      // Alice's browser is set to New York: the pages show their times there.
      alice = await context("desktop", "light", false, "America/New_York");
      alicePage = await alice.newPage();
      refused = watch(alicePage);
      const res = await alicePage.goto(first.claimUrl);
      expect(res?.status()).toBe(200);
      await expect.poll(() => alicePage.locator("h1").innerText()).toBe("Scout");
      await expect.poll(() => alicePage.locator(".calendars").innerText()).toContain("Scout's plans");
      await audit(alice, new URL(first.claimUrl).pathname, "claim-signed-out");

      await signInByEmail(alicePage, "alice@example.com");
      expect(alicePage.url()).toBe(first.claimUrl);
      await audit(alice, new URL(first.claimUrl).pathname, "claim");
      await alicePage.getByRole("button", { name: "Link Scout to my account" }).click();
      await alicePage.waitForURL(`${origin}/account?linked=${first.agentId}`);
      expect((await api("/v1/me", { token: first.token })).body.agent.claimed).toBe(true);
    });

    it("3. /account lists the agent", { timeout: STEP }, async () => {
      await expect.poll(() => alicePage.locator(".notice").innerText()).toBe("Scout is linked to your account.");
      expect(await alicePage.locator(".agent h3").allInnerTexts()).toEqual(["Scout"]);
      expect(await alicePage.locator(".agent .calendars").innerText()).toContain("Scout's plans");
      // In her zone, named (UTC−5 in winter, −4 in summer), from the UTC the server writes.
      expect(await alicePage.locator(".agent .meta").innerText()).toMatch(
        /Created [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d\d [AP]M New York time, UTC\u2212[45] \(/,
      );
    });

    let diaryPath: string;
    it(
      "4. the agent's private calendar: the account page links it, in each lens",
      { timeout: AUDITED_STEP },
      async () => {
        const diary = await api("/v1/calendars", {
          token: first.token,
          body: { name: "Scout's diary", visibility: "private" },
        });
        expect(diary.status).toBe(200);
        // Days from today in UTC, the calendar's timezone: every lens opens on a period that holds today.
        const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
        const events = [
          { name: "Dentist", date: day(0), start_time: "15:00", end_time: "16:00", category: "health" },
          { name: "Team dinner", date: day(2), start_time: "19:30", end_time: "22:00", category: "social" },
          {
            name: "Piano lesson",
            recur: { type: "weekly", day: 3, starts: day(-28) },
            start_time: "17:00",
            end_time: "18:00",
          },
          { name: "Plan the trip" },
        ];
        for (const event of events) {
          const made = await api(`/v1/calendars/${diary.body.id}/events`, { token: first.token, body: event });
          expect(made.status).toBe(200);
        }
        diaryPath = `/account/agents/${first.agentId}/calendars/${diary.body.id}`;

        await alicePage.goto(`${origin}/account`);
        const listed = alicePage.locator(".calendars li", { hasText: "Scout's diary" });
        await listed.getByRole("link", { name: "private page" }).click();
        await alicePage.waitForURL(`${origin}${diaryPath}`);
        expect(await alicePage.locator("h1").innerText()).toBe("Scout's diary");
        const lenses = {
          Month: ["Dentist", "Piano lesson"],
          Week: ["Dentist", "Piano lesson"],
          Schedule: ["Dentist", "Team dinner", "Piano lesson", "Plan the trip"],
          Timeline: ["Dentist", "Team dinner", "Piano lesson", "Plan the trip"],
        };
        for (const [lens, names] of Object.entries(lenses)) {
          await alicePage.locator("nav.lenses").getByRole("link", { name: lens, exact: true }).click();
          await alicePage.waitForURL(new RegExp(`\\?view=${lens.toLowerCase()}&`));
          const shown = await alicePage.locator("main").innerText();
          for (const name of names) expect(shown, `${lens}: ${name}`).toContain(name);
        }
        await audit(alice, diaryPath, "account-calendar");
        await alicePage.goto(`${origin}/account`);

        // Signed out, the same address is a 404 that shows nothing of it.
        const stranger = await context("desktop", "light");
        try {
          const page = await stranger.newPage();
          expect((await page.goto(`${origin}${diaryPath}`))?.status()).toBe(404);
          expect(await page.locator("main").innerText()).not.toContain("Dentist");
        } finally {
          await stranger.close();
        }
      },
    );

    let second: { token: string; agentId: string };
    it("5. creates an onboard token; minting with it links the agent at once", { timeout: AUDITED_STEP }, async () => {
      await alicePage.getByRole("button", { name: "Create an onboard token" }).click();
      const onboard = (await alicePage.locator("#onboard-token").innerText()).trim();
      expect(onboard).toMatch(/^svc_onboard_[0-9A-Za-z]{43}$/);
      const minted = await api("/v1/mint", { body: { name: "Helper", onboard_token: onboard } });
      expect(minted.status).toBe(200);
      expect(minted.body.claim_url).toBeNull();
      second = { token: minted.body.token, agentId: minted.body.agent.id };
      expect((await api("/v1/me", { token: second.token })).body.agent.claimed).toBe(true);
      await alicePage.goto(`${origin}/account`);
      expect((await alicePage.locator(".agent h3").allInnerTexts()).sort()).toEqual(["Helper", "Scout"]);
      await audit(alice, "/account", "account");
    });

    it(
      "6. connects an MCP client by OAuth, allowed on the consent page in the browser",
      { timeout: STEP },
      async () => {
        const arrived: URL[] = [];
        const callback = createServer((req, res) => {
          arrived.push(new URL(req.url ?? "/", "http://127.0.0.1"));
          res.end("back in the app");
        });
        await new Promise<void>((done) => callback.listen(0, "127.0.0.1", done));
        const redirect = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
        try {
          const mcp = new URL(`${origin}/mcp`);
          const oauthClient = new MemoryOAuthClient({
            ...testClientMetadata("Desk Assistant"),
            redirect_uris: [redirect],
          });
          const first = new Client({ name: "hosted", version: "1.0.0" });
          const connecting = first.connect(new StreamableHTTPClientTransport(mcp, { authProvider: oauthClient }));
          await expect(connecting).rejects.toThrow(UnauthorizedError);
          // The person's browser follows the authorization URL to the consent page, signed in.
          await alicePage.goto(oauthClient.authorizationUrl!.href);
          await alicePage.getByRole("radio", { name: /^Helper/ }).check();
          await alicePage.getByRole("button", { name: "Allow" }).click();
          await alicePage.waitForURL(`${redirect}?**`);
          const code = arrived.find((url) => url.pathname === "/callback")?.searchParams.get("code");
          expect(code).toBeTruthy();
          await new StreamableHTTPClientTransport(mcp, { authProvider: oauthClient }).finishAuth(code!);
          const client = new Client({ name: "hosted", version: "1.0.0" });
          await client.connect(new StreamableHTTPClientTransport(mcp, { authProvider: oauthClient }));
          const me = (await client.callTool({ name: "get_me", arguments: {} })) as { content: Array<{ text: string }> };
          expect(JSON.parse(me.content[0].text)).toMatchObject({ agent: { id: second.agentId } });
          await client.close();
          await alicePage.goto(`${origin}/account`);
          expect(await alicePage.locator(".apps").innerText()).toContain("Desk Assistant");
        } finally {
          await new Promise<void>((done) => callback.close(() => done()));
        }
      },
    );

    it("7. revokes the first agent from /account: its token answers 401", { timeout: AUDITED_STEP }, async () => {
      // Two steps, without script: the summary opens what revoking does and the button that does it.
      const confirm = alicePage.getByRole("button", { name: "Yes, revoke Scout" });
      expect(await confirm.isVisible()).toBe(false);
      await alicePage.locator("summary", { hasText: "Revoke Scout" }).click();
      await confirm.click();
      await alicePage.waitForURL(`${origin}/account?revoked=${first.agentId}`);
      expect(await alicePage.locator(".notice").innerText()).toBe("Scout is revoked: its tokens no longer work.");
      expect((await api("/v1/me", { token: first.token })).status).toBe(401);
      expect((await api("/v1/me", { token: second.token })).status).toBe(200);
      await audit(alice, "/account", "account-revoked");
      expect(refused, refused.join("\n")).toEqual([]);
    });

    it("8. a second account sees none of it, nor the private calendar", { timeout: STEP }, async () => {
      const bob = await context("phone", "dark");
      try {
        const page = await bob.newPage();
        const bobRefused = watch(page);
        await page.goto(`${origin}/account`);
        await signInByEmail(page, "bob@example.com");
        const text = await page.locator("main").innerText();
        for (const secret of ["Scout", "Helper", first.agentId, second.agentId]) expect(text).not.toContain(secret);
        expect(await page.locator(".agent").count()).toBe(0);
        expect((await page.goto(`${origin}${diaryPath}`))?.status()).toBe(404);
        expect(bobRefused).toEqual([]);
      } finally {
        await bob.close();
      }
    });

    it("9. the claim link a second time: 410", { timeout: STEP }, async () => {
      const res = await alicePage.goto(first.claimUrl);
      expect(res?.status()).toBe(410);
      expect(await alicePage.locator("h1").innerText()).toBe("This claim link was used");
      // The server's request log never held the claim token.
      expect(logs.filter((l) => l.includes("svc_claim_"))).toEqual([]);
      await alice.close();
    });
  },
);
