import { beforeEach, describe, expect, it } from "vitest";
import type { Actor } from "../../functions/src/domain/actor.js";
import { paths } from "../../functions/src/domain/paths.js";
import { eventSources } from "../../functions/src/domain/queries/sources.js";
import type { CalendarRecord } from "../../functions/src/domain/records.js";
import { appPerTest } from "../helpers/app.js";
import { del, expectError, get, post } from "../helpers/http.js";
import {
  grantRole,
  laterCredential,
  newCalendar,
  sharingWorld,
  type MintedAgent,
  type SharingWorld,
} from "../helpers/factories.js";

const t = appPerTest();
let world: SharingWorld;
let owner: MintedAgent;
let stranger: MintedAgent;
/** The world's public calendar: the host the layers attach to. */
let hostId: string;

beforeEach(async () => {
  world = await sharingWorld(t);
  ({ owner, stranger } = world);
  hostId = world.calendars.public.id;
});

const layersPath = (id = hostId) => `/v1/calendars/${id}/layers`;
const attach = (body: Record<string, unknown>, auth = owner.auth, id = hostId) =>
  post(t, layersPath(id), auth).send(body);
const calendar = async (id: string) => (await t.deps.store.get<CalendarRecord>(paths.calendar(id)))!.data;
const actorOf = (agent: MintedAgent): Actor => ({
  agentId: agent.agentId,
  agentName: agent.agentName,
  credentialId: agent.credentialId,
  scopes: ["agent:read", "calendar:read", "calendar:write", "grants:manage"],
  calendars: null,
  expiresAt: null,
});

describe("POST /v1/calendars/{calendarId}/layers", () => {
  it("climbs 401 -> 400 -> 404/403 -> success", async () => {
    const team = await newCalendar(t, owner, { name: "Team", visibility: "unlisted" });
    expectError(await post(t, layersPath()).send({ calendar_id: team.id, key: "team" }), 401, "unauthorized");
    for (const key of ["main", "Team", "-team", "team-", "a".repeat(41), ""]) {
      const bad = await attach({ calendar_id: team.id, key });
      expectError(bad, 400, "invalid_request");
      expect(bad.body.error.details.field).toBe("key");
    }
    expectError(await attach({ key: "team" }), 400, "invalid_request");
    expectError(await attach({ calendar_id: team.id, key: "team", name: "x" }), 400, "invalid_request");

    expectError(await attach({ calendar_id: team.id, key: "team" }, stranger.auth), 403, "forbidden");
    const privateHost = world.calendars.private;
    expectError(await attach({ calendar_id: team.id, key: "team" }, stranger.auth, privateHost.id), 404, "not_found");
    const { writer } = world;
    expectError(await attach({ calendar_id: team.id, key: "team" }, writer.auth), 403, "forbidden");
    // The layer calendar must be readable by the caller.
    const theirs = await newCalendar(t, stranger, { name: "Theirs", visibility: "private" });
    expectError(await attach({ calendar_id: theirs.id, key: "theirs" }), 404, "not_found");
    expectError(await attach({ calendar_id: "cal_nope", key: "nope" }), 404, "not_found");

    const res = await attach({ calendar_id: team.id, key: "team" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^lyr_/),
      key: "team",
      calendar_id: team.id,
      calendar_name: "Team",
      calendar_slug: team.slug,
      created_at: "2026-11-22T10:00:00.000Z",
    });
    expect((await t.deps.store.get(paths.layer(hostId, res.body.id)))?.data).toMatchObject({
      host_calendar_id: hostId,
      calendar_id: team.id,
    });
    expect((await t.deps.store.get(paths.host(team.id, hostId)))?.data).toMatchObject({
      host_calendar_id: hostId,
      layer_id: res.body.id,
    });

    // A calendar:write token without grants:manage is enough; one without calendar:write is not.
    const later = await laterCredential(t, owner);
    const other = await newCalendar(t, owner, { name: "Other" });
    await attach({ calendar_id: other.id, key: "other" }, later).expect(200);
  });

  it("returns the existing link for the same pair, renames with a new key, and refuses a key in use", async () => {
    const team = await newCalendar(t, owner, { name: "Team" });
    const ops = await newCalendar(t, owner, { name: "Ops" });
    const first = (await attach({ calendar_id: team.id, key: "team" }).expect(200)).body;
    expect((await attach({ calendar_id: team.id, key: "team" }).expect(200)).body).toEqual(first);
    const renamed = (await attach({ calendar_id: team.id, key: "crew" }).expect(200)).body;
    expect(renamed).toEqual({ ...first, key: "crew" });
    t.clock.advance(1000);
    await attach({ calendar_id: ops.id, key: "ops" }).expect(200);
    const clash = await attach({ calendar_id: ops.id, key: "crew" });
    expectError(clash, 409, "key_taken");
    const clashNew = await attach({ calendar_id: (await newCalendar(t, owner, { name: "Third" })).id, key: "ops" });
    expectError(clashNew, 409, "key_taken");
    const listed = (await get(t, layersPath()).expect(200)).body.layers.map((l: { key: string }) => l.key);
    expect(listed).toEqual(["crew", "ops"]);
  });

  it("refuses nesting in either direction and self-attachment with layer_depth", async () => {
    const team = await newCalendar(t, owner, { name: "Team" });
    const leaf = await newCalendar(t, owner, { name: "Leaf" });
    const top = await newCalendar(t, owner, { name: "Top" });
    expectError(await attach({ calendar_id: hostId, key: "self" }), 400, "layer_depth");
    await attach({ calendar_id: team.id, key: "team" }).expect(200);
    // host has layers: it cannot become a layer of another calendar
    expectError(await attach({ calendar_id: hostId, key: "project" }, owner.auth, top.id), 400, "layer_depth");
    // team is a layer: it cannot get layers of its own
    expectError(await attach({ calendar_id: leaf.id, key: "leaf" }, owner.auth, team.id), 400, "layer_depth");
    // a calendar may be a layer of several hosts
    await attach({ calendar_id: team.id, key: "team" }, owner.auth, top.id).expect(200);
  });

  it("refuses the 21st layer with layer_limit", async () => {
    for (let i = 0; i < 20; i++) {
      const cal = await newCalendar(t, owner, { name: `Layer ${i}` });
      await attach({ calendar_id: cal.id, key: `l${i}` }).expect(200);
    }
    const extra = await newCalendar(t, owner, { name: "Extra" });
    const res = await attach({ calendar_id: extra.id, key: "extra" });
    expectError(res, 400, "layer_limit");
    expect(res.body.error.details.limit).toBe(20);
    // re-posting an existing pair and renaming still work at the limit
    const existing = (await get(t, layersPath()).expect(200)).body.layers[0];
    await attach({ calendar_id: existing.calendar_id, key: "renamed" }).expect(200);
    expect(await t.deps.store.query(paths.layers(hostId))).toHaveLength(20);
  });
});

