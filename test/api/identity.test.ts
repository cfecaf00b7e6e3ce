import request from "supertest";
import { describe, expect, it } from "vitest";
import { sha256 } from "../../functions/src/domain/ids.js";
import { paths } from "../../functions/src/domain/paths.js";
import type { AgentRecord, CredentialRecord, TokenRecord } from "../../functions/src/domain/records.js";
import { appPerTest, BASE_URL } from "../helpers/app.js";
import { expectError, freshKey, post } from "../helpers/http.js";
import { mintAgent } from "../helpers/factories.js";

const t = appPerTest();

describe("POST /v1/mint", () => {
  it("400s without an Idempotency-Key, then on bad bodies, naming the field", async () => {
    expectError(await request(t.app).post("/v1/mint").send({ name: "Scout" }), 400, "missing_idempotency_key");
    expectError(await post(t, "/v1/mint").send({}), 400, "invalid_request");
    expectError(await post(t, "/v1/mint").send({ name: "   " }), 400, "invalid_request");
    const typo = await post(t, "/v1/mint").send({ title: "Scout" });
    expectError(typo, 400, "invalid_request");
    expect(typo.body.error.message).toContain("title");
    const zone = await post(t, "/v1/mint").send({ name: "Scout", calendar: { timezone: "Mars/Olympus" } });
    expectError(zone, 400, "invalid_request");
    expect(zone.body.error.details.field).toBe("calendar.timezone");
    expect(await t.deps.store.query(paths.agents())).toHaveLength(0);
  });

  it("creates the agent, a four-scope credential, an unlisted calendar with its owner grant, and a claim link", async () => {
    const res = await post(t, "/v1/mint")
      .send({ name: "Scout", calendar: { name: "Launch Plan Q3", timezone: "Europe/Berlin" } })
      .expect(200);
    const { token, agent, credential, calendar, claim_url } = res.body;
    expect(token).toMatch(/^svc_agent_[0-9A-Za-z]{43,}$/);
    expect(agent).toEqual({
      id: expect.stringMatching(/^agt_/),
      name: "Scout",
      created_at: "2026-11-22T10:00:00.000Z",
    });
    expect(credential).toMatchObject({
      id: expect.stringMatching(/^cred_/),
      label: null,
      scopes: ["agent:read", "calendar:read", "calendar:write", "grants:manage"],
      expires_at: null,
      revoked_at: null,
    });
    expect(calendar).toMatchObject({
      id: expect.stringMatching(/^cal_/),
      name: "Launch Plan Q3",
      slug: "launch-plan-q3",
      timezone: "Europe/Berlin",
      visibility: "unlisted",
      purpose: null,
      default_view: null,
      views: null,
      url: `${BASE_URL}/c/launch-plan-q3`,
      role: "owner",
    });
    expect(claim_url).toMatch(new RegExp(`^${BASE_URL}/claim/svc_claim_[0-9A-Za-z]{43}$`));

    // Stored: the grant and membership, the claim valid 7 days and unused, only the token's hash.
    const grants = await t.deps.store.query(paths.grants(calendar.id));
    expect(grants.map((g) => g.data)).toEqual([
      expect.objectContaining({ agent_id: agent.id, role: "owner", revoked_at: null }),
    ]);
    expect((await t.deps.store.get(paths.membership(agent.id, calendar.id)))?.data).toMatchObject({ role: "owner" });
    const claimToken = claim_url.split("/claim/")[1];
    expect((await t.deps.store.get(paths.claim(sha256(claimToken))))?.data).toEqual({
      agent_id: agent.id,
      created_at: "2026-11-22T10:00:00.000Z",
      expires_at: "2026-11-29T10:00:00.000Z",
      used_at: null,
      // A Timestamp on Firestore, for its TTL policy: 30 days past expiry, so that the page can say "expired".
      purge_at: new Date("2026-12-29T10:00:00.000Z"),
    });
    const stored = await t.deps.store.get<TokenRecord>(paths.token(sha256(token)));
    expect(stored?.data).toMatchObject({ agent_id: agent.id, credential_id: credential.id, revoked_at: null });
    const cred = await t.deps.store.get<CredentialRecord>(paths.credential(agent.id, credential.id));
    expect(cred?.data.token_hash).toBe(sha256(token));
    expect(JSON.stringify(cred?.data)).not.toContain(token);
  });

  it("names the calendar after the agent and adds a suffix when the slug is taken", async () => {
    const first = await mintAgent(t, "Scout");
    const second = await mintAgent(t, "Scout");
    expect(first.calendarSlug).toBe("scout");
    expect(second.calendarSlug).toMatch(/^scout-[a-z0-9]{4}$/);
    const short = await mintAgent(t, "Q");
    expect(short.calendarSlug).toMatch(/^q-[a-z0-9]{4}$/);
  });

  it("replays the same records without the secrets: no token, no claim link", async () => {
    const key = freshKey();
    const body = { name: "Scout" };
    const first = await request(t.app).post("/v1/mint").set("Idempotency-Key", key).send(body).expect(200);
    const again = await request(t.app).post("/v1/mint").set("Idempotency-Key", key).send(body).expect(200);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.body.token).toBeUndefined();
    expect(again.body.claim_url).toBeUndefined();
    const { token: _token, claim_url: _claimUrl, ...withoutSecrets } = first.body;
    expect(again.body).toEqual(withoutSecrets);
    expect(await t.deps.store.query(paths.agents())).toHaveLength(1);
  });

  describe("onboard tokens", () => {
    const seedOnboard = async (token: string, createdAt: string, usedAt: string | null = null) =>
      t.deps.store.runTransaction(async (tx) => {
        const purgeAt = new Date(Date.parse(createdAt) + 30 * 60 * 1000); // as the account side writes it, for the TTL policy
        tx.set(paths.onboardToken(sha256(token)), {
          user_id: "user_42",
          created_at: createdAt,
          used_at: usedAt,
          purge_at: purgeAt,
        });
      });

    it("links the agent to the human at once: no claim link, token single use", async () => {
      await seedOnboard("svc_onboard_good", "2026-11-22T09:40:00.000Z");
      const res = await post(t, "/v1/mint").send({ name: "Scout", onboard_token: "svc_onboard_good" }).expect(200);
      expect(res.body.claim_url).toBeNull();
      const agent = await t.deps.store.get<AgentRecord>(paths.agent(res.body.agent.id));
      expect(agent?.data.owner_user_id).toBe("user_42");
      expect(await t.deps.store.query(paths.claims())).toHaveLength(0);
      expectError(
        await post(t, "/v1/mint").send({ name: "Again", onboard_token: "svc_onboard_good" }),
        401,
        "invalid_onboard_token",
      );
    });

    it("401s an unknown, expired or wrongly prefixed token and creates nothing", async () => {
      await seedOnboard("svc_onboard_old", "2026-11-22T09:29:59.000Z");
      await seedOnboard("other_prefix", "2026-11-22T09:59:00.000Z");
      for (const onboard_token of ["svc_onboard_unknown", "svc_onboard_old", "other_prefix"]) {
        expectError(await post(t, "/v1/mint").send({ name: "Scout", onboard_token }), 401, "invalid_onboard_token");
      }
      expect(await t.deps.store.query(paths.agents())).toHaveLength(0);
      expect(await t.deps.store.query(paths.calendars())).toHaveLength(0);
      expect(await t.deps.store.query(paths.slugs())).toHaveLength(0);
    });
  });
});

