/**
 * Straight through the storage port: records a test needs without the rules of the API
 * (grants, narrow tokens, layers), and reads of what the API stored.
 */
import type { Deps } from "../../functions/src/domain/deps.js";
import { newAgentToken, newId, sha256 } from "../../functions/src/domain/ids.js";
import { paths } from "../../functions/src/domain/paths.js";
import type { GrantRecord, LayerRecord, MembershipRecord, TokenRecord } from "../../functions/src/domain/records.js";
import type { Role, Scope } from "../../functions/src/domain/types.js";
import type { TestApp } from "./app.js";

/**
 * Gives an agent a live role on a calendar straight through the storage port, as the grants
 * command would: the grant and the agent's membership, in one transaction. For tests of other
 * features that need readers, writers and owners without going through the grants API.
 */
export async function seedGrant(
  deps: Pick<Deps, "store" | "clock">,
  grant: { calendarId: string; agentId: string; agentName?: string; role: Role },
): Promise<GrantRecord> {
  const now = deps.clock().toISOString();
  const record: GrantRecord = {
    id: newId("grt"),
    calendar_id: grant.calendarId,
    agent_id: grant.agentId,
    agent_name: grant.agentName ?? grant.agentId,
    role: grant.role,
    created_at: now,
    updated_at: now,
    revoked_at: null,
  };
  const membership: MembershipRecord = { calendar_id: grant.calendarId, grant_id: record.id, role: grant.role };
  await deps.store.runTransaction(async (tx) => {
    tx.set(paths.grant(grant.calendarId, record.id), { ...record });
    tx.set(paths.membership(grant.agentId, grant.calendarId), { ...membership });
  });
  return record;
}

/** Revokes a seeded grant the same way: tombstone on the grant, membership removed. */
export async function revokeSeededGrant(deps: Pick<Deps, "store" | "clock">, grant: GrantRecord): Promise<void> {
  const now = deps.clock().toISOString();
  await deps.store.runTransaction(async (tx) => {
    tx.update(paths.grant(grant.calendar_id, grant.id), { revoked_at: now, updated_at: now });
    tx.delete(paths.membership(grant.agent_id, grant.calendar_id));
  });
}

/**
 * A bearer token for an existing agent carrying only `scopes`, written straight to the store
 * (the API never issues such narrow tokens, yet the scope checks must hold for them).
 */
export async function seedScopedToken(
  deps: Pick<Deps, "store">,
  agent: { agentId: string; agentName: string },
  scopes: Scope[],
): Promise<{ Authorization: string }> {
  const token = newAgentToken();
  const record: TokenRecord = {
    agent_id: agent.agentId,
    agent_name: agent.agentName,
    credential_id: newId("cred"),
    scopes,
    expires_at: null,
    revoked_at: null,
  };
  await deps.store.runTransaction(async (tx) => tx.create(paths.token(sha256(token)), { ...record }));
  return { Authorization: `Bearer ${token}` };
}

/** Attaches a layer straight through the storage port (the layers API has rules of its own). */
export async function seedLayer(
  deps: Pick<Deps, "store" | "clock">,
  hostId: string,
  calendarId: string,
  key: string,
): Promise<void> {
  const layer: LayerRecord = {
    id: `lyr_${key}`,
    calendar_id: calendarId,
    host_calendar_id: hostId,
    key,
    created_at: deps.clock().toISOString(),
  };
  await deps.store.runTransaction(async (tx) => tx.set(paths.layer(hostId, layer.id), { ...layer }));
}

/** The live owner grants of a calendar. */
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
