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

export const RECUR_TYPES = ["daily", "weekly", "monthly", "yearly"] as const;
export type RecurType = (typeof RECUR_TYPES)[number];

export interface Recur {
  type: RecurType;
  day?: number;
  month?: number;
  interval?: number;
  starts?: string;
  until?: string;
}

export const EVENT_KINDS = ["one-off", "recurring", "someday"] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export const ACCESS_REQUEST_STATUSES = ["pending", "approved", "denied"] as const;
export type AccessRequestStatus = (typeof ACCESS_REQUEST_STATUSES)[number];

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