describe("GET /v1/me", () => {
  it("401s without or with a bad token, with WWW-Authenticate: Bearer", async () => {
    const none = await request(t.app).get("/v1/me");
    expectError(none, 401, "unauthorized");
    expect(none.headers["www-authenticate"]).toMatch(/^Bearer/);
    const bad = await request(t.app).get("/v1/me").set("Authorization", "Bearer svc_agent_nope");
    expectError(bad, 401, "unauthorized");
    expect(bad.headers["www-authenticate"]).toMatch(/^Bearer.*invalid_token/);
    expectError(await request(t.app).get("/v1/me").set("Authorization", "Basic abc"), 401, "unauthorized");
  });

  it("403s a token without agent:read", async () => {
    const scout = await mintAgent(t);
    // Tokens never lack agent:read through the API; strip it in the store to prove the check.
    const { sha256: hash } = await import("../../functions/src/domain/ids.js");
    await t.deps.store.runTransaction(async (tx) => {
      tx.update(paths.token(hash(scout.token)), { scopes: ["calendar:read"] });
    });
    const res = await request(t.app).get("/v1/me").set(scout.auth);
    expectError(res, 403, "insufficient_scope");
    expect(res.headers["www-authenticate"]).toContain('scope="agent:read"');
  });

  it("shows the agent, the credential in use and the calendars it holds grants on", async () => {
    const scout = await mintAgent(t, "Scout");
    const res = await request(t.app).get("/v1/me").set(scout.auth).expect(200);
    expect(res.body.agent).toMatchObject({ id: scout.agentId, name: "Scout" });
    expect(res.body.credential.id).toBe(scout.credentialId);
    expect(res.body.grants).toEqual([
      { calendar_id: scout.calendarId, slug: scout.calendarSlug, role: "owner", purpose_preview: null },
    ]);
  });
});
