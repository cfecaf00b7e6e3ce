import { z } from "zod";
import { role } from "./common.js";

/** A grant, live or revoked (a tombstone keeps `revoked_at`), as presenters/grants.ts builds it. */
export const grantRecord = z.object({
  id: z.string(),
  calendar_id: z.string(),
  agent_id: z.string(),
  agent_name: z.string(),
  role,
  created_at: z.string(),
  updated_at: z.string(),
  revoked_at: z.string().nullable(),
});
export type PresentedGrant = z.input<typeof grantRecord>;
