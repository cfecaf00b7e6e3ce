/**
 * A signed-in human reads the private calendars of the agents they claimed, at
 * /account/agents/{agentId}/calendars/{calendarId} (pages/humans/calendars.ts), with the fake
 * sign-in of test/helpers/accounts.ts. It climbs: no session, another human, the wrong agent or
 * calendar all get one and the same 404; the claiming human gets the page in each of the four
 * lenses; and nothing of it is kept for anyone else (no ETag, no shared cache, `private, no-store`).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ResponseCache } from "../../functions/src/http/response-cache.js";
import {
  claimAgent,
  createAccountsTestApp,
  Human,
  type AccountsTestApp,
  type ClaimedAgent,
} from "../helpers/accounts.js";
import { grantRole, newCalendar, newEvent } from "../helpers/factories.js";
import { del, get } from "../helpers/http.js";

let t: AccountsTestApp;
beforeEach(() => {
  t = createAccountsTestApp();
});
afterEach(() => t.close());

/** A private calendar of `owner` with a timed event today (2026-11-22, the test clock), a weekly one and a someday one. */
async function privateDiary(owner: ClaimedAgent, name: string) {
  const calendar = await newCalendar(t, owner.auth, { name, visibility: "private" });
  await newEvent(t, owner.auth, calendar.id, {
    name: "Dentist",
    date: "2026-11-22",
    start_time: "15:00",
    end_time: "16:00",
  });
  await newEvent(t, owner.auth, calendar.id, {
    name: "Piano lesson",
    recur: { type: "weekly", day: 3 },
    start_time: "17:00",
    end_time: "18:00",
  });
  await newEvent(t, owner.auth, calendar.id, { name: "Plan the trip" });
  return calendar;
}

