import type { HeldGrant } from "../domain/queries/me.js";
import type { AgentRecord, CredentialRecord } from "../domain/records.js";
import { purposePreview } from "./calendars.js";
import type { PresentedAgent, PresentedCredential, PresentedHeldGrant, PresentedMeAgent } from "./schemas/identity.js";

export const presentAgent = (agent: AgentRecord): PresentedAgent => ({
  id: agent.id,
  name: agent.name,
  created_at: agent.created_at,
});

/** The caller's own agent: whether it is claimed, and nothing of who claimed it. */
export const presentMeAgent = (agent: AgentRecord): PresentedMeAgent => ({
  ...presentAgent(agent),
  claimed: agent.owner_user_id !== null && agent.owner_user_id !== undefined,
});

/** A calendar the agent holds a live grant on, as `/v1/me` lists it. */
export const presentHeldGrant = ({ calendar, role }: HeldGrant): PresentedHeldGrant => ({
  calendar_id: calendar.id,
  slug: calendar.slug,
  role,
  purpose_preview: purposePreview(calendar.purpose),
});

/** Metadata only: the token hash never leaves the store. */
export const presentCredential = (cred: CredentialRecord): PresentedCredential => ({
  id: cred.id,
  label: cred.label,
  scopes: cred.scopes,
  created_at: cred.created_at,
  expires_at: cred.expires_at,
  revoked_at: cred.revoked_at,
  calendars: cred.calendars ?? null,
});
