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
  /**
   * weekly: an ISO weekday 0..7 (Monday = 1; 0 and 7 are Sunday) or a list of distinct ones, kept
   * as sent; monthly: day of month 1..31 or -1 (last), or with `week` a weekday 0..7; yearly: day of month.
   */
  day?: number | number[];
  /** monthly only: `day` is the n-th (1..5) or last (-1) such weekday of the month. */
  week?: number;
  month?: number;
  interval?: number;
  starts?: string;
  until?: string;
  /** The series ends after this many occurrences, counted from the first (RFC 5545 COUNT); never with `until` on input. */
  count?: number;
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
