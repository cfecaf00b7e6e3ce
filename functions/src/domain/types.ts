/**
 * The domain's value types: roles, lenses, visibilities, scopes, recurrences, view filters,
 * occurrences. The stored records made of them are in records.ts.
 */
export const ROLES = ["reader", "writer", "owner"] as const;
export type Role = (typeof ROLES)[number];

export const LENSES = ["month", "week", "schedule", "timeline"] as const;
export type Lens = (typeof LENSES)[number];

export const VISIBILITIES = ["unlisted", "public", "private"] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export const SCOPES = ["agent:read", "calendar:read", "calendar:write", "grants:manage"] as const;
export type Scope = (typeof SCOPES)[number];

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

export type AccessRequestStatus = "pending" | "approved" | "denied";

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

// Until every importer names records.ts itself (issue 11: the files were being edited by others).
export type {
  AccessRequestRecord,
  AgentRecord,
  CalendarRecord,
  CredentialRecord,
  EventRecord,
  GrantRecord,
  LayerRecord,
  MembershipRecord,
  ShareViewRecord,
  TokenRecord,
} from "./records.js";
