import { compareSortKeys, paginate } from "../paging.js";
import { paths } from "../paths.js";
import { mayRead } from "../policy.js";
const creationKey = (l) => [l.layer.created_at, l.layer.id];
/** Every layer of a host calendar with its calendar, oldest first. */
export async function loadLayers(deps, hostId) {
    const layers = (await deps.store.query(paths.layers(hostId))).map((d) => d.data);
    const calendars = await deps.store.getAll(layers.map((l) => paths.calendar(l.calendar_id)));
    return layers
        .flatMap((layer, i) => {
        const calendar = calendars[i]?.data;
        return calendar ? [{ layer, calendar }] : [];
    })
        .sort((a, b) => compareSortKeys(creationKey(a), creationKey(b)));
}
/** The layers whose calendar this viewer could read directly (visible, or a live grant and `calendar:read`). */
export async function readableLayers(deps, hostId, viewer) {
    const all = await loadLayers(deps, hostId);
    const memberships = viewer
        ? await deps.store.getAll(all.map((l) => paths.membership(viewer.agentId, l.calendar.id)))
        : all.map(() => null);
    return all.filter((l, i) => mayRead(l.calendar, viewer, memberships[i]?.data.role ?? null));
}
export async function listLayers(deps, hostId, viewer, page) {
    return paginate(await readableLayers(deps, hostId, viewer), page, creationKey, "asc");
}
//# sourceMappingURL=layers.js.map