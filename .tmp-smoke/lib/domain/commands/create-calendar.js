import { newId } from "../ids.js";
import { paths } from "../paths.js";
import { claimSlug } from "../slugs.js";
/**
 * Writes a calendar, its slug and its first owner's grant in the caller's transaction
 * (shared by mint and POST /v1/calendars). Reads happen first, as Firestore requires.
 */
export async function createCalendarInTx(tx, owner, input, now) {
    const id = newId("cal");
    const slug = await claimSlug(tx, "slugs", { requested: input.slug, name: input.name, ownerId: id });
    const views = input.views && input.views.length > 0 ? input.views : null;
    const calendar = {
        id,
        name: input.name,
        slug,
        timezone: input.timezone ?? "UTC",
        visibility: input.visibility ?? "unlisted",
        purpose: input.purpose ?? null,
        default_view: input.default_view ?? null,
        views,
        created_at: now,
        updated_at: now,
    };
    const grant = {
        id: newId("grt"),
        calendar_id: id,
        agent_id: owner.agentId,
        agent_name: owner.agentName,
        role: "owner",
        created_at: now,
        updated_at: now,
        revoked_at: null,
    };
    const membership = { calendar_id: id, grant_id: grant.id, role: "owner" };
    tx.create(paths.calendar(id), { ...calendar });
    tx.create(paths.slug(slug), { owner_id: id });
    tx.create(paths.grant(id, grant.id), { ...grant });
    tx.set(paths.membership(owner.agentId, id), { ...membership });
    return { calendar, grant };
}
//# sourceMappingURL=create-calendar.js.map