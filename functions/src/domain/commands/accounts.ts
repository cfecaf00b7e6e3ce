/**
 * What a signed-in human does (docs/api.md#humans-claims-and-accounts): confirm a claim link, revoke an agent,
 * create an onboard token (an agent's webhooks: account-webhooks.ts). The human is a Firebase Authentication uid; the store keeps only
 * that uid on the agent (`owner_user_id`) and hashes of the claim and onboard tokens.
 */
import type { StoredDoc, Transaction, TransactionReads } from "../../storage/port.js";
import type { CommandDeps } from "../deps.js";
import { errors } from "../errors.js";
import { isIdOf, newOnboardToken, sha256 } from "../ids.js";
import { paths } from "../paths.js";
import { accountOwnsAgent } from "../policy.js";
import type { AgentRecord, OnboardTokenRecord } from "../records.js";
import { isClaimToken, claimState } from "../claims.js";
import { ONBOARD_TTL_MS } from "./identity.js";
import { revokeGrantIn } from "../oauth/tokens.js";

export type ClaimOutcome =
  | { outcome: "claimed"; agent: AgentRecord }
  | { outcome: "not_found" }
  | { outcome: "gone"; reason: "used" | "expired" };

/**
 * Links the agent of a claim link to the account, once: the link is marked used and the agent
 * gets its owner in the same transaction, so two confirms of one link link it once.
 */
export async function claimAgent(
  tx: Transaction,
  deps: Pick<CommandDeps, "clock">,
  claimToken: string,
  userId: string,
): Promise<ClaimOutcome> {
  if (!isClaimToken(claimToken)) return { outcome: "not_found" };
  const now = deps.clock();
  const claim = await tx.get(paths.claim(sha256(claimToken)));
  const agent = claim ? await tx.get(paths.agent(claim.data.agent_id)) : null;
  if (!claim || !agent) return { outcome: "not_found" };
  const state = claimState(claim.data, agent.data, now);
  if (state !== "open") return { outcome: "gone", reason: state };
  const nowIso = now.toISOString();
  tx.update(claim.path, { used_at: nowIso });
  tx.update(agent.path, { owner_user_id: userId });
  return { outcome: "claimed", agent: { ...agent.data, owner_user_id: userId } };
}

/** A new onboard token for the account: returned once, stored as its hash, good for 30 minutes. */
export async function createOnboardToken(
  tx: Transaction,
  deps: Pick<CommandDeps, "clock">,
  userId: string,
): Promise<{ token: string; expiresAt: string }> {
  const now = deps.clock();
  const token = newOnboardToken();
  const expires = new Date(now.getTime() + ONBOARD_TTL_MS);
  const record: OnboardTokenRecord = {
    user_id: userId,
    created_at: now.toISOString(),
    used_at: null,
    purge_at: expires,
  };
  tx.create(paths.onboardToken(sha256(token)), record);
  return { token, expiresAt: expires.toISOString() };
}

/**
 * One of the account's agents, read in the caller's transaction: the policy decides
 * (`accountOwnsAgent`). Another account's agent, or an id that is no agent, is `not_found`: it
 * never tells them apart.
 */
export async function accountAgent(
  tx: Pick<TransactionReads, "get">,
  userId: string,
  agentId: string,
): Promise<StoredDoc<AgentRecord>> {
  if (!isIdOf("agt", agentId)) throw errors.notFound("agent");
  const agent = await tx.get(paths.agent(agentId));
  if (!agent || !accountOwnsAgent(agent.data, userId)) throw errors.notFound("agent");
  return agent;
}

/**
 * Revokes every live credential of one of the account's agents, all in the transaction it is
 * given and by the same writes as revoking one credential (the credential, its token lookup, the agent's
 * live-credential count): its tokens answer 401 from the moment it commits, and its webhooks
 * deliver nothing more (each delivery reads the agent's live credentials: domain/webhooks/feed.ts).
 * Another account's agent, or an id that is no agent, is `not_found` (`accountAgent`).
 */
export async function revokeAgent(
  tx: Transaction,
  deps: Pick<CommandDeps, "clock">,
  userId: string,
  agentId: string,
): Promise<{ revoked: number }> {
  const nowIso = deps.clock().toISOString();
  const agent = await accountAgent(tx, userId, agentId);
  const [live, apps] = await Promise.all([
    tx.query(paths.credentials(agentId), { where: [["revoked_at", "==", null]] }),
    tx.query(paths.oauthGrants(agentId), { where: [["revoked_at", "==", null]] }),
  ]);
  for (const credential of live) {
    tx.update(credential.path, { revoked_at: nowIso });
    tx.update(paths.token(credential.data.token_hash), { revoked_at: nowIso });
  }
  // Its OAuth clients' grants go with their credentials: off the account page, refresh refused.
  for (const app of apps) tx.update(app.path, { revoked_at: nowIso });
  // A count from before counters stays absent, as revokeCredential leaves it.
  if (typeof agent.data.live_credential_count === "number") tx.update(agent.path, { live_credential_count: 0 });
  return { revoked: live.length };
}

/**
 * Revokes what the account's agent allowed one OAuth client (its grant, keyed by credential):
 * its access token is 401 once this commits, its refresh token refused. `not_found` when the
 * agent is not the account's or holds no such live grant.
 */
export async function revokeAccountGrant(
  tx: Transaction,
  deps: Pick<CommandDeps, "clock">,
  userId: string,
  agentId: string,
  credentialId: string,
): Promise<void> {
  await accountAgent(tx, userId, agentId);
  if (!isIdOf("cred", credentialId)) throw errors.notFound("app");
  if (!(await revokeGrantIn(tx, deps, agentId, credentialId))) throw errors.notFound("app");
}
