import { errors } from "../errors.js";
import type { Actor } from "../actor.js";
import type { CommandDeps } from "../deps.js";
import { newAgentToken, newClaimToken, newId, sha256 } from "../ids.js";
import { paths } from "../paths.js";
import { newAgentCounters, releaseQuota, takeQuota, writeCounter } from "../quotas.js";
import type { AgentRecord, CalendarRecord, ClaimRecord, CredentialRecord, TokenRecord } from "../records.js";
import { SCOPES, type Scope } from "../types.js";
import type { Transaction } from "../../storage/port.js";
import { createCalendarInTx } from "./create-calendar.js";

/** A claim link is good for 7 days, an onboard token for 30 minutes (docs/api.md#humans-claims-and-accounts). */
export const CLAIM_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const ONBOARD_TTL_MS = 30 * 60 * 1000;
/** An expired claim link is kept this long past its expiry, so that opening it says "expired" (410), not 404. */
export const CLAIM_KEPT_AFTER_EXPIRY_MS = 30 * 24 * 60 * 60 * 1000;
const LATER_SCOPES: Scope[] = ["agent:read", "calendar:read", "calendar:write"];

export interface MintInput {
  name: string;
  calendar?: { name?: string; timezone?: string };
  onboard_token?: string;
}

export interface Minted {
  token: string;
  agent: AgentRecord;
  credential: CredentialRecord;
  calendar: CalendarRecord;
  claimToken: string | null;
}

/**
 * POST /v1/mint: an agent, its first credential and calendar, and a claim link, or instead the
 * account's onboard token marked used: read and spent in the one transaction it is given, so
 * two mints with one onboard token cannot both succeed.
 */
export async function mint(tx: Transaction, deps: Pick<CommandDeps, "clock">, input: MintInput): Promise<Minted> {
  const now = deps.clock();
  const nowIso = now.toISOString();
  const onboard = input.onboard_token ? await readOnboardToken(tx, input.onboard_token, now) : null;
  const agent: AgentRecord = {
    id: newId("agt"),
    name: input.name,
    created_at: nowIso,
    owner_user_id: onboard?.data.user_id ?? null,
  };
  const { calendar } = await createCalendarInTx(
    tx,
    { agentId: agent.id, agentName: agent.name },
    { name: input.calendar?.name ?? input.name, timezone: input.calendar?.timezone },
    nowIso,
  );
  // Its first calendar and credential count against its quotas from the start.
  tx.create(paths.agent(agent.id), { ...agent, ...newAgentCounters() });
  const { token, credential } = issueCredential(tx, agent, [...SCOPES], null, nowIso);
  let claimToken: string | null = null;
  if (onboard) {
    tx.update(onboard.path, { used_at: nowIso });
  } else {
    claimToken = newClaimToken();
    const expires = new Date(now.getTime() + CLAIM_TTL_MS);
    const claim: ClaimRecord = {
      agent_id: agent.id,
      created_at: nowIso,
      expires_at: expires.toISOString(),
      used_at: null,
      purge_at: new Date(expires.getTime() + CLAIM_KEPT_AFTER_EXPIRY_MS),
    };
    tx.create(paths.claim(sha256(claimToken)), claim);
  }
  return { token, agent, credential, calendar, claimToken };
}

async function readOnboardToken(tx: Transaction, token: string, now: Date) {
  const doc = token.startsWith("svc_onboard_") ? await tx.get(paths.onboardToken(sha256(token))) : null;
  const fresh = doc && !doc.data.used_at && Date.parse(doc.data.created_at) + ONBOARD_TTL_MS > now.getTime();
  if (!doc || !fresh) throw errors.invalidOnboardToken();
  return doc;
}

/** Writes a credential and its token lookup; the token itself is only returned, never stored. */
function issueCredential(
  tx: Transaction,
  agent: Pick<AgentRecord, "id" | "name">,
  scopes: Scope[],
  label: string | null,
  nowIso: string,
): { token: string; credential: CredentialRecord } {
  const token = newAgentToken();
  const tokenHash = sha256(token);
  const credential: CredentialRecord = {
    id: newId("cred"),
    agent_id: agent.id,
    label,
    scopes,
    token_hash: tokenHash,
    created_at: nowIso,
    expires_at: null,
    revoked_at: null,
  };
  const lookup: TokenRecord = {
    agent_id: agent.id,
    agent_name: agent.name,
    credential_id: credential.id,
    scopes,
    expires_at: null,
    revoked_at: null,
  };
  tx.create(paths.credential(agent.id, credential.id), credential);
  tx.create(paths.token(tokenHash), lookup);
  return { token, credential };
}

/** Another credential for the caller, within its credential quota (the agent's counter is written with it). */
export async function createCredential(tx: Transaction, deps: CommandDeps, actor: Actor, label: string | null) {
  const nowIso = deps.clock().toISOString();
  const agent = await readAgent(tx, actor.agentId);
  const counted = await takeQuota(deps, tx, "credentials_per_agent", agent);
  const issued = issueCredential(tx, { id: actor.agentId, name: actor.agentName }, LATER_SCOPES, label, nowIso);
  writeCounter(tx, agent.path, counted);
  return issued;
}

/** The caller's agent record, which carries its quota counters. */
export async function readAgent(tx: Transaction, agentId: string) {
  const agent = await tx.get(paths.agent(agentId));
  // A token whose agent record is gone is as good as revoked.
  if (!agent) throw errors.invalidToken();
  return agent;
}

/** Revokes one of the caller's credentials, never its last live one; its token is refused once this commits. */
export async function revokeCredential(
  tx: Transaction,
  deps: Pick<CommandDeps, "clock">,
  actor: Actor,
  credentialId: string,
): Promise<CredentialRecord> {
  const nowIso = deps.clock().toISOString();
  const doc = await tx.get(paths.credential(actor.agentId, credentialId));
  if (!doc || doc.data.revoked_at) throw errors.notFound("credential");
  const active = await tx.query(paths.credentials(actor.agentId), { where: [["revoked_at", "==", null]], limit: 2 });
  if (active.length < 2) throw errors.lastCredential();
  const agent = await readAgent(tx, actor.agentId);
  tx.update(doc.path, { revoked_at: nowIso });
  tx.update(paths.token(doc.data.token_hash), { revoked_at: nowIso });
  writeCounter(tx, agent.path, releaseQuota("credentials_per_agent", agent));
  return { ...doc.data, revoked_at: nowIso };
}
