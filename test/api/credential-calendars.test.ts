/**
 * Credentials restricted to calendars, and their scopes and expiry
 * (docs/api.md#credentials-scoped-to-calendars): what POST /v1/agent-credentials accepts and
 * stores, and a restricted token meeting every other calendar of its own agent as one that
 * does not exist. The access matrix holds the same restriction against every route.
 */
import request from "supertest";
import { describe, expect, it } from "vitest";
import { paths } from "../../functions/src/domain/paths.js";
import { readStreamPage } from "../../functions/src/domain/webhooks/feed.js";
import { appPerTest, createTestApp } from "../helpers/app.js";
import { loopbackConfig } from "../helpers/config.js";
import { del, expectError, get, patch, post, type Auth } from "../helpers/http.js";
import { mintAgent, newCalendar, newEvent, type MintedAgent } from "../helpers/factories.js";

const t = appPerTest(() => createTestApp({ config: loopbackConfig() }));

const issue = (auth: Auth, body: Record<string, unknown>) => post(t, "/v1/agent-credentials", auth).send(body);
const bearer = (token: string): Auth => ({ Authorization: `Bearer ${token}` });

/** An agent with two calendars of its own (A, its first; B, private), and a token restricted to A. */
async function twoCalendars(): Promise<{ scout: MintedAgent; a: string; b: string; onlyA: Auth }> {
  const scout = await mintAgent(t, "Scout");
  const b = (await newCalendar(t, scout, { name: "Bravo", visibility: "private" })).id;
  const res = await issue(scout.auth, { calendars: [scout.calendarId] }).expect(200);
  return { scout, a: scout.calendarId, b, onlyA: bearer(res.body.token) };
}

