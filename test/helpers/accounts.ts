/**
 * The claim and account pages in tests without the Auth emulator: `fakeAccountAuth` stands in
 * for Firebase Authentication (ID tokens `fake-id:{uid}:{email}`, sessions that end when the
 * account signs out), `createAccountsTestApp` serves the API and the pages on one store, as
 * Hosting and the local server do, and `Human` is a browser: it keeps the `__session` cookie
 * and reads the form's CSRF value from the last page. The browser test
 * (test/pages/accounts-browser.test.ts) runs the real thing against the emulator.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import express, { type Express } from "express";
import request from "supertest";
import { expect } from "vitest";
import type { Config } from "../../functions/src/config.js";
import type { AccountAuth } from "../../functions/src/http/session.js";
import { createPagesApp } from "../../functions/src/pages/app.js";
import { isHumansPath } from "../../functions/src/pages/humans/router.js";
import { createTestApp, type TestApp } from "./app.js";
import { post, type Auth } from "./http.js";

const ROOT = join(import.meta.dirname, "../..");
const BUNDLE = join(ROOT, "functions/lib/web/humans.js");

/** Builds the sign-in module (scripts/bundle-web.mjs) unless it is there and newer than its sources. */
export function ensureWebBundle(): void {
  const sources = readdirSync(join(ROOT, "web")).filter((file) => file.endsWith(".ts"));
  const newest = Math.max(...sources.map((file) => statSync(join(ROOT, "web", file)).mtimeMs));
  const fresh = existsSync(BUNDLE) && statSync(BUNDLE).mtimeMs >= newest;
  if (!fresh) execFileSync(process.execPath, [join(ROOT, "scripts/bundle-web.mjs")], { cwd: ROOT, stdio: "inherit" });
}

export interface FakeAccountAuth extends AccountAuth {
  idToken(uid: string, email?: string): string;
}

export function fakeAccountAuth(): FakeAccountAuth {
  let sessions = 0;
  /** Per uid, the last session number ended by a sign-out. */
  const endedUpTo = new Map<string, number>();
  return {
    idToken: (uid, email = `${uid}@example.com`) => `fake-id:${uid}:${email}`,
    async startSession(idToken) {
      const match = /^fake-id:([^:]+):(.+)$/.exec(idToken);
      return match ? `fake-session:${match[1]}:${match[2]}:${++sessions}` : null;
    },
    async verifySession(cookie) {
      const match = /^fake-session:([^:]+):(.+):(\d+)$/.exec(cookie);
      if (!match || Number(match[3]) <= (endedUpTo.get(match[1]) ?? 0)) return null;
      return { uid: match[1], email: match[2] };
    },
    async endSessions(uid) {
      endedUpTo.set(uid, sessions);
    },
    browserConfig: () => ({ apiKey: "fake", authDomain: "almanac.test", projectId: "demo-almanac", emulatorUrl: null }),
  };
}

export interface AccountsTestApp extends TestApp {
  accounts: FakeAccountAuth;
}

/** `/v1`, `/c`, `/v`, `/claim` and `/account` on one store, with the fake sign-in (and the sign-in module built). */
export function createAccountsTestApp(
  accounts: FakeAccountAuth = fakeAccountAuth(),
  config?: Config,
  baseUrl?: string,
): AccountsTestApp {
  ensureWebBundle();
  const t = createTestApp({ config, baseUrl });
  const pages = createPagesApp(t.deps, { accounts });
  const api = t.app;
  const root: Express = express();
  root.use((req, res) =>
    req.path.startsWith("/c/") || req.path.startsWith("/v/") || isHumansPath(req.path)
      ? pages(req, res)
      : api(req, res),
  );
  return { ...t, app: root, accounts, http: () => request.agent(root) };
}

const CSRF = /(?:name="csrf" value|data-csrf)="([0-9a-f]{64})"/;

/** A browser of one person: its cookie, and the CSRF value of the last page it loaded. */
export class Human {
  cookie: string | null = null;
  csrf: string | null = null;

  constructor(private readonly t: Pick<TestApp, "app">) {}

  private keep(res: request.Response): request.Response {
    const setCookie = ([] as string[]).concat(res.headers["set-cookie"] ?? []);
    const session = setCookie.find((c) => c.startsWith("__session="));
    if (session) this.cookie = session.split(";")[0];
    const csrf = CSRF.exec(res.text ?? "");
    if (csrf) this.csrf = csrf[1];
    return res;
  }

  async get(path: string): Promise<request.Response> {
    const req = request(this.t.app).get(path);
    return this.keep(await (this.cookie ? req.set("Cookie", this.cookie) : req));
  }

  /** A form POST; `csrf` is the last page's unless the fields say otherwise. */
  async post(path: string, fields: Record<string, string> = {}): Promise<request.Response> {
    const req = request(this.t.app)
      .post(path)
      .type("form")
      .send({ ...(this.csrf ? { csrf: this.csrf } : {}), ...fields });
    return this.keep(await (this.cookie ? req.set("Cookie", this.cookie) : req));
  }

  /** Signs in as the browser module does: a page for the CSRF value, then the ID token to /account/session. */
  async signIn(accounts: FakeAccountAuth, uid: string, email?: string): Promise<this> {
    await this.get("/account");
    const res = await this.post("/account/session", { id_token: accounts.idToken(uid, email) });
    expect(res.status, res.text).toBe(204);
    await this.get("/account");
    return this;
  }
}

/** An agent a human has claimed: its token, and the calendar it minted with (unlisted, so it has a public page). */
export interface ClaimedAgent {
  agentId: string;
  auth: Auth;
  calendarId: string;
  mintedSlug: string;
}

/** An agent minted anonymously (with its calendar "{name} plans"), then claimed by `human` through its claim link. */
export async function claimAgent(t: TestApp, human: Human, name: string): Promise<ClaimedAgent> {
  const minted = await post(t, "/v1/mint").send({ name, calendar: { name: `${name} plans` } });
  expect(minted.status).toBe(200);
  const claimPath = new URL(minted.body.claim_url as string).pathname;
  await human.get(claimPath);
  expect((await human.post(claimPath)).status).toBe(303);
  return {
    agentId: minted.body.agent.id,
    auth: { Authorization: `Bearer ${minted.body.token}` },
    calendarId: minted.body.calendar.id,
    mintedSlug: minted.body.calendar.slug,
  };
}
