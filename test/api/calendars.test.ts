import request from "supertest";
import { describe, expect, it } from "vitest";
import { paths } from "../../functions/src/domain/paths.js";
import { DEFAULT_QUOTAS } from "../../functions/src/domain/quotas.js";
import { resolveCalendarSlug } from "../../functions/src/domain/queries/calendars.js";
import type { CalendarRecord, GrantRecord, MembershipRecord } from "../../functions/src/domain/records.js";
import { appPerTest, BASE_URL } from "../helpers/app.js";
import { expectError, post } from "../helpers/http.js";
import { mintAgent, newCalendar, sharingWorld, type MintedAgent } from "../helpers/factories.js";
import { seedScopedToken } from "../helpers/store.js";

const t = appPerTest();

const patch = (agent: MintedAgent | null, calendarId: string, body: unknown) => {
  const req = request(t.app).patch(`/v1/calendars/${calendarId}`);
  return (agent ? req.set(agent.auth) : req).send(body as object);
};

describe("POST /v1/calendars", () => {
  it("climbs 401 -> 400 -> 403 -> success with the defaults, and makes the caller the first owner", async () => {
    const scout = await mintAgent(t);
    expectError(await post(t, "/v1/calendars").send({ name: "Launch Plan Q3" }), 401, "unauthorized");
    expectError(
      await request(t.app).post("/v1/calendars").set(scout.auth).send({ name: "x" }),
      400,
      "missing_idempotency_key",
    );
    const missing = await post(t, "/v1/calendars", scout.auth).send({});
    expectError(missing, 400, "invalid_request");
    expect(missing.body.error.details.field).toBe("name");
    const typo = await post(t, "/v1/calendars", scout.auth).send({ name: "Plan", title: "Plan" });
    expectError(typo, 400, "invalid_request");
    expect(typo.body.error.details.field).toBe("title");
    const readOnly = await seedScopedToken(t.deps, scout, ["agent:read", "calendar:read"]);
    expectError(await post(t, "/v1/calendars", readOnly).send({ name: "Plan" }), 403, "insufficient_scope");

    const cal = await newCalendar(t, scout, { name: "Launch Plan Q3" });
    expect(cal).toEqual({
      id: expect.stringMatching(/^cal_/),
      name: "Launch Plan Q3",
      slug: "launch-plan-q3",
      timezone: "UTC",
      visibility: "unlisted",
      purpose: null,
      default_view: null,
      views: null,
      categories: {},
      locale: null,
      url: `${BASE_URL}/c/launch-plan-q3`,
      feed_url: `${BASE_URL}/c/launch-plan-q3.ics`,
      subscribe: {
        webcal: "webcal://almanac.test/c/launch-plan-q3.ics",
        google: "https://calendar.google.com/calendar/r?cid=webcal%3A%2F%2Falmanac.test%2Fc%2Flaunch-plan-q3.ics",
        outlook:
          "https://outlook.live.com/calendar/0/addfromweb?url=https%3A%2F%2Falmanac.test%2Fc%2Flaunch-plan-q3.ics" +
          "&name=Launch%20Plan%20Q3",
      },
      role: "owner",
      created_at: "2026-11-22T10:00:00.000Z",
      updated_at: "2026-11-22T10:00:00.000Z",
    });

    const stored = await t.deps.store.get<CalendarRecord>(paths.calendar(cal.id));
    expect(stored?.data.slug).toBe("launch-plan-q3");
    expect((await t.deps.store.get(paths.slug("launch-plan-q3")))?.data).toEqual({ owner_id: cal.id });
    const membership = await t.deps.store.get<MembershipRecord>(paths.membership(scout.agentId, cal.id));
    expect(membership?.data.role).toBe("owner");
    const grant = await t.deps.store.get<GrantRecord>(paths.grant(cal.id, membership!.data.grant_id));
    expect(grant?.data).toMatchObject({
      agent_id: scout.agentId,
      agent_name: "Scout",
      role: "owner",
      revoked_at: null,
    });
    const me = await request(t.app).get("/v1/me").set(scout.auth).expect(200);
    expect(me.body.grants.map((g: { calendar_id: string }) => g.calendar_id)).toContain(cal.id);
  });

  it("accepts every setting at creation; views [] means all lenses", async () => {
    const scout = await mintAgent(t);
    const cal = await newCalendar(t, scout, {
      name: "Ops",
      slug: "ops-room",
      timezone: "Europe/Berlin",
      visibility: "public",
      purpose: "# Ops\nWho is on call.",
      default_view: "week",
      views: ["week", "schedule"],
    });
    expect(cal).toMatchObject({
      slug: "ops-room",
      timezone: "Europe/Berlin",
      visibility: "public",
      purpose: "# Ops\nWho is on call.",
      default_view: "week",
      views: ["week", "schedule"],
    });
    const all = await newCalendar(t, scout, { name: "All lenses", views: [] });
    expect(all.views).toBeNull();
  });

  it("validates timezone, slug, purpose, visibility and lenses, naming the field", async () => {
    const scout = await mintAgent(t);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: "A", timezone: "Mars/Olympus" }, "timezone"],
      [{ name: "A", timezone: "+01:00" }, "timezone"],
      [{ name: "A", slug: "ab" }, "slug"],
      [{ name: "A", slug: "Has_Caps" }, "slug"],
      [{ name: "A", slug: "x".repeat(64) }, "slug"],
      [{ name: "A", visibility: "secret" }, "visibility"],
      [{ name: "A", purpose: "x".repeat(8193) }, "purpose"],
      [{ name: "A", views: ["month", "month"] }, "views"],
      [{ name: "A", views: ["agenda"] }, "views.0"],
      [{ name: "A", views: ["month"], default_view: "week" }, "default_view"],
      [{ name: "   " }, "name"],
      [{ name: "x".repeat(201) }, "name"],
    ];
    for (const [body, field] of cases) {
      const res = await post(t, "/v1/calendars", scout.auth).send(body);
      expectError(res, 400, "invalid_request");
      expect(res.body.error.details.field, JSON.stringify(body)).toBe(field);
    }
  });

  it("generates distinct slugs; a requested slug that is taken is 409 with free suggestions", async () => {
    const scout = await mintAgent(t, "Scout");
    const first = await newCalendar(t, scout, { name: "Launch Plan" });
    const second = await newCalendar(t, scout, { name: "Launch Plan" });
    expect(first.slug).toBe("launch-plan");
    expect(second.slug).toMatch(/^launch-plan-[a-z0-9]{4}$/);
    const short = await newCalendar(t, scout, { name: "Q" });
    expect(short.slug).toMatch(/^q-[a-z0-9]{4}$/);
    const symbols = await newCalendar(t, scout, { name: "✨ !!" });
    expect(symbols.slug).toMatch(/^[a-z0-9]{6}$/);

    const taken = await post(t, "/v1/calendars", scout.auth).send({ name: "Other", slug: "launch-plan" });
    expectError(taken, 409, "slug_taken");
    const available: string[] = taken.body.error.details.available;
    expect(available.length).toBeGreaterThanOrEqual(3);
    for (const slug of available) {
      expect(slug).toMatch(/^[a-z0-9-]{3,63}$/);
      expect(await t.deps.store.get(paths.slug(slug))).toBeNull();
    }
    const took = await newCalendar(t, scout, { name: "Other", slug: available[0] });
    expect(took.slug).toBe(available[0]);
  });
});

