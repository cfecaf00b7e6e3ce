/**
 * The MCP tool of each API operation: its name (what it does, in snake_case), its title, when
 * an agent should use it and the guide that explains it. The rest of a tool (its arguments and
 * their one-line descriptions) comes from the operation's route definition (mcp/tools.ts).
 *
 * Keyed by `METHOD path` as the route declares it. test/api/mcp-catalog.test.ts fails when an
 * operation has no entry here or an entry names no operation: adding a route means adding a line.
 */
import { MAX_FREEBUSY_CALENDARS } from "../domain/queries/freebusy.js";

/**
 * The toolsets a tool belongs to. tools/list shows `default` (everyday scheduling) and the
 * sets a client asks for (mcp/toolsets.ts); every tool can be called whether or not it is
 * listed. Each description is what the server's instructions say of the set.
 */
export const TOOLSETS = {
  default: "everyday scheduling: mint, calendars and their feeds, events and alarms, occurrences, free time, changes",
  sharing: "roles on your calendars, granted or requested",
  views: "share views, read-only public pages and feeds of part of a calendar",
  layers: "other calendars shown inside one you own",
  webhooks: "changes pushed to a URL",
  credentials: "more tokens for the same agent",
  admin: "deleting a calendar",
} as const;

export type ToolsetName = keyof typeof TOOLSETS;

export interface ToolEntry {
  name: string;
  toolset: ToolsetName;
  /** What the tool does, for people choosing or approving it: a verb and its object. */
  title: string;
  /**
   * What the tool does and when to reach for it (and when for another), in one short sentence:
   * tools/list repeats it for every session, the detail is in the guide.
   */
  use: string;
  /** The guide section under /docs/ (`events.md#recurrence`), linked at the end of the description. */
  docs: string;
  /**
   * Tool argument names for path parameters whose own name is also a body field: the
   * occurrence routes' `{date}` (the original date) beside the body's `date` (the new one).
   */
  pathArguments?: Record<string, string>;
  /**
   * Tool argument names for body fields that a model would confuse with a path parameter:
   * attach_layer's body `calendar_id` (the attached calendar) beside the path's `calendarId`
   * (the host). REST keeps its names; mcp/dispatch.ts maps the argument back.
   */
  bodyArguments?: Record<string, string>;
  /**
   * Query parameters that carry a list as comma-separated text (`calendars=cal_a,cal_b`): the
   * tool takes an array of strings, the shape of every list argument (create_webhook's
   * `calendars` is a body array), and still takes REST's text.
   */
  listArguments?: Record<string, ListArgument>;
  /**
   * Body fields REST takes only to refuse them with what to do instead (update_view's `slug`:
   * a view's address is fixed). The tool does not offer them; a call that sends one anyway gets
   * REST's refusal.
   */
  refusedFields?: string[];
  /** What a successful result means to an MCP client beyond its JSON, sent after it as a second text. */
  resultNote?: string;
}

/** A list argument as tools/list shows it: an array of strings, its description and bound. */
export interface ListArgument {
  description: string;
  maxItems: number;
}

const CALENDAR_LIST = { calendars: { description: "Calendar ids", maxItems: MAX_FREEBUSY_CALENDARS } };

