import express from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { createApiApp } from "../../functions/src/app.js";
import { paths } from "../../functions/src/domain/paths.js";
import { execute } from "../../functions/src/http/execute.js";
import { claimKey, fingerprint, idempotencyPath } from "../../functions/src/http/idempotency.js";
import { defineRoute } from "../../functions/src/http/route.js";
import { apiRoutes } from "../../functions/src/routes/index.js";
import { z } from "zod";
import { appPerTest, onFirestore, sqliteOnly } from "../helpers/app.js";
import { expectError, freshKey, post, withoutRequestId } from "../helpers/http.js";
import { mintAgent } from "../helpers/factories.js";

const t = appPerTest();

/** A POST route for one test, beside the real ones: no token, an empty body, the handler's count back. */
const countingRoute = (path: string, handler: () => Promise<{ calls: number }>) =>
  defineRoute({
    method: "post",
    path,
    summary: "test only",
    tags: [],
    auth: "none",
    body: z.strictObject({}),
    response: z.object({ calls: z.number() }),
    errors: [],
    handler,
  });

describe("the error envelope", () => {
  it("answers unknown routes 404 and wrong methods 405 with Allow", async () => {
    expectError(await request(t.app).get("/v1/nothing-here"), 404, "not_found");
    expectError(await request(t.app).get("/elsewhere"), 404, "not_found");
    const res = await request(t.app).put("/v1/me");
    expectError(res, 405, "method_not_allowed");
    expect(res.headers.allow).toBe("GET");
  });

  it("answers invalid JSON, non-object bodies, non-JSON bodies and oversized bodies", async () => {
    const broken = await post(t, "/v1/mint").set("Content-Type", "application/json").send('{"name": ');
    expectError(broken, 400, "invalid_json");
    expectError(await post(t, "/v1/mint").send([1, 2]), 400, "invalid_request");
    expectError(
      await post(t, "/v1/mint").set("Content-Type", "text/plain").send("name=Scout"),
      415,
      "unsupported_media_type",
    );
    expectError(await post(t, "/v1/mint").type("form").send({ name: "Scout" }), 415, "unsupported_media_type");
    const big = JSON.stringify({ name: "Scout", pad: "x".repeat(65 * 1024) });
    expectError(await post(t, "/v1/mint").set("Content-Type", "application/json").send(big), 413, "payload_too_large");
    expect(await t.deps.store.query(paths.agents())).toHaveLength(0);
  });

  it("answers a crash with a bare 500 that leaks nothing, and logs it", async () => {
    const boom = defineRoute({
      method: "get",
      path: "/v1/boom",
      summary: "test only",
      tags: [],
      auth: "none",
      response: z.object({}),
      errors: [],
      handler: async () => {
        throw new Error("secret internal detail at /srv/db.ts:42");
      },
    });
    const app = createApiApp(t.deps, [...apiRoutes, boom]);
    const res = await request(app).get("/v1/boom");
    expectError(res, 500, "internal");
    expect(JSON.stringify(res.body)).not.toContain("secret internal detail");
    expect(t.logs.join("\n")).toContain("secret internal detail");
  });

  it("sends CORS headers and answers preflights", async () => {
    const res = await request(t.app).get("/v1/me");
    expect(res.headers["access-control-allow-origin"]).toBe("*");
    const pre = await request(t.app).options("/v1/mint").set("Access-Control-Request-Method", "POST");
    expect(pre.status).toBe(204);
    expect(pre.headers["access-control-allow-headers"]).toContain("Idempotency-Key");
    // A browser-based MCP client chooses its toolsets by header too.
    const mcp = await request(t.app)
      .options("/mcp")
      .set("Access-Control-Request-Method", "POST")
      .set("Access-Control-Request-Headers", "authorization, content-type, x-mcp-toolsets");
    expect(mcp.status).toBe(204);
    expect(mcp.headers["access-control-allow-headers"]).toMatch(/\bX-MCP-Toolsets\b/);
  });
});

