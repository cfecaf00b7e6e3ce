import { paginate } from "../paging.js";
import { paths } from "../paths.js";
import { loadLayers } from "./layers.js";
/** Every share view of a calendar, live and revoked, oldest first. */
export async function listViews(deps, calendarId, page) {
    const docs = await deps.store.query(paths.views(calendarId));
    return paginate(docs.map((d) => d.data), page, (v) => [v.created_at, v.id], "asc");
}
/** `/v/{slug}`: the live view and the calendar it projects, or null when unknown or revoked. */
export async function resolveViewSlug(deps, slug) {
    const owner = await deps.store.get(paths.viewSlug(slug));
    if (!owner)
        return null;
    const [view, calendar] = await Promise.all([
        deps.store.get(paths.view(owner.data.calendar_id, owner.data.owner_id)),
        deps.store.get(paths.calendar(owner.data.calendar_id)),
    ]);
    if (!view || !calendar || view.data.revoked_at)
        return null;
    return { view: view.data, calendar: calendar.data };
}
/**
 * Whether a view shows an event or occurrence. `from`/`to` bound dated items only; someday
 * events and whole recurring series (date null) are governed by the include_* switches
 * (expand a series with `viewRange` to bound its occurrences).
 */
export function viewShows(filter, item) {
    if (filter.layers && !filter.layers.includes(item.layer))
        return false;
    if (filter.categories && (item.category === null || !filter.categories.includes(item.category)))
        return false;
    if (item.kind === "someday" && !filter.include_someday)
        return false;
    if (item.kind === "recurring" && !filter.include_recurring)
        return false;
    if (item.date !== null) {
        if (filter.from && item.date < filter.from)
            return false;
        if (filter.to && item.date > filter.to)
            return false;
    }
    return true;
}
/** The part of a requested date range the view allows, or null when they do not overlap. */
export function viewRange(filter, from, to) {
    const start = filter.from && filter.from > from ? filter.from : from;
    const end = filter.to && filter.to < to ? filter.to : to;
    return start <= end ? { from: start, to: end } : null;
}
/**
 * DECISIONS section 7: a view shows a layer's events only while the layer's calendar is
 * public or unlisted, or an owner of the view's calendar still holds a live grant on it.
 */
export const viewMayShowLayer = (layerCalendar, ownerHoldsLiveGrant) => layerCalendar.visibility !== "private" || ownerHoldsLiveGrant;
/** The sources a view shows: `main` and the layers it may show, narrowed by `filter.layers`. */
export async function viewEventSources(deps, resolved) {
    const { view, calendar } = resolved;
    const wanted = (key) => view.filter.layers === null || view.filter.layers.includes(key);
    const layers = (await loadLayers(deps, calendar.id)).filter((l) => wanted(l.layer.key));
    const ownerIds = layers.some((l) => l.calendar.visibility === "private") ? await liveOwnerIds(deps, calendar.id) : [];
    const sources = wanted("main") ? [{ layer: "main", calendar }] : [];
    for (const { layer, calendar: layerCalendar } of layers) {
        const memberships = layerCalendar.visibility === "private"
            ? await deps.store.getAll(ownerIds.map((id) => paths.membership(id, layerCalendar.id)))
            : [];
        if (viewMayShowLayer(layerCalendar, memberships.some((m) => m !== null)))
            sources.push({ layer: layer.key, calendar: layerCalendar });
    }
    return sources;
}
async function liveOwnerIds(deps, calendarId) {
    const owners = await deps.store.query(paths.grants(calendarId), {
        where: [
            ["role", "==", "owner"],
            ["revoked_at", "==", null],
        ],
    });
    return owners.map((g) => g.data.agent_id);
}
//# sourceMappingURL=views.js.map