/** Stored records: what the commands write and the presenters read. */
export const ROLES = ["reader", "writer", "owner"] as const;
export type Role = (typeof ROLES)[number];

export const LENSES = ["month", "week", "schedule", "timeline"] as const;
export type Lens = (typeof LENSES)[number];

export const VISIBILITIES = ["unlisted", "public", "private"] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export const SCOPES = ["agent:read", "calendar:read", "calendar:write", "grants:manage"] as const;
export type Scope = (typeof SCOPES)[number];

export interface AgentRecord {
  id: string;
  name: string;
  created_at: string;
  /** Set when a signed-in human linked the agent (onboard token or claim link). */
  owner_user_id: string | null;
}

export interface CredentialRecord {
  id: string;
  agent_id: string;
  label: string | null;
  scopes: Scope[];
  token_hash: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

/** tokens/{sha256(token)}: the one read that authenticates a request. */
export interface TokenRecord {
  agent_id: string;
  agent_name: string;
  credential_id: string;
  scopes: Scope[];
  expires_at: string | null;
  revoked_at: string | null;
}

export interface CalendarRecord {
  id: string;
  name: string;
  slug: string;
  timezone: string;
  visibility: Visibility;
  purpose: string | null;
  default_view: Lens | null;
  views: Lens[] | null;
  created_at: string;
  updated_at: string;
  /** Changes with every write to what the calendar shows (see domain/revision.ts); internal. */
  revision: string;
  /** Every event of the calendar stores `sort_key` (calendars created since issue 10; queries/events.ts); internal. */
  event_sort_keys?: boolean;
}

export type RecurType = "daily" | "weekly" | "monthly" | "yearly";

export interface Recur {
  type: RecurType;
  day?: number;
  month?: number;
  interval?: number;
  starts?: string;
  until?: string;
}

export type EventKind = "one-off" | "recurring" | "someday";

export interface EventRecord {
  id: string;
  calendar_id: string;
  kind: EventKind;
  name: string;
  date: string | null;
  recur: Recur | null;
  start_time: string | null;
  end_time: string | null;
  category: string | null;
  notes: string | null;
  art: string | null;
  created_by: { id: string; name: string };
  created_at: string;
  updated_at: string;
  /** The event's place in the list (eventSortKey, queries/events.ts), written by every event write; internal. */
  sort_key?: string;
}

export interface GrantRecord {
  id: string;
  calendar_id: string;
  agent_id: string;
  agent_name: string;
  role: Role;
  created_at: string;
  updated_at: string;
  revoked_at: string | null;
}

/** agents/{agentId}/memberships/{calendarId}: the agent's live grant, readable by id. */
export interface MembershipRecord {
  calendar_id: string;
  grant_id: string;
  role: Role;
}

export type AccessRequestStatus = "pending" | "approved" | "denied";

export interface AccessRequestRecord {
  id: string;
  calendar_id: string;
  agent_id: string;
  agent_name: string;
  role: Role;
  message: string | null;
  status: AccessRequestStatus;
  created_at: string;
  resolved_at: string | null;
  resolved_by: string | null;
}

export interface ViewFilter {
  layers: string[] | null;
  categories: string[] | null;
  from: string | null;
  to: string | null;
  include_someday: boolean;
  include_recurring: boolean;
}

export interface ViewDisplay {
  default_view: Lens | null;
  views: Lens[] | null;
}

export interface ShareViewRecord {
  id: string;
  calendar_id: string;
  name: string;
  slug: string;
  filter: ViewFilter;
  display: ViewDisplay;
  created_at: string;
  updated_at: string;
  revoked_at: string | null;
}

export interface LayerRecord {
  id: string;
  calendar_id: string;
  host_calendar_id: string;
  key: string;
  created_at: string;
}

/** One dated happening of a one-off or recurring event, in the calendar's local time. */
export interface Occurrence {
  event_id: string;
  layer: string;
  date: string;
  start_time: string | null;
  end_time: string | null;
  name: string;
  category: string | null;
}