describe("GET /v1/calendars/{calendarId}", () => {
  it("serves public and unlisted calendars without a token, role null for strangers", async () => {
    const { owner, stranger, calendars } = await sharingWorld(t);
    for (const visibility of ["public", "unlisted"] as const) {
      const cal = calendars[visibility];
      const anon = await request(t.app).get(`/v1/calendars/${cal.id}`).expect(200);
      expect(anon.body).toEqual({ ...cal, role: null });
      const seen = await request(t.app).get(`/v1/calendars/${cal.id}`).set(stranger.auth).expect(200);
      expect(seen.body.role).toBeNull();
      const own = await request(t.app).get(`/v1/calendars/${cal.id}`).set(owner.auth).expect(200);
      expect(own.body.role).toBe("owner");
    }
  });

  it("hides a private calendar (404) from anonymous callers and strangers; a grant shows it with the role", async () => {
    const { owner, reader, stranger, calendars } = await sharingWorld(t);
    const cal = calendars.private;

    expectError(
      await request(t.app).get(`/v1/calendars/${cal.id}`).set("Authorization", "Bearer svc_agent_nope"),
      401,
      "unauthorized",
    );
    expectError(await request(t.app).get(`/v1/calendars/${cal.id}`), 404, "not_found");
    expectError(await request(t.app).get(`/v1/calendars/${cal.id}`).set(stranger.auth), 404, "not_found");
    expectError(await request(t.app).get("/v1/calendars/cal_missing").set(owner.auth), 404, "not_found");
    const noRead = await seedScopedToken(t.deps, reader, ["agent:read"]);
    expectError(await request(t.app).get(`/v1/calendars/${cal.id}`).set(noRead), 403, "insufficient_scope");

    const seen = await request(t.app).get(`/v1/calendars/${cal.id}`).set(reader.auth).expect(200);
    expect(seen.body).toMatchObject({ id: cal.id, visibility: "private", role: "reader" });
  });
});

