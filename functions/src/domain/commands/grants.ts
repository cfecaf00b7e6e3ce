import { errors } from "../errors.js";
import type { Transaction } from "../../storage/port.js";
import type { Actor } from "../actor.js";
import type { CommandDeps } from "../deps.js";
import { newId } from "../ids.js";
import { paths } from "../paths.js";
import { authorizeRole } from "../policy.js";
import { liveGrantInTx, liveOwnersInTx, roleInTx } from "../grants.js";
import type { GrantRecord, MembershipRecord } from "../records.js";
import type { Role } from "../types.js";

/**
 * Writes a new live grant, or changes the role of the live one in place (same id), and keeps
 * the agent's membership (what the access policy and /v1/me read) in step. Writes only.
 */
export function putGrantInTx(
  tx: Transaction,
  input: {
    calendarId: string;
    agentId: string;
    agentName: string;
    role: Role;
    existing: GrantRecord | null;
    now: string;
  },
): GrantRecord {
  const { calendarId, agentId, agentName, role, existing, now } = input;
  const grant: GrantRecord = existing
    ? { ...existing, role, updated_at: now }
    : {
        id: newId("grt"),
        calendar_id: calendarId,
        agent_id: agentId,
        agent_name: agentName,
        role,
        created_at: now,
        updated_at: now,
        revoked_at: null,
      };
  if (existing) tx.update(paths.grant(calendarId, grant.id), { role, updated_at: now });
  else tx.create(paths.grant(calendarId, grant.id), grant);
  const membership: MembershipRecord = { calendar_id: calendarId, grant_id: grant.id, role };
  tx.set(paths.membership(agentId, calendarId), membership);
  return grant;
}

/**
 * POST grants: one live grant per agent and calendar; the role is replaced in place.
 * The caller's role is judged here, on the state the caller's transaction reads, and BEFORE the
 * last-owner rule (docs/api.md#grants-and-access-requests): a caller who is not an owner gets 403 and learns
 * nothing about who the owners are. Of two owners demoting each other at once, the second to
 * commit is no longer an owner and gets 403; the calendar keeps its owner either way.
 */
export async function setGrant(
  tx: Transaction,
  deps: Pick<CommandDeps, "clock">,
  actor: Actor,
  calendarId: string,
  input: { agent_id: string; role: Role },
): Promise<GrantRecord> {
  const now = deps.clock().toISOString();
  const [agent, existing, owners, callerRole] = await Promise.all([
    tx.get(paths.agent(input.agent_id)),
    liveGrantInTx(tx, calendarId, input.agent_id),
    liveOwnersInTx(tx, calendarId),
    roleInTx(tx, calendarId, actor.agentId),
  ]);
  authorizeRole(callerRole, "grants.manage");
  if (existing?.data.role === "owner" && input.role !== "owner" && owners.length <= 1) throw errors.lastOwner();
  if (!agent) {
    throw errors.invalid("invalid_request", "`agent_id` names no agent; send the `agt_` id of an existing agent", {
      field: "agent_id",
    });
  }
  if (existing?.data.role === input.role) return existing.data;
  return putGrantInTx(tx, {
    calendarId,
    agentId: agent.data.id,
    agentName: agent.data.name,
    role: input.role,
    existing: existing?.data ?? null,
    now,
  });
}

/** DELETE grant: a tombstone stays in the list as history; the membership goes. Roles judged as in setGrant. */
export async function revokeGrant(
  tx: Transaction,
  deps: Pick<CommandDeps, "clock">,
  actor: Actor,
  calendarId: string,
  grantId: string,
): Promise<GrantRecord> {
  const now = deps.clock().toISOString();
  const [grant, owners, callerRole] = await Promise.all([
    tx.get(paths.grant(calendarId, grantId)),
    liveOwnersInTx(tx, calendarId),
    roleInTx(tx, calendarId, actor.agentId),
  ]);
  const live = grant && !grant.data.revoked_at ? grant : null;
  authorizeRole(callerRole, "grants.manage");
  if (live?.data.role === "owner" && owners.length <= 1) throw errors.lastOwner();
  if (!live) throw errors.notFound("grant");
  tx.update(live.path, { revoked_at: now, updated_at: now });
  tx.delete(paths.membership(live.data.agent_id, calendarId));
  return { ...live.data, revoked_at: now, updated_at: now };
}
