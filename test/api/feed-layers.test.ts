import request from "supertest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FeedRecord } from "../../functions/src/domain/feeds/records.js";
import { paths } from "../../functions/src/domain/paths.js";
import { budgetOf, type PassResult } from "../../functions/src/jobs/pass.js";
import { feedPass } from "../../functions/src/jobs/feeds.js";
import { purgePass } from "../../functions/src/jobs/purge.js";
import { createFeedFetcher } from "../../functions/src/outbound/fetch-feed.js";
import { createPagesApp } from "../../functions/src/pages/app.js";
import { appPerTest, createTestApp } from "../helpers/app.js";
import { CountingStore } from "../helpers/counting-store.js";
import { loopbackConfig } from "../helpers/config.js";
import {
  mintAgent,
  newCalendar,
  newEvent,
  sharingWorld,
  type Calendar,
  type MintedAgent,
} from "../helpers/factories.js";
import { icsOf, startFeedServer, type FeedServer } from "../helpers/feed-server.js";
import { del, expectError, get, patch, post } from "../helpers/http.js";

const HOUR = 3_600_000;

describe("POST /v1/calendars/{calendarId}/layers with a feed_url", () => {
  const t = appPerTest(); // WEBHOOKS_ALLOW_LOOPBACK off, as deployed

  it("climbs 401 -> 400 -> 403/404 -> success", async () => {
    const world = await sharingWorld(t);
    const host = world.calendars.public;
    const attach = (body: Record<string, unknown>, agent: MintedAgent | null = world.owner, id = host.id) =>
      post(t, `/v1/calendars/${id}/layers`, agent?.auth).send(body);
    t.deps.resolveHost = async (name) =>
      ({ "calendar.example": ["93.184.215.14"], "intranet.example": ["10.1.2.3"] })[name] ?? [];
    const good = { feed_url: "https://calendar.example/team.ics", key: "team" };

    expectError(await attach(good, null), 401, "unauthorized");
    const refusals: [Record<string, unknown>, string, RegExp][] = [
      [{ feed_url: "not a url", key: "team" }, "feed_url", /absolute https: URL/],
      [{ feed_url: "http://calendar.example/team.ics", key: "team" }, "feed_url", /must use https:/],
      [{ feed_url: "http://calendar.example/team.ics", key: "team" }, "feed_url", /must use https:/],
      [{ feed_url: "https://10.0.0.1/team.ics", key: "team" }, "feed_url", /a private address/],
      [{ feed_url: "https://169.254.169.254/latest/", key: "team" }, "feed_url", /a cloud metadata address/],
      [{ feed_url: "https://127.0.0.1/team.ics", key: "team" }, "feed_url", /a loopback address/],
      [{ feed_url: "https://localhost/team.ics", key: "team" }, "feed_url", /a loopback host/],
      [{ feed_url: "https://intranet.example/team.ics", key: "team" }, "feed_url", /resolves to a private address/],
      [{ feed_url: "https://nowhere.example/team.ics", key: "team" }, "feed_url", /does not resolve/],
      [{ ...good, refresh_minutes: 5 }, "refresh_minutes", /from 15 to 10080/],
      [{ ...good, refresh_minutes: 30.5 }, "refresh_minutes", /whole number/],
      [{ ...good, calendar_id: world.calendars.unlisted.id }, "feed_url", /exactly one of/],
      [{ key: "team" }, "feed_url", /exactly one of/],
      [{ calendar_id: world.calendars.unlisted.id, key: "team", refresh_minutes: 30 }, "refresh_minutes", /feed/],
      [{ ...good, key: "main" }, "key", /reserved/],
    ];
    for (const [body, field, message] of refusals) {
      const res = await attach(body);
      expectError(res, 400, "invalid_request");
      expect(res.body.error.details.field, JSON.stringify(body)).toBe(field);
      expect(res.body.error.message, JSON.stringify(body)).toMatch(message);
    }

    expectError(await attach(good, world.writer), 403, "forbidden");
    expectError(await attach(good, world.stranger, world.calendars.private.id), 404, "not_found");

    const res = await attach({ ...good, refresh_minutes: 30 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^lyr_/),
      key: "team",
      calendar_id: expect.stringMatching(/^cal_/),
      calendar_name: "calendar.example",
      calendar_slug: null,
      created_at: "2026-11-22T10:00:00.000Z",
      feed_url: "https://calendar.example/team.ics",
      refresh_minutes: 30,
      last_fetched_at: null,
      last_error: null,
      event_count: 0,
    });
    // The same feed again is the same layer; a new key renames it, a new interval replaces the old.
    const again = await attach({ ...good, key: "crew" });
    expect(again.body).toMatchObject({ id: res.body.id, key: "crew", refresh_minutes: 30 });
    const listed = await get(t, `/v1/calendars/${host.id}/layers`, world.owner.auth);
    expect(listed.body.layers).toEqual([{ ...res.body, key: "crew" }]);
    // Its URL may hold a secret: a reader of the host, or anyone on a public host, sees null.
    for (const auth of [world.reader.auth, undefined]) {
      const read = await get(t, `/v1/calendars/${host.id}/layers`, auth);
      expect(read.body.layers).toEqual([{ ...res.body, key: "crew", feed_url: null }]);
    }
    // Its calendar is no calendar of the API: not listed, and 404 by id.
    expectError(await get(t, `/v1/calendars/${res.body.calendar_id}`, world.owner.auth), 404, "not_found");
    const mine = await get(t, "/v1/calendars", world.owner.auth);
    expect(JSON.stringify(mine.body)).not.toContain(res.body.calendar_id);
  });
});

