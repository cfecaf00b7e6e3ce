import type { GrantRecord } from "../domain/records.js";

export const presentGrant = (grant: GrantRecord) => ({
  id: grant.id,
  calendar_id: grant.calendar_id,
  agent_id: grant.agent_id,
  agent_name: grant.agent_name,
  role: grant.role,
  created_at: grant.created_at,
  updated_at: grant.updated_at,
  revoked_at: grant.revoked_at,
});
