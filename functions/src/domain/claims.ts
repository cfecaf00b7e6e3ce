/** Claim links (docs/api.md#humans-claims-and-accounts): what the claim page shows and confirming one checks. */
import type { AgentRecord, ClaimRecord } from "./records.js";

/** `svc_claim_` and 43 base62 characters, as mint makes them; anything else cannot be a link. */
const CLAIM_TOKEN = /^svc_claim_[A-Za-z0-9]{43}$/;
export const isClaimToken = (value: string): boolean => CLAIM_TOKEN.test(value);

/** Whether a claim link can still be confirmed: used once, or past its 7 days, it is gone. */
export function claimState(claim: ClaimRecord, agent: AgentRecord, now: Date): "open" | "used" | "expired" {
  if (claim.used_at || agent.owner_user_id) return "used";
  if (Date.parse(claim.expires_at) <= now.getTime()) return "expired";
  return "open";
}
