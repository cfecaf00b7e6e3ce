import request from "supertest";
import { describe, expect, it } from "vitest";
import { paths } from "../../functions/src/domain/paths.js";
import type { EventRecord } from "../../functions/src/domain/records.js";
import { appPerTest } from "../helpers/app.js";
import { expectError, post } from "../helpers/http.js";
import { mintAgent, newCalendar, newEvent, sharingWorld, type MintedAgent } from "../helpers/factories.js";
import { seedLayer, seedScopedToken } from "../helpers/store.js";

const t = appPerTest();

const eventsPath = (calendarId: string) => `/v1/calendars/${calendarId}/events`;

const patchEvent = (agent: MintedAgent | null, calendarId: string, eventId: string, body: unknown) => {
  const req = request(t.app).patch(`${eventsPath(calendarId)}/${eventId}`);
  return (agent ? req.set(agent.auth) : req).send(body as object);
};

const list = async (calendarId: string, query = "", auth?: { Authorization: string }) => {
  const req = request(t.app).get(`${eventsPath(calendarId)}${query}`);
  return (auth ? req.set(auth) : req).expect(200).then((r) => r.body);
};

const names = (events: Array<{ name: string }>) => events.map((e) => e.name);

describe("POST .../events", () => {
  it("climbs 401 -> 400 -> 403 -> success for a writer, with created_by and evt_ id", async () => {
    const { writer, reader, stranger, calendars } = await sharingWorld(t);
    const calendarId = calendars.unlisted.id;
    expectError(await post(t, eventsPath(calendarId)).send({ name: "Launch" }), 401, "unauthorized");
    expectError(
      await request(t.app).post(eventsPath(calendarId)).set(writer.auth).send({ name: "Launch" }),
      400,
      "missing_idempotency_key",
    );
    const typo = await post(t, eventsPath(calendarId), writer.auth).send({ title: "Launch" });
    expectError(typo, 400, "invalid_event");
    expect(typo.body.error.details.field).toBe("title");
    expectError(await post(t, eventsPath(calendarId), reader.auth).send({ name: "Launch" }), 403, "forbidden");
    expectError(await post(t, eventsPath(calendarId), stranger.auth).send({ name: "Launch" }), 403, "forbidden");
    const readOnly = await seedScopedToken(t.deps, writer, ["calendar:read"]);
    expectError(await post(t, eventsPath(calendarId), readOnly).send({ name: "Launch" }), 403, "insufficient_scope");
    expectError(await post(t, eventsPath("cal_missing"), writer.auth).send({ name: "Launch" }), 404, "not_found");

    const event = await newEvent(t, writer, calendarId, {
      name: "Launch",
      date: "2026-12-01",
      start_time: "09:30",
      end_time: "10:00",
      category: "milestone",
      notes: "**Go** live",
      art: "🚀",
    });
    expect(event).toEqual({
      id: expect.stringMatching(/^evt_/),
      calendar_id: calendarId,
      kind: "one-off",
      name: "Launch",
      date: "2026-12-01",
      recur: null,
      start_time: "09:30",
      end_time: "10:00",
      days: 1,
      category: "milestone",
      notes: "**Go** live",
      art: "🚀",
      alarms: [],
      ical_uid: null,
      created_by: { id: writer.agentId, name: "Writer" },
      created_at: "2026-11-22T10:00:00.000Z",
      updated_at: "2026-11-22T10:00:00.000Z",
    });
    const stored = await t.deps.store.get<EventRecord>(paths.event(calendarId, event.id));
    expect(stored?.data).toMatchObject({
      kind: "one-off",
      date: "2026-12-01",
      created_by: { id: writer.agentId, name: "Writer" },
    });
  });

  it("hides a private calendar from strangers (404) but tells a reader it lacks the role (403)", async () => {
    const { owner, reader, stranger, calendars } = await sharingWorld(t);
    const calendarId = calendars.private.id;
    expectError(await post(t, eventsPath(calendarId), stranger.auth).send({ name: "X" }), 404, "not_found");
    expectError(await post(t, eventsPath(calendarId), reader.auth).send({ name: "X" }), 403, "forbidden");
    const event = await newEvent(t, owner, calendarId, { name: "X" });
    expect(event.kind).toBe("someday");
  });

  it("a stranger on a public calendar gets 403 forbidden", async () => {
    const { stranger, calendars } = await sharingWorld(t);
    const calendarId = calendars.public.id;
    expectError(await post(t, eventsPath(calendarId), stranger.auth).send({ name: "X" }), 403, "forbidden");
  });

  it("decides the kind from date and recur, and stores the default `starts` explicitly", async () => {
    const owner = await mintAgent(t);
    // 10:00 UTC on 2026-11-22 is already 2026-11-23 at UTC+14.
    const calendarId = (await newCalendar(t, owner, { name: "Kiritimati", timezone: "Pacific/Kiritimati" })).id;
    const oneOff = await newEvent(t, owner, calendarId, { name: "Once", date: "2026-12-24" });
    const weekly = await newEvent(t, owner, calendarId, {
      name: "Standup",
      recur: { type: "weekly", day: 1 },
      start_time: "09:00",
    });
    const someday = await newEvent(t, owner, calendarId, { name: "Rewrite docs", date: null, recur: null });
    expect([oneOff.kind, weekly.kind, someday.kind]).toEqual(["one-off", "recurring", "someday"]);
    expect(weekly.recur).toEqual({
      type: "weekly",
      day: 1,
      week: null,
      month: null,
      interval: 1,
      starts: "2026-11-23",
      until: null,
      count: null,
    });
    const stored = await t.deps.store.get<EventRecord>(paths.event(calendarId, weekly.id));
    expect(stored?.data.recur).toEqual({ type: "weekly", day: 1, interval: 1, starts: "2026-11-23" });

    t.clock.advance(30 * 86_400_000);
    const again = await request(t.app)
      .get(`${eventsPath(calendarId)}/${weekly.id}`)
      .expect(200);
    expect(again.body.recur.starts).toBe("2026-11-23");

    const full = await newEvent(t, owner, calendarId, {
      name: "Board",
      recur: { type: "yearly", month: 2, day: 29, interval: 4, starts: "2028-01-01", until: "2040-12-31" },
    });
    expect(full.recur).toEqual({
      type: "yearly",
      day: 29,
      week: null,
      month: 2,
      interval: 4,
      starts: "2028-01-01",
      until: "2040-12-31",
      count: null,
    });
  });

  it("refuses invalid fields with 400 invalid_event naming the field", async () => {
    const owner = await mintAgent(t);
    const calendarId = (await newCalendar(t, owner, { name: "Checks" })).id;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, "name"],
      [{ name: "" }, "name"],
      [{ name: "x".repeat(201) }, "name"],
      [{ name: "A", date: "2026-02-30" }, "date"],
      [{ name: "A", date: "2026-13-01" }, "date"],
      [{ name: "A", date: "26-01-01" }, "date"],
      [{ name: "A", date: "2026-01-01T10:00:00Z" }, "date"],
      [{ name: "A", date: "2026-01-01", start_time: "24:00" }, "start_time"],
      [{ name: "A", date: "2026-01-01", start_time: "9:30" }, "start_time"],
      [{ name: "A", date: "2026-01-01", start_time: "09:60" }, "start_time"],
      [{ name: "A", date: "2026-01-01", start_time: "10:00", end_time: "10:00" }, "end_time"],
      [{ name: "A", date: "2026-01-01", end_time: "10:00" }, "end_time"],
      [{ name: "A", date: "2026-01-01", recur: { type: "weekly", day: 1 } }, "recur"],
      [{ name: "A", recur: { type: "weekly", day: 1, weekday: 2 } }, "recur.weekday"],
      [{ name: "A", recur: { type: "hourly" } }, "recur.type"],
      [{ name: "A", recur: { type: "weekly", day: 8 } }, "recur.day"],
      [{ name: "A", recur: { type: "weekly" } }, "recur.day"],
      [{ name: "A", recur: { type: "weekly", day: 1.5 } }, "recur.day"],
      [{ name: "A", recur: { type: "daily", day: 3 } }, "recur.day"],
      [{ name: "A", recur: { type: "monthly", day: 0 } }, "recur.day"],
      [{ name: "A", recur: { type: "monthly", day: 32 } }, "recur.day"],
      [{ name: "A", recur: { type: "monthly", day: 1, month: 3 } }, "recur.month"],
      [{ name: "A", recur: { type: "yearly", day: 1 } }, "recur.month"],
      [{ name: "A", recur: { type: "yearly", month: 13, day: 1 } }, "recur.month"],
      [{ name: "A", recur: { type: "daily", interval: 0 } }, "recur.interval"],
      [{ name: "A", recur: { type: "daily", interval: "2" } }, "recur.interval"],
      [{ name: "A", recur: { type: "daily", starts: "2026-02-30" } }, "recur.starts"],
      [{ name: "A", recur: { type: "daily", until: "2026-11-01" } }, "recur.until"],
      [{ name: "A", recur: { type: "daily", starts: "2026-05-01", until: "2026-04-30" } }, "recur.until"],
      [{ name: "A", recur: { type: "yearly", month: 2, day: 30 } }, "recur"],
      [{ name: "A", recur: "weekly" }, "recur"],
      [{ name: "A", category: "" }, "category"],
      [{ name: "A", category: "x".repeat(65) }, "category"],
      [{ name: "A", notes: "x".repeat(10_001) }, "notes"],
      [{ name: "A", art: "javascript:alert(1)" }, "art"],
      [{ name: "A", art: "http://example.com/a.png" }, "art"],
      [{ name: "A", art: "x".repeat(2049) }, "art"],
    ];
    for (const [body, field] of cases) {
      const res = await post(t, eventsPath(calendarId), owner.auth).send(body);
      expectError(res, 400, "invalid_event");
      expect(res.body.error.details.field, JSON.stringify(body)).toBe(field);
    }
    expect(await list(calendarId)).toEqual({ events: [], next_cursor: null });
    // The edges that are fine.
    await newEvent(t, owner, calendarId, { name: "A", date: "2028-02-29", start_time: "00:00", end_time: "23:59" });
    await newEvent(t, owner, calendarId, { name: "B", art: "https://example.com/a.png" });
    await newEvent(t, owner, calendarId, { name: "C", art: "Note: text" });
    await newEvent(t, owner, calendarId, { name: "D", recur: { type: "monthly", day: -1 } });
    await newEvent(t, owner, calendarId, { name: "E", recur: { type: "weekly", day: 0, interval: null, until: null } });
    await newEvent(t, owner, calendarId, { name: "F", start_time: "08:00" });
  });
});