describe("PATCH /v1/calendars/{calendarId}", () => {
  it("climbs 401 -> 400 -> 404/403 -> success for the owner only", async () => {
    const { owner, writer, stranger, calendars } = await sharingWorld(t);
    const visible = calendars.unlisted;
    const hidden = calendars.private;

    expectError(await patch(null, visible.id, { name: "New" }), 401, "unauthorized");
    const typo = await patch(owner, visible.id, { nme: "New" });
    expectError(typo, 400, "invalid_request");
    expect(typo.body.error.details.field).toBe("nme");
    expectError(await patch(stranger, hidden.id, { name: "New" }), 404, "not_found");
    expectError(await patch(stranger, visible.id, { name: "New" }), 403, "forbidden");
    expectError(await patch(writer, visible.id, { name: "New" }), 403, "forbidden");
    expectError(await patch(writer, hidden.id, { name: "New" }), 403, "forbidden");
    const readOnly = await seedScopedToken(t.deps, owner, ["agent:read", "calendar:read"]);
    expectError(
      await request(t.app).patch(`/v1/calendars/${visible.id}`).set(readOnly).send({ name: "New" }),
      403,
      "insufficient_scope",
    );

    t.clock.advance(60_000);
    const res = await patch(owner, visible.id, { name: "Renamed" }).expect(200);
    expect(res.body).toMatchObject({
      name: "Renamed",
      slug: visible.slug,
      role: "owner",
      updated_at: "2026-11-22T10:01:00.000Z",
    });
    expect((await t.deps.store.get<CalendarRecord>(paths.calendar(visible.id)))?.data.name).toBe("Renamed");
  });

  it("changes every field; null clears purpose and default_view; views null or [] means all", async () => {
    const owner = await mintAgent(t);
    const cal = await newCalendar(t, owner, { name: "Plan" });
    const res = await patch(owner, cal.id, {
      name: "Plan B",
      timezone: "America/New_York",
      visibility: "public",
      slug: "plan-b",
      purpose: "Ship it.",
      default_view: "timeline",
      views: ["timeline", "month"],
    }).expect(200);
    expect(res.body).toMatchObject({
      name: "Plan B",
      timezone: "America/New_York",
      visibility: "public",
      slug: "plan-b",
      url: `${BASE_URL}/c/plan-b`,
      purpose: "Ship it.",
      default_view: "timeline",
      views: ["timeline", "month"],
    });
    const cleared = await patch(owner, cal.id, { purpose: null, default_view: null, views: [] }).expect(200);
    expect(cleared.body).toMatchObject({ purpose: null, default_view: null, views: null, name: "Plan B" });
    await patch(owner, cal.id, { views: ["week"] }).expect(200);
    const allAgain = await patch(owner, cal.id, { views: null }).expect(200);
    expect(allAgain.body.views).toBeNull();
    const read = await request(t.app).get(`/v1/calendars/${cal.id}`).expect(200);
    expect(read.body).toMatchObject({ name: "Plan B", visibility: "public", purpose: null, views: null });
  });

  it("keeps default_view one of views, checking the stored settings too", async () => {
    const owner = await mintAgent(t);
    const cal = await newCalendar(t, owner, { name: "Plan", views: ["month", "week"], default_view: "week" });
    const outside = await patch(owner, cal.id, { default_view: "timeline" });
    expectError(outside, 400, "invalid_request");
    expect(outside.body.error.details.field).toBe("default_view");
    const shrink = await patch(owner, cal.id, { views: ["month"] });
    expectError(shrink, 400, "invalid_request");
    expect(shrink.body.error.details.field).toBe("views");
    expectError(await patch(owner, cal.id, { views: ["month", "month"] }), 400, "invalid_request");
    expectError(await patch(owner, cal.id, { timezone: "Europe/Atlantis" }), 400, "invalid_request");
    expectError(await patch(owner, cal.id, { name: null }), 400, "invalid_request");
    const both = await patch(owner, cal.id, { views: ["month"], default_view: "month" }).expect(200);
    expect(both.body).toMatchObject({ views: ["month"], default_view: "month" });
    // With all lenses allowed any default is fine.
    const open = await patch(owner, cal.id, { views: null, default_view: "timeline" }).expect(200);
    expect(open.body).toMatchObject({ views: null, default_view: "timeline" });
  });
});

