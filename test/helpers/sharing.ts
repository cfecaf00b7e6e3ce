import request from "supertest";
import { expect } from "vitest";
import { paths } from "../../functions/src/domain/paths.js";
import type { GrantRecord, MembershipRecord } from "../../functions/src/domain/records.js";
import type { Role, Visibility } from "../../functions/src/domain/types.js";
import { post, type MintedAgent, type TestApp } from "./app.js";

type Auth = { Authorization: string };

/** Creates a calendar through the API; the agent becomes its owner. */
export async function newCalendar(
  t: Pick<TestApp, "app">,
  owner: Pick<MintedAgent, "auth">,
  body: { name?: string; visibility?: Visibility; slug?: string } = {},
): Promise<{ id: string; slug: string; name: string }> {
  const res = await post(t, "/v1/calendars", owner.auth).send({ name: "Shared", ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** Grants a role through the API (the owner needs grants:manage, as mint-time tokens have). */
export async function grantRole(t: Pick<TestApp, "app">, owner: Auth, calendarId: string, agentId: string, role: Role) {
  const res = await post(t, `/v1/calendars/${calendarId}/grants`, owner).send({ agent_id: agentId, role });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: string; role: Role; agent_id: string };
}

/** A second credential of the agent: agent:read, calendar:read, calendar:write, no grants:manage. */
export async function laterCredential(t: Pick<TestApp, "app">, agent: Pick<MintedAgent, "auth">): Promise<Auth> {
  const res = await post(t, "/v1/agent-credentials", agent.auth).send({});
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.credential.scopes).not.toContain("grants:manage");
  return { Authorization: `Bearer ${res.body.token}` };
}

/** The live owner grants of a calendar, straight from the store. */
export async function liveOwners(t: Pick<TestApp, "deps">, calendarId: string): Promise<GrantRecord[]> {
  const docs = await t.deps.store.query<GrantRecord>(paths.grants(calendarId), { where: [["revoked_at", "==", null]] });
  return docs.map((d) => d.data).filter((g) => g.role === "owner");
}

export async function membershipOf(
  t: Pick<TestApp, "deps">,
  agentId: string,
  calendarId: string,
): Promise<MembershipRecord | null> {
  return (await t.deps.store.get<MembershipRecord>(paths.membership(agentId, calendarId)))?.data ?? null;
}

export const get = (t: Pick<TestApp, "app">, path: string, auth?: Auth) => {
  const req = request(t.app).get(path);
  return auth ? req.set(auth) : req;
};
export const patch = (t: Pick<TestApp, "app">, path: string, auth?: Auth) => {
  const req = request(t.app).patch(path);
  return auth ? req.set(auth) : req;
};
export const del = (t: Pick<TestApp, "app">, path: string, auth?: Auth) => {
  const req = request(t.app).delete(path);
  return auth ? req.set(auth) : req;
};
