import { errors } from "../../http/errors.js";
import { applyEventPatch, eventFieldsFromCreate } from "../events/rules.js";
import { newId } from "../ids.js";
import { paths } from "../paths.js";
import { defaultStartsOf } from "../queries/events.js";
import { todayIn } from "../recurrence/index.js";
/**
 * Event writes. The route has already applied the access policy (writer or owner); each
 * command re-reads what it changes inside one transaction, reads before writes.
 */
export async function createEvent(deps, actor, calendarId, input) {
    const now = deps.clock();
    const nowIso = now.toISOString();
    return deps.store.runTransaction(async (tx) => {
        const calendar = await tx.get(paths.calendar(calendarId));
        if (!calendar)
            throw errors.notFound("calendar");
        // A series without `starts` begins on the creation date in the calendar's timezone, stored explicitly.
        const fields = eventFieldsFromCreate(input, todayIn(calendar.data.timezone, now));
        const event = {
            id: newId("evt"),
            calendar_id: calendarId,
            ...fields,
            created_by: { id: actor.agentId, name: actor.agentName },
            created_at: nowIso,
            updated_at: nowIso,
        };
        tx.create(paths.event(calendarId, event.id), { ...event });
        return event;
    });
}
export async function updateEvent(deps, calendarId, eventId, patch) {
    const nowIso = deps.clock().toISOString();
    return deps.store.runTransaction(async (tx) => {
        const [calendar, current] = await tx.getAll([
            paths.calendar(calendarId),
            paths.event(calendarId, eventId),
        ]);
        if (!calendar)
            throw errors.notFound("calendar");
        if (!current)
            throw errors.notFound("event");
        const event = current.data;
        // A new rule without `starts` starts on the event's creation date (DECISIONS 5), not today.
        const fields = applyEventPatch(event, patch, defaultStartsOf(event, calendar.data));
        const next = { ...event, ...fields, updated_at: nowIso };
        tx.set(current.path, { ...next });
        return next;
    });
}
export async function deleteEvent(deps, calendarId, eventId) {
    return deps.store.runTransaction(async (tx) => {
        const event = await tx.get(paths.event(calendarId, eventId));
        if (!event)
            throw errors.notFound("event");
        tx.delete(event.path);
        return event.data.id;
    });
}
//# sourceMappingURL=events.js.map