const pagePath = (agentId: string, calendarId: string) => `/account/agents/${agentId}/calendars/${calendarId}`;
/** The page without what differs by request: its id, and the address sign-in comes back to. */
const withoutRequestId = (text: string) =>
  text.replace(/Request id: [^<]+/, "Request id: …").replace(/\/account\?next=[^"]+/, "/account?next=…");

describe("a claimed agent's private calendar, from the account", () => {
  it("is the same 404 to everyone but the claiming human, who sees its events in each lens", async () => {
    const alice = await new Human(t).signIn(t.accounts, "alice");
    const scout = await claimAgent(t, alice, "Scout");
    const diary = await privateDiary(scout, "Scout's diary");
    const bob = await new Human(t).signIn(t.accounts, "bob");
    const rover = await claimAgent(t, bob, "Rover");
    const garden = await privateDiary(rover, "Rover's garden");
    const path = pagePath(scout.agentId, diary.id);

    const refusals = [
      // No session at all: no cookie, then a browser that has only looked at the account page.
      await get(t, path),
      await new Human(t).get(path),
      // Another human, directly and through their own agent.
      await bob.get(path),
      await bob.get(pagePath(rover.agentId, diary.id)),
      // The claiming human, through another account's agent, or on a calendar her agent holds no role on.
      await alice.get(pagePath(rover.agentId, garden.id)),
      await alice.get(pagePath(scout.agentId, garden.id)),
      // Ids no record can have.
      await alice.get(pagePath("agt_nothing", diary.id)),
      await alice.get(pagePath(scout.agentId, "nonsense")),
    ];
    const first = withoutRequestId(refusals[0].text);
    expect(first).toContain("Calendar not found");
    // Each offers sign-in that comes back to the address asked for, whether or not a calendar is there.
    expect(refusals[0].text).toContain(
      `<a class="button" href="/account?next=${encodeURIComponent(path)}">Sign in to see it</a>`,
    );
    for (const [i, res] of refusals.entries()) {
      expect(res.status, `refusal ${i}`).toBe(404);
      expect(res.headers["cache-control"]).toBe("private, no-store");
      expect(withoutRequestId(res.text)).toBe(first);
      expect(res.text).not.toContain("Dentist");
    }

    const seen = {
      month: ["Dentist", "Piano lesson"],
      // The weekly lesson starts on Wednesday 25 November, after this week.
      week: ["Dentist"],
      schedule: ["Dentist", "Piano lesson", "Plan the trip"],
      timeline: ["Dentist", "Piano lesson", "Plan the trip"],
    };
    for (const [lens, names] of Object.entries(seen)) {
      const res = await alice.get(`${path}?view=${lens}`);
      expect(res.status, lens).toBe(200);
      expect(res.text).toContain("<h1>Scout&#39;s diary</h1>");
      expect(res.text).toMatch(new RegExp(`href="\\?view=${lens}&amp;date=2026-11-22" aria-current="page"`));
      for (const name of names) expect(res.text, `${lens}: ${name}`).toContain(name);
    }
    // Bob reads his own agent's calendar the same way.
    expect((await bob.get(pagePath(rover.agentId, garden.id))).text).toContain("Rover&#39;s garden");
    // The public address stays what it was: 404, to the claiming human too.
    expect((await alice.get(`/c/${diary.slug}`)).status).toBe(404);
    expect((await alice.get(`/c/${diary.slug}.ics`)).status).toBe(404);
  });

  it("is never cached, nor kept for anyone else; the old session of a signed-out human gets the 404", async () => {
    const alice = await new Human(t).signIn(t.accounts, "alice");
    const scout = await claimAgent(t, alice, "Scout");
    const diary = await privateDiary(scout, "Scout's diary");
    const path = pagePath(scout.agentId, diary.id);
    const cache = t.deps.cache as ResponseCache;
    const publicPage = await get(t, `/c/${scout.mintedSlug}`);
    expect(publicPage.status).toBe(200);
    const kept = cache.stats().entries;

    const page = await alice.get(path);
    expect(page.status).toBe(200);
    expect(page.headers["cache-control"]).toBe("private, no-store");
    expect(page.headers.etag).toBeUndefined();
    expect(page.headers["last-modified"]).toBeUndefined();
    expect(page.headers["x-robots-tag"]).toBe("noindex");
    expect(page.headers["referrer-policy"]).toBe("no-referrer");
    // The public pages' policy: no script at all.
    expect(page.headers["content-security-policy"]).toBe(publicPage.headers["content-security-policy"]);
    expect(page.headers["content-security-policy"]).not.toContain("script-src");
    // A validator from elsewhere is no reason for a 304: every answer is the whole page.
    const again = await alice.get(path);
    const conditional = await get(t, path).set("Cookie", alice.cookie!).set("If-None-Match", '"x", *');
    expect(conditional.status).toBe(200);
    expect(conditional.text).toBe(again.text);
    expect(cache.stats().entries).toBe(kept);

    // Right after, whoever else asks is refused: nothing was kept for them.
    expect((await get(t, path)).status).toBe(404);
    const cookie = alice.cookie;
    expect((await alice.post("/account/sign-out")).status).toBe(303);
    const replay = new Human(t);
    replay.cookie = cookie;
    expect((await replay.get(path)).status).toBe(404);
    expect((await alice.get(path)).status).toBe(404);
  });

  it("is linked from the account page; its lens and date links stay on its address and nothing links to a 404", async () => {
    const alice = await new Human(t).signIn(t.accounts, "alice");
    const scout = await claimAgent(t, alice, "Scout");
    const diary = await privateDiary(scout, "Scout's diary");
    const path = pagePath(scout.agentId, diary.id);

    const account = await alice.get("/account");
    expect(account.text).toContain(`href="${path}">private page</a>`);
    expect(account.text).toContain(`href="/c/${scout.mintedSlug}"`);

    const page = await alice.get(path);
    const links = [...page.text.matchAll(/(?:href|action)="([^"]*)"/g)].map((m) => m[1]);
    expect(links.filter((l) => l.startsWith("/c/") && !l.startsWith("/c/_assets/"))).toEqual([]);
    for (const link of links) {
      expect(link).not.toContain(".ics");
      expect(link).not.toContain("/v1/");
      expect(link).not.toContain("webcal:");
    }
    expect(page.text).toContain('href="?view=week&amp;date=2026-11-22"');
    // It leads back to the account page, and does not pass for a published page.
    expect(page.text).toContain(`<a href="/account">Your account · Scout&#39;s calendar</a>`);
    expect(page.text).not.toContain("Published with");
    // The next month, through the same address: the weekly lesson on Wednesday 2 December.
    const december = await alice.get(`${path}?view=schedule&date=2026-12-01`);
    expect(december.status).toBe(200);
    expect(december.text).toContain("Piano lesson");
    expect(december.text).not.toContain("Dentist");
    // The stylesheet it links is served.
    const stylesheet = /href="(\/c\/_assets\/style\.[0-9a-f]+\.css)"/.exec(page.text)?.[1];
    expect((await get(t, stylesheet!)).status).toBe(200);
    // Read-only: nothing but GET and HEAD.
    const refused = await alice.post(path);
    expect(refused.status).toBe(405);
    expect(refused.headers.allow).toBe("GET, HEAD");
  });

  it("counts any live role of the claimed agent, while it lasts; a revoked agent's human still reads", async () => {
    const alice = await new Human(t).signIn(t.accounts, "alice");
    const scout = await claimAgent(t, alice, "Scout");
    const bob = await new Human(t).signIn(t.accounts, "bob");
    const rover = await claimAgent(t, bob, "Rover");
    const garden = await privateDiary(rover, "Rover's garden");
    const path = pagePath(scout.agentId, garden.id);
    expect((await alice.get(path)).status).toBe(404);

    // Rover shares its private calendar with Scout as a reader: Scout's human reads it too.
    const grant = await grantRole(t, rover.auth, garden.id, scout.agentId, "reader");
    const account = await alice.get("/account");
    expect(account.text).toContain(`href="${path}">private page</a>`);
    const page = await alice.get(path);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Dentist");

    // Scout revoked from the account: its tokens stop, its human still reads what it holds.
    expect((await alice.post(`/account/agents/${scout.agentId}/revoke`)).status).toBe(303);
    expect((await alice.get(path)).status).toBe(200);

    // The grant revoked: the page is gone at once, and the account page no longer lists it.
    expect((await del(t, `/v1/calendars/${garden.id}/grants/${grant.id}`, rover.auth)).status).toBe(200);
    expect((await alice.get(path)).status).toBe(404);
    expect((await alice.get("/account")).text).not.toContain(garden.id);
  });
});