describe("POST /v1/agent-credentials with calendars, scopes and expires_at", () => {
  it("climbs 401 -> 400 -> 403 -> 404 -> success, and stores the restriction with the token", async () => {
    const scout = await mintAgent(t, "Scout");
    const other = await mintAgent(t, "Other");
    const a = scout.calendarId;
    expectError(await post(t, "/v1/agent-credentials").send({ calendars: [a] }), 401, "unauthorized");

    const invalid = async (body: Record<string, unknown>, field: string) => {
      const res = await issue(scout.auth, body);
      expectError(res, 400, "invalid_request");
      expect(res.body.error.details.field).toBe(field);
    };
    const many = Array.from({ length: 51 }, (_, i) => `cal_x${i}`);
    await invalid({ calendars: many }, "calendars");
    await invalid({ calendars: [] }, "calendars");
    await invalid({ calendars: [a, a] }, "calendars");
    await invalid({ calendars: ["not-an-id"] }, "calendars.0");
    await invalid({ scopes: ["calendar:admin"] }, "scopes.0");
    await invalid({ scopes: [] }, "scopes");
    await invalid({ expires_at: "tomorrow" }, "expires_at");
    await invalid({ expires_at: "2026-11-22T09:59:59Z" }, "expires_at");
    await invalid({ expires_at: "2026-11-22T10:00:00Z" }, "expires_at");

    // A scope the calling credential lacks is never granted.
    const noGrants = bearer((await issue(scout.auth, {}).expect(200)).body.token);
    const more = await issue(noGrants, { scopes: ["calendar:read", "grants:manage"] });
    expectError(more, 403, "insufficient_scope");
    expect(more.body.error.details.required_scope).toBe("grants:manage");

    // Another agent's private calendar, and one that does not exist, are the same 404.
    const hidden = (await newCalendar(t, other, { name: "Hidden", visibility: "private" })).id;
    const refused = await issue(scout.auth, { calendars: [a, hidden] });
    expectError(refused, 404, "not_found");
    expect(refused.body.error.message).toContain(hidden);
    expectError(await issue(scout.auth, { calendars: ["cal_missing1"] }), 404, "not_found");

    const res = await issue(scout.auth, {
      label: "sub-agent",
      scopes: ["calendar:read", "agent:read"],
      calendars: [a],
      expires_at: "2026-11-23T12:00:00+02:00",
    }).expect(200);
    const credential = {
      id: expect.stringMatching(/^cred_/),
      label: "sub-agent",
      scopes: ["calendar:read", "agent:read"],
      calendars: [a],
      created_at: "2026-11-22T10:00:00.000Z",
      expires_at: "2026-11-23T10:00:00.000Z",
      revoked_at: null,
    };
    expect(res.body.credential).toEqual(credential);
    const stored = await t.deps.store.get(paths.credential(scout.agentId, res.body.credential.id));
    expect(stored?.data).toMatchObject({ calendars: [a], expires_at: "2026-11-23T10:00:00.000Z" });
    const lookup = (await t.deps.store.get(paths.token(stored!.data.token_hash)))?.data;
    expect(lookup).toMatchObject({ calendars: [a], scopes: ["calendar:read", "agent:read"] });

    const me = await get(t, "/v1/me", bearer(res.body.token)).expect(200);
    expect(me.body.credential).toEqual(credential);
    expect(me.body.grants.map((g: { calendar_id: string }) => g.calendar_id)).toEqual([a]);
    // The token the agent minted with stays unrestricted.
    expect((await get(t, "/v1/me", scout.auth).expect(200)).body.credential.calendars).toBeNull();
  });

  it("an expired token is 401 like a revoked one", async () => {
    const scout = await mintAgent(t);
    const res = await issue(scout.auth, { expires_at: "2026-11-22T11:00:00Z" }).expect(200);
    await get(t, "/v1/me", bearer(res.body.token)).expect(200);
    t.clock.advance(60 * 60 * 1000);
    expectError(await get(t, "/v1/me", bearer(res.body.token)), 401, "unauthorized");
    await get(t, "/v1/me", scout.auth).expect(200);
    // An expired credential is no spare: the one that works is the last.
    const last = await del(t, `/v1/agent-credentials/${scout.credentialId}`, scout.auth);
    expectError(last, 409, "last_credential");
  });

  it("an agent whose every unrevoked credential expired stands as a revoked one: its webhooks stop", async () => {
    const scout = await mintAgent(t);
    const brief = bearer((await issue(scout.auth, { expires_at: "2026-11-22T11:00:00Z" }).expect(200)).body.token);
    await del(t, `/v1/agent-credentials/${scout.credentialId}`, brief).expect(200);
    const page = () =>
      t.deps.store.runReadOnly((reads) =>
        readStreamPage(reads, scout.agentId, scout.calendarId, [], { limit: 10, now: t.clock(), shards: 8 }),
      );
    expect(await page()).toMatchObject({ allowed: true });
    t.clock.advance(60 * 60 * 1000);
    expect(await page()).toMatchObject({ allowed: false, denied: "agent_revoked", changes: [] });
  });

  it("a restricted credential issues only within its calendars, scopes and expiry", async () => {
    const { scout, a, b, onlyA } = await twoCalendars();
    const c = (await newCalendar(t, scout, { name: "Charlie", visibility: "private" })).id;
    const both = bearer((await issue(scout.auth, { calendars: [a, c] }).expect(200)).body.token);

    // Left out, the restriction is inherited; a calendar outside it does not exist.
    expect((await issue(onlyA, {}).expect(200)).body.credential.calendars).toEqual([a]);
    expectError(await issue(onlyA, { calendars: [a, b] }), 404, "not_found");
    expect((await issue(both, { calendars: [c] }).expect(200)).body.credential.calendars).toEqual([c]);

    // A credential that expires issues none that outlives it.
    const brief = bearer((await issue(scout.auth, { expires_at: "2026-11-22T12:00:00Z" }).expect(200)).body.token);
    expect((await issue(brief, {}).expect(200)).body.credential.expires_at).toBe("2026-11-22T12:00:00.000Z");
    const longer = await issue(brief, { expires_at: "2026-11-22T13:00:00Z" });
    expectError(longer, 400, "invalid_request");
    expect(longer.body.error.details.field).toBe("expires_at");
    const shorter = await issue(brief, { expires_at: "2026-11-22T11:00:00Z" }).expect(200);
    expect(shorter.body.credential.expires_at).toBe("2026-11-22T11:00:00.000Z");
  });

  it("a restricted credential sees and revokes only credentials restricted to calendars of its own", async () => {
    const { scout, a, b, onlyA } = await twoCalendars();
    const onB = (await issue(scout.auth, { calendars: [b] }).expect(200)).body.credential.id;
    const sibling = (await issue(onlyA, { label: "sibling" }).expect(200)).body.credential.id;
    const listed = (await get(t, "/v1/agent-credentials", onlyA).expect(200)).body.credentials;
    expect(listed.map((c: { id: string }) => c.id).sort()).toEqual(
      [sibling, (await get(t, "/v1/me", onlyA)).body.credential.id].sort(),
    );
    expect(JSON.stringify(listed)).not.toContain(b);
    for (const id of [scout.credentialId, onB]) {
      expectError(await del(t, `/v1/agent-credentials/${id}`, onlyA), 404, "not_found");
    }
    await del(t, `/v1/agent-credentials/${sibling}`, onlyA).expect(200);
    // The agent's own token sees all four: its first, A's two (one revoked) and B's.
    const all = (await get(t, "/v1/agent-credentials", scout.auth).expect(200)).body.credentials;
    expect(all.map((c: { calendars: string[] | null }) => c.calendars)).toContainEqual([a]);
    expect(all).toHaveLength(4);
  });
});

