import type { AgentRecord, CredentialRecord } from "../domain/records.js";

export const presentAgent = (agent: AgentRecord) => ({
  id: agent.id,
  name: agent.name,
  created_at: agent.created_at,
});

/** Metadata only: the token hash never leaves the store. */
export const presentCredential = (cred: CredentialRecord) => ({
  id: cred.id,
  label: cred.label,
  scopes: cred.scopes,
  created_at: cred.created_at,
  expires_at: cred.expires_at,
  revoked_at: cred.revoked_at,
});