describe("GET and DELETE one event", () => {
  it("reads without a token on visible calendars; 404 under the wrong calendar or when private", async () => {
    const { owner, reader, stranger, calendars } = await sharingWorld(t);
    const calendarId = calendars.private.id;
    const visibleId = calendars.public.id;
    const hidden = await newEvent(t, owner, calendarId, { name: "Hidden" });
    const open = await newEvent(t, owner, visibleId, { name: "Open" });

    const anon = await request(t.app)
      .get(`${eventsPath(visibleId)}/${open.id}`)
      .expect(200);
    expect(anon.body).toEqual(open);
    expectError(await request(t.app).get(`${eventsPath(calendarId)}/${hidden.id}`), 404, "not_found");
    expectError(
      await request(t.app)
        .get(`${eventsPath(calendarId)}/${hidden.id}`)
        .set(stranger.auth),
      404,
      "not_found",
    );
    expectError(
      await request(t.app)
        .get(`${eventsPath(visibleId)}/${hidden.id}`)
        .set(owner.auth),
      404,
      "not_found",
    );
    expectError(await request(t.app).get(`${eventsPath(visibleId)}/evt_missing`), 404, "not_found");
    const seen = await request(t.app)
      .get(`${eventsPath(calendarId)}/${hidden.id}`)
      .set(reader.auth)
      .expect(200);
    expect(seen.body.name).toBe("Hidden");
  });

  it("DELETE climbs 401 -> 404/403 -> success and answers {deleted}", async () => {
    const { owner, writer, reader, stranger, calendars } = await sharingWorld(t);
    const calendarId = calendars.unlisted.id;
    const privateId = calendars.private.id;
    const event = await newEvent(t, writer, calendarId, { name: "Gone soon" });
    const hidden = await newEvent(t, owner, privateId, { name: "Hidden" });
    const del = (agent: MintedAgent | null, cal: string, id: string) => {
      const req = request(t.app).delete(`${eventsPath(cal)}/${id}`);
      return agent ? req.set(agent.auth) : req;
    };
    expectError(await del(null, calendarId, event.id), 401, "unauthorized");
    expectError(await del(reader, calendarId, event.id), 403, "forbidden");
    expectError(await del(stranger, calendarId, event.id), 403, "forbidden");
    expectError(await del(stranger, privateId, hidden.id), 404, "not_found");
    // An event addressed through another calendar the caller may write is still 404.
    expectError(await del(owner, privateId, event.id), 404, "not_found");

    const res = await del(writer, calendarId, event.id).expect(200);
    expect(res.body).toEqual({ deleted: event.id });
    expect(await t.deps.store.get(paths.event(calendarId, event.id))).toBeNull();
    expectError(await del(writer, calendarId, event.id), 404, "not_found");
    expectError(await request(t.app).get(`${eventsPath(calendarId)}/${event.id}`), 404, "not_found");
  });
});

