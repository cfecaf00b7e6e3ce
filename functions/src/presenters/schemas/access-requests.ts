import { z } from "zod";
import { ACCESS_REQUEST_STATUSES } from "../../domain/types.js";
import { role } from "./common.js";

/** An access request and how it was resolved (presenters/access-requests.ts). */
export const accessRequestRecord = z.object({
  id: z.string(),
  calendar_id: z.string(),
  agent_id: z.string(),
  agent_name: z.string(),
  role,
  message: z.string().nullable(),
  status: z.enum(ACCESS_REQUEST_STATUSES),
  created_at: z.string(),
  resolved_at: z.string().nullable(),
  resolved_by: z.string().nullable(),
});
export type PresentedAccessRequest = z.input<typeof accessRequestRecord>;
