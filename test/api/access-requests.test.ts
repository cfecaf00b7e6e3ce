import { beforeEach, describe, expect, it } from "vitest";
import { paths } from "../../functions/src/domain/paths.js";
import type { AccessRequestRecord, GrantRecord } from "../../functions/src/domain/records.js";
import { appPerTest } from "../helpers/app.js";
import { expectError, get, post } from "../helpers/http.js";
import {
  grantRole,
  laterCredential,
  mintAgent,
  newCalendar,
  sharingWorld,
  type MintedAgent,
} from "../helpers/factories.js";
import { membershipOf, seedScopedToken } from "../helpers/store.js";

const t = appPerTest();
let owner: MintedAgent;
let asker: MintedAgent;
let calId: string;

beforeEach(async () => {
  const world = await sharingWorld(t);
  // The world's stranger asks for a role on its unlisted calendar.
  ({ owner, stranger: asker } = world);
  calId = world.calendars.unlisted.id;
});

const requestsPath = (id = calId) => `/v1/calendars/${id}/access-requests`;
const ask = (agent: { auth: { Authorization: string } }, body: Record<string, unknown> = {}, id = calId) =>
  post(t, requestsPath(id), agent.auth).send(body);
const resolve = (requestId: string, resolution: string, auth = owner.auth, id = calId) =>
  post(t, `${requestsPath(id)}/${requestId}`, auth).send({ resolution });

describe("POST /v1/calendars/{calendarId}/access-requests", () => {
  it("climbs 401 -> 400 -> 404/403 -> success with the reader default", async () => {
    expectError(await post(t, requestsPath()).send({}), 401, "unauthorized");
    const long = await ask(asker, { message: "x".repeat(1001) });
    expectError(long, 400, "invalid_request");
    expect(long.body.error.details.field).toBe("message");
    expectError(await ask(asker, { role: "admin" }), 400, "invalid_request");
    expectError(await ask(asker, { note: "hi" }), 400, "invalid_request");
    const hidden = await newCalendar(t, owner, { name: "Hidden", visibility: "private" });
    expectError(await ask(asker, {}, hidden.id), 404, "not_found");
    const noRead = await seedScopedToken(t.deps, asker, ["agent:read"]);
    expectError(await post(t, requestsPath(), noRead).send({}), 403, "insufficient_scope");

    // No body at all is fine: every field is optional.
    const res = await post(t, requestsPath(), asker.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^areq_/),
      calendar_id: calId,
      agent_id: asker.agentId,
      agent_name: "Stranger",
      role: "reader",
      message: null,
      status: "pending",
      created_at: "2026-11-22T10:00:00.000Z",
      resolved_at: null,
      resolved_by: null,
    });
    const stored = await t.deps.store.get<AccessRequestRecord>(paths.accessRequest(calId, res.body.id));
    expect(stored?.data.status).toBe("pending");
    expect((await t.deps.store.get(paths.pendingRequest(calId, asker.agentId)))?.data).toEqual({
      request_id: res.body.id,
    });
  });

  it("returns the pending request unchanged on a repeat, whatever the new body says", async () => {
    const first = (await ask(asker, { role: "writer", message: "I plan the launch" }).expect(200)).body;
    t.clock.advance(60_000);
    const repeat = (await ask(asker, { role: "reader", message: "please?" }).expect(200)).body;
    expect(repeat).toEqual(first);
    const all = await t.deps.store.query(paths.accessRequests(calId));
    expect(all).toHaveLength(1);
  });

  it("answers 409 already_granted for a role the caller holds, and lets a reader ask for more", async () => {
    expectError(await ask(owner, { role: "owner" }), 409, "already_granted");
    await grantRole(t, owner.auth, calId, asker.agentId, "reader");
    const same = await ask(asker, { role: "reader" });
    expectError(same, 409, "already_granted");
    expect(same.body.error.details.role).toBe("reader");
    const more = await ask(asker, { role: "writer", message: "I need to add events" }).expect(200);
    expect(more.body).toMatchObject({ role: "writer", message: "I need to add events", status: "pending" });
  });

  it("lets an agent with a grant on a private calendar ask for a higher role", async () => {
    const hidden = await newCalendar(t, owner, { name: "Hidden", visibility: "private" });
    await grantRole(t, owner.auth, hidden.id, asker.agentId, "reader");
    expect((await ask(asker, { role: "owner" }, hidden.id).expect(200)).body.role).toBe("owner");
  });
});