describe("GET /v1/calendars/{calendarId}/layers", () => {
  it("lists, without a token on visible calendars, only the layers the viewer could read directly", async () => {
    const open = await newCalendar(t, owner, { name: "Open", visibility: "public" });
    const hidden = await newCalendar(t, owner, { name: "Hidden", visibility: "private" });
    await attach({ calendar_id: open.id, key: "open" }).expect(200);
    t.clock.advance(1000);
    await attach({ calendar_id: hidden.id, key: "hidden" }).expect(200);

    const keys = (res: { body: { layers: Array<{ key: string }> } }) => res.body.layers.map((l) => l.key);
    expect(keys(await get(t, layersPath()).expect(200))).toEqual(["open"]);
    expect(keys(await get(t, layersPath(), stranger.auth).expect(200))).toEqual(["open"]);
    expect(keys(await get(t, layersPath(), owner.auth).expect(200))).toEqual(["open", "hidden"]);
    await grantRole(t, owner.auth, hidden.id, stranger.agentId, "reader");
    expect(keys(await get(t, layersPath(), stranger.auth).expect(200))).toEqual(["open", "hidden"]);
    expect((await get(t, `${layersPath()}?limit=1`, owner.auth).expect(200)).body.next_cursor).toEqual(
      expect.any(String),
    );

    expectError(await get(t, layersPath(), { Authorization: "Bearer svc_agent_wrong" }), 401, "unauthorized");
    const privateHost = await newCalendar(t, owner, { name: "Private host", visibility: "private" });
    expectError(await get(t, layersPath(privateHost.id)), 404, "not_found");
    expectError(await get(t, layersPath(privateHost.id), stranger.auth), 404, "not_found");
    expect((await get(t, layersPath(privateHost.id), owner.auth).expect(200)).body).toEqual({
      layers: [],
      next_cursor: null,
    });
  });
});

describe("DELETE /v1/calendars/{calendarId}/layers/{layerId}", () => {
  it("removes the link and its reverse link only", async () => {
    const team = await newCalendar(t, owner, { name: "Team" });
    const layer = (await attach({ calendar_id: team.id, key: "team" }).expect(200)).body;
    const path = `${layersPath()}/${layer.id}`;
    expectError(await del(t, path), 401, "unauthorized");
    expectError(await del(t, path, stranger.auth), 403, "forbidden");
    expectError(await del(t, `${layersPath(team.id)}/${layer.id}`, owner.auth), 404, "not_found");

    expect((await del(t, path, owner.auth).expect(200)).body).toEqual({ deleted: layer.id });
    expect(await t.deps.store.get(paths.layer(hostId, layer.id))).toBeNull();
    expect(await t.deps.store.get(paths.host(team.id, hostId))).toBeNull();
    expect(await calendar(team.id)).toMatchObject({ id: team.id, name: "Team" });
    expectError(await del(t, path, owner.auth), 404, "not_found");
    // no longer a layer, team may now have layers of its own
    const leaf = await newCalendar(t, owner, { name: "Leaf" });
    await attach({ calendar_id: leaf.id, key: "leaf" }, owner.auth, team.id).expect(200);
  });
});

describe("eventSources", () => {
  it("composes main and every layer the viewer could read directly", async () => {
    const open = await newCalendar(t, owner, { name: "Open", visibility: "unlisted" });
    const hidden = await newCalendar(t, owner, { name: "Hidden", visibility: "private" });
    await attach({ calendar_id: open.id, key: "open" }).expect(200);
    t.clock.advance(1000);
    await attach({ calendar_id: hidden.id, key: "hidden" }).expect(200);
    const host = await calendar(hostId);
    const layersOf = async (viewer: Actor | null) =>
      (await eventSources(t.deps, host, viewer)).map((s) => [s.layer, s.calendar.id]);

    expect(await layersOf(null)).toEqual([
      ["main", hostId],
      ["open", open.id],
    ]);
    expect(await layersOf(actorOf(stranger))).toEqual([
      ["main", hostId],
      ["open", open.id],
    ]);
    expect(await layersOf(actorOf(owner))).toEqual([
      ["main", hostId],
      ["open", open.id],
      ["hidden", hidden.id],
    ]);
    // A grant without the calendar:read scope does not read a private calendar.
    expect(await layersOf({ ...actorOf(owner), scopes: ["calendar:write"] })).toEqual([
      ["main", hostId],
      ["open", open.id],
    ]);
  });
});
