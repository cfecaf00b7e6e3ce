/**
 * The claim and account pages over HTTP, with the fake sign-in of test/helpers/accounts.ts:
 * statuses, the session cookie's attributes, CSRF on every form, and what each page shows.
 * The browser test (accounts-browser.test.ts) runs the same flow on Firebase's Auth emulator.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { paths } from "../../functions/src/domain/paths.js";
import type { SqliteStore } from "../../functions/src/storage/sqlite/index.js";
import { createAccountsTestApp, fakeAccountAuth, Human, type AccountsTestApp } from "../helpers/accounts.js";
import { expectError, get, post } from "../helpers/http.js";

let t: AccountsTestApp;
beforeEach(() => {
  t = createAccountsTestApp();
});
afterEach(() => t.close());
const accounts = () => t.accounts;

async function mintAnonymously(name = "Scout") {
  const res = await post(t, "/v1/mint").send({ name, calendar: { name: `${name} plans` } });
  expect(res.status).toBe(200);
  return {
    token: res.body.token as string,
    agentId: res.body.agent.id as string,
    claimPath: new URL(res.body.claim_url as string).pathname,
    slug: res.body.calendar.slug as string,
  };
}

describe("the claim page", () => {
  it("names the agent and links its calendars; signed out it offers sign-in, no confirm", async () => {
    const minted = await mintAnonymously("Scout");
    const human = new Human(t);
    const res = await human.get(minted.claimPath);
    expect(res.status).toBe(200);
    expect(res.text).toContain("<h1>Scout</h1>");
    expect(res.text).toContain(`href="/c/${minted.slug}"`);
    expect(res.text).toContain('id="signin"');
    expect(res.text).not.toContain(`action="${minted.claimPath}"`);
    expect(res.headers["cache-control"]).toBe("private, no-store");
    expect(res.headers["referrer-policy"]).toBe("no-referrer");
    expect(res.headers["x-robots-tag"]).toBe("noindex");
    const csp = res.headers["content-security-policy"];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self' https://apis.google.com;");
    expect(csp).toContain("form-action 'self'");
    expect(csp).not.toContain("unsafe-inline");
    // The cookie: HttpOnly, SameSite=Lax, Secure (the base URL is https).
    const cookie = [res.headers["set-cookie"]].flat().find((c: string) => c.startsWith("__session="));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Secure/);
  });

  it("links the agent on confirm, once: the link then answers 410 to everyone", async () => {
    const minted = await mintAnonymously("Scout");
    const alice = await new Human(t).signIn(accounts(), "alice");
    const page = await alice.get(minted.claimPath);
    expect(page.text).toContain(`action="${minted.claimPath}"`);
    const confirm = await alice.post(minted.claimPath);
    expect(confirm.status).toBe(303);
    expect(confirm.headers.location).toBe(`/account?linked=${minted.agentId}`);
    expect((await alice.get(confirm.headers.location)).text).toContain("Scout is linked to your account.");
    expect((await t.deps.store.get(paths.agent(minted.agentId)))?.data.owner_user_id).toBe("alice");

    const again = await alice.get(minted.claimPath);
    expect(again.status).toBe(410);
    expect(again.text).toContain("This claim link was used");
    const bob = await new Human(t).signIn(accounts(), "bob");
    expect((await bob.get(minted.claimPath)).status).toBe(410);
    expect((await bob.post(minted.claimPath)).status).toBe(410);
    expect((await t.deps.store.get(paths.agent(minted.agentId)))?.data.owner_user_id).toBe("alice");
  });

  it("answers 404 for an unknown link and 410 for an expired one", async () => {
    const minted = await mintAnonymously();
    expect((await new Human(t).get(`/claim/svc_claim_${"x".repeat(43)}`)).status).toBe(404);
    expect((await new Human(t).get("/claim/nonsense")).status).toBe(404);
    t.clock.advance(7 * 24 * 3600 * 1000);
    // The sweep (SQLite's stand-in for Firestore's TTL) keeps an expired link 30 days more: it says "expired".
    const sweep = () => (t.deps.store as SqliteStore).purgeExpired("claims", "purge_at", t.clock());
    expect(sweep()).toBe(0);
    const expired = await new Human(t).get(minted.claimPath);
    expect(expired.status).toBe(410);
    expect(expired.text).toContain("This claim link has expired");
    t.clock.advance(30 * 24 * 3600 * 1000);
    expect(sweep()).toBe(1);
    expect((await new Human(t).get(minted.claimPath)).status).toBe(404);
  });

  it("refuses a confirm without the form's CSRF value (403), or signed out (401)", async () => {
    const minted = await mintAnonymously();
    const alice = await new Human(t).signIn(accounts(), "alice");
    expect((await alice.post(minted.claimPath, { csrf: "0".repeat(64) })).status).toBe(403);
    expect((await alice.post(minted.claimPath, { csrf: "" })).status).toBe(403);
    const stranger = new Human(t);
    await stranger.get(minted.claimPath);
    expect((await stranger.post(minted.claimPath)).status).toBe(401);
    expect((await t.deps.store.get(paths.agent(minted.agentId)))?.data.owner_user_id).toBeNull();
  });

  it("keeps the claim token out of the request log", async () => {
    const minted = await mintAnonymously();
    await new Human(t).get(minted.claimPath);
    const lines = t.logs.filter((l) => l.includes("/claim/"));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join("\n")).not.toContain("svc_claim_");
    expect(lines.join("\n")).toContain("/claim/{token}");
  });
});

describe("the account page", () => {
  it("signed out, offers sign-in and lists nothing", async () => {
    const res = await new Human(t).get("/account");
    expect(res.status).toBe(200);
    expect(res.text).toContain('id="signin"');
    expect(res.text).not.toContain('class="agents"');
  });

  it("says so when sign-in is not configured, and loads no script", async () => {
    await t.close();
    t = createAccountsTestApp({ ...fakeAccountAuth(), browserConfig: () => null });
    const res = await new Human(t).get("/account");
    expect(res.status).toBe(200);
    expect(res.text).toContain("Firebase Authentication is not configured");
    expect(res.headers["content-security-policy"]).toContain("script-src 'self';");
  });

  it("refuses a sign-in without the CSRF value, or with an ID token that is not good", async () => {
    const human = new Human(t);
    await human.get("/account");
    expect((await human.post("/account/session", { id_token: accounts().idToken("alice"), csrf: "" })).status).toBe(
      403,
    );
    expect((await human.post("/account/session", { id_token: "forged" })).status).toBe(401);
    expect((await human.get("/account")).text).toContain('id="signin"');
  });

  it("creates an onboard token shown once; minting with it lists the agent at once", async () => {
    const alice = await new Human(t).signIn(accounts(), "alice", "alice@example.com");
    const created = await alice.post("/account/onboard-tokens");
    expect(created.status).toBe(200);
    const token = /svc_onboard_[0-9A-Za-z]{43}/.exec(created.text)?.[0];
    expect(token).toBeDefined();
    expect(created.text).toContain("onboard_token");
    // Stored hashed: the page is the only place it appears.
    expect(JSON.stringify(await t.deps.store.query(paths.agents()))).not.toContain(token);

    const minted = await post(t, "/v1/mint").send({ name: "Helper", onboard_token: token });
    expect(minted.status).toBe(200);
    expect(minted.body.claim_url).toBeNull();
    const page = await alice.get("/account");
    expect(page.text).toContain("<h3>Helper</h3>");
    expect(page.text).toContain("alice@example.com");
    expect(page.text).toContain(`href="/c/${minted.body.calendar.slug}"`);
  });

  it("revokes an agent: its tokens answer 401; another account cannot revoke it or see it", async () => {
    const minted = await mintAnonymously("Scout");
    const alice = await new Human(t).signIn(accounts(), "alice");
    await alice.get(minted.claimPath);
    await alice.post(minted.claimPath);
    await alice.get("/account");

    const bob = await new Human(t).signIn(accounts(), "bob");
    const bobPage = await bob.get("/account");
    expect(bobPage.text).not.toContain("Scout");
    expect(bobPage.text).not.toContain(minted.agentId);
    expect((await bob.post(`/account/agents/${minted.agentId}/revoke`)).status).toBe(404);
    await get(t, "/v1/me", { Authorization: `Bearer ${minted.token}` }).expect(200);

    expect((await alice.post(`/account/agents/${minted.agentId}/revoke`, { csrf: "f".repeat(64) })).status).toBe(403);
    const revoked = await alice.post(`/account/agents/${minted.agentId}/revoke`);
    expect(revoked.status).toBe(303);
    expectError(await get(t, "/v1/me", { Authorization: `Bearer ${minted.token}` }), 401, "unauthorized");
    const page = await alice.get(revoked.headers.location);
    expect(page.text).toContain("Scout is revoked");
    expect(page.text).toContain('class="state">Revoked');
    expect(page.text).not.toContain(`action="/account/agents/${minted.agentId}/revoke"`);
  });

  it("signs out: the old session cookie no longer works, even replayed", async () => {
    const alice = await new Human(t).signIn(accounts(), "alice");
    const signedInCookie = alice.cookie;
    const out = await alice.post("/account/sign-out");
    expect(out.status).toBe(303);
    expect((await alice.get("/account")).text).toContain('id="signin"');
    const replay = new Human(t);
    replay.cookie = signedInCookie;
    expect((await replay.get("/account")).text).toContain('id="signin"');
    expect((await replay.post("/account/onboard-tokens")).status).toBe(401);
  });

  it("answers 405 for other methods and 404 below /account", async () => {
    expect((await new Human(t).post("/account")).status).toBe(405);
    expect((await new Human(t).get("/account/nothing")).status).toBe(404);
    expect((await new Human(t).get("/account/session")).status).toBe(405);
  });

  it("serves the stylesheet it links, cached for a year", async () => {
    const page = await new Human(t).get("/account");
    const href = /href="(\/account\/_assets\/humans\.[0-9a-f]{12}\.css)"/.exec(page.text)?.[1];
    expect(href).toBeDefined();
    const css = await new Human(t).get(href!);
    expect(css.status).toBe(200);
    expect(css.headers["content-type"]).toBe("text/css; charset=utf-8");
    expect(css.headers["cache-control"]).toContain("immutable");
  });
});
