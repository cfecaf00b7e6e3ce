import type { AccessRequestRecord } from "../domain/records.js";
import type { PresentedAccessRequest } from "./schemas/access-requests.js";

export const presentAccessRequest = (request: AccessRequestRecord): PresentedAccessRequest => ({
  id: request.id,
  calendar_id: request.calendar_id,
  agent_id: request.agent_id,
  agent_name: request.agent_name,
  role: request.role,
  message: request.message,
  status: request.status,
  created_at: request.created_at,
  resolved_at: request.resolved_at,
  resolved_by: request.resolved_by,
});
