import { errors } from "../../http/errors.js";
import { paths } from "../paths.js";
import { authorize } from "../policy.js";
/** Loads a calendar and the caller's role on it (two reads by id, in parallel). */
export async function loadCalendarAccess(deps, calendarId, actor) {
    const [calendar, membership] = await Promise.all([
        deps.store.get(paths.calendar(calendarId)),
        actor ? deps.store.get(paths.membership(actor.agentId, calendarId)) : Promise.resolve(null),
    ]);
    if (!calendar)
        return null;
    return { calendar: calendar.data, role: membership?.data.role ?? null };
}
/** Load, then apply the access policy: the entry of every calendar-scoped route. */
export async function requireCalendar(deps, calendarId, actor, action) {
    const access = await loadCalendarAccess(deps, calendarId, actor);
    if (!access)
        throw errors.notFound("calendar");
    authorize(access.calendar, actor, access.role, action);
    return access;
}
//# sourceMappingURL=access.js.map