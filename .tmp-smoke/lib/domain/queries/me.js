import { purposePreview } from "../../presenters/calendars.js";
import { paths } from "../paths.js";
export async function loadMe(deps, actor) {
    const [agent, credential, memberships] = await Promise.all([
        deps.store.get(paths.agent(actor.agentId)),
        deps.store.get(paths.credential(actor.agentId, actor.credentialId)),
        deps.store.query(paths.memberships(actor.agentId)),
    ]);
    const calendars = await deps.store.getAll(memberships.map((m) => paths.calendar(m.id)));
    const grants = memberships.flatMap((m, i) => {
        const calendar = calendars[i]?.data;
        if (!calendar)
            return [];
        return [{ calendar_id: calendar.id, slug: calendar.slug, role: m.data.role, purpose_preview: purposePreview(calendar.purpose) }];
    });
    return { agent: agent.data, credential: credential.data, grants };
}
export async function listCredentials(deps, actor) {
    const docs = await deps.store.query(paths.credentials(actor.agentId));
    return docs.map((d) => d.data).sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
}
//# sourceMappingURL=me.js.map