/**
 * Whether a path belongs to the claim and account pages (the local server and Hosting send them
 * to the pages function). Its own module, so that the local server can route by path without
 * loading the pages (docs/ARCHITECTURE.md, Performance: load on first use).
 */
export const isHumansPath = (path: string): boolean =>
  path === "/account" || path.startsWith("/account/") || path.startsWith("/claim/");

/** Where the account page opens a calendar of one of the account's agents (humans/calendars.ts). */
export const accountCalendarPath = (agentId: string, calendarId: string): string =>
  `/account/agents/${agentId}/calendars/${calendarId}`;

/** The account page's forms on one webhook of one of the account's agents (router.ts). */
export const accountWebhookPath = (
  agentId: string,
  webhookId: string,
  action: "disable" | "enable" | "delete",
): string => `/account/agents/${agentId}/webhooks/${webhookId}/${action}`;

/** The account page's form revoking one OAuth client's grant for one of the account's agents (router.ts). */
export const accountAppRevokePath = (agentId: string, credentialId: string): string =>
  `/account/agents/${agentId}/apps/${credentialId}/revoke`;

/**
 * Where `/account?next=` may send a signed-in human back to: an account calendar page, nothing
 * else (no other site, no other path), or null.
 */
export function accountReturn(next: unknown): string | null {
  return typeof next === "string" && /^\/account\/agents\/[\w-]+\/calendars\/[\w-]+$/.test(next) ? next : null;
}
