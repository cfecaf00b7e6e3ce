/**
 * The MCP tool of each API operation: its name (what it does, in snake_case) and when an agent
 * should use it. The rest of a tool (input schema, output schema, the first line of its
 * description) comes from the operation's route definition (mcp/tools.ts).
 *
 * Keyed by `METHOD path` as the route declares it. test/api/mcp-catalog.test.ts fails when an
 * operation has no entry here or an entry names no operation: adding a route means adding a line.
 */
export interface ToolEntry {
  name: string;
  /** When to reach for this tool (and when for another), appended to the route's summary. */
  use: string;
  /**
   * Tool argument names for path parameters whose own name is also a body field: the
   * occurrence routes' `{date}` (the original date) beside the body's `date` (the new one).
   */
  pathArguments?: Record<string, string>;
}

export const TOOL_CATALOG: Record<string, ToolEntry> = {
  "POST /v1/mint": {
    name: "mint_agent",
    use:
      "Use only when you have no token yet. The answer's `token` is shown once: configure your MCP client to send it " +
      "as `Authorization: Bearer <token>`; every later call acts as that agent.",
  },
  "GET /v1/me": {
    name: "get_me",
    use: "Use first: it tells who you are and lists the calendars you hold a role on (their ids for every other tool).",
  },
  "GET /v1/agent-credentials": {
    name: "list_credentials",
    use: "Use to audit your tokens (labels, scopes, expiry, revocation); the tokens themselves are never shown again.",
  },
  "POST /v1/agent-credentials": {
    name: "create_credential",
    use: "Use to hand a narrower or separately revocable token to another process; the answer's `token` is shown once.",
  },
  "DELETE /v1/agent-credentials/{credentialId}": {
    name: "revoke_credential",
    use: "Use when a token leaked or is no longer needed; find its id with list_credentials.",
  },
  "POST /v1/calendars": {
    name: "create_calendar",
    use:
      "Use for a new context (a project, a launch, a team) that deserves its own calendar; " +
      "to add to a calendar you already have, use create_event.",
  },
  "GET /v1/calendars/{calendarId}": {
    name: "get_calendar",
    use: "Use to read a calendar's name, timezone, visibility, purpose and your role before acting on it.",
  },
  "PATCH /v1/calendars/{calendarId}": {
    name: "update_calendar",
    use: "Use to rename a calendar or change its timezone, visibility, purpose or page display (owner only).",
  },
  "GET /v1/calendars/{calendarId}/events": {
    name: "list_events",
    use:
      "Use to find events as they are defined (one row per series) and their ids for update_event or delete_event; " +
      "to know what happens on which dates, use list_occurrences.",
  },
  "POST /v1/calendars/{calendarId}/events": {
    name: "create_event",
    use:
      "Use to put something on a calendar: `date` for one day, `recur` for a series " +
      '(e.g. `{"type": "weekly", "day": 1}` every Monday), neither for a someday milestone. Times are HH:MM in the ' +
      "calendar's timezone. Before scheduling with others, call find_free_time.",
  },
  "GET /v1/calendars/{calendarId}/events/{eventId}": {
    name: "get_event",
    use: "Use to read one event by id, e.g. after list_events or list_occurrences gave its id.",
  },
  "PATCH /v1/calendars/{calendarId}/events/{eventId}": {
    name: "update_event",
    use: "Use to change a whole event or series (send only the fields that change); it keeps the event's id.",
  },
  "DELETE /v1/calendars/{calendarId}/events/{eventId}": {
    name: "delete_event",
    use: "Use to remove an event, or a whole series, for good.",
  },
  "GET /v1/calendars/{calendarId}/occurrences": {
    name: "list_occurrences",
    use:
      "Use to answer what is on a calendar between two dates: recurring events expanded to each date and the " +
      "calendar's layers included, sorted by start.",
  },
  "GET /v1/calendars/{calendarId}/changes": {
    name: "list_changes",
    use:
      "Use to learn what changed since you last looked, instead of re-reading everything: call it once without " +
      "`cursor` to get the current one, keep each answer's `cursor` for the next call; `wait` (up to 60 s) holds " +
      "the call until something changes.",
  },
  "GET /v1/freebusy": {
    name: "get_free_busy",
    use:
      "Use to see when calendars are busy (timed occurrences, layers included) without seeing what the events are; " +
      "to get proposals for a meeting time, use find_free_time.",
  },
  "GET /v1/freebusy/slots": {
    name: "find_free_time",
    use:
      "Use before create_event whenever a time must suit several calendars or working hours: it answers the free " +
      "stretches to pick from.",
  },
  "PATCH /v1/calendars/{calendarId}/events/{eventId}/occurrences/{date}": {
    name: "update_occurrence",
    use:
      "Use to cancel, move or change a single date of a recurring event (`original_date` as list_occurrences shows " +
      "it); to change every date, use update_event.",
    pathArguments: { date: "original_date" },
  },
  "DELETE /v1/calendars/{calendarId}/events/{eventId}/occurrences/{date}": {
    name: "restore_occurrence",
    use: "Use to undo update_occurrence: that date goes back to what the series says.",
    pathArguments: { date: "original_date" },
  },
  "GET /v1/calendars/{calendarId}/grants": {
    name: "list_grants",
    use: "Use to see who holds which role on a calendar you own.",
  },
  "POST /v1/calendars/{calendarId}/grants": {
    name: "grant_access",
    use: "Use to give another agent (by its `agt_` id) a role on a calendar you own, or to change its role.",
  },
  "DELETE /v1/calendars/{calendarId}/grants/{grantId}": {
    name: "revoke_grant",
    use: "Use to take an agent's role on your calendar away; find the grant id with list_grants.",
  },
  "GET /v1/calendars/{calendarId}/access-requests": {
    name: "list_access_requests",
    use: "Use to see which agents asked for a role on a calendar you own; answer them with resolve_access_request.",
  },
  "POST /v1/calendars/{calendarId}/access-requests": {
    name: "request_access",
    use:
      "Use when you can see a calendar but your role is too low (a `forbidden` error) and you need to read or write it; " +
      "its owners decide.",
  },
  "POST /v1/calendars/{calendarId}/access-requests/{requestId}": {
    name: "resolve_access_request",
    use: "Use to approve or deny a pending access request on a calendar you own.",
  },
  "GET /v1/calendars/{calendarId}/views": {
    name: "list_views",
    use: "Use to see the share views (filtered public pages) of a calendar you own.",
  },
  "POST /v1/calendars/{calendarId}/views": {
    name: "create_view",
    use:
      "Use to give a human a read-only web page and feed of part of a calendar (some layers or categories) " +
      "without sharing the whole calendar.",
  },
  "PATCH /v1/calendars/{calendarId}/views/{viewId}": {
    name: "update_view",
    use: "Use to rename a share view or change what it shows; its address stays the same.",
  },
  "DELETE /v1/calendars/{calendarId}/views/{viewId}": {
    name: "revoke_view",
    use: "Use to take a share view's page and feed offline at once.",
  },
  "GET /v1/calendars/{calendarId}/layers": {
    name: "list_layers",
    use: "Use to see which other calendars are composed into this one.",
  },
  "POST /v1/calendars/{calendarId}/layers": {
    name: "attach_layer",
    use:
      "Use to show another calendar's events inside one you own (e.g. team calendars inside a project calendar); " +
      "list_occurrences then includes them.",
  },
  "DELETE /v1/calendars/{calendarId}/layers/{layerId}": {
    name: "detach_layer",
    use: "Use to stop showing an attached calendar; the attached calendar itself is untouched.",
  },
};

/** The catalog key of an operation: `POST /v1/calendars/{calendarId}/events`. */
export const operationKey = (method: string, path: string): string => `${method.toUpperCase()} ${path}`;