describe("a feed layer and a credential restricted to its host", () => {
  const t = appPerTest();

  it("is the host's own: listed, published and detached through the host alone", async () => {
    t.deps.resolveHost = async () => ["93.184.215.14"];
    const owner = await mintAgent(t, "Owner");
    const host = await newCalendar(t, owner, { name: "Host", visibility: "private" });
    const issued = await post(t, "/v1/agent-credentials", owner.auth).send({ calendars: [host.id] });
    const onlyHost = { Authorization: `Bearer ${issued.body.token}` };
    const body = { feed_url: "https://calendar.example/team.ics", key: "team" };
    const layer = (await post(t, `/v1/calendars/${host.id}/layers`, onlyHost).send(body)).body;
    expect(layer.feed_url).toBe(body.feed_url);
    const listed = await get(t, `/v1/calendars/${host.id}/layers`, onlyHost);
    expect(listed.body.layers.map((l: { id: string }) => l.id)).toEqual([layer.id]);
    const view = { name: "Everything", filter: { layers: ["main", "team"] } };
    expect((await post(t, `/v1/calendars/${host.id}/views`, onlyHost).send(view)).status).toBe(200);
    const visible = await patch(t, `/v1/calendars/${host.id}`, onlyHost).send({ visibility: "public" });
    expect(visible.status, JSON.stringify(visible.body)).toBe(200);
    expect((await del(t, `/v1/calendars/${host.id}/layers/${layer.id}`, onlyHost)).status).toBe(200);
  });
});

