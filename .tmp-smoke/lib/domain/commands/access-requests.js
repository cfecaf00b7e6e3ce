import { ApiError, errors } from "../../http/errors.js";
import { newId } from "../ids.js";
import { paths } from "../paths.js";
import { roleAtLeast } from "../policy.js";
import { liveGrantInTx } from "../queries/grants.js";
import { putGrantInTx } from "./grants.js";
/**
 * POST access-requests: one pending request per agent and calendar. The pending marker is
 * read and created in the same transaction, so concurrent repeats all answer the original.
 */
export async function requestAccess(deps, actor, calendarId, input) {
    const now = deps.clock().toISOString();
    return deps.store.runTransaction(async (tx) => {
        const pendingPath = paths.pendingRequest(calendarId, actor.agentId);
        const [pending, membership] = await Promise.all([
            tx.get(pendingPath),
            tx.get(paths.membership(actor.agentId, calendarId)),
        ]);
        if (roleAtLeast(membership?.data.role ?? null, input.role)) {
            throw new ApiError("already_granted", `you already hold the ${membership.data.role} role on this calendar; nothing to request`, {
                role: membership.data.role,
            });
        }
        const original = pending ? await tx.get(paths.accessRequest(calendarId, pending.data.request_id)) : null;
        if (original)
            return original.data;
        const request = {
            id: newId("areq"),
            calendar_id: calendarId,
            agent_id: actor.agentId,
            agent_name: actor.agentName,
            role: input.role,
            message: input.message,
            status: "pending",
            created_at: now,
            resolved_at: null,
            resolved_by: null,
        };
        tx.create(paths.accessRequest(calendarId, request.id), { ...request });
        const marker = { request_id: request.id };
        if (pending)
            tx.set(pendingPath, { ...marker });
        else
            tx.create(pendingPath, { ...marker });
        return request;
    });
}
/** Approve (create the grant or raise a lower role, never lower one) or deny a pending request. */
export async function resolveAccessRequest(deps, actor, calendarId, requestId, resolution) {
    const now = deps.clock().toISOString();
    return deps.store.runTransaction(async (tx) => {
        const [request, caller] = await Promise.all([
            tx.get(paths.accessRequest(calendarId, requestId)),
            tx.get(paths.membership(actor.agentId, calendarId)),
        ]);
        if (!request)
            throw errors.notFound("access request");
        if (request.data.status !== "pending") {
            throw new ApiError("already_resolved", `this request was already ${request.data.status}; the requester can send a new one`, {
                status: request.data.status,
            });
        }
        if (caller?.data.role !== "owner")
            throw errors.forbidden("the owner role");
        const { agent_id: agentId, agent_name: agentName, role } = request.data;
        const existing = resolution === "approve" ? await liveGrantInTx(tx, calendarId, agentId) : null;
        if (resolution === "approve" && !roleAtLeast(existing?.data.role ?? null, role)) {
            putGrantInTx(tx, { calendarId, agentId, agentName, role, existing: existing?.data ?? null, now });
        }
        const resolved = {
            ...request.data,
            status: resolution === "approve" ? "approved" : "denied",
            resolved_at: now,
            resolved_by: actor.agentId,
        };
        tx.update(request.path, { status: resolved.status, resolved_at: now, resolved_by: actor.agentId });
        tx.delete(paths.pendingRequest(calendarId, agentId));
        return resolved;
    });
}
//# sourceMappingURL=access-requests.js.map