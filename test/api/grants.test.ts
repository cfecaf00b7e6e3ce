import { beforeEach, describe, expect, it } from "vitest";
import { paths } from "../../functions/src/domain/paths.js";
import type { GrantRecord } from "../../functions/src/domain/records.js";
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
import { liveOwners, membershipOf } from "../helpers/store.js";

const t = appPerTest();
let world: SharingWorld;
let owner: MintedAgent;
let stranger: MintedAgent;
/** A private calendar of the owner's on which no one else holds a role yet. */
let calId: string;

beforeEach(async () => {
  world = await sharingWorld(t);
  ({ owner, stranger } = world);
  calId = (await newCalendar(t, owner, { name: "Private Plans", visibility: "private" })).id;
});

const grantsPath = (id = calId) => `/v1/calendars/${id}/grants`;
const meCalendars = async (agent: MintedAgent) =>
  (await get(t, "/v1/me", agent.auth).expect(200)).body.grants as Array<{ calendar_id: string; role: string }>;

describe("POST /v1/calendars/{calendarId}/grants", () => {
  it("climbs 401 -> 400 -> 404/403 -> success, and keeps the membership in step", async () => {
    expectError(await post(t, grantsPath()).send({ agent_id: stranger.agentId, role: "reader" }), 401, "unauthorized");
    const missing = await post(t, grantsPath(), owner.auth).send({ agent_id: stranger.agentId });
    expectError(missing, 400, "invalid_request");
    expect(missing.body.error.details.field).toBe("role");
    const typo = await post(t, grantsPath(), owner.auth).send({ agent: stranger.agentId, role: "reader" });
    expectError(typo, 400, "invalid_request");
    expect(typo.body.error.details.field).toBe("agent");
    expectError(
      await post(t, grantsPath(), owner.auth).send({ agent_id: stranger.agentId, role: "admin" }),
      400,
      "invalid_request",
    );
    const unknown = await post(t, grantsPath(), owner.auth).send({ agent_id: "agt_nobody", role: "reader" });
    expectError(unknown, 400, "invalid_request");
    expect(unknown.body.error.details.field).toBe("agent_id");

    // A private calendar is not revealed to a stranger; a visible one answers 403.
    expectError(
      await post(t, grantsPath(), stranger.auth).send({ agent_id: stranger.agentId, role: "owner" }),
      404,
      "not_found",
    );
    const narrow = await laterCredential(t, owner);
    expectError(
      await post(t, grantsPath(), narrow).send({ agent_id: stranger.agentId, role: "reader" }),
      403,
      "insufficient_scope",
    );

    const res = await post(t, grantsPath(), owner.auth).send({ agent_id: stranger.agentId, role: "writer" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^grt_/),
      calendar_id: calId,
      agent_id: stranger.agentId,
      agent_name: "Stranger",
      role: "writer",
      created_at: "2026-11-22T10:00:00.000Z",
      updated_at: "2026-11-22T10:00:00.000Z",
      revoked_at: null,
    });
    expect(await membershipOf(t, stranger.agentId, calId)).toEqual({
      calendar_id: calId,
      grant_id: res.body.id,
      role: "writer",
    });
    expect(await meCalendars(stranger)).toContainEqual(expect.objectContaining({ calendar_id: calId, role: "writer" }));
    // The grant opens the private calendar; a writer still may not manage grants.
    await get(t, `/v1/calendars/${calId}`, stranger.auth).expect(200);
    expectError(
      await post(t, grantsPath(), stranger.auth).send({ agent_id: stranger.agentId, role: "owner" }),
      403,
      "forbidden",
    );
  });

  it("changes the role in place (same id); the same role again returns the grant unchanged", async () => {
    const first = await grantRole(t, owner.auth, calId, stranger.agentId, "reader");
    t.clock.advance(60_000);
    const raised = await grantRole(t, owner.auth, calId, stranger.agentId, "writer");
    expect(raised).toMatchObject({ id: first.id, role: "writer", updated_at: "2026-11-22T10:01:00.000Z" });
    t.clock.advance(60_000);
    const same = await grantRole(t, owner.auth, calId, stranger.agentId, "writer");
    expect(same).toEqual(raised);

    const live = await t.deps.store.query<GrantRecord>(paths.grants(calId), {
      where: [["agent_id", "==", stranger.agentId]],
    });
    expect(live.map((g) => g.data)).toEqual([
      expect.objectContaining({ id: first.id, role: "writer", revoked_at: null }),
    ]);
    expect((await membershipOf(t, stranger.agentId, calId))?.role).toBe("writer");
  });

  it("refuses to demote the last owner, and allows it once another owner exists", async () => {
    const ownGrant = (await membershipOf(t, owner.agentId, calId))!.grant_id;
    const demote = await post(t, grantsPath(), owner.auth).send({ agent_id: owner.agentId, role: "writer" });
    expectError(demote, 400, "last_owner");
    expect((await liveOwners(t, calId)).map((g) => g.id)).toEqual([ownGrant]);

    await grantRole(t, owner.auth, calId, stranger.agentId, "owner");
    expect((await grantRole(t, owner.auth, calId, owner.agentId, "reader")).id).toBe(ownGrant);
    expect((await liveOwners(t, calId)).map((g) => g.agent_id)).toEqual([stranger.agentId]);
    // The demoted agent lost the right to manage grants at once.
    expectError(
      await post(t, grantsPath(), owner.auth).send({ agent_id: owner.agentId, role: "owner" }),
      403,
      "forbidden",
    );
    expectError(
      await post(t, grantsPath(), stranger.auth).send({ agent_id: stranger.agentId, role: "writer" }),
      400,
      "last_owner",
    );
  });
});

