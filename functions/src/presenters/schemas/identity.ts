import { z } from "zod";
import { role } from "./common.js";

/** The agent and its credentials' metadata (presenters/identity.ts); a token is never part of a record. */
export const agentRecord = z.object({ id: z.string(), name: z.string(), created_at: z.string() });
export type PresentedAgent = z.input<typeof agentRecord>;
/** `/v1/me` also says whether a human has linked the agent (docs/api.md#humans-claims-and-accounts), never who. */
export const meAgentRecord = agentRecord.extend({ claimed: z.boolean() });
export type PresentedMeAgent = z.input<typeof meAgentRecord>;

export const credentialRecord = z.object({
  id: z.string(),
  label: z.string().nullable(),
  scopes: z.array(z.string()),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  /** The only calendars its token reaches; null: every calendar the agent can reach. */
  calendars: z.array(z.string()).nullable(),
});
export type PresentedCredential = z.input<typeof credentialRecord>;

/** A calendar the agent holds a live grant on, as `/v1/me` lists it. */
export const heldGrantRecord = z.object({
  calendar_id: z.string(),
  slug: z.string(),
  role,
  purpose_preview: z.string().nullable(),
});
export type PresentedHeldGrant = z.input<typeof heldGrantRecord>;