describe("a token restricted to calendar A, on calendar B of the same agent", () => {
  it("works on A, and B does not exist for it, whatever B's visibility", async () => {
    const { scout, a, b, onlyA } = await twoCalendars();
    const open = (await newCalendar(t, scout, { name: "Open", visibility: "public" })).id;
    await newEvent(t, onlyA, a, { name: "On A" });
    await get(t, `/v1/calendars/${a}/events`, onlyA).expect(200);
    for (const id of [b, open]) {
      expectError(await get(t, `/v1/calendars/${id}`, onlyA), 404, "not_found");
      expectError(await get(t, `/v1/calendars/${id}/events`, onlyA), 404, "not_found");
      expectError(await post(t, `/v1/calendars/${id}/events`, onlyA).send({ name: "Lost" }), 404, "not_found");
    }
    // The agent's own token still reaches both; anyone reaches the public one.
    await get(t, `/v1/calendars/${b}`, scout.auth).expect(200);
    await request(t.app).get(`/v1/calendars/${open}`).expect(200);
  });

  it("cannot create a calendar: it would lie outside what the token reaches", async () => {
    const { scout, onlyA } = await twoCalendars();
    expectError(await post(t, "/v1/calendars", onlyA).send({ name: 42 }), 400, "invalid_request");
    const res = await post(t, "/v1/calendars", onlyA).send({ name: "Escape" });
    expectError(res, 403, "forbidden");
    expect(res.body.error.message).toMatch(/restricted/);
    expect((await get(t, "/v1/me", scout.auth).expect(200)).body.grants).toHaveLength(2);
  });

  it("free/busy: B is not_found in its entry, and slots over A and B is 404", async () => {
    const { a, b, onlyA } = await twoCalendars();
    const range = "from=2026-11-23&to=2026-11-24";
    const res = await get(t, `/v1/freebusy?calendars=${a},${b}&${range}`, onlyA).expect(200);
    expect(res.body.calendars).toEqual({ [a]: { busy: [] }, [b]: { error: "not_found" } });
    expectError(await get(t, `/v1/freebusy/slots?calendars=${a},${b}&${range}&minutes=30`, onlyA), 404, "not_found");
    await get(t, `/v1/freebusy/slots?calendars=${a}&${range}&minutes=30`, onlyA).expect(200);
  });

  it("webhooks: follows A only, and the agent's webhooks on B are not there", async () => {
    const { scout, a, b, onlyA } = await twoCalendars();
    const url = "http://127.0.0.1:9/hook";
    expectError(await post(t, "/v1/webhooks", onlyA).send({ url, calendars: [a, b] }), 404, "not_found");
    const own = (
      await post(t, "/v1/webhooks", onlyA)
        .send({ url, calendars: [a] })
        .expect(200)
    ).body.webhook.id;
    const onB = (
      await post(t, "/v1/webhooks", scout.auth)
        .send({ url, calendars: [b] })
        .expect(200)
    ).body.webhook.id;
    const listed = (await get(t, "/v1/webhooks", onlyA).expect(200)).body.webhooks;
    expect(listed.map((w: { id: string }) => w.id)).toEqual([own]);
    expectError(await get(t, `/v1/webhooks/${onB}`, onlyA), 404, "not_found");
    expectError(await del(t, `/v1/webhooks/${onB}`, onlyA), 404, "not_found");
    const widen = await request(t.app)
      .patch(`/v1/webhooks/${own}`)
      .set(onlyA)
      .send({ calendars: [a, b] });
    expectError(widen, 404, "not_found");
    expect((await get(t, `/v1/webhooks/${own}`, scout.auth).expect(200)).body.calendars).toEqual([a]);
    expect((await get(t, "/v1/webhooks", scout.auth).expect(200)).body.webhooks).toHaveLength(2);
  });

  it("layers: B cannot be attached to A, and a layer of A on B shows nothing of B", async () => {
    const { scout, a, b, onlyA } = await twoCalendars();
    await newEvent(t, scout, b, { name: "Secret on B" });
    expectError(
      await post(t, `/v1/calendars/${a}/layers`, onlyA).send({ calendar_id: b, key: "bee" }),
      404,
      "not_found",
    );
    const bee = await post(t, `/v1/calendars/${a}/layers`, scout.auth).send({ calendar_id: b, key: "bee" }).expect(200);
    expectError(await del(t, `/v1/calendars/${a}/layers/${bee.body.id}`, onlyA), 404, "not_found");

    expect((await get(t, `/v1/calendars/${a}/layers`, scout.auth).expect(200)).body.layers).toHaveLength(1);
    expect((await get(t, `/v1/calendars/${a}/layers`, onlyA).expect(200)).body.layers).toEqual([]);
    // The full answer first: a cached answer of the same query is not the restricted token's.
    const full = await get(t, `/v1/calendars/${a}/events?layers=all`, scout.auth).expect(200);
    expect(JSON.stringify(full.body)).toContain("Secret on B");
    const events = await get(t, `/v1/calendars/${a}/events?layers=all`, onlyA).expect(200);
    expect(JSON.stringify(events.body)).not.toContain("Secret on B");
  });

  it("publishing: it neither shares nor opens A while A shows a layer of B", async () => {
    const { scout, a, b, onlyA } = await twoCalendars();
    await patch(t, `/v1/calendars/${a}`, scout.auth).send({ visibility: "private" }).expect(200);
    await post(t, `/v1/calendars/${a}/layers`, scout.auth).send({ calendar_id: b, key: "bee" }).expect(200);
    const views = `/v1/calendars/${a}/views`;
    expectError(await post(t, views, onlyA).send({ name: "All" }), 403, "forbidden");
    expectError(await post(t, views, onlyA).send({ name: "Bee", filter: { layers: ["bee"] } }), 403, "forbidden");
    const own = await post(t, views, onlyA)
      .send({ name: "Own", filter: { layers: ["main"] } })
      .expect(200);
    const widen = await patch(t, `${views}/${own.body.id}`, onlyA).send({ filter: {} });
    expectError(widen, 403, "forbidden");
    // The agent's own view of A with B in it: its address would show B, so it is not there.
    const full = (await post(t, views, scout.auth).send({ name: "Full" }).expect(200)).body.id;
    const listed = (await get(t, views, onlyA).expect(200)).body.views;
    expect(listed.map((v: { id: string }) => v.id)).toEqual([own.body.id]);
    expect((await get(t, views, scout.auth).expect(200)).body.views).toHaveLength(2);
    expectError(await patch(t, `${views}/${full}`, onlyA).send({ name: "Renamed" }), 404, "not_found");
    expectError(await del(t, `${views}/${full}`, onlyA), 404, "not_found");
    const open = await patch(t, `/v1/calendars/${a}`, onlyA).send({ visibility: "unlisted" });
    expectError(open, 403, "forbidden");
    expect(open.body.error.message).toMatch(/restricted/);
    expect((await get(t, `/v1/calendars/${a}`, scout.auth).expect(200)).body.visibility).toBe("private");

    // Once the layer is gone, A is its own to publish.
    const layer = (await get(t, `/v1/calendars/${a}/layers`, scout.auth).expect(200)).body.layers[0].id;
    await del(t, `/v1/calendars/${a}/layers/${layer}`, scout.auth).expect(200);
    await del(t, `${views}/${full}`, onlyA).expect(200);
    await patch(t, `/v1/calendars/${a}`, onlyA).send({ visibility: "unlisted" }).expect(200);
    await post(t, views, onlyA).send({ name: "All" }).expect(200);
  });

  it("over MCP too: the tools answer B as not_found, and create_credential takes the same arguments", async () => {
    const { a, b, onlyA } = await twoCalendars();
    const call = async (name: string, args: Record<string, unknown>) => {
      const res = await request(t.app)
        .post("/mcp?toolsets=all")
        .set(onlyA)
        .set("Accept", "application/json, text/event-stream")
        .send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } })
        .expect(200);
      const result = res.body.result as { isError?: boolean; content: Array<{ text: string }> };
      return { isError: result.isError ?? false, body: JSON.parse(result.content[0].text) };
    };
    expect(await call("get_calendar", { calendarId: b })).toMatchObject({
      isError: true,
      body: { error: { code: "not_found" } },
    });
    expect((await call("get_calendar", { calendarId: a })).body.id).toBe(a);
    const outside = await call("create_credential", { calendars: [b], idempotency_key: "mcp-outside" });
    expect(outside.body.error?.code).toBe("not_found");
    const made = await call("create_credential", {
      calendars: [a],
      scopes: ["calendar:read"],
      expires_at: "2026-11-30T00:00:00Z",
      idempotency_key: "mcp-inside",
    });
    expect(made.body.credential).toMatchObject({ calendars: [a], scopes: ["calendar:read"] });
  });
});
