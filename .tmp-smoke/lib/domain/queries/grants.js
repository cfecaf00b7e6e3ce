import { paginate } from "../paging.js";
import { paths } from "../paths.js";
/** Every grant of a calendar, live and revoked, oldest first. */
export async function listGrants(deps, calendarId, page) {
    const docs = await deps.store.query(paths.grants(calendarId));
    return paginate(docs.map((d) => d.data), page, (g) => [g.created_at, g.id], "asc");
}
/** The live owner grants, read inside the transaction that writes, so the last-owner rule holds under races. */
export function liveOwnersInTx(tx, calendarId) {
    return tx.query(paths.grants(calendarId), {
        where: [
            ["role", "==", "owner"],
            ["revoked_at", "==", null],
        ],
    });
}
/** An agent's live grant on a calendar, found through its membership (two reads by id). */
export async function liveGrantInTx(tx, calendarId, agentId) {
    const membership = await tx.get(paths.membership(agentId, calendarId));
    if (!membership)
        return null;
    const grant = await tx.get(paths.grant(calendarId, membership.data.grant_id));
    return grant && !grant.data.revoked_at ? grant : null;
}
/** A calendar's access requests, newest first, optionally of one status. */
export async function listAccessRequests(deps, calendarId, filter, page) {
    const docs = await deps.store.query(paths.accessRequests(calendarId), {
        where: filter.status ? [["status", "==", filter.status]] : [],
    });
    return paginate(docs.map((d) => d.data), page, (r) => [r.created_at, r.id], "desc");
}
//# sourceMappingURL=grants.js.map