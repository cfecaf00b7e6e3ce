import { ApiError, errors } from "../../http/errors.js";
import { newId } from "../ids.js";
import { paths } from "../paths.js";
import { liveGrantInTx, liveOwnersInTx } from "../queries/grants.js";
const lastOwner = () => new ApiError("last_owner", "this is the calendar's last owner; make another agent owner first, then change or revoke this grant");
/**
 * The caller's owner role was checked before the transaction; a concurrent demotion may have
 * taken it since. The owner grants read inside the transaction are the truth.
 */
function assertStillOwner(owners, actor) {
    if (!owners.some((g) => g.data.agent_id === actor.agentId))
        throw errors.forbidden("the owner role");
}
/**
 * Writes a new live grant, or changes the role of the live one in place (same id), and keeps
 * the agent's membership (what the access policy and /v1/me read) in step. Writes only.
 */
export function putGrantInTx(tx, input) {
    const { calendarId, agentId, agentName, role, existing, now } = input;
    const grant = existing
        ? { ...existing, role, updated_at: now }
        : { id: newId("grt"), calendar_id: calendarId, agent_id: agentId, agent_name: agentName, role, created_at: now, updated_at: now, revoked_at: null };
    if (existing)
        tx.update(paths.grant(calendarId, grant.id), { role, updated_at: now });
    else
        tx.create(paths.grant(calendarId, grant.id), { ...grant });
    const membership = { calendar_id: calendarId, grant_id: grant.id, role };
    tx.set(paths.membership(agentId, calendarId), { ...membership });
    return grant;
}
/** POST grants: one live grant per agent and calendar; the role is replaced in place. */
export async function setGrant(deps, actor, calendarId, input) {
    const now = deps.clock().toISOString();
    return deps.store.runTransaction(async (tx) => {
        const agent = await tx.get(paths.agent(input.agent_id));
        if (!agent) {
            throw errors.invalid("invalid_request", "`agent_id` names no agent; send the `agt_` id of an existing agent", { field: "agent_id" });
        }
        const [existing, owners] = await Promise.all([liveGrantInTx(tx, calendarId, input.agent_id), liveOwnersInTx(tx, calendarId)]);
        if (existing?.data.role === input.role)
            return existing.data;
        if (existing?.data.role === "owner" && owners.length <= 1)
            throw lastOwner();
        assertStillOwner(owners, actor);
        return putGrantInTx(tx, {
            calendarId,
            agentId: agent.data.id,
            agentName: agent.data.name,
            role: input.role,
            existing: existing?.data ?? null,
            now,
        });
    });
}
/** DELETE grant: a tombstone stays in the list as history; the membership goes. */
export async function revokeGrant(deps, actor, calendarId, grantId) {
    const now = deps.clock().toISOString();
    return deps.store.runTransaction(async (tx) => {
        const [grant, owners] = await Promise.all([tx.get(paths.grant(calendarId, grantId)), liveOwnersInTx(tx, calendarId)]);
        if (!grant || grant.data.revoked_at)
            throw errors.notFound("grant");
        if (grant.data.role === "owner" && owners.length <= 1)
            throw lastOwner();
        assertStillOwner(owners, actor);
        tx.update(grant.path, { revoked_at: now, updated_at: now });
        tx.delete(paths.membership(grant.data.agent_id, calendarId));
        return { ...grant.data, revoked_at: now, updated_at: now };
    });
}
//# sourceMappingURL=grants.js.map