describe("idempotency", () => {
  const mintBody = { name: "Scout" };

  it("names a key that arrived empty as empty, and says why a key may not arrive at all", async () => {
    const empty = await request(t.app).post("/v1/mint").set("Idempotency-Key", "").send(mintBody);
    expectError(empty, 400, "missing_idempotency_key");
    expect(empty.body.error.message).toMatch(/^the Idempotency-Key header arrived empty; /);
    expect(empty.body.error.details).toEqual({ field: "Idempotency-Key" });
    const absent = await request(t.app).post("/v1/mint").send(mintBody);
    expectError(absent, 400, "missing_idempotency_key");
    expect(absent.body.error.message).toContain("its value was empty and curl left the header out");
    expect(absent.body.error.message).toMatch(/\(see \/docs\/errors\.md#missing_idempotency_key\)$/);
    expect(await t.deps.store.query(paths.agents())).toHaveLength(0);
  });

  it("rejects keys over 200 characters", async () => {
    expectError(
      await request(t.app).post("/v1/mint").set("Idempotency-Key", "x".repeat(201)).send(mintBody),
      400,
      "invalid_request",
    );
    await request(t.app).post("/v1/mint").set("Idempotency-Key", "x".repeat(200)).send(mintBody).expect(200);
  });

  it("422s the same key with another body or path, and scopes keys to the caller", async () => {
    const key = freshKey();
    await request(t.app).post("/v1/mint").set("Idempotency-Key", key).send(mintBody).expect(200);
    expectError(
      await request(t.app).post("/v1/mint").set("Idempotency-Key", key).send({ name: "Other" }),
      422,
      "idempotency_key_reused",
    );
    const scout = await mintAgent(t);
    // The same key string from an authenticated agent is another key.
    await request(t.app).post("/v1/agent-credentials").set(scout.auth).set("Idempotency-Key", key).send({}).expect(200);
    expectError(
      await request(t.app)
        .post("/v1/agent-credentials")
        .set(scout.auth)
        .set("Idempotency-Key", key)
        .send({ label: "x" }),
      422,
      "idempotency_key_reused",
    );
  });

  it("replays stored errors too, and forgets a key after 24 hours", async () => {
    const key = freshKey();
    const first = await request(t.app).post("/v1/mint").set("Idempotency-Key", key).send({ name: "" });
    expectError(first, 400, "invalid_request");
    const again = await request(t.app).post("/v1/mint").set("Idempotency-Key", key).send({ name: "" });
    expect(again.headers["idempotent-replayed"]).toBe("true");
    // The same answer; its request id is the replaying request's own.
    expect(withoutRequestId(again.body)).toEqual(withoutRequestId(first.body));
    expect(again.body.error.request_id).toBe(again.headers["x-request-id"]);
    t.clock.advance(24 * 60 * 60 * 1000 + 1);
    const later = await request(t.app).post("/v1/mint").set("Idempotency-Key", key).send({ name: "" });
    expect(later.headers["idempotent-replayed"]).toBeUndefined();
  });

  it("does not store 5xx responses, so a retry runs again", async () => {
    let calls = 0;
    const flaky = countingRoute("/v1/flaky", async () => {
      calls += 1;
      if (calls === 1) throw new Error("transient");
      return { calls };
    });
    const app = createApiApp(t.deps, [...apiRoutes, flaky]);
    const key = freshKey();
    expectError(await request(app).post("/v1/flaky").set("Idempotency-Key", key).send({}), 500, "internal");
    const retry = await request(app).post("/v1/flaky").set("Idempotency-Key", key).send({}).expect(200);
    expect(retry.body).toEqual({ calls: 2 });
    expect(retry.headers["idempotent-replayed"]).toBeUndefined();
  });

  // On Firestore a claim is live for 60 s, and the repeat answers 409 (the next test).
  it.skipIf(onFirestore)(
    sqliteOnly(
      "on the SQLite store, a repeat waits for the first request and replays its answer",
      "on Firestore the repeat answers 409 idempotency_key_in_use",
    ),
    async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let calls = 0;
      const slow = countingRoute("/v1/slow", async () => {
        calls += 1;
        await gate;
        return { calls };
      });
      const app = createApiApp(t.deps, [...apiRoutes, slow]);
      const key = freshKey();
      const send = () =>
        request(app)
          .post("/v1/slow")
          .set("Idempotency-Key", key)
          .send({})
          .then((r) => r);
      const first = send();
      await new Promise((r) => setTimeout(r, 50));
      const second = send();
      await new Promise((r) => setTimeout(r, 50));
      release();
      expect((await first).body).toEqual({ calls: 1 });
      expect((await second).body).toEqual({ calls: 1 });
      expect((await second).headers["idempotent-replayed"]).toBe("true");
    },
  );

  it("409s a key claimed by a live request, and takes over a dead one", async () => {
    const path = idempotencyPath("k", null);
    const print = fingerprint("post /v1/mint", {}, {});
    // A store shared by several processes (Firestore): a claim is live for 60 s.
    const shared = { ...t.deps, store: Object.assign(Object.create(t.deps.store), { singleProcess: false }) };
    expect((await claimKey(shared, path, print)).kind).toBe("fresh");
    await expect(claimKey(shared, path, print)).rejects.toMatchObject({ code: "idempotency_key_in_use" });
    t.clock.advance(60_000);
    expect((await claimKey(shared, path, print)).kind).toBe("fresh");
    // On the SQLite store one process owns the data: a claim of an earlier process is dead at once
    // (on Firestore, several processes share the store: the 60 s above are the rule).
    if (!onFirestore) {
      await t.deps.store.runTransaction(async (tx) => tx.update(path, { process_id: "an-earlier-process" }));
      expect((await claimKey(t.deps, path, print)).kind).toBe("fresh");
    }
  });

  it("a request whose claim was taken over commits nothing", async () => {
    const key = "k2";
    const agent = { id: "agt_never", name: "never", created_at: "2026-01-01T00:00:00.000Z", owner_user_id: null };
    const route = defineRoute({
      method: "post",
      path: "/v1/x",
      summary: "test only",
      tags: [],
      auth: "none",
      response: z.object({ ok: z.boolean() }),
      errors: [],
      // Between this request's claim and its transaction, another attempt takes the key over.
      prepare: ({ deps }) =>
        deps.store.runTransaction(async (tx) => tx.update(idempotencyPath(key, null), { claim_id: "another-attempt" })),
      handler: async ({ tx }) => {
        tx.set(paths.agent("agt_never"), agent);
        return { ok: true };
      },
    });
    const client = { signal: new AbortController().signal, requestId: undefined };
    const request = { params: {}, query: {}, body: undefined, authorization: undefined, idempotencyKey: key, client };
    const outcome = await execute(route, request, t.deps);
    expect(outcome.status).toBe(409);
    expect(await t.deps.store.get(paths.agent("agt_never"))).toBeNull();
  });

  it("20 parallel POSTs with one key create exactly one record", async () => {
    const scout = await mintAgent(t);
    const key = freshKey();
    const app = express().use(t.app);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        request(app).post("/v1/agent-credentials").set(scout.auth).set("Idempotency-Key", key).send({ label: "once" }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    const created = results.filter((r) => r.status === 200).map((r) => r.body.credential.id);
    expect(new Set(created).size).toBe(1);
    const stored = await t.deps.store.query(paths.credentials(scout.agentId), { where: [["label", "==", "once"]] });
    expect(stored).toHaveLength(1);
  });
});
