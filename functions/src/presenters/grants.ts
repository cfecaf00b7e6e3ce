import type { GrantRecord } from "../domain/records.js";
import type { PresentedGrant } from "./schemas/grants.js";

export const presentGrant = (grant: GrantRecord): PresentedGrant => ({
  id: grant.id,
  calendar_id: grant.calendar_id,
  agent_id: grant.agent_id,
  agent_name: grant.agent_name,
  role: grant.role,
  created_at: grant.created_at,
  updated_at: grant.updated_at,
  revoked_at: grant.revoked_at,
});
