/**
 * The API side of accounts (docs/api.md#humans-claims-and-accounts), with the tokens the account page issues
 * (domain/commands/accounts.ts): mint with an onboard token, `agent.claimed` on /v1/me,
 * replays that never carry a claim link, and revoking an agent.
 */
import request from "supertest";
import { describe, expect, it } from "vitest";
import { claimAgent, createOnboardToken, revokeAgent } from "../../functions/src/domain/commands/accounts.js";
import { paths } from "../../functions/src/domain/paths.js";
import { appPerTest } from "../helpers/app.js";
import { laterCredential, mintAgent } from "../helpers/factories.js";
import { expectError, freshKey, get, post } from "../helpers/http.js";

const t = appPerTest();
const ALICE = "uid-alice";
const BOB = "uid-bob";
const MINUTE = 60_000;

const claimTokenOf = (claimUrl: string) => claimUrl.split("/claim/")[1];

// The account page's commands, each in a transaction of its own, as pages/humans/router.ts runs them.
const onboardTokenFor = (userId: string) => t.deps.store.runTransaction((tx) => createOnboardToken(tx, t.deps, userId));
const confirmClaim = (claimToken: string, userId: string) =>
  t.deps.store.runTransaction((tx) => claimAgent(tx, t.deps, claimToken, userId));
const revokeFromAccount = (userId: string, agentId: string) =>
  t.deps.store.runTransaction((tx) => revokeAgent(tx, t.deps, userId, agentId));
const agentCount = async () => (await t.deps.store.query(paths.agents())).length;

describe("POST /v1/mint with an onboard token from the account page", () => {
  it("links the agent at once: claim_url null, claimed on /v1/me, owner stored", async () => {
    const { token: onboard, expiresAt } = await onboardTokenFor(ALICE);
    expect(onboard).toMatch(/^svc_onboard_[0-9A-Za-z]{43}$/);
    expect(expiresAt).toBe(new Date(t.clock().getTime() + 30 * MINUTE).toISOString());
    const minted = await post(t, "/v1/mint").send({ name: "Helper", onboard_token: onboard }).expect(200);
    expect(minted.body.claim_url).toBeNull();
    expect((await t.deps.store.get(paths.agent(minted.body.agent.id)))?.data.owner_user_id).toBe(ALICE);
    const me = await get(t, "/v1/me", { Authorization: `Bearer ${minted.body.token}` }).expect(200);
    expect(me.body.agent.claimed).toBe(true);
    // Whether, never who.
    expect(JSON.stringify(me.body)).not.toContain(ALICE);
    expect(Object.keys(me.body.agent).sort()).toEqual(["claimed", "created_at", "id", "name"]);
  });

  it("is single use: the second mint with it is 401 invalid_onboard_token and creates nothing", async () => {
    const { token: onboard } = await onboardTokenFor(ALICE);
    await post(t, "/v1/mint").send({ name: "First", onboard_token: onboard }).expect(200);
    expectError(
      await post(t, "/v1/mint").send({ name: "Second", onboard_token: onboard }),
      401,
      "invalid_onboard_token",
    );
    expect(await agentCount()).toBe(1);
  });

  it("is good for 30 minutes by the injected clock, and 401 from then on", async () => {
    const { token: stillGood } = await onboardTokenFor(ALICE);
    const { token: expired } = await onboardTokenFor(ALICE);
    t.clock.advance(30 * MINUTE - 1000);
    await post(t, "/v1/mint").send({ name: "Just in time", onboard_token: stillGood }).expect(200);
    t.clock.advance(1000);
    expectError(await post(t, "/v1/mint").send({ name: "Late", onboard_token: expired }), 401, "invalid_onboard_token");
    expect(await agentCount()).toBe(1);
  });

  it("401s an unknown token of the right shape, and one of the wrong shape", async () => {
    for (const onboard_token of [`svc_onboard_${"A".repeat(43)}`, "svc_onboard_", `svc_claim_${"A".repeat(43)}`]) {
      expectError(await post(t, "/v1/mint").send({ name: "Scout", onboard_token }), 401, "invalid_onboard_token");
    }
    expect(await agentCount()).toBe(0);
  });

  it("replays the first answer without token or claim_url, even after the onboard token was used", async () => {
    const { token: onboard } = await onboardTokenFor(ALICE);
    const key = freshKey();
    const body = { name: "Helper", onboard_token: onboard };
    const first = await request(t.app).post("/v1/mint").set("Idempotency-Key", key).send(body).expect(200);
    const again = await request(t.app).post("/v1/mint").set("Idempotency-Key", key).send(body).expect(200);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.body).not.toHaveProperty("token");
    expect(again.body).not.toHaveProperty("claim_url");
    const { token: _token, claim_url: _claimUrl, ...records } = first.body;
    expect(again.body).toEqual(records);
    expect(await agentCount()).toBe(1);
  });

  it("never replays an anonymous mint's claim_url", async () => {
    const key = freshKey();
    const first = await request(t.app).post("/v1/mint").set("Idempotency-Key", key).send({ name: "Anon" }).expect(200);
    expect(first.body.claim_url).toMatch(/\/claim\/svc_claim_/);
    const again = await request(t.app).post("/v1/mint").set("Idempotency-Key", key).send({ name: "Anon" }).expect(200);
    expect(again.body).not.toHaveProperty("claim_url");
    expect(JSON.stringify(again.body)).not.toContain("svc_claim_");
  });
});

