import request from "supertest";
import { describe, expect, it } from "vitest";
import { appPerTest } from "../helpers/app.js";
import { expectError, freshKey, post } from "../helpers/http.js";
import { mintAgent } from "../helpers/factories.js";

const t = appPerTest();

describe("agent credentials", () => {
  it("POST climbs 401 -> 400 -> success with three scopes, and the new token works", async () => {
    const scout = await mintAgent(t);
    expectError(await post(t, "/v1/agent-credentials").send({}), 401, "unauthorized");
    expectError(
      await request(t.app).post("/v1/agent-credentials").set(scout.auth).send({}),
      400,
      "missing_idempotency_key",
    );
    expectError(
      await post(t, "/v1/agent-credentials", scout.auth).send({ label: "x".repeat(101) }),
      400,
      "invalid_request",
    );
    expectError(await post(t, "/v1/agent-credentials", scout.auth).send({ lable: "ci" }), 400, "invalid_request");

    const res = await post(t, "/v1/agent-credentials", scout.auth).send({ label: "ci runner" }).expect(200);
    expect(res.body.token).toMatch(/^svc_agent_[0-9A-Za-z]{43,}$/);
    expect(res.body.credential).toMatchObject({
      id: expect.stringMatching(/^cred_/),
      label: "ci runner",
      scopes: ["agent:read", "calendar:read", "calendar:write"],
      revoked_at: null,
    });
    const me = await request(t.app).get("/v1/me").set("Authorization", `Bearer ${res.body.token}`).expect(200);
    expect(me.body.agent.id).toBe(scout.agentId);
    expect(me.body.credential.id).toBe(res.body.credential.id);
  });

  it("accepts an absent body, and replays without the token", async () => {
    const scout = await mintAgent(t);
    const key = freshKey();
    const first = await request(t.app)
      .post("/v1/agent-credentials")
      .set(scout.auth)
      .set("Idempotency-Key", key)
      .expect(200);
    expect(first.body.credential.label).toBeNull();
    const again = await request(t.app)
      .post("/v1/agent-credentials")
      .set(scout.auth)
      .set("Idempotency-Key", key)
      .expect(200);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.body).toEqual({ credential: first.body.credential });
    const list = await request(t.app).get("/v1/agent-credentials").set(scout.auth).expect(200);
    expect(list.body.credentials).toHaveLength(2);
  });

  it("lists active and revoked credentials, newest first, metadata only", async () => {
    const scout = await mintAgent(t);
    expectError(await request(t.app).get("/v1/agent-credentials"), 401, "unauthorized");
    t.clock.advance(1000);
    const second = await post(t, "/v1/agent-credentials", scout.auth).send({ label: "second" }).expect(200);
    await request(t.app)
      .delete(`/v1/agent-credentials/${scout.credentialId}`)
      .set("Authorization", `Bearer ${second.body.token}`)
      .expect(200);
    const list = await request(t.app)
      .get("/v1/agent-credentials")
      .set("Authorization", `Bearer ${second.body.token}`)
      .expect(200);
    expect(list.body.credentials.map((c: { id: string }) => c.id)).toEqual([
      second.body.credential.id,
      scout.credentialId,
    ]);
    expect(list.body.credentials[1].revoked_at).toBe("2026-11-22T10:00:01.000Z");
    expect(JSON.stringify(list.body)).not.toMatch(/token|svc_agent_/);
  });

  it("DELETE: 401, 404 for another agent's id, 409 for the last one, then a revoked token is refused at once", async () => {
    const scout = await mintAgent(t, "Scout");
    const other = await mintAgent(t, "Other");
    expectError(await request(t.app).delete(`/v1/agent-credentials/${scout.credentialId}`), 401, "unauthorized");
    expectError(
      await request(t.app).delete(`/v1/agent-credentials/${other.credentialId}`).set(scout.auth),
      404,
      "not_found",
    );
    expectError(await request(t.app).delete("/v1/agent-credentials/cred_missing").set(scout.auth), 404, "not_found");
    expectError(
      await request(t.app).delete(`/v1/agent-credentials/${scout.credentialId}`).set(scout.auth),
      409,
      "last_credential",
    );

    const second = await post(t, "/v1/agent-credentials", scout.auth).send({}).expect(200);
    // A credential may revoke itself when it is not the last active one.
    const res = await request(t.app).delete(`/v1/agent-credentials/${scout.credentialId}`).set(scout.auth).expect(200);
    expect(res.body).toEqual({ revoked: scout.credentialId });
    expectError(await request(t.app).get("/v1/me").set(scout.auth), 401, "unauthorized");
    const secondAuth = { Authorization: `Bearer ${second.body.token}` };
    await request(t.app).get("/v1/me").set(secondAuth).expect(200);
    expectError(
      await request(t.app).delete(`/v1/agent-credentials/${scout.credentialId}`).set(secondAuth),
      404,
      "not_found",
    );
    expectError(
      await request(t.app).delete(`/v1/agent-credentials/${second.body.credential.id}`).set(secondAuth),
      409,
      "last_credential",
    );
  });
});