describe("GET /v1/calendars/{calendarId}/access-requests", () => {
  it("lists newest first for owners with grants:manage, with a status filter and paging", async () => {
    const others = [asker, await mintAgent(t, "Second"), await mintAgent(t, "Third")];
    const ids: string[] = [];
    for (const agent of others) {
      t.clock.advance(1000);
      ids.push((await ask(agent).expect(200)).body.id);
    }
    expectError(await get(t, requestsPath()), 401, "unauthorized");
    expectError(await get(t, requestsPath(), asker.auth), 403, "forbidden");
    expectError(await get(t, requestsPath(), await laterCredential(t, owner)), 403, "insufficient_scope");
    expectError(await get(t, `${requestsPath()}?status=open`, owner.auth), 400, "invalid_request");

    const all = await get(t, requestsPath(), owner.auth).expect(200);
    expect(all.body.access_requests.map((r: { id: string }) => r.id)).toEqual([...ids].reverse());
    expect(all.body.next_cursor).toBeNull();

    await resolve(ids[1], "deny").expect(200);
    const pending = await get(t, `${requestsPath()}?status=pending`, owner.auth).expect(200);
    expect(pending.body.access_requests.map((r: { id: string }) => r.id)).toEqual([ids[2], ids[0]]);
    const denied = await get(t, `${requestsPath()}?status=denied`, owner.auth).expect(200);
    expect(denied.body.access_requests).toEqual([expect.objectContaining({ id: ids[1], status: "denied" })]);

    const page1 = await get(t, `${requestsPath()}?limit=2`, owner.auth).expect(200);
    expect(page1.body.access_requests.map((r: { id: string }) => r.id)).toEqual([ids[2], ids[1]]);
    const page2 = await get(t, `${requestsPath()}?limit=2&cursor=${page1.body.next_cursor}`, owner.auth).expect(200);
    expect(page2.body).toEqual({ access_requests: [expect.objectContaining({ id: ids[0] })], next_cursor: null });
  });
});

describe("POST /v1/calendars/{calendarId}/access-requests/{requestId}", () => {
  it("climbs 401 -> 400 -> 403 -> approve, which creates the grant in the same step", async () => {
    const req = (await ask(asker, { role: "writer" }).expect(200)).body;
    expectError(await post(t, `${requestsPath()}/${req.id}`).send({ resolution: "approve" }), 401, "unauthorized");
    expectError(await resolve(req.id, "accept"), 400, "invalid_request");
    expectError(await resolve(req.id, "approve", asker.auth), 403, "forbidden");
    expectError(await resolve(req.id, "approve", await laterCredential(t, owner)), 403, "insufficient_scope");
    expectError(await resolve("areq_unknown", "approve"), 404, "not_found");

    t.clock.advance(30_000);
    const approved = (await resolve(req.id, "approve").expect(200)).body;
    expect(approved).toEqual({
      ...req,
      status: "approved",
      resolved_at: "2026-11-22T10:00:30.000Z",
      resolved_by: owner.agentId,
    });
    const membership = await membershipOf(t, asker.agentId, calId);
    expect(membership?.role).toBe("writer");
    const grant = await t.deps.store.get<GrantRecord>(paths.grant(calId, membership!.grant_id));
    expect(grant?.data).toMatchObject({
      agent_id: asker.agentId,
      agent_name: "Stranger",
      role: "writer",
      revoked_at: null,
    });
    expect(await t.deps.store.get(paths.pendingRequest(calId, asker.agentId))).toBeNull();

    const again = await resolve(req.id, "deny");
    expectError(again, 409, "already_resolved");
    expect(again.body.error.details.status).toBe("approved");
    // Resolved, the agent may ask again, for a new request.
    const next = (await ask(asker, { role: "owner" }).expect(200)).body;
    expect(next.id).not.toBe(req.id);
  });

  it("deny creates no grant", async () => {
    const req = (await ask(asker).expect(200)).body;
    expect((await resolve(req.id, "deny").expect(200)).body).toMatchObject({
      status: "denied",
      resolved_by: owner.agentId,
    });
    expect(await membershipOf(t, asker.agentId, calId)).toBeNull();
    expectError(await resolve(req.id, "approve"), 409, "already_resolved");
  });

  it("approval raises a lower role in place and never lowers a higher one", async () => {
    const reader = await grantRole(t, owner.auth, calId, asker.agentId, "reader");
    const raise = (await ask(asker, { role: "writer" }).expect(200)).body;
    await resolve(raise.id, "approve").expect(200);
    expect(await membershipOf(t, asker.agentId, calId)).toEqual({
      calendar_id: calId,
      grant_id: reader.id,
      role: "writer",
    });

    const late = await mintAgent(t, "Late");
    const lower = (await ask(late, { role: "reader" }).expect(200)).body;
    const writer = await grantRole(t, owner.auth, calId, late.agentId, "writer");
    expect((await resolve(lower.id, "approve").expect(200)).body.status).toBe("approved");
    expect(await membershipOf(t, late.agentId, calId)).toEqual({
      calendar_id: calId,
      grant_id: writer.id,
      role: "writer",
    });
  });

  it("answers 404 for a request of another calendar addressed through this one", async () => {
    const foreign = (await ask(asker, {}, owner.calendarId).expect(200)).body;
    expectError(await resolve(foreign.id, "approve"), 404, "not_found");
    expect((await resolve(foreign.id, "approve", owner.auth, owner.calendarId).expect(200)).body.status).toBe(
      "approved",
    );
  });
});