describe("GET /v1/calendars/{calendarId}/grants", () => {
  it("lists live and revoked grants for owners with grants:manage only", async () => {
    expectError(await get(t, grantsPath()), 401, "unauthorized");
    expectError(await get(t, grantsPath(), stranger.auth), 404, "not_found");
    expectError(await get(t, grantsPath(), await laterCredential(t, owner)), 403, "insufficient_scope");
    t.clock.advance(1000);
    await grantRole(t, owner.auth, calId, stranger.agentId, "reader");
    expectError(await get(t, grantsPath(), stranger.auth), 403, "forbidden");

    const { reader } = world;
    t.clock.advance(1000);
    const gone = await grantRole(t, owner.auth, calId, reader.agentId, "reader");
    await del(t, `${grantsPath()}/${gone.id}`, owner.auth).expect(200);

    const res = await get(t, grantsPath(), owner.auth).expect(200);
    expect(res.body.next_cursor).toBeNull();
    expect(res.body.grants.map((g: GrantRecord) => [g.agent_name, g.role, g.revoked_at])).toEqual([
      ["Owner", "owner", null],
      ["Stranger", "reader", null],
      ["Reader", "reader", "2026-11-22T10:00:02.000Z"],
    ]);

    const page1 = await get(t, `${grantsPath()}?limit=2`, owner.auth).expect(200);
    expect(page1.body.grants).toHaveLength(2);
    const page2 = await get(t, `${grantsPath()}?limit=2&cursor=${page1.body.next_cursor}`, owner.auth).expect(200);
    expect(page2.body).toEqual({ grants: [expect.objectContaining({ id: gone.id })], next_cursor: null });
    expectError(await get(t, `${grantsPath()}?limit=0`, owner.auth), 400, "invalid_request");
    expectError(await get(t, `${grantsPath()}?cursor=garbage`, owner.auth), 400, "invalid_request");
  });
});

