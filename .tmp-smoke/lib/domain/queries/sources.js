import { readableLayers } from "./layers.js";
/**
 * The calendars whose events compose `calendar` for this viewer: its own (`main`) and every
 * attached calendar the viewer could read directly (visible, or a live grant of the viewer).
 * `viewer` is an actor, or null for anonymous (pages, feeds).
 */
export async function eventSources(deps, calendar, viewer) {
    const layers = await readableLayers(deps, calendar.id, viewer);
    return [{ layer: "main", calendar }, ...layers.map((l) => ({ layer: l.layer.key, calendar: l.calendar }))];
}
//# sourceMappingURL=sources.js.map