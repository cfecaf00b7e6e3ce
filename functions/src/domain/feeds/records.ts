/**
 * feeds/{feedCalendarId}: an outside iCalendar feed attached to a host as a layer
 * (docs/decisions/feeds.md). Its events live in the feed calendar (a calendar record with
 * `feed_of` its host), which the layer points to; this record is where the refresh stands. The
 * feeds job finds the due ones by `due_at`, earliest first.
 */
export interface FeedRecord {
  /** The feed calendar, which holds the imported events; also this record's id. */
  calendar_id: string;
  host_calendar_id: string;
  layer_id: string;
  /** Whose share of the background work its refreshes take: the host's creator, else the host (jobs/feeds.ts). */
  tenant: string;
  /** The agent that attached it, named as the author of the events it imports. */
  attached_by: { id: string; name: string };
  /** The https URL as stored (WHATWG-normalised). */
  url: string;
  refresh_minutes: number;
  /** When the next fetch falls due; while a fetch runs, when the claim on it lapses. */
  due_at: string;
  /** Validators of the copy held, sent back as If-None-Match / If-Modified-Since; null when the server gave none. */
  etag: string | null;
  last_modified: string | null;
  /** When the last fetch ended, worked or not; null before the first. */
  last_fetched_at: string | null;
  /** Why the last fetch failed, or null when it worked (the events of the last good copy stay). */
  last_error: string | null;
  /** Events the last good copy holds (what the feed calendar stores). */
  event_count: number;
  created_at: string;
}
