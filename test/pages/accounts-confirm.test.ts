/**
 * The account and claim pages over HTTP: Revoke in two steps without script, the claim page
 * saying what Almanac is and what claiming grants, times in UTC with how far they are, and
 * sign-in that comes back to an account calendar's address.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { relativeTime } from "../../functions/src/pages/humans/relative-time.js";
import { claimAgent, createAccountsTestApp, Human, type AccountsTestApp } from "../helpers/accounts.js";
import { newCalendar } from "../helpers/factories.js";
import { post } from "../helpers/http.js";

let t: AccountsTestApp;
beforeEach(() => {
  t = createAccountsTestApp();
});
afterEach(() => t.close());

/** The `<details>` of Revoke whose form posts to `action`. */
const confirmation = (page: string, action: string): string => {
  const form = page.indexOf(`<form method="post" action="${action}">`);
  expect(form, action).toBeGreaterThan(-1);
  const start = page.lastIndexOf('<details class="confirm-revoke">', form);
  return page.slice(start, page.indexOf("</details>", form));
};

describe("revoking from the account page", () => {
  it("asks first: the Revoke summary opens what it does and a second button, whose form carries the CSRF value", async () => {
    const alice = await new Human(t).signIn(t.accounts, "alice");
    const scout = await claimAgent(t, alice, "Scout");
    const page = (await alice.get("/account")).text;
    const action = `/account/agents/${scout.agentId}/revoke`;
    const step = confirmation(page, action);
    expect(step).toContain('<summary class="button danger">Revoke Scout…</summary>');
    expect(step).toContain(`<input type="hidden" name="csrf" value="${alice.csrf}">`);
    expect(step).toContain("Every token of this agent stops working at once");
    expect(step).toContain('<button class="button danger" type="submit">Yes, revoke Scout</button>');
    // The only button posting the revocation is inside the confirmation.
    expect(page.split(`action="${action}"`).length - 1).toBe(1);
    const revoked = await alice.post(action);
    expect(revoked.status).toBe(303);
    expect((await alice.get(revoked.headers.location)).text).toContain("Scout is revoked");
  });
});

describe("the claim page", () => {
  it("says in two sentences what Almanac is and what claiming grants, and when the link expires from now", async () => {
    const minted = await post(t, "/v1/mint").send({ name: "Scout", calendar: { name: "Scout plans" } });
    const page = (await new Human(t).get(new URL(minted.body.claim_url as string).pathname)).text;
    expect(page).toContain("Almanac is a calendar service for AI agents: an agent keeps its calendars here");
    expect(page).toContain("Claiming links this agent to your account, so that you can open its calendars");
    // In UTC, named, which the page's script writes again in the reader's zone (local-times-browser.test.ts).
    const instant = /<time class="instant" datetime="(\d{4}-\d\d-\d\d)T(\d\d:\d\d):\d\d\.\d{3}Z">\1 \2 UTC<\/time>/;
    expect(page).toMatch(new RegExp(`This link works once, until ${instant.source} \\(in \\d+ (days|hours)\\)\\.`));
  });
});

describe("times on the account pages", () => {
  it("are in UTC, named, with how far they are from now", () => {
    const now = new Date("2026-11-22T12:00:00Z");
    expect(relativeTime(new Date("2026-11-25T12:00:00Z"), now)).toBe("in 3 days");
    expect(relativeTime(new Date("2026-11-22T10:00:00Z"), now)).toBe("2 hours ago");
    expect(relativeTime(new Date("2026-11-22T12:01:00Z"), now)).toBe("in 1 minute");
    expect(relativeTime(new Date("2026-11-22T12:00:20Z"), now)).toBe("now");
  });
});

describe("a private calendar's address, signed out", () => {
  it("offers sign-in that comes back there, and the signed-in account page sends the human back", async () => {
    const alice = await new Human(t).signIn(t.accounts, "alice");
    const scout = await claimAgent(t, alice, "Scout");
    const diary = await newCalendar(t, scout.auth, { name: "Diary", visibility: "private" });
    const path = `/account/agents/${scout.agentId}/calendars/${diary.id}`;
    const next = `/account?next=${encodeURIComponent(path)}`;

    const stranger = new Human(t);
    const refused = await stranger.get(path);
    expect(refused.status).toBe(404);
    expect(refused.text).toContain(`href="${next}">Sign in to see it</a>`);
    const signIn = await stranger.get(next);
    expect(signIn.status).toBe(200);
    expect(signIn.text).toContain("Sign in to see the calendar you opened");

    const back = await alice.get(next);
    expect(back.status).toBe(303);
    expect(back.headers.location).toBe(path);
    expect((await alice.get(path)).text).toContain("Diary");
    // Nowhere else: another site, or a path outside the account calendars, opens the account page.
    for (const elsewhere of ["https://evil.example/", "//evil.example/x", "/c/diary", `${path}/../../x`]) {
      const res = await alice.get(`/account?next=${encodeURIComponent(elsewhere)}`);
      expect(res.status, elsewhere).toBe(200);
      expect(res.text).toContain("Your agents");
    }
  });
});
