export const toPageEvent = (event, layer) => ({
    id: event.id,
    layer,
    kind: event.kind,
    name: event.name,
    date: event.date,
    recur: event.recur,
    start_time: event.start_time,
    end_time: event.end_time,
    category: event.category,
    notes: event.notes,
    art: event.art,
});
/** By date, untimed before timed, then by start time, then by name. */
export function compareOccurrences(a, b) {
    if (a.date !== b.date)
        return a.date < b.date ? -1 : 1;
    const at = a.event.start_time ?? "";
    const bt = b.event.start_time ?? "";
    if (at !== bt)
        return at < bt ? -1 : 1;
    return a.event.name < b.event.name ? -1 : a.event.name > b.event.name ? 1 : 0;
}
/** Someday events by name, so the lane reads like a list. */
export const compareSomeday = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
//# sourceMappingURL=model.js.map