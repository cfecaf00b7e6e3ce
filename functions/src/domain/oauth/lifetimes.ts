/** How long each thing the authorization server issues lasts (docs/mcp.md#authorization). */
const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;

export const OAUTH_LIFETIMES = {
  /** From the client's request to the human's answer on the consent page. */
  consentMs: 15 * MINUTE,
  /** An authorization code, from the consent to its exchange. */
  codeMs: 5 * MINUTE,
  /** An access token; the client refreshes it. */
  accessMs: 60 * MINUTE,
  /** A refresh token, from its issue; each use gives a new one for as long again. */
  refreshMs: 30 * DAY,
  /** A registered client that no authorization or refresh has used. */
  clientUnusedMs: 90 * DAY,
  /** How long a spent or expired code or request is kept, so that a late use is told apart from a forged one. */
  keptAfterMs: 10 * MINUTE,
} as const;

export const later = (now: Date, ms: number): Date => new Date(now.getTime() + ms);