describe("slugs across renames", () => {
  it("keeps every old slug reserved to the calendar, resolvable to the current one, and retakable", async () => {
    const owner = await mintAgent(t, "Owner");
    const rival = await mintAgent(t, "Rival");
    const cal = await newCalendar(t, owner, { name: "Alpha" });
    await patch(owner, cal.id, { slug: "beta" }).expect(200);
    await patch(owner, cal.id, { slug: "gamma" }).expect(200);

    expect(await resolveCalendarSlug(t.deps, "gamma")).toMatchObject({
      current: true,
      calendar: { id: cal.id, slug: "gamma" },
    });
    expect(await resolveCalendarSlug(t.deps, "alpha")).toMatchObject({
      current: false,
      calendar: { id: cal.id, slug: "gamma" },
    });
    expect(await resolveCalendarSlug(t.deps, "beta")).toMatchObject({ current: false, calendar: { id: cal.id } });
    expect(await resolveCalendarSlug(t.deps, "never-used")).toBeNull();
    expect(await resolveCalendarSlug(t.deps, "Not A Slug")).toBeNull();

    const rivalCal = await newCalendar(t, rival, { name: "Rival" });
    for (const slug of ["alpha", "beta", "gamma"]) {
      const res = await patch(rival, rivalCal.id, { slug });
      expectError(res, 409, "slug_taken");
      expect(res.body.error.details.available.length).toBeGreaterThanOrEqual(3);
      expectError(await post(t, "/v1/calendars", rival.auth).send({ name: "Copy", slug }), 409, "slug_taken");
    }

    const back = await patch(owner, cal.id, { slug: "alpha" }).expect(200);
    expect(back.body).toMatchObject({ slug: "alpha", url: `${BASE_URL}/c/alpha` });
    expect(await resolveCalendarSlug(t.deps, "alpha")).toMatchObject({ current: true });
    expect(await resolveCalendarSlug(t.deps, "gamma")).toMatchObject({ current: false, calendar: { slug: "alpha" } });
    // The current slug is plain; the ones left are retired, charged to the calendar's creator.
    expect((await t.deps.store.get(paths.slug("alpha")))?.data).toEqual({ owner_id: cal.id });
    for (const slug of ["beta", "gamma"]) {
      expect((await t.deps.store.get(paths.slug(slug)))?.data).toEqual({
        owner_id: cal.id,
        retired_at: expect.any(String),
        retired_by: owner.agentId,
      });
    }
    expect((await t.deps.store.get(paths.agent(owner.agentId)))?.data.retired_slug_count).toBe(2);
  });

  it("sending the current slug again changes nothing", async () => {
    const owner = await mintAgent(t);
    const cal = await newCalendar(t, owner, { name: "Same" });
    t.clock.advance(1000);
    const res = await patch(owner, cal.id, { slug: cal.slug }).expect(200);
    expect(res.body).toEqual(cal);
  });

  it("bounds the slugs an agent keeps reserved: 40 cycles of create, two renames and delete", async () => {
    const attacker = await mintAgent(t, "Cycler");
    const rival = await mintAgent(t, "Rival");
    const limit = DEFAULT_QUOTAS.retired_slugs_per_agent;
    const created = new Set([attacker.calendarId]);
    const retiredInOrder: string[] = [];
    for (let i = 0; i < 40; i++) {
      const cal = await newCalendar(t, attacker, { name: `Cycle ${i}`, slug: `cycle-${i}-a` });
      created.add(cal.id);
      await patch(attacker, cal.id, { slug: `cycle-${i}-b` }).expect(200);
      await patch(attacker, cal.id, { slug: `cycle-${i}-c` }).expect(200);
      expect((await request(t.app).delete(`/v1/calendars/${cal.id}`).set(attacker.auth)).status).toBe(200);
      retiredInOrder.push(`cycle-${i}-a`, `cycle-${i}-b`, `cycle-${i}-c`);
    }
    const reserved = (await t.deps.store.query(paths.slugs())).filter((doc) => created.has(doc.data.owner_id));
    console.log(`slugs reserved for one agent after 40 cycles: ${reserved.length} (bound ${limit} + 1 live)`);
    // Its live calendar's slug, and the newest `limit` retired ones: never 121.
    expect(reserved.length).toBe(limit + 1);
    expect((await t.deps.store.get(paths.agent(attacker.agentId)))?.data.retired_slug_count).toBe(limit);
    const released = retiredInOrder.slice(0, retiredInOrder.length - limit);
    const kept = retiredInOrder.slice(-limit);
    expect(released).toHaveLength(20);
    // The oldest were released: nothing resolves them, and anyone may take one.
    for (const slug of released) expect(await resolveCalendarSlug(t.deps, slug), slug).toBeNull();
    expect((await post(t, "/v1/calendars", rival.auth).send({ name: "Taken", slug: released[0] })).status).toBe(200);
    // The newer ones stay reserved.
    expectError(await post(t, "/v1/calendars", rival.auth).send({ name: "Copy", slug: kept[0] }), 409, "slug_taken");
  });

  it("charges renames to the creator, whoever renames, and taking an old slug back costs nothing", async () => {
    const creator = await mintAgent(t, "Creator");
    const coOwner = await mintAgent(t, "Co-owner");
    const cal = await newCalendar(t, creator, { name: "Shared", slug: "shared-one" });
    await post(t, `/v1/calendars/${cal.id}/grants`, creator.auth).send({ agent_id: coOwner.agentId, role: "owner" });
    await patch(coOwner, cal.id, { slug: "shared-two" }).expect(200);
    const count = async (agent: MintedAgent) =>
      (await t.deps.store.get(paths.agent(agent.agentId)))?.data.retired_slug_count;
    expect([await count(creator), await count(coOwner)]).toEqual([1, 0]);
    await patch(creator, cal.id, { slug: "shared-one" }).expect(200);
    expect(await count(creator)).toBe(1);
    expect((await t.deps.store.get(paths.slug("shared-one")))?.data).toEqual({ owner_id: cal.id });
    expect(await resolveCalendarSlug(t.deps, "shared-two")).toMatchObject({ current: false, calendar: { id: cal.id } });
  });

  it("releases the oldest retired slug once an agent is over its bound, never refusing the write", async () => {
    t.deps.config = { ...t.deps.config, quotas: { ...t.deps.config.quotas, retired_slugs_per_agent: 2 } };
    const owner = await mintAgent(t, "Renamer");
    const cal = await newCalendar(t, owner, { name: "Moving", slug: "moving-0" });
    for (let i = 1; i <= 4; i++) await patch(owner, cal.id, { slug: `moving-${i}` }).expect(200);
    // moving-0 and moving-1 were released; moving-2 and moving-3 still redirect.
    for (const slug of ["moving-0", "moving-1"]) expect(await resolveCalendarSlug(t.deps, slug)).toBeNull();
    for (const slug of ["moving-2", "moving-3"])
      expect(await resolveCalendarSlug(t.deps, slug)).toMatchObject({ current: false, calendar: { id: cal.id } });
    // Deleting retires the current one too, and releases the oldest again.
    expect((await request(t.app).delete(`/v1/calendars/${cal.id}`).set(owner.auth)).status).toBe(200);
    expect(await t.deps.store.get(paths.slug("moving-2"))).toBeNull();
    expect((await t.deps.store.get(paths.slug("moving-4")))?.data.retired_by).toBe(owner.agentId);
    expect((await t.deps.store.get(paths.agent(owner.agentId)))?.data.retired_slug_count).toBe(2);
  });
});