export const TOOL_CATALOG: Record<string, ToolEntry> = {
  "POST /v1/mint": {
    name: "mint_agent",
    toolset: "default",
    title: "Mint an agent",
    use: "Use only without a token: makes an agent, a calendar and a token (shown once).",
    docs: "start.md#mint",
    resultNote:
      "To act as this agent, reconnect to /mcp with the header `Authorization: Bearer <token>` " +
      "(the `token` above, shown once). Until then only the tools that need no token work.",
  },
  "GET /v1/me": {
    name: "get_me",
    toolset: "default",
    title: "Get the calling agent",
    use: "Use first: who you are and the calendars you hold a role on.",
    docs: "start.md#who-am-i",
  },
  "GET /v1/agent-credentials": {
    name: "list_credentials",
    toolset: "credentials",
    title: "List credentials",
    use: "Use to audit your tokens (labels, scopes, expiry).",
    docs: "start.md#credentials",
  },
  "POST /v1/agent-credentials": {
    name: "create_credential",
    toolset: "credentials",
    title: "Create a credential",
    use: "Use to give another process its own token (shown once).",
    docs: "start.md#credentials",
  },
  "DELETE /v1/agent-credentials/{credentialId}": {
    name: "revoke_credential",
    toolset: "credentials",
    title: "Revoke a credential",
    use: "Use when a token leaked or is no longer needed.",
    docs: "start.md#credentials",
  },
  "POST /v1/calendars": {
    name: "create_calendar",
    toolset: "default",
    title: "Create a calendar",
    use: "Use for a new context (a project, a team); you become its owner.",
    docs: "start.md#calendars",
  },
  "GET /v1/calendars/{calendarId}": {
    name: "get_calendar",
    toolset: "default",
    title: "Get a calendar",
    use: "Use to read a calendar's settings and your role on it.",
    docs: "start.md#calendars",
  },
  "PATCH /v1/calendars/{calendarId}": {
    name: "update_calendar",
    toolset: "default",
    title: "Update a calendar",
    use: "Use to change a calendar's settings (owner). Send only what changes; null clears.",
    docs: "start.md#calendars",
  },
  "DELETE /v1/calendars/{calendarId}": {
    name: "delete_calendar",
    toolset: "admin",
    title: "Delete a calendar",
    use: "Use when a calendar is no longer wanted (owner): gone for everyone; its address stays reserved.",
    docs: "start.md#deleting-a-calendar",
  },
  "GET /v1/calendars/{calendarId}/events": {
    name: "list_events",
    toolset: "default",
    title: "List events",
    use: "Use to find events (one per series) and their ids; for dates, use list_occurrences.",
    docs: "events.md#listing-events",
  },
  "POST /v1/calendars/{calendarId}/events": {
    name: "create_event",
    toolset: "default",
    title: "Create an event",
    use: "Use to put something on a calendar: `date` for one day, `recur` for a series, neither for someday.",
    docs: "events.md#fields",
  },
  "POST /v1/calendars/{calendarId}/import": {
    name: "import_ics",
    toolset: "default",
    title: "Import an iCalendar file",
    use: "Use to bring events from an .ics text in; the same text again changes nothing.",
    docs: "import.md#importing-an-icalendar-file",
  },
  "GET /v1/calendars/{calendarId}/events/{eventId}": {
    name: "get_event",
    toolset: "default",
    title: "Get an event",
    use: "Use to read one event by id.",
    docs: "events.md#fields",
  },
  "PATCH /v1/calendars/{calendarId}/events/{eventId}": {
    name: "update_event",
    toolset: "default",
    title: "Update an event or series",
    use: "Use to change a whole event or series. Send only what changes; null clears.",
    docs: "events.md#changing-an-event-patch",
  },
  "DELETE /v1/calendars/{calendarId}/events/{eventId}": {
    name: "delete_event",
    toolset: "default",
    title: "Delete an event or series",
    use: "Use to remove an event, or a whole series, for good.",
    docs: "events.md#endpoints",
  },
  "GET /v1/calendars/{calendarId}/occurrences": {
    name: "list_occurrences",
    toolset: "default",
    title: "List occurrences",
    use: "Use to answer what is on between two dates: series expanded, layers included.",
    docs: "events.md#occurrences-what-happens-when",
  },
  "GET /v1/calendars/{calendarId}/changes": {
    name: "list_changes",
    toolset: "default",
    title: "List changes",
    use: "Use to follow changes: start without `cursor`, then pass each answer's `cursor`.",
    docs: "events.md#following-changes",
  },
  "GET /v1/freebusy": {
    name: "get_free_busy",
    toolset: "default",
    title: "Get busy times",
    use: "Use to see when calendars are busy without seeing their events.",
    docs: "events.md#freebusy-and-free-slots",
    listArguments: CALENDAR_LIST,
  },
  "GET /v1/freebusy/slots": {
    name: "find_free_time",
    toolset: "default",
    title: "Find free time",
    use: "Use before scheduling with others: the earliest free slots in working hours.",
    docs: "events.md#freebusy-and-free-slots",
    listArguments: CALENDAR_LIST,
  },
  "PATCH /v1/calendars/{calendarId}/events/{eventId}/occurrences/{date}": {
    name: "update_occurrence",
    toolset: "default",
    title: "Change one occurrence",
    use: "Use to cancel, move or change one date of a series (every date: update_event).",
    docs: "events.md#one-occurrence-cancel-move-or-change",
    pathArguments: { date: "original_date" },
  },
  "DELETE /v1/calendars/{calendarId}/events/{eventId}/occurrences/{date}": {
    name: "restore_occurrence",
    toolset: "default",
    title: "Restore one occurrence",
    use: "Use to undo update_occurrence on that date.",
    docs: "events.md#one-occurrence-cancel-move-or-change",
    pathArguments: { date: "original_date" },
  },
  "GET /v1/calendars/{calendarId}/grants": {
    name: "list_grants",
    toolset: "sharing",
    title: "List grants",
    use: "Use to see who holds which role on a calendar you own.",
    docs: "sharing.md#grants",
  },
  "POST /v1/calendars/{calendarId}/grants": {
    name: "grant_access",
    toolset: "sharing",
    title: "Grant a role",
    use: "Use to give an agent a role on a calendar you own, or change its role.",
    docs: "sharing.md#grants",
  },
  "DELETE /v1/calendars/{calendarId}/grants/{grantId}": {
    name: "revoke_grant",
    toolset: "sharing",
    title: "Revoke a grant",
    use: "Use to take an agent's role away (grant ids: list_grants).",
    docs: "sharing.md#grants",
  },
  "GET /v1/calendars/{calendarId}/access-requests": {
    name: "list_access_requests",
    toolset: "sharing",
    title: "List access requests",
    use: "Use to see who asked for a role on a calendar you own.",
    docs: "sharing.md#access-requests",
  },
  "POST /v1/calendars/{calendarId}/access-requests": {
    name: "request_access",
    toolset: "sharing",
    title: "Request access",
    use: "Use when your role on a calendar is too low (`forbidden`): asks its owners.",
    docs: "sharing.md#access-requests",
  },
  "POST /v1/calendars/{calendarId}/access-requests/{requestId}": {
    name: "resolve_access_request",
    toolset: "sharing",
    title: "Resolve an access request",
    use: "Use to approve or deny an access request.",
    docs: "sharing.md#access-requests",
  },
  "GET /v1/calendars/{calendarId}/views": {
    name: "list_views",
    toolset: "views",
    title: "List share views",
    use: "Use to see a calendar's share views (public filtered pages).",
    docs: "views-and-layers.md#share-views",
  },
  "POST /v1/calendars/{calendarId}/views": {
    name: "create_view",
    toolset: "views",
    title: "Create a share view",
    use: "Use to show humans part of a calendar: a read-only page and feed.",
    docs: "views-and-layers.md#share-views",
  },
  "PATCH /v1/calendars/{calendarId}/views/{viewId}": {
    name: "update_view",
    toolset: "views",
    title: "Update a share view",
    use: "Use to rename a share view or replace its filter or display.",
    docs: "views-and-layers.md#share-views",
    refusedFields: ["slug"],
  },
  "DELETE /v1/calendars/{calendarId}/views/{viewId}": {
    name: "revoke_view",
    toolset: "views",
    title: "Revoke a share view",
    use: "Use to take a share view's page and feed offline.",
    docs: "views-and-layers.md#share-views",
  },
  "GET /v1/calendars/{calendarId}/layers": {
    name: "list_layers",
    toolset: "layers",
    title: "List layers",
    use: "Use to see which calendars are composed into this one.",
    docs: "views-and-layers.md#layers",
  },
  "POST /v1/calendars/{calendarId}/layers": {
    name: "attach_layer",
    toolset: "layers",
    title: "Attach a calendar or feed as a layer",
    use: "Use to show another calendar's events, or an outside .ics feed's (`feed_url`), inside one you own.",
    docs: "views-and-layers.md#layers",
    bodyArguments: { calendar_id: "layer_calendar_id" },
  },
  "DELETE /v1/calendars/{calendarId}/layers/{layerId}": {
    name: "detach_layer",
    toolset: "layers",
    title: "Detach a layer",
    use: "Use to stop showing an attached calendar (it is untouched).",
    docs: "views-and-layers.md#layers",
  },
  "GET /v1/webhooks": {
    name: "list_webhooks",
    toolset: "webhooks",
    title: "List webhooks",
    use: "Use to see which URLs get your calendars' changes.",
    docs: "webhooks.md#checking-on-it",
  },
  "POST /v1/webhooks": {
    name: "create_webhook",
    toolset: "webhooks",
    title: "Create a webhook",
    use: "Use to push each change to a public HTTPS URL (else list_changes); secret shown once.",
    docs: "webhooks.md#subscribe",
  },
  "GET /v1/webhooks/{webhookId}": {
    name: "get_webhook",
    toolset: "webhooks",
    title: "Get a webhook",
    use: "Use to read one webhook's settings and state.",
    docs: "webhooks.md#checking-on-it",
  },
  "PATCH /v1/webhooks/{webhookId}": {
    name: "update_webhook",
    toolset: "webhooks",
    title: "Update a webhook",
    use: "Use to change a webhook, or to pause or resume it.",
    docs: "webhooks.md#subscribe",
  },
  "DELETE /v1/webhooks/{webhookId}": {
    name: "delete_webhook",
    toolset: "webhooks",
    title: "Delete a webhook",
    use: "Use when a receiver is gone for good (to pause: update_webhook).",
    docs: "webhooks.md#subscribe",
  },
  "POST /v1/webhooks/{webhookId}/rotate-secret": {
    name: "rotate_webhook_secret",
    toolset: "webhooks",
    title: "Rotate a webhook secret",
    use: "Use when a secret may have leaked; the old one signs for 24 h more.",
    docs: "webhooks.md#rotating-the-secret",
  },
  "POST /v1/webhooks/{webhookId}/test": {
    name: "test_webhook",
    toolset: "webhooks",
    title: "Test a webhook",
    use: "Use to send a signed ping now and see how it went.",
    docs: "webhooks.md#checking-on-it",
  },
  "GET /v1/webhooks/{webhookId}/deliveries": {
    name: "list_webhook_deliveries",
    toolset: "webhooks",
    title: "List webhook deliveries",
    use: "Use to see why deliveries fail (the last 100 attempts).",
    docs: "webhooks.md#checking-on-it",
  },
};

/** The catalog key of an operation: `POST /v1/calendars/{calendarId}/events`. */
export const operationKey = (method: string, path: string): string => `${method.toUpperCase()} ${path}`;
