import { errors } from "../http/errors.js";
export const RULES = {
    "calendar.read": { scope: "calendar:read", minRole: null },
    "calendar.update": { scope: "calendar:write", minRole: "owner" },
    "event.write": { scope: "calendar:write", minRole: "writer" },
    "grants.manage": { scope: "grants:manage", minRole: "owner" },
    "access.request": { scope: "calendar:read", minRole: null },
    "views.manage": { scope: "calendar:write", minRole: "owner" },
    "layers.manage": { scope: "calendar:write", minRole: "owner" },
};
const RANK = { reader: 1, writer: 2, owner: 3 };
export const roleAtLeast = (role, min) => role !== null && RANK[role] >= RANK[min];
/** Whether the caller may see the calendar at all (pages and reads). */
export const canSee = (calendar, role) => calendar.visibility !== "private" || role !== null;
/**
 * Whether the caller could read the calendar directly (GET .../events would answer 200):
 * used where a refusal must not be thrown, e.g. which layers a viewer sees.
 */
export const mayRead = (calendar, actor, role) => calendar.visibility !== "private" || (role !== null && !!actor && actor.scopes.includes(RULES["calendar.read"].scope));
export function authorize(calendar, actor, role, action) {
    if (!canSee(calendar, role))
        throw errors.notFound("calendar");
    const rule = RULES[action];
    const scopeNeeded = action === "calendar.read" ? calendar.visibility === "private" : true;
    if (scopeNeeded && actor && !actor.scopes.includes(rule.scope))
        throw errors.insufficientScope(rule.scope);
    if (rule.minRole && !roleAtLeast(role, rule.minRole)) {
        throw errors.forbidden(rule.minRole === "owner" ? "the owner role" : "a writer or owner role");
    }
}
//# sourceMappingURL=policy.js.map