describe("a feed layer, refreshed from a loopback https server", () => {
  const t = appPerTest(() => createTestApp({ config: loopbackConfig() }));
  let server: FeedServer;
  let owner: MintedAgent;
  let host: Calendar;
  let layer: { id: string; calendar_id: string };

  const standup = {
    uid: "standup@team",
    summary: "Standup",
    start: "2026-11-23T09:00:00Z",
    end: "2026-11-23T09:30:00Z",
  };
  const review = { uid: "review@team", summary: "Review", start: "2026-11-24T14:00:00Z", end: "2026-11-24T15:00:00Z" };

  const pass = (store = t.deps.store): Promise<PassResult> =>
    feedPass({ ...t.deps, store }, budgetOf(10_000), {
      fetch: createFeedFetcher({ allowLoopback: true, ca: server.ca }),
    });
  const occurrences = async () => {
    const res = await get(t, `/v1/calendars/${host.id}/occurrences?from=2026-11-22&to=2026-11-30`, owner.auth);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.occurrences as { layer: string; name: string; start: string; event_id: string }[]).filter(
      (o) => o.layer === "team",
    );
  };
  const feedLayer = async () => {
    const res = await get(t, `/v1/calendars/${host.id}/layers`, owner.auth);
    return res.body.layers.find((l: { id: string }) => l.id === layer.id);
  };
  const feedEvents = async () => (await t.deps.store.query(paths.events(layer.calendar_id))).map((d) => d.data);
  const hostChanges = async (cursor?: string) => {
    const query = cursor === undefined ? "" : `?cursor=${encodeURIComponent(cursor)}`;
    const res = await get(t, `/v1/calendars/${host.id}/changes${query}`, owner.auth);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { changes: { type: string; id: string }[]; cursor: string };
  };

  beforeEach(async () => {
    server = await startFeedServer(icsOf([{ ...standup, rrule: "FREQ=DAILY;COUNT=3" }, review]));
    const world = await sharingWorld(t);
    owner = world.owner;
    host = await newCalendar(t, owner, { name: "Launch", visibility: "public", timezone: "Europe/Berlin" });
    await newEvent(t, owner, host.id, { name: "Own", date: "2026-11-25", start_time: "10:00", end_time: "11:00" });
    const res = await post(t, `/v1/calendars/${host.id}/layers`, owner.auth).send({
      feed_url: server.url,
      key: "team",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    layer = res.body;
  });
  afterEach(async () => {
    await server.close();
  });

  it("is fetched by the next pass and shows wherever the host's layers show", async () => {
    const before = (await hostChanges()).cursor;
    expect(await pass()).toMatchObject({ done: 1, more: false, nextDueAt: Date.parse("2026-11-22T11:00:00Z") });
    expect(server.requests).toEqual([{ ifNoneMatch: null, ifModifiedSince: null }]);
    expect(await feedLayer()).toMatchObject({
      last_fetched_at: "2026-11-22T10:00:00.000Z",
      last_error: null,
      event_count: 2,
      // The feed's own name (X-WR-CALNAME, unescaped) instead of its host's.
      calendar_name: "Team, Berlin",
    });

    // Occurrences, in the host's zone, carrying the layer's key.
    const shown = await occurrences();
    expect(shown.map((o) => [o.name, o.start])).toEqual([
      ["Standup", "2026-11-23T10:00:00+01:00"],
      ["Standup", "2026-11-24T10:00:00+01:00"],
      ["Review", "2026-11-24T15:00:00+01:00"],
      ["Standup", "2026-11-25T10:00:00+01:00"],
    ]);
    const listed = await get(t, `/v1/calendars/${host.id}/events?layers=all`, owner.auth);
    expect(
      listed.body.events.filter((e: { layer: string }) => e.layer === "team").map((e: { name: string }) => e.name),
    ).toEqual(expect.arrayContaining(["Standup", "Review"]));

    // The page, the .ics feed and free/busy, to whoever reads the host.
    const pages = createPagesApp(t.deps);
    const page = await request(pages).get(`/c/${host.slug}?date=2026-11-23&view=week`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Standup");
    const ics = await request(pages).get(`/c/${host.slug}.ics`);
    expect(ics.text).toContain("SUMMARY:Standup");
    expect(ics.text).toContain("SUMMARY:Review");
    const busy = await get(t, `/v1/freebusy?calendars=${host.id}&from=2026-11-24&to=2026-11-24`, owner.auth);
    expect(busy.body.busy.map((b: { start: string }) => Date.parse(b.start))).toEqual([
      Date.parse("2026-11-24T09:00:00Z"),
      Date.parse("2026-11-24T14:00:00Z"),
    ]);

    // The host's change feed says the layer changed.
    const changes = await hostChanges(before);
    expect(changes.changes.map((c) => [c.type, c.id])).toEqual([["layer.refreshed", layer.id]]);
  });

  it("answers 304 to a fetch with the stored validators, and such a refresh writes no event and no change", async () => {
    await pass();
    const events = await feedEvents();
    const cursor = (await hostChanges()).cursor;
    const shards = (await t.deps.store.query(paths.shards(layer.calendar_id))).map((d) => d.data.revision);
    t.clock.advance(HOUR + 1);
    const counting = new CountingStore(t.deps.store);
    const { result, counts } = await counting.measure(() => pass(counting));
    expect(result).toMatchObject({ done: 1 });
    // The claim and the record of the fetch: the feed record, written twice; nothing else.
    expect(counts).toMatchObject({ transactions: 2, documentsWritten: 2 });
    expect(server.requests[1]).toEqual({
      ifNoneMatch: expect.stringMatching(/^"/),
      ifModifiedSince: expect.any(String),
    });
    expect(await feedEvents()).toEqual(events);
    expect((await hostChanges(cursor)).changes).toEqual([]);
    expect((await t.deps.store.query(paths.shards(layer.calendar_id))).map((d) => d.data.revision)).toEqual(shards);
    expect(await feedLayer()).toMatchObject({ last_fetched_at: "2026-11-22T11:00:00.001Z", last_error: null });
    // Not due before its interval.
    expect(await pass()).toMatchObject({ done: 0, nextDueAt: Date.parse("2026-11-22T12:00:00.001Z") });
    expect(server.requests).toHaveLength(2);
  });

  it("shows a changed file after the next refresh, and keeps the last good copy while the feed fails", async () => {
    await pass();
    server.body = icsOf([{ ...review, summary: "Design review" }]);
    t.clock.advance(HOUR);
    await pass();
    expect((await occurrences()).map((o) => o.name)).toEqual(["Design review"]);
    expect(await feedLayer()).toMatchObject({ event_count: 1, last_error: null });

    server.answer = { status: 500 };
    t.clock.advance(HOUR);
    await pass();
    expect(await feedLayer()).toMatchObject({
      last_fetched_at: "2026-11-22T12:00:00.000Z",
      last_error: "the feed's server answered 500",
      event_count: 1,
    });
    expect((await occurrences()).map((o) => o.name)).toEqual(["Design review"]);

    server.answer = { status: 200, text: "this is not a calendar" };
    t.clock.advance(HOUR);
    await pass();
    expect((await feedLayer()).last_error).toMatch(/^the feed could not be stored: .*iCalendar/);
    expect((await occurrences()).map((o) => o.name)).toEqual(["Design review"]);

    server.answer = null;
    t.clock.advance(HOUR);
    await pass();
    expect(await feedLayer()).toMatchObject({ last_error: null, event_count: 1 });
  });

  it("reads the whole feed again in the host's new zone when the host's zone changes", async () => {
    await pass();
    const zone = { timezone: "America/New_York" };
    expect((await patch(t, `/v1/calendars/${host.id}`, owner.auth).send(zone)).status).toBe(200);
    t.clock.advance(HOUR);
    await pass();
    // No validators sent: the copy held was read in the old zone.
    expect(server.requests[1]).toEqual({ ifNoneMatch: null, ifModifiedSince: null });
    expect((await t.deps.store.get(paths.calendar(layer.calendar_id)))?.data.timezone).toBe("America/New_York");
    const [first] = await occurrences();
    expect([first.name, first.start]).toEqual(["Standup", "2026-11-23T04:00:00-05:00"]);
  });

  it("refuses every write to the feed's events", async () => {
    await pass();
    const [event] = await feedEvents();
    const feedCalendar = layer.calendar_id;
    const change = { name: "Mine now" };
    expectError(
      await patch(t, `/v1/calendars/${feedCalendar}/events/${event.id}`, owner.auth).send(change),
      404,
      "not_found",
    );
    expectError(await del(t, `/v1/calendars/${feedCalendar}/events/${event.id}`, owner.auth), 404, "not_found");
    const create = { name: "Extra", date: "2026-11-26" };
    expectError(await post(t, `/v1/calendars/${feedCalendar}/events`, owner.auth).send(create), 404, "not_found");
    // Through the host, the event is not the host's own.
    expectError(
      await patch(t, `/v1/calendars/${host.id}/events/${event.id}`, owner.auth).send(change),
      404,
      "not_found",
    );
    expectError(await del(t, `/v1/calendars/${host.id}/events/${event.id}`, owner.auth), 404, "not_found");
    expect((await feedEvents()).map((e) => e.name).sort()).toEqual(["Review", "Standup"]);
  });

  it("leaves with its events when detached", async () => {
    await pass();
    const res = await del(t, `/v1/calendars/${host.id}/layers/${layer.id}`, owner.auth);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await occurrences()).toEqual([]);
    expect(await t.deps.store.get(paths.calendar(layer.calendar_id))).toBeNull();
    expect(await t.deps.store.get(paths.feed(layer.calendar_id))).toBeNull();
    await purgePass(t.deps);
    expect(await feedEvents()).toEqual([]);
    expect(await t.deps.store.query(paths.shards(layer.calendar_id))).toEqual([]);
    // Nothing is due any more.
    t.clock.advance(HOUR);
    expect(await pass()).toMatchObject({ done: 0, nextDueAt: null });
  });

  it("leaves with its host: the next pass removes a feed whose host was deleted", async () => {
    await pass();
    expect((await del(t, `/v1/calendars/${host.id}`, owner.auth)).status).toBe(200);
    await purgePass(t.deps);
    t.clock.advance(HOUR);
    expect(await pass()).toMatchObject({ done: 1, nextDueAt: null });
    await purgePass(t.deps);
    expect(await t.deps.store.get<FeedRecord>(paths.feed(layer.calendar_id))).toBeNull();
    expect(await t.deps.store.get(paths.calendar(layer.calendar_id))).toBeNull();
    expect(await feedEvents()).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });
});
