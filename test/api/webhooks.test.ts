/**
 * Webhooks (issue 24, docs/api.md#webhooks): subscribing, listing, changing, deleting, rotating
 * and the quota. The URLs refused at subscription are in webhook-urls.test.ts, delivery in
 * webhook-delivery.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { paths } from "../../functions/src/domain/paths.js";
import { DEFAULT_QUOTAS } from "../../functions/src/domain/quotas.js";
import { readCounters } from "../../functions/src/domain/change-watch.js";
import { appPerTest } from "../helpers/app.js";
import { newCalendar, newEvent, sharingWorld, type SharingWorld } from "../helpers/factories.js";
import { del, expectError, freshKey, get, patch, post } from "../helpers/http.js";
import { seedScopedToken } from "../helpers/store.js";
import request from "supertest";

const t = appPerTest();
let world: SharingWorld;
const URL_OK = "https://hooks.example.com/almanac";

beforeEach(async () => {
  world = await sharingWorld(t);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

const create = (body: Record<string, unknown>, auth = world.reader.auth) => post(t, "/v1/webhooks", auth).send(body);

describe("POST /v1/webhooks", () => {
  it("climbs 401 -> 400 -> 403 -> 404 -> success, stores the webhook and a stream per calendar at its counters", async () => {
    const cal = world.calendars.private.id;
    expectError(await post(t, "/v1/webhooks").send({ url: URL_OK, calendars: [cal] }), 401, "unauthorized");
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ calendars: [cal] }, "url"],
      [{ url: URL_OK }, "calendars"],
      [{ url: URL_OK, calendars: [] }, "calendars"],
      [{ url: URL_OK, calendars: [cal, cal] }, "calendars"],
      [{ url: URL_OK, calendars: ["nope"] }, "calendars.0"],
      [{ url: URL_OK, calendars: [cal], types: ["event.exploded"] }, "types.0"],
      [{ url: URL_OK, calendars: [cal], secret: "mine" }, "secret"],
      [{ url: "http://hooks.example.com/x", calendars: [cal] }, "url"],
    ];
    for (const [body, field] of cases) {
      const res = await create(body);
      expectError(res, 400, "invalid_request");
      expect(res.body.error.details.field, JSON.stringify(body)).toBe(field);
    }
    const narrow = await seedScopedToken(t.deps, world.reader, ["agent:read"]);
    expectError(await create({ url: URL_OK, calendars: [cal] }, narrow), 403, "insufficient_scope");
    expectError(await create({ url: URL_OK, calendars: [cal] }, world.stranger.auth), 404, "not_found");
    // A public calendar anyone may read; a private one needs a grant.
    expectError(
      await create({ url: URL_OK, calendars: [world.calendars.public.id, cal] }, world.stranger.auth),
      404,
      "not_found",
    );

    await newEvent(t, world.owner, cal, { name: "Before" });
    const key = freshKey();
    const body = { url: URL_OK, calendars: [cal, world.calendars.public.id], description: "CI bot" };
    const res = await request(t.app).post("/v1/webhooks").set(world.reader.auth).set("Idempotency-Key", key).send(body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(res.body.secret.slice(6), "base64").length).toBeGreaterThanOrEqual(24);
    const id = res.body.webhook.id as string;
    expect(res.body.webhook).toEqual({
      id: expect.stringMatching(/^whk_[A-Za-z0-9]{20}$/),
      url: URL_OK,
      calendars: [cal, world.calendars.public.id],
      types: [
        "event.created",
        "event.updated",
        "event.deleted",
        "exception.changed",
        "calendar.updated",
        "layer.attached",
        "layer.detached",
        "layer.refreshed",
        "alarm",
      ],
      description: "CI bot",
      enabled: true,
      disabled_reason: null,
      lost_access: [],
      created_at: expect.any(String),
    });
    // A replay answers the same webhook without the secret, and creates nothing more.
    const again = await request(t.app)
      .post("/v1/webhooks")
      .set(world.reader.auth)
      .set("Idempotency-Key", key)
      .send(body);
    expect(again.body).toEqual({ webhook: res.body.webhook });
    const stored = await t.deps.store.get(paths.webhook(id));
    expect(stored?.data).toMatchObject({ agent_id: world.reader.agentId, secret: res.body.secret, enabled: true });
    const counters = await t.deps.store.runReadOnly((reads) => readCounters(reads, cal));
    const stream = await t.deps.store.get(paths.webhookStream(id, cal));
    expect(stream?.data).toMatchObject({ positions: counters, failures: 0, lease_holder: null, attempts: [] });
    expect(counters.reduce((a, b) => a + b)).toBe(1);
    expect(await t.deps.store.query(paths.webhooks())).toHaveLength(1);
  });

  it("takes `types`, and holds 20 webhooks per agent (403 quota_exceeded)", async () => {
    const cal = world.calendars.unlisted.id;
    const res = await create({ url: URL_OK, calendars: [cal], types: ["event.created", "ping"] });
    expect(res.body.webhook.types).toEqual(["event.created", "ping"]);
    for (let i = 1; i < DEFAULT_QUOTAS.webhooks_per_agent; i++)
      expect((await create({ url: `${URL_OK}/${i}`, calendars: [cal] })).status).toBe(200);
    const over = await create({ url: URL_OK, calendars: [cal] });
    expectError(over, 403, "quota_exceeded");
    expect(over.body.error.details).toEqual({ quota: "webhooks_per_agent", limit: 20 });
    // Another agent has its own 20; deleting one gives its place back.
    expect((await create({ url: URL_OK, calendars: [cal] }, world.writer.auth)).status).toBe(200);
    await del(t, `/v1/webhooks/${res.body.webhook.id}`, world.reader.auth).expect(200);
    expect((await create({ url: URL_OK, calendars: [cal] })).status).toBe(200);
  });
});

describe("GET, PATCH, DELETE /v1/webhooks/{webhookId}", () => {
  it("answers the caller's own webhooks only; another agent's is 404", async () => {
    const cal = world.calendars.private.id;
    const a = (await create({ url: URL_OK, calendars: [cal] })).body.webhook;
    t.clock.advance(1000);
    const b = (await create({ url: `${URL_OK}/2`, calendars: [world.calendars.public.id] })).body.webhook;
    expectError(await get(t, "/v1/webhooks"), 401, "unauthorized");
    const list = await get(t, "/v1/webhooks", world.reader.auth).expect(200);
    expect(list.body).toEqual({ webhooks: [a, b] });
    expect((await get(t, "/v1/webhooks", world.writer.auth).expect(200)).body).toEqual({ webhooks: [] });
    expect((await get(t, `/v1/webhooks/${a.id}`, world.reader.auth).expect(200)).body).toEqual(a);
    for (const [method, path] of [
      ["get", `/v1/webhooks/${a.id}`],
      ["patch", `/v1/webhooks/${a.id}`],
      ["delete", `/v1/webhooks/${a.id}`],
      ["get", `/v1/webhooks/${a.id}/deliveries`],
      ["post", `/v1/webhooks/${a.id}/rotate-secret`],
      ["post", `/v1/webhooks/${a.id}/test`],
      ["get", "/v1/webhooks/whk_doesnotexist"],
    ] as const) {
      const call =
        method === "post" ? post(t, path, world.writer.auth) : request(t.app)[method](path).set(world.writer.auth);
      expectError(await (method === "patch" ? call.send({ enabled: false }) : call), 404, "not_found");
    }
  });

  it("PATCH changes url, calendars, types, description and enabled; enabling clears disabled_reason", async () => {
    const priv = world.calendars.private.id;
    const pub = world.calendars.public.id;
    const hook = (await create({ url: URL_OK, calendars: [priv] })).body.webhook;
    const path = `/v1/webhooks/${hook.id}`;
    const bad = await patch(t, path, world.reader.auth).send({ url: "https://10.0.0.1/" });
    expectError(bad, 400, "invalid_request");
    expect(bad.body.error.details.field).toBe("url");
    expectError(await patch(t, path, world.reader.auth).send({ calendars: [] }), 400, "invalid_request");
    // A calendar the caller cannot read is refused as ever.
    const mine = world.reader.calendarId;
    expectError(await patch(t, path, world.stranger.auth).send({ enabled: false }), 404, "not_found");
    const secret = await newCalendar(t, world.stranger, { name: "Secret", visibility: "private" });
    const other = await patch(t, path, world.reader.auth).send({ calendars: [priv, secret.id] });
    expectError(other, 404, "not_found");

    const res = await patch(t, path, world.reader.auth)
      .send({
        url: `${URL_OK}/v2`,
        calendars: [pub, mine],
        types: ["event.created"],
        description: null,
        enabled: false,
      })
      .expect(200);
    expect(res.body).toMatchObject({
      url: `${URL_OK}/v2`,
      calendars: [pub, mine],
      types: ["event.created"],
      description: null,
      enabled: false,
    });
    expect(await t.deps.store.get(paths.webhookStream(hook.id, priv))).toBeNull();
    expect(await t.deps.store.get(paths.webhookStream(hook.id, pub))).not.toBeNull();

    await t.deps.store.runTransaction(async (tx) =>
      tx.update(paths.webhook(hook.id), { disabled_reason: "1000 consecutive deliveries failed" }),
    );
    const enabled = await patch(t, path, world.reader.auth).send({ enabled: true }).expect(200);
    expect(enabled.body).toMatchObject({ enabled: true, disabled_reason: null });

    await del(t, path, world.reader.auth).expect(200, { deleted: hook.id });
    expectError(await get(t, path, world.reader.auth), 404, "not_found");
    expect(await t.deps.store.query(paths.calendarWebhookStreams(pub))).toEqual([]);
  });

  it("rotate-secret answers a new secret once and keeps the old one beside it for 24 hours", async () => {
    const hook = (await create({ url: URL_OK, calendars: [world.calendars.public.id] })).body;
    const key = freshKey();
    const rotate = () =>
      request(t.app)
        .post(`/v1/webhooks/${hook.webhook.id}/rotate-secret`)
        .set(world.reader.auth)
        .set("Idempotency-Key", key);
    const res = await rotate().expect(200);
    expect(res.body.secret).toMatch(/^whsec_/);
    expect(res.body.secret).not.toBe(hook.secret);
    expect(res.body.webhook).toEqual(hook.webhook);
    expect((await rotate().expect(200)).body).toEqual({ webhook: hook.webhook });
    const stored = (await t.deps.store.get(paths.webhook(hook.webhook.id)))?.data;
    expect(stored).toMatchObject({
      secret: res.body.secret,
      previous_secret: hook.secret,
      previous_secret_expires_at: new Date(t.clock().getTime() + 24 * 3600 * 1000).toISOString(),
    });
  });
});