describe("GET /v1/me agent.claimed", () => {
  it("is false after an anonymous mint and true once a human confirmed the claim link", async () => {
    const minted = await post(t, "/v1/mint").send({ name: "Anon" }).expect(200);
    const auth = { Authorization: `Bearer ${minted.body.token}` };
    expect((await get(t, "/v1/me", auth).expect(200)).body.agent.claimed).toBe(false);
    const outcome = await confirmClaim(claimTokenOf(minted.body.claim_url), BOB);
    expect(outcome.outcome).toBe("claimed");
    const me = await get(t, "/v1/me", auth).expect(200);
    expect(me.body.agent.claimed).toBe(true);
    expect(JSON.stringify(me.body)).not.toContain(BOB);
  });
});

describe("claim links", () => {
  it("link once: a second confirm, by anyone, finds the link used", async () => {
    const minted = await post(t, "/v1/mint").send({ name: "Anon" }).expect(200);
    const claim = claimTokenOf(minted.body.claim_url);
    expect((await confirmClaim(claim, ALICE)).outcome).toBe("claimed");
    expect(await confirmClaim(claim, BOB)).toEqual({ outcome: "gone", reason: "used" });
    expect((await t.deps.store.get(paths.agent(minted.body.agent.id)))?.data.owner_user_id).toBe(ALICE);
  });

  it("expire after 7 days; an unknown or malformed link is not found", async () => {
    const minted = await post(t, "/v1/mint").send({ name: "Anon" }).expect(200);
    t.clock.advance(7 * 24 * 60 * MINUTE);
    expect(await confirmClaim(claimTokenOf(minted.body.claim_url), ALICE)).toEqual({
      outcome: "gone",
      reason: "expired",
    });
    expect(await confirmClaim(`svc_claim_${"B".repeat(43)}`, ALICE)).toEqual({ outcome: "not_found" });
    expect(await confirmClaim("svc_claim_short", ALICE)).toEqual({ outcome: "not_found" });
    expect((await t.deps.store.get(paths.agent(minted.body.agent.id)))?.data.owner_user_id).toBeNull();
  });
});

describe("revoking an agent from its account", () => {
  it("stops every credential of the agent at once; another account cannot, and learns nothing", async () => {
    const { token: onboard } = await onboardTokenFor(ALICE);
    const agent = await mintAgent(t, "Helper", { onboard_token: onboard });
    const later = await laterCredential(t, agent);
    const bystander = await mintAgent(t, "Bystander");

    await expect(revokeFromAccount(BOB, agent.agentId)).rejects.toMatchObject({ code: "not_found" });
    await get(t, "/v1/me", agent.auth).expect(200);

    expect(await revokeFromAccount(ALICE, agent.agentId)).toEqual({ revoked: 2 });
    expectError(await get(t, "/v1/me", agent.auth), 401, "unauthorized");
    expectError(await get(t, "/v1/me", later), 401, "unauthorized");
    expectError(await post(t, "/v1/agent-credentials", later).send({}), 401, "unauthorized");
    // Its count of live credentials goes with them; others are untouched.
    expect((await t.deps.store.get(paths.agent(agent.agentId)))?.data.live_credential_count).toBe(0);
    await get(t, "/v1/me", bystander.auth).expect(200);
    // Again: nothing left to revoke, still the owner's to ask.
    expect(await revokeFromAccount(ALICE, agent.agentId)).toEqual({ revoked: 0 });
  });

  it("is not_found for an agent nobody claimed and for an id that is no agent", async () => {
    const anon = await mintAgent(t, "Anon");
    await expect(revokeFromAccount(ALICE, anon.agentId)).rejects.toMatchObject({ code: "not_found" });
    await expect(revokeFromAccount(ALICE, "cal_123")).rejects.toMatchObject({ code: "not_found" });
    await get(t, "/v1/me", anon.auth).expect(200);
  });
});
