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
