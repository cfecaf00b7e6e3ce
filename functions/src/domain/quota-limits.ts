/**
 * The quotas' names and limits (docs/api.md#quotas), apart from their checks (quotas.ts) so that
 * `Deps` and the error catalog can name them without importing what imports them.
 */
export interface QuotaLimits {
  calendars_per_agent: number;
  events_per_calendar: number;
  credentials_per_agent: number;
  /** Slugs a calendar has ever held (an old slug stays reserved to it, and taking it back is free). */
  slugs_per_calendar: number;
  /**
   * Retired slugs (left by a rename, or held by a deleted calendar) still reserved for the
   * calendars one agent created; past it the oldest is released (domain/slugs.ts), never refused.
   */
  retired_slugs_per_agent: number;
  views_per_calendar: number;
  /** Cancelled, moved or changed occurrences one series may hold (counted by a bounded query). */
  exceptions_per_event: number;
  /** Webhooks one agent may hold (counted by a bounded query of its webhooks). */
  webhooks_per_agent: number;
  /**
   * Events of one calendar with an alarm ahead (alarm queue entries), counted on the calendar's
   * shards (domain/alarms/quota.ts): with 5 alarms an event and calendars_per_agent, what bounds
   * the alarms one agent can have queued.
   */
  events_with_alarms_per_calendar: number;
}

export type QuotaName = keyof QuotaLimits;