describe("PATCH .../events/{eventId}", () => {
  it("climbs 401 -> 400 -> 404/403 -> success", async () => {
    const { owner, writer, reader, stranger, calendars } = await sharingWorld(t);
    const calendarId = calendars.unlisted.id;
    const privateId = calendars.private.id;
    const event = await newEvent(t, owner, calendarId, { name: "Plan" });
    const hidden = await newEvent(t, owner, privateId, { name: "Hidden" });
    expectError(await patchEvent(null, calendarId, event.id, { name: "X" }), 401, "unauthorized");
    const typo = await patchEvent(writer, calendarId, event.id, { title: "X" });
    expectError(typo, 400, "invalid_event");
    expect(typo.body.error.details.field).toBe("title");
    expectError(await patchEvent(writer, calendarId, event.id, { name: null }), 400, "invalid_event");
    expectError(await patchEvent(stranger, privateId, hidden.id, { name: "X" }), 404, "not_found");
    expectError(await patchEvent(reader, privateId, hidden.id, { name: "X" }), 403, "forbidden");
    expectError(await patchEvent(reader, calendarId, event.id, { name: "X" }), 403, "forbidden");
    expectError(await patchEvent(stranger, calendarId, event.id, { name: "X" }), 403, "forbidden");
    expectError(await patchEvent(writer, calendarId, "evt_missing", { name: "X" }), 404, "not_found");
    expectError(await patchEvent(owner, privateId, event.id, { name: "X" }), 404, "not_found");

    t.clock.advance(5000);
    const res = await patchEvent(writer, calendarId, event.id, { name: "Plan v2" }).expect(200);
    expect(res.body).toMatchObject({
      name: "Plan v2",
      kind: "someday",
      updated_at: "2026-11-22T10:00:05.000Z",
      created_by: { id: owner.agentId },
    });
    expect((await t.deps.store.get<EventRecord>(paths.event(calendarId, event.id)))?.data.name).toBe("Plan v2");
  });

  it("moves between kinds as docs/api.md#schedule-kinds says", async () => {
    const owner = await mintAgent(t);
    const calendarId = (await newCalendar(t, owner, { name: "Kinds", timezone: "Europe/Berlin" })).id;
    const event = await newEvent(t, owner, calendarId, { name: "Review", date: "2026-12-03", start_time: "14:00" });
    const p = async (body: Record<string, unknown>) =>
      (await patchEvent(owner, calendarId, event.id, body).expect(200)).body;

    const recurring = await p({ recur: { type: "weekly", day: 4 } });
    expect(recurring).toMatchObject({ kind: "recurring", date: null, start_time: "14:00" });
    expect(recurring.recur).toMatchObject({ type: "weekly", day: 4, starts: "2026-11-22" });

    const oneOff = await p({ date: "2026-12-10" });
    expect(oneOff).toMatchObject({ kind: "one-off", date: "2026-12-10", recur: null });

    const someday = await p({ date: null });
    expect(someday).toMatchObject({ kind: "someday", date: null, recur: null, start_time: "14:00" });

    await p({ recur: { type: "daily" } });
    const cleared = await p({ recur: null });
    expect(cleared).toMatchObject({ kind: "someday", date: null, recur: null });

    await p({ date: "2027-01-05" });
    const both = await p({ date: null, recur: null });
    expect(both).toMatchObject({ kind: "someday", date: null, recur: null });

    const bad = await patchEvent(owner, calendarId, event.id, { date: "2027-01-05", recur: { type: "daily" } });
    expectError(bad, 400, "invalid_event");
    expect(bad.body.error.details.field).toBe("recur");
    // recur null beside a date is simply a one-off.
    expect(await p({ date: "2027-01-05", recur: null })).toMatchObject({ kind: "one-off", date: "2027-01-05" });
  });

  it("a new rule without `starts` starts on the event's creation date, not the PATCH date", async () => {
    const owner = await mintAgent(t);
    const calendarId = (await newCalendar(t, owner, { name: "Later", timezone: "America/New_York" })).id;
    const event = await newEvent(t, owner, calendarId, { name: "Sync" });
    t.clock.advance(40 * 86_400_000);
    const res = await patchEvent(owner, calendarId, event.id, { recur: { type: "monthly", day: 15 } }).expect(200);
    expect(res.body.recur.starts).toBe("2026-11-22");
    const until = await patchEvent(owner, calendarId, event.id, { recur: { type: "daily", until: "2026-11-21" } });
    expectError(until, 400, "invalid_event");
    expect(until.body.error.details.field).toBe("recur.until");
  });

  it("clears times, notes, category and art with null, and checks times against the stored ones", async () => {
    const owner = await mintAgent(t);
    const calendarId = (await newCalendar(t, owner, { name: "Clear" })).id;
    const event = await newEvent(t, owner, calendarId, {
      name: "Talk",
      date: "2026-12-01",
      start_time: "10:00",
      end_time: "11:00",
      category: "talks",
      notes: "slides",
      art: "🎤",
    });
    const p = (body: Record<string, unknown>) => patchEvent(owner, calendarId, event.id, body);

    const same = await p({ start_time: "11:00" });
    expectError(same, 400, "invalid_event");
    expect(same.body.error.details.field).toBe("start_time");
    const sameEnd = await p({ end_time: "10:00" });
    expectError(sameEnd, 400, "invalid_event");
    expect(sameEnd.body.error.details.field).toBe("end_time");
    // An end_time before start_time is an overnight event (docs/api.md#times).
    expect((await p({ end_time: "09:00" }).expect(200)).body).toMatchObject({ start_time: "10:00", end_time: "09:00" });
    const orphan = await p({ start_time: null, end_time: "12:00" });
    expectError(orphan, 400, "invalid_event");
    expect(orphan.body.error.details.field).toBe("end_time");

    expect((await p({ end_time: null }).expect(200)).body).toMatchObject({ start_time: "10:00", end_time: null });
    await p({ end_time: "11:00" }).expect(200);
    expect((await p({ start_time: "09:00" }).expect(200)).body).toMatchObject({
      start_time: "09:00",
      end_time: "11:00",
    });
    expect((await p({ start_time: null }).expect(200)).body).toMatchObject({ start_time: null, end_time: null });

    const cleared = (await p({ notes: null, category: null, art: null }).expect(200)).body;
    expect(cleared).toMatchObject({ notes: null, category: null, art: null, name: "Talk", date: "2026-12-01" });
    const stored = await t.deps.store.get<EventRecord>(paths.event(calendarId, event.id));
    expect(stored?.data).toMatchObject({ notes: null, category: null, art: null, start_time: null, end_time: null });
  });

  it("an empty PATCH changes nothing but is allowed", async () => {
    const owner = await mintAgent(t);
    const calendarId = (await newCalendar(t, owner, { name: "Noop" })).id;
    const event = await newEvent(t, owner, calendarId, { name: "Keep", date: "2026-12-01" });
    const res = await patchEvent(owner, calendarId, event.id, {}).expect(200);
    expect(res.body).toMatchObject({ name: "Keep", date: "2026-12-01", kind: "one-off" });
  });
});

