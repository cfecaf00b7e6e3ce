/**
 * The webhooks of a claimed agent on the account page (pages/humans/views.ts, router.ts;
 * domain/commands/account-webhooks.ts), with the fake sign-in of test/helpers/accounts.ts: each
 * is listed on its agent's card (URL, calendars, types, state) with Disable or Enable and Delete,
 * POST forms carrying the page's CSRF value. It climbs: a form without the CSRF value is 403,
 * signed out 401, another human's agent (or a webhook not that agent's) one and the same 404,
 * then the human's own; and each time the store is checked. What delivery does with it is in
 * test/api/webhook-revocation.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DISABLED_BY_ACCOUNT } from "../../functions/src/domain/commands/account-webhooks.js";
import { paths } from "../../functions/src/domain/paths.js";
import {
  claimAgent,
  createAccountsTestApp,
  Human,
  type AccountsTestApp,
  type ClaimedAgent,
} from "../helpers/accounts.js";
import { newCalendar } from "../helpers/factories.js";
import { expectError, get, post } from "../helpers/http.js";

let t: AccountsTestApp;
beforeEach(() => {
  t = createAccountsTestApp();
});
afterEach(() => t.close());

async function subscribe(agent: ClaimedAgent, body: Record<string, unknown>) {
  const res = await post(t, "/v1/webhooks", agent.auth).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: res.body.webhook.id as string, secret: res.body.secret as string };
}

const action = (agentId: string, webhookId: string, verb: "disable" | "enable" | "delete") =>
  `/account/agents/${agentId}/webhooks/${webhookId}/${verb}`;
const withoutRequestId = (text: string) => text.replace(/Request id: [^<]+/, "Request id: …");
const stored = async (webhookId: string) => (await t.deps.store.get(paths.webhook(webhookId)))?.data ?? null;

describe("an agent's webhooks on the account page", () => {
  it("lists each with its URL, calendars, types and state, and the forms that stop it; to no one else", async () => {
    const alice = await new Human(t).signIn(t.accounts, "alice");
    const scout = await claimAgent(t, alice, "Scout");
    const diary = await newCalendar(t, scout.auth, { name: "Scout's diary", visibility: "private" });
    const all = await subscribe(scout, {
      url: "https://hooks.example.test/all",
      calendars: [scout.calendarId, diary.id],
      description: "Everything, to the planner",
    });
    const deletions = await subscribe(scout, {
      url: "https://hooks.example.test/deleted?tag=a&b",
      calendars: [diary.id],
      types: ["event.deleted"],
    });

    const page = await alice.get("/account");
    expect(page.status).toBe(200);
    const card = page.text.slice(page.text.indexOf("<h3>Scout</h3>"));
    expect(card).toContain("<h4>Webhooks</h4>");
    expect(card).toContain("<code>https://hooks.example.test/all</code>");
    expect(card).toContain("Everything, to the planner");
    expect(card).toContain("Calendars: Scout plans, Scout&#39;s diary · Sends: every change");
    // Escaped as any value is.
    expect(card).toContain("<code>https://hooks.example.test/deleted?tag=a&amp;b</code>");
    expect(card).toContain("Calendars: Scout&#39;s diary · Sends: event.deleted");
    expect(card.match(/class="state">Enabled</g)).toHaveLength(2);
    for (const hook of [all, deletions]) {
      expect(card).toContain(`action="${action(scout.agentId, hook.id, "disable")}"`);
      expect(card).toContain(`action="${action(scout.agentId, hook.id, "delete")}"`);
      expect(card).not.toContain(`action="${action(scout.agentId, hook.id, "enable")}"`);
      expect(page.text).not.toContain(hook.secret);
    }
    expect(card).toContain('aria-label="Disable the webhook to https://hooks.example.test/all">Disable</button>');
    expect(page.text).not.toContain("whsec_");
    // Every form on the page carries the CSRF value.
    const forms = page.text.match(/<form[^>]*method="post"[^>]*>/g) ?? [];
    expect(page.text.match(/name="csrf" value="[0-9a-f]{64}"/g)).toHaveLength(forms.length);

    const bob = await new Human(t).signIn(t.accounts, "bob");
    const bobPage = await bob.get("/account");
    expect(bobPage.text).not.toContain("hooks.example.test");
    expect(bobPage.text).not.toContain(all.id);
  });

  it("says which calendars a webhook sends nothing more of, once the agent lost them", async () => {
    const alice = await new Human(t).signIn(t.accounts, "alice");
    const scout = await claimAgent(t, alice, "Scout");
    const hook = await subscribe(scout, { url: "https://hooks.example.test/a", calendars: [scout.calendarId] });
    // As the delivery job records it when a stream finds the calendar unreadable.
    const since = t.clock().toISOString();
    await t.deps.store.runTransaction(async (tx) =>
      tx.update(paths.webhook(hook.id), {
        lost_access: [{ calendar_id: scout.calendarId, reason: "no_access", since }],
      }),
    );
    expect((await alice.get("/account")).text).toContain(
      "Sends nothing more of Scout plans: the agent can no longer read it.",
    );
  });

  it("says when an agent has none", async () => {
    const alice = await new Human(t).signIn(t.accounts, "alice");
    await claimAgent(t, alice, "Scout");
    expect((await alice.get("/account")).text).toContain('<h4>Webhooks</h4>\n<p class="who">No webhooks.</p>');
  });

  it("disables, enables and deletes one: 403 without the form, 401 signed out, one 404 for others, then done", async () => {
    const alice = await new Human(t).signIn(t.accounts, "alice");
    const scout = await claimAgent(t, alice, "Scout");
    const hook = await subscribe(scout, { url: "https://hooks.example.test/a", calendars: [scout.calendarId] });
    const bob = await new Human(t).signIn(t.accounts, "bob");
    const rover = await claimAgent(t, bob, "Rover");
    const roverHook = await subscribe(rover, { url: "https://hooks.example.test/b", calendars: [rover.calendarId] });
    await alice.get("/account");
    await bob.get("/account");
    const before = await stored(hook.id);

    for (const verb of ["disable", "enable", "delete"] as const) {
      const path = action(scout.agentId, hook.id, verb);
      // The form's CSRF value first, then the session.
      expect((await alice.post(path, { csrf: "0".repeat(64) })).status, verb).toBe(403);
      expect((await alice.post(path, { csrf: "" })).status, verb).toBe(403);
      const stranger = new Human(t);
      await stranger.get("/account");
      expect((await stranger.post(path)).status, verb).toBe(401);

      const refusals = [
        // Another human, on Alice's agent; through his own agent; on an agent id no record has.
        await bob.post(path),
        await bob.post(action(rover.agentId, hook.id, verb)),
        await bob.post(action("agt_nothing", hook.id, verb)),
        // Alice, on Bob's agent's webhook through her agent, and through his.
        await alice.post(action(scout.agentId, roverHook.id, verb)),
        await alice.post(action(rover.agentId, roverHook.id, verb)),
        // Ids no record can have.
        await alice.post(action(scout.agentId, "whk_nothing", verb)),
        await alice.post(action(scout.agentId, "nonsense", verb)),
      ];
      const first = withoutRequestId(refusals[0].text);
      expect(first).toContain("There is nothing of yours at this address.");
      for (const [i, res] of refusals.entries()) {
        expect(res.status, `${verb} refusal ${i}`).toBe(404);
        expect(withoutRequestId(res.text), `${verb} refusal ${i}`).toBe(first);
      }
      expect(await stored(hook.id)).toEqual(before);
      expect((await stored(roverHook.id))?.enabled).toBe(true);
    }

    const disabled = await alice.post(action(scout.agentId, hook.id, "disable"));
    expect(disabled.status).toBe(303);
    expect(disabled.headers.location).toBe(`/account?webhook=disable&webhook_of=${scout.agentId}`);
    expect(await stored(hook.id)).toMatchObject({ enabled: false, disabled_reason: DISABLED_BY_ACCOUNT });
    // The agent reads why.
    const seen = await get(t, `/v1/webhooks/${hook.id}`, scout.auth);
    expect(seen.body).toMatchObject({ enabled: false, disabled_reason: DISABLED_BY_ACCOUNT });
    const page = await alice.get(disabled.headers.location);
    expect(page.text).toContain("Scout&#39;s webhook is disabled: nothing more is sent to it until it is enabled.");
    expect(page.text).toContain('class="state">Disabled<');
    expect(page.text).toContain(`Disabled: ${DISABLED_BY_ACCOUNT.replace("'", "&#39;")}`);
    expect(page.text).toContain(`action="${action(scout.agentId, hook.id, "enable")}"`);
    expect(page.text).not.toContain(`action="${action(scout.agentId, hook.id, "disable")}"`);
    // Disabling again changes nothing.
    expect((await alice.post(action(scout.agentId, hook.id, "disable"))).status).toBe(303);
    expect((await stored(hook.id))?.disabled_reason).toBe(DISABLED_BY_ACCOUNT);

    const enabled = await alice.post(action(scout.agentId, hook.id, "enable"));
    expect(enabled.status).toBe(303);
    expect(await stored(hook.id)).toMatchObject({ enabled: true, disabled_reason: null });
    expect((await alice.get(enabled.headers.location)).text).toContain(
      "Scout&#39;s webhook is enabled: delivery resumes where it stopped.",
    );

    expect(await t.deps.store.get(paths.webhookStream(hook.id, scout.calendarId))).not.toBeNull();
    const deleted = await alice.post(action(scout.agentId, hook.id, "delete"));
    expect(deleted.status).toBe(303);
    expect(await stored(hook.id)).toBeNull();
    expect(await t.deps.store.get(paths.webhookStream(hook.id, scout.calendarId))).toBeNull();
    expectError(await get(t, `/v1/webhooks/${hook.id}`, scout.auth), 404, "not_found");
    const after = await alice.get(deleted.headers.location);
    expect(after.text).toContain("Scout&#39;s webhook is deleted.");
    expect(after.text).not.toContain(hook.id);
    // Deleting it again: it is not there.
    expect((await alice.post(action(scout.agentId, hook.id, "delete"))).status).toBe(404);
    // Bob's was never touched.
    expect((await stored(roverHook.id))?.enabled).toBe(true);
  });

  it("keeps the reason of a webhook disabled for its failures when asked to disable it", async () => {
    const alice = await new Human(t).signIn(t.accounts, "alice");
    const scout = await claimAgent(t, alice, "Scout");
    const hook = await subscribe(scout, { url: "https://hooks.example.test/a", calendars: [scout.calendarId] });
    const reason = "1000 consecutive deliveries failed; fix the receiver, then PATCH enabled: true";
    await t.deps.store.runTransaction(async (tx) =>
      tx.update(paths.webhook(hook.id), { enabled: false, disabled_reason: reason }),
    );
    await alice.get("/account");
    expect((await alice.post(action(scout.agentId, hook.id, "disable"))).status).toBe(303);
    expect(await stored(hook.id)).toMatchObject({ enabled: false, disabled_reason: reason });
    expect((await alice.get("/account")).text).toContain(`Disabled: ${reason}`);
  });

  it("a revoked agent's webhooks say they send nothing, and can still be deleted", async () => {
    const alice = await new Human(t).signIn(t.accounts, "alice");
    const scout = await claimAgent(t, alice, "Scout");
    const hook = await subscribe(scout, { url: "https://hooks.example.test/a", calendars: [scout.calendarId] });
    await alice.get("/account");
    expect((await alice.post(`/account/agents/${scout.agentId}/revoke`)).status).toBe(303);
    const page = await alice.get("/account");
    expect(page.text).toContain('class="state">Sends nothing: the agent is revoked<');
    expect(page.text).toContain("its webhooks send nothing");
    expect((await alice.post(action(scout.agentId, hook.id, "delete"))).status).toBe(303);
    expect(await stored(hook.id)).toBeNull();
  });

  it("names no action it does not know in its notice", async () => {
    const alice = await new Human(t).signIn(t.accounts, "alice");
    const scout = await claimAgent(t, alice, "Scout");
    for (const verb of ["constructor", "toString", "__proto__", "nothing"]) {
      const page = await alice.get(`/account?webhook=${verb}&webhook_of=${scout.agentId}`);
      expect(page.status).toBe(200);
      expect(page.text, verb).not.toContain('class="notice"');
    }
  });

  it("answers 405 for other methods on the forms' addresses", async () => {
    const res = await new Human(t).get(action("agt_nothing", "whk_nothing", "delete"));
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("POST");
  });
});
