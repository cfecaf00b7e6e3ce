import type { Actor } from "../actor.js";
import type { Deps } from "../deps.js";
import { paths } from "../paths.js";
import { credentialReaches, reachesAll } from "../policy.js";
import type { AgentRecord, CalendarRecord, CredentialRecord } from "../records.js";
import type { Role } from "../types.js";

/** A calendar the agent holds a live grant on, and its role there. */
export interface HeldGrant {
  calendar: CalendarRecord;
  role: Role;
}

/**
 * The caller's agent, the credential it called with, and the calendars it holds a grant on
 * (`/v1/me`), those its credential reaches.
 */
export async function loadMe(
  deps: Deps,
  actor: Actor,
): Promise<{ agent: AgentRecord; credential: CredentialRecord; grants: HeldGrant[] }> {
  const [agent, credential, memberships] = await Promise.all([
    deps.store.get(paths.agent(actor.agentId)),
    deps.store.get(paths.credential(actor.agentId, actor.credentialId)),
    deps.store.query(paths.memberships(actor.agentId)),
  ]);
  const reached = memberships.filter((m) => credentialReaches(actor, m.id));
  const calendars = await deps.store.getAll(reached.map((m) => paths.calendar(m.id)));
  const grants = reached.flatMap((m, i): HeldGrant[] => {
    const calendar = calendars[i]?.data;
    return calendar ? [{ calendar, role: m.data.role }] : [];
  });
  return { agent: agent!.data, credential: credential!.data, grants };
}

/** The agent's credentials; to a restricted caller, those restricted to calendars of its own. */
export async function listCredentials(deps: Deps, actor: Actor): Promise<CredentialRecord[]> {
  const docs = await deps.store.query(paths.credentials(actor.agentId));
  return docs
    .map((d) => d.data)
    .filter((credential) => reachesAll(actor, credential.calendars))
    .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
}