describe("GET .../events (list)", () => {
  it("is readable without a token on visible calendars, 404 on private ones without a grant", async () => {
    const { owner, reader, stranger, calendars } = await sharingWorld(t);
    const calendarId = calendars.private.id;
    await newEvent(t, owner, calendarId, { name: "Secret" });
    expectError(await request(t.app).get(eventsPath(calendarId)), 404, "not_found");
    expectError(await request(t.app).get(eventsPath(calendarId)).set(stranger.auth), 404, "not_found");
    expectError(
      await request(t.app).get(eventsPath(calendarId)).set("Authorization", "Bearer bad"),
      401,
      "unauthorized",
    );
    expect(names((await list(calendarId, "", reader.auth)).events)).toEqual(["Secret"]);

    for (const visibility of ["public", "unlisted"] as const) {
      const open = calendars[visibility].id;
      await newEvent(t, owner, open, { name: `In ${visibility}` });
      expect(names((await list(open)).events)).toEqual([`In ${visibility}`]);
    }
  });

  it("orders dated events by date then time (untimed first), then recurring, then someday, ties by creation", async () => {
    const owner = await mintAgent(t);
    const calendarId = (await newCalendar(t, owner, { name: "Order" })).id;
    const make = async (body: Record<string, unknown>) => {
      t.clock.advance(1000);
      return newEvent(t, owner, calendarId, body);
    };
    await make({ name: "someday 1" });
    await make({ name: "weekly", recur: { type: "weekly", day: 2 }, start_time: "08:00" });
    await make({ name: "dec 2 10:00", date: "2026-12-02", start_time: "10:00" });
    await make({ name: "dec 2 untimed", date: "2026-12-02" });
    await make({ name: "dec 1 18:00", date: "2026-12-01", start_time: "18:00" });
    await make({ name: "someday 2" });
    await make({ name: "dec 2 09:00", date: "2026-12-02", start_time: "09:00" });
    await make({ name: "daily", recur: { type: "daily" } });
    await make({ name: "dec 2 10:00 later", date: "2026-12-02", start_time: "10:00" });
    await make({ name: "jan 1", date: "2027-01-01" });

    expect(names((await list(calendarId)).events)).toEqual([
      "dec 1 18:00",
      "dec 2 untimed",
      "dec 2 09:00",
      "dec 2 10:00",
      "dec 2 10:00 later",
      "jan 1",
      "weekly",
      "daily",
      "someday 1",
      "someday 2",
    ]);
  });

  it("filters by from/to (inclusive, recurring when they occur), category and kind", async () => {
    const owner = await mintAgent(t);
    const calendarId = (await newCalendar(t, owner, { name: "Filters" })).id;
    await newEvent(t, owner, calendarId, { name: "nov 30", date: "2026-11-30", category: "ops" });
    await newEvent(t, owner, calendarId, { name: "dec 1", date: "2026-12-01", category: "talks" });
    await newEvent(t, owner, calendarId, { name: "dec 31", date: "2026-12-31", category: "ops" });
    await newEvent(t, owner, calendarId, { name: "jan 1", date: "2027-01-01" });
    // Weekly on Sundays from 2026-12-06; 2026-12-01 .. 2026-12-05 holds none.
    await newEvent(t, owner, calendarId, {
      name: "sundays",
      recur: { type: "weekly", day: 7, starts: "2026-12-06" },
      category: "ops",
    });
    await newEvent(t, owner, calendarId, {
      name: "ended",
      recur: { type: "daily", starts: "2026-11-01", until: "2026-11-20" },
    });
    await newEvent(t, owner, calendarId, { name: "someday", category: "ops" });

    expect(names((await list(calendarId, "?from=2026-12-01&to=2026-12-31")).events)).toEqual([
      "dec 1",
      "dec 31",
      "sundays",
    ]);
    expect(names((await list(calendarId, "?from=2026-12-01&to=2026-12-05")).events)).toEqual(["dec 1"]);
    expect(names((await list(calendarId, "?from=2026-12-31")).events)).toEqual(["dec 31", "jan 1", "sundays"]);
    expect(names((await list(calendarId, "?to=2026-11-30")).events)).toEqual(["nov 30", "ended"]);
    expect(names((await list(calendarId, "?from=2026-11-20&to=2026-11-20")).events)).toEqual(["ended"]);
    expect(names((await list(calendarId, "?category=ops")).events)).toEqual(["nov 30", "dec 31", "sundays", "someday"]);
    expect(names((await list(calendarId, "?kind=someday")).events)).toEqual(["someday"]);
    expect(names((await list(calendarId, "?kind=recurring&category=ops")).events)).toEqual(["sundays"]);
    expect(names((await list(calendarId, "?kind=one-off&from=2026-12-01")).events)).toEqual([
      "dec 1",
      "dec 31",
      "jan 1",
    ]);

    for (const [query, field] of [
      ["?from=2026-02-30", "from"],
      ["?from=2026-12-02&to=2026-12-01", "to"],
      ["?kind=weekly", "kind"],
      ["?limit=0", "limit"],
      ["?limit=1001", "limit"],
      ["?limit=ten", "limit"],
      ["?layers=some", "layers"],
      ["?form=2026-01-01", "form"],
    ]) {
      const res = await request(t.app).get(`${eventsPath(calendarId)}${query}`);
      expectError(res, 400, "invalid_request");
      expect(res.body.error.details.field, query).toBe(field);
    }
  });

  it("pages with limit and an opaque cursor; a bad cursor is 400", async () => {
    const owner = await mintAgent(t);
    const calendarId = (await newCalendar(t, owner, { name: "Pages" })).id;
    for (let i = 1; i <= 5; i++) {
      t.clock.advance(1000);
      await newEvent(t, owner, calendarId, { name: `day ${i}`, date: `2026-12-0${i}` });
    }
    await newEvent(t, owner, calendarId, { name: "someday" });

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const body: { events: Array<{ name: string }>; next_cursor: string | null } = await list(
        calendarId,
        `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      expect(body.events.length).toBeLessThanOrEqual(2);
      seen.push(...names(body.events));
      cursor = body.next_cursor;
      pages++;
    } while (cursor);
    expect(seen).toEqual(["day 1", "day 2", "day 3", "day 4", "day 5", "someday"]);
    expect(pages).toBe(3);
    expect((await list(calendarId, "?limit=6")).next_cursor).toBeNull();

    // The cursor holds a position, so a deleted event does not shift the next page.
    const first = await list(calendarId, "?limit=2");
    const ids = (await list(calendarId)).events.map((e: { id: string }) => e.id);
    await request(t.app)
      .delete(`${eventsPath(calendarId)}/${ids[1]}`)
      .set(owner.auth)
      .expect(200);
    const next = await list(calendarId, `?limit=2&cursor=${first.next_cursor}`);
    expect(names(next.events)).toEqual(["day 3", "day 4"]);

    for (const bad of ["garbage", Buffer.from('["x"]').toString("base64url"), ""]) {
      const res = await request(t.app).get(`${eventsPath(calendarId)}?cursor=${bad}`);
      expectError(res, 400, "invalid_request");
      expect(res.body.error.details.field).toBe("cursor");
    }
  });

  it("layers=all adds the events of readable layers, each marked with its layer", async () => {
    const owner = await mintAgent(t, "Owner");
    const host = (await newCalendar(t, owner, { name: "Host", visibility: "public" })).id;
    const team = (await newCalendar(t, owner, { name: "Team", visibility: "unlisted" })).id;
    const secret = (await newCalendar(t, owner, { name: "Secret", visibility: "private" })).id;
    await seedLayer(t.deps, host, team, "team");
    await seedLayer(t.deps, host, secret, "secret");
    await newEvent(t, owner, host, { name: "host event", date: "2026-12-02" });
    await newEvent(t, owner, team, { name: "team event", date: "2026-12-01" });
    await newEvent(t, owner, secret, { name: "secret event", date: "2026-12-03" });

    const mainOnly = await list(host);
    expect(names(mainOnly.events)).toEqual(["host event"]);
    expect(mainOnly.events[0]).not.toHaveProperty("layer");

    const anon = await list(host, "?layers=all");
    expect(anon.events.map((e: { name: string; layer: string }) => [e.name, e.layer])).toEqual([
      ["team event", "team"],
      ["host event", "main"],
    ]);
    const asOwner = await list(host, "?layers=all", owner.auth);
    expect(names(asOwner.events)).toEqual(["team event", "host event", "secret event"]);
  });
});
