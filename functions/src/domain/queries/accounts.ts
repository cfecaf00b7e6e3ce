/** What the claim and account pages show (docs/api.md#humans-claims-and-accounts). */
import type { Deps } from "../deps.js";
import { sha256 } from "../ids.js";
import { paths } from "../paths.js";
import type { AgentRecord } from "../records.js";
import { claimState, isClaimToken } from "../claims.js";
import { pageByCreation } from "./creation-pages.js";
import { agentWebhooks, type AccountWebhook } from "./account-webhooks.js";
import type { HeldGrant } from "./me.js";
import { liveGrants } from "../oauth/grants.js";
import type { OAuthGrantRecord } from "../oauth/records.js";

export type ClaimLookup =
  | { state: "not_found" }
  | { state: "used" | "expired" }
  | { state: "open"; agent: AgentRecord; grants: HeldGrant[]; expiresAt: string };

/** The claim link's agent and the calendars it holds, or why the link cannot be used. */
export async function lookupClaim(deps: Deps, claimToken: string): Promise<ClaimLookup> {
  if (!isClaimToken(claimToken)) return { state: "not_found" };
  const claim = await deps.store.get(paths.claim(sha256(claimToken)));
  const agent = claim ? await deps.store.get(paths.agent(claim.data.agent_id)) : null;
  if (!claim || !agent) return { state: "not_found" };
  const state = claimState(claim.data, agent.data, deps.clock());
  if (state !== "open") return { state };
  return { state, agent: agent.data, grants: await heldGrants(deps, agent.data.id), expiresAt: claim.data.expires_at };
}

/** The calendars an agent holds a live grant on, by calendar name. */
export async function heldGrants(deps: Deps, agentId: string): Promise<HeldGrant[]> {
  const memberships = await deps.store.query(paths.memberships(agentId));
  const calendars = await deps.store.getAll(memberships.map((m) => paths.calendar(m.id)));
  return memberships
    .flatMap((m, i): HeldGrant[] => {
      const calendar = calendars[i]?.data;
      return calendar ? [{ calendar, role: m.data.role }] : [];
    })
    .sort((a, b) => a.calendar.name.localeCompare(b.calendar.name) || a.calendar.id.localeCompare(b.calendar.id));
}

export interface AccountAgent {
  agent: AgentRecord;
  grants: HeldGrant[];
  /** No live credential left: revoked from the account page (an agent cannot revoke its last one). */
  revoked: boolean;
  /** Its webhooks, oldest first; `moreWebhooks` when not all are listed. */
  webhooks: AccountWebhook[];
  moreWebhooks: boolean;
  /** The OAuth clients holding tokens for it (docs/mcp.md#authorization), newest first. */
  apps: OAuthGrantRecord[];
}

/** At most this many agents are listed on one account page (bounded work per request). */
export const ACCOUNT_AGENTS_SHOWN = 100;

/**
 * The account's newest agents, newest first, with their calendars and webhooks; `more` when
 * there are others (the owner filter and the order make a composite index, firestore.indexes.json).
 */
export async function listAccountAgents(
  deps: Deps,
  userId: string,
): Promise<{ agents: AccountAgent[]; more: boolean }> {
  const newest = await pageByCreation(
    deps.store,
    paths.agents(),
    [["owner_user_id", "==", userId]],
    { limit: ACCOUNT_AGENTS_SHOWN },
    "desc",
  );
  const agents = await Promise.all(
    newest.items.map(async (agent): Promise<AccountAgent> => {
      const [grants, live, hooks, apps] = await Promise.all([
        heldGrants(deps, agent.id),
        deps.store.query(paths.credentials(agent.id), { where: [["revoked_at", "==", null]], limit: 1 }),
        agentWebhooks(deps, agent.id),
        liveGrants(deps.store, agent.id),
      ]);
      const revoked = live.length === 0;
      return { agent, grants, revoked, webhooks: hooks.webhooks, moreWebhooks: hooks.more, apps };
    }),
  );
  return { agents, more: newest.nextCursor !== null };
}
