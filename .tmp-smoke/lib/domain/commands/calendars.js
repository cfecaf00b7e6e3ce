import { errors } from "../../http/errors.js";
import { paths } from "../paths.js";
import { claimSlug } from "../slugs.js";
import { createCalendarInTx } from "./create-calendar.js";
const invalid = (field, message) => errors.invalid("invalid_request", `\`${field}\` ${message}`, { field, issues: [{ field, message }] });
/** `views` null or [] means every lens; when it is set, `default_view` must be one of them. */
function checkLenses(views, defaultView, blame) {
    if (views && new Set(views).size !== views.length)
        throw invalid("views", "must list each lens at most once");
    if (views && defaultView && !views.includes(defaultView)) {
        throw invalid(blame, `leaves \`default_view\` (${defaultView}) outside \`views\` (${views.join(", ")}); make default_view one of views, or send \`default_view: null\``);
    }
}
const normalizeViews = (views) => (views && views.length > 0 ? views : null);
/** POST /v1/calendars: the calendar, its slug and the caller's owner grant, in one transaction. */
export async function createCalendar(deps, actor, input) {
    checkLenses(normalizeViews(input.views), input.default_view ?? null, "default_view");
    const nowIso = deps.clock().toISOString();
    const { calendar } = await deps.store.runTransaction((tx) => createCalendarInTx(tx, actor, input, nowIso));
    return calendar;
}
/**
 * PATCH /v1/calendars/{id} (owner; checked by the route). A new slug is claimed in the same
 * transaction; the old slug documents stay, owned by this calendar forever, so old
 * addresses can redirect and the calendar can take an old slug back.
 */
export async function updateCalendar(deps, calendarId, patch) {
    const nowIso = deps.clock().toISOString();
    return deps.store.runTransaction(async (tx) => {
        const doc = await tx.get(paths.calendar(calendarId));
        if (!doc)
            throw errors.notFound("calendar");
        const current = doc.data;
        const next = {
            ...current,
            name: patch.name ?? current.name,
            timezone: patch.timezone ?? current.timezone,
            visibility: patch.visibility ?? current.visibility,
            purpose: patch.purpose !== undefined ? patch.purpose : current.purpose,
            default_view: patch.default_view !== undefined ? patch.default_view : current.default_view,
            views: patch.views !== undefined ? normalizeViews(patch.views) : current.views,
        };
        checkLenses(next.views, next.default_view, patch.default_view !== undefined ? "default_view" : "views");
        const newSlug = patch.slug !== undefined && patch.slug !== current.slug;
        if (newSlug)
            next.slug = await claimSlug(tx, "slugs", { requested: patch.slug, name: next.name, ownerId: current.id });
        const changed = Object.keys(next).some((k) => JSON.stringify(next[k]) !== JSON.stringify(current[k]));
        if (!changed)
            return current;
        next.updated_at = nowIso;
        tx.set(doc.path, { ...next });
        // set, not create: the slug may be one this calendar held before.
        if (newSlug)
            tx.set(paths.slug(next.slug), { owner_id: current.id });
        return next;
    });
}
//# sourceMappingURL=calendars.js.map