describe("DELETE /v1/calendars/{calendarId}/grants/{grantId}", () => {
  it("tombstones the grant, drops the membership, and answers 404 the second time", async () => {
    const grant = await grantRole(t, owner.auth, calId, stranger.agentId, "writer");
    const path = `${grantsPath()}/${grant.id}`;
    expectError(await del(t, path), 401, "unauthorized");
    expectError(await del(t, path, stranger.auth), 403, "forbidden");
    expectError(await del(t, path, await laterCredential(t, owner)), 403, "insufficient_scope");

    t.clock.advance(5000);
    expect((await del(t, path, owner.auth).expect(200)).body).toEqual({ deleted: grant.id });
    const stored = await t.deps.store.get<GrantRecord>(paths.grant(calId, grant.id));
    expect(stored?.data).toMatchObject({ role: "writer", revoked_at: "2026-11-22T10:00:05.000Z" });
    expect(await membershipOf(t, stranger.agentId, calId)).toBeNull();
    expect((await meCalendars(stranger)).map((g) => g.calendar_id)).not.toContain(calId);
    expectError(await get(t, `/v1/calendars/${calId}`, stranger.auth), 404, "not_found");
    expectError(await del(t, path, owner.auth), 404, "not_found");

    // A new grant after a revocation is a new record; the tombstone stays as history.
    const again = await grantRole(t, owner.auth, calId, stranger.agentId, "reader");
    expect(again.id).not.toBe(grant.id);
  });

  it("refuses to revoke the last owner", async () => {
    const ownGrant = (await membershipOf(t, owner.agentId, calId))!.grant_id;
    expectError(await del(t, `${grantsPath()}/${ownGrant}`, owner.auth), 400, "last_owner");
    await grantRole(t, owner.auth, calId, stranger.agentId, "owner");
    await del(t, `${grantsPath()}/${ownGrant}`, owner.auth).expect(200);
    expect((await liveOwners(t, calId)).map((g) => g.agent_id)).toEqual([stranger.agentId]);
  });

  it("answers 404 for a grant of another calendar addressed through this one", async () => {
    const otherCal = stranger.calendarId;
    const foreign = (await membershipOf(t, stranger.agentId, otherCal))!.grant_id;
    await grantRole(t, owner.auth, calId, stranger.agentId, "owner");
    expectError(await del(t, `${grantsPath()}/${foreign}`, owner.auth), 404, "not_found");
    expect((await t.deps.store.get<GrantRecord>(paths.grant(otherCal, foreign)))?.data.revoked_at).toBeNull();
  });
});

/**
 * docs/api.md#grants-and-access-requests: a caller without the owner role who tries to change or revoke a grant
 * gets 403 forbidden before any last-owner check, so the answer never tells a stranger, a
 * reader or a writer that the grant they aimed at is the only owner's.
 */
describe("the role is judged before the last-owner rule", () => {
  it("a stranger, a reader and a writer of a visible calendar get 403 forbidden, never last_owner", async () => {
    const { reader, writer, calendars } = world;
    const visible = calendars.public;
    const ownGrant = (await membershipOf(t, owner.agentId, visible.id))!.grant_id;
    for (const caller of [stranger, reader, writer]) {
      for (const role of ["reader", "writer"] as const) {
        const demote = await post(t, grantsPath(visible.id), caller.auth).send({ agent_id: owner.agentId, role });
        expectError(demote, 403, "forbidden");
      }
      expectError(await del(t, `${grantsPath(visible.id)}/${ownGrant}`, caller.auth), 403, "forbidden");
    }
    expect((await liveOwners(t, visible.id)).map((g) => g.id)).toEqual([ownGrant]);
  });

  it("an owner demoted a moment ago is judged on the committed state: 403, not last_owner", async () => {
    await grantRole(t, owner.auth, calId, stranger.agentId, "owner");
    await grantRole(t, stranger.auth, calId, owner.agentId, "writer");
    const ownerGrant = (await membershipOf(t, owner.agentId, calId))!.grant_id;
    const otherGrant = (await membershipOf(t, stranger.agentId, calId))!.grant_id;
    expectError(
      await post(t, grantsPath(), owner.auth).send({ agent_id: stranger.agentId, role: "writer" }),
      403,
      "forbidden",
    );
    expectError(await del(t, `${grantsPath()}/${otherGrant}`, owner.auth), 403, "forbidden");
    // The sole owner still meets the rule itself.
    expectError(await del(t, `${grantsPath()}/${otherGrant}`, stranger.auth), 400, "last_owner");
    expect((await membershipOf(t, owner.agentId, calId))?.grant_id).toBe(ownerGrant);
  });
});
