import { purposePreview } from "../../presenters/calendars.js";
import type { Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { paths } from "../paths.js";
import type { AgentRecord, CalendarRecord, CredentialRecord, MembershipRecord } from "../records.js";

export async function loadMe(deps: Deps, actor: Actor) {
  const [agent, credential, memberships] = await Promise.all([
    deps.store.get<AgentRecord>(paths.agent(actor.agentId)),
    deps.store.get<CredentialRecord>(paths.credential(actor.agentId, actor.credentialId)),
    deps.store.query<MembershipRecord>(paths.memberships(actor.agentId)),
  ]);
  const calendars = await deps.store.getAll<CalendarRecord>(memberships.map((m) => paths.calendar(m.id)));
  const grants = memberships.flatMap((m, i) => {
    const calendar = calendars[i]?.data;
    if (!calendar) return [];
    return [
      {
        calendar_id: calendar.id,
        slug: calendar.slug,
        role: m.data.role,
        purpose_preview: purposePreview(calendar.purpose),
      },
    ];
  });
  return { agent: agent!.data, credential: credential!.data, grants };
}

export async function listCredentials(deps: Deps, actor: Actor): Promise<CredentialRecord[]> {
  const docs = await deps.store.query<CredentialRecord>(paths.credentials(actor.agentId));
  return docs
    .map((d) => d.data)
    .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
}
