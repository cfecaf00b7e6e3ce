/**
 * Every record the store holds, one type per collection (the path each lives at is in
 * domain/paths.ts, whose references carry these types: `paths.event(...)` is a
 * `DocRef<EventRecord>`, and the port's reads and writes take their record type from it).
 * Fields marked internal are never shown: presenters pick the fields they answer with.
 * The value types records are made of (roles, lenses, recurrences, filters) are in types.ts.
 */
import type {
  AccessRequestStatus,
  EventKind,
  Lens,
  Recur,
  Role,
  Scope,
  ViewDisplay,
  ViewFilter,
  Visibility,
} from "./types.js";

/** Quota counters on an agent (domain/quotas.ts); absent on agents from before them. Internal. */
export interface AgentCounters {
  calendar_count?: number;
  live_credential_count?: number;
  /** Retired slugs (`slugs/{slug}` with `retired_by` this agent) still reserved; at most retired_slugs_per_agent (domain/slugs.ts). */
  retired_slug_count?: number;
}

/** agents/{agentId} */
export interface AgentRecord extends AgentCounters {
  id: string;
  name: string;
  created_at: string;
  /** Set when a signed-in human linked the agent (onboard token or claim link). */
  owner_user_id: string | null;
}

/** agents/{agentId}/credentials/{credentialId} */
export interface CredentialRecord {
  id: string;
  agent_id: string;
  label: string | null;
  scopes: Scope[];
  token_hash: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  /** The only calendars its token reaches; null or absent (credentials from before it): every one. */
  calendars?: string[] | null;
}

/** agents/{agentId}/memberships/{calendarId}: the agent's live grant, readable by id. */
export interface MembershipRecord {
  calendar_id: string;
  grant_id: string;
  role: Role;
}

/** tokens/{sha256(token)}: the one read that authenticates a request. */
export interface TokenRecord {
  agent_id: string;
  agent_name: string;
  credential_id: string;
  scopes: Scope[];
  expires_at: string | null;
  revoked_at: string | null;
  /** The credential's calendars, copied so that authenticating stays one read; absent: every one. */
  calendars?: string[] | null;
}

/**
 * alarm_requeues/{calendarId}: a calendar whose timezone changed, so the queued instants of its
 * events' alarms are stale (domain/alarms/requeue.ts). Internal.
 */
export interface AlarmRequeueRecord {
  calendar_id: string;
  /** When the timezone changed; a later change starts the requeue over. */
  requested_at: string;
  /** The last event whose entry was requeued (entries go in `event_id` order), or null. */
  after_event_id: string | null;
}

/**
 * calendar_purges/{calendarId}: a deleted calendar whose documents are still to be removed
 * (domain/purge/). Written by the DELETE that removes the calendar record, removed by the purge's
 * last batch: while it exists, a purge pass has work. Internal.
 */
export interface CalendarPurgeRecord {
  calendar_id: string;
  deleted_at: string;
}

/**
 * server_secrets/{name}: a random key the service signs with (`change_cursors`: the change
 * feed's cursors, domain/cursor-key.ts), made by the first instance that needs it. Internal.
 */
export interface ServerSecretRecord {
  /** 32 random bytes, base64url. */
  key: string;
  created_at: string;
}

/** onboard_tokens/{sha256}: issued to a signed-in human by the account side of the service. */
export interface OnboardTokenRecord {
  user_id: string;
  created_at: string;
  used_at: string | null;
  /** When Firestore's TTL policy deletes it (firestore.indexes.json): a Date, stored as a Timestamp. */
  purge_at: Date;
}

/** claims/{sha256}: a single-use link a human opens to link an anonymously minted agent. */
export interface ClaimRecord {
  agent_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** The expiry as a Date (a Timestamp on Firestore), for the TTL policy that purges expired links. */
  purge_at: Date;
}

/** idempotency/{sha256(agent + key)}: a claimed key and, once done, its stored answer (http/idempotency.ts). */
export interface IdempotencyRecord {
  fingerprint: string;
  state: "pending" | "done";
  /** Which attempt holds the key: a takeover replaces it, and the earlier attempt can no longer commit. */
  claim_id: string;
  process_id: string;
  started_at: string;
  expires_at: string;
  /** The same instant as a Date: Firestore's TTL policy purges on a Timestamp field. */
  purge_at: Date;
  status?: number;
  body?: unknown;
}

/** Quota counters on a calendar (domain/quotas.ts); absent on calendars from before them. Internal. */
export interface CalendarCounters {
  slug_count?: number;
  live_view_count?: number;
}

/** A calendar's colours by category, `#rrggbb` each. */
export type CategoryColours = Record<string, { color: string }>;

/** calendars/{calendarId} */
export interface CalendarRecord extends CalendarCounters {
  id: string;
  name: string;
  slug: string;
  timezone: string;
  visibility: Visibility;
  purpose: string | null;
  default_view: Lens | null;
  views: Lens[] | null;
  /** Owner-set colours by category name (absent on calendars from before them: none). */
  categories?: CategoryColours | null;
  /** BCP 47 tag its pages write dates in; null or absent: the reader's `Accept-Language`. */
  locale?: string | null;
  created_at: string;
  updated_at: string;
  /** The agent that created it, whose calendar quota it takes until it is deleted; internal (absent on older calendars). */
  created_by?: string;
  /** Changes with every write to what the calendar shows (see domain/revision.ts); internal. */
  revision: string;
  /** Every event of the calendar stores `sort_key` (calendars created since the list key came; queries/events.ts); internal. */
  event_sort_keys?: boolean;
  /** Every event of the calendar stores the span it can occur in (`series_end`; queries/occurring.ts); internal. */
  event_spans?: boolean;
  /**
   * The host whose outside feed this calendar holds (domain/feeds); absent on every other
   * calendar. Private and without grants: shown only through its host's layer, never by id.
   */
  feed_of?: string;
}

/**
 * slugs/{slug}: the calendar that holds the slug. A slug the calendar left (a rename) or held
 * when deleted is retired: still its own (an old address redirects, or is 404 once deleted),
 * charged to `retired_by` (the calendar's creator), until that agent's newer retirements push
 * it past retired_slugs_per_agent and it is released (domain/slugs.ts).
 */
export interface SlugRecord {
  owner_id: string;
  /** When the calendar stopped holding it as its current slug; absent while current, and on slugs retired before this field. */
  retired_at?: string;
  /** The agent whose count of retired slugs it takes. */
  retired_by?: string;
}

/** view_slugs/{slug}: which view holds a slug (forever, even once revoked) and of which calendar. */
export interface ViewSlugRecord {
  owner_id: string;
  calendar_id: string;
}

/** calendars/{calendarId}/events/{eventId} */
export interface EventRecord {
  id: string;
  calendar_id: string;
  kind: EventKind;
  name: string;
  date: string | null;
  recur: Recur | null;
  start_time: string | null;
  end_time: string | null;
  /** Dates each occurrence covers, from its date (events/span.ts); absent = 1. */
  days?: number;
  category: string | null;
  notes: string | null;
  art: string | null;
  /** Minutes before each occurrence's start, distinct, largest first (events/alarms.ts). Absent = none. */
  alarms?: number[];
  /** The UID of the iCalendar component it was imported from (domain/import): the same UID is this event on every import. */
  ical_uid?: string;
  created_by: { id: string; name: string };
  created_at: string;
  updated_at: string;
  /** The event's place in the list (eventSortKey, queries/events.ts), written by every event write; internal. */
  sort_key?: string;
  /**
   * A series' last possible date (9999-12-31 when open-ended), written by every event write
   * (events/stored.ts); absent on other kinds. Range reads bound series by it; internal.
   */
  series_end?: string;
  /**
   * A one-off event's last day when it covers more than one (events/stored.ts); absent
   * otherwise. Range reads find what began before them by it; internal.
   */
  span_end?: string;
  /** Raised whenever a time of the event changes (date, recur, days, start_time, end_time): the feeds' SEQUENCE. Absent = 0. */
  sequence?: number;
}

/**
 * calendars/{calendarId}/exceptions/{eventId}_{YYYYMMDD}: one occurrence of a series
 * cancelled, moved or changed (docs/api.md#exceptions). The values are resolved: the series' own where
 * the change left them, so an exception reads alone. Keyed by the original date, so an
 * occurrence has at most one.
 */
export interface ExceptionRecord {
  id: string;
  calendar_id: string;
  event_id: string;
  original_date: string;
  cancelled: boolean;
  date: string;
  start_time: string | null;
  end_time: string | null;
  /** Dates this occurrence covers (the series' unless its PATCH set them); absent = 1. */
  days?: number;
  name: string;
  category: string | null;
  notes: string | null;
  /** This occurrence's own alarms, as an event's ([] = none); absent = it follows the event's. */
  alarms?: number[];
  /** Raised whenever this occurrence's time changes: its override's SEQUENCE in feeds. */
  sequence: number;
  /**
   * The last day of the original occurrence or of this one, whichever is later, when either
   * covers more than one (events/stored.ts); absent otherwise. Range reads find by it what
   * began before them; internal.
   */
  span_end?: string;
  created_at: string;
  updated_at: string;
}

/** calendars/{calendarId}/grants/{grantId}: revoked grants stay, as history. */
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

/** calendars/{calendarId}/access_requests/{requestId} */
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

/** calendars/{calendarId}/pending_requests/{agentId}: the one pending request of an agent, readable by id. */
export interface PendingRequestRecord {
  request_id: string;
}

/** calendars/{calendarId}/views/{viewId} */
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

/** calendars/{hostId}/layers/{layerId}: a calendar shown as a layer of the host. */
export interface LayerRecord {
  id: string;
  calendar_id: string;
  host_calendar_id: string;
  key: string;
  created_at: string;
  /** Its calendar holds an outside feed (feeds/{calendar_id}), the host's own: within reach of whoever reaches the host. */
  feed?: boolean;
}

/** calendars/{layerCalendarId}/hosts/{hostId}: the reverse link that makes "is it a layer somewhere?" one query. */
export interface HostLinkRecord {
  host_calendar_id: string;
  layer_id: string;
  created_at: string;
}

/** calendars/{calendarId}/shards/{n}: a share of the calendar's revision and event count (domain/revision.ts). */
export interface ShardRecord {
  revision: string;
  /** May go below zero: only the sum over the shards is the calendar's. */
  event_count: number;
  /** The number of the last change recorded on this shard (domain/commands/changes.ts); absent = 0. */
  change_seq?: number;
  /**
   * This shard's share of the calendar's events with an alarm ahead (queue entries with a
   * lane; domain/alarms/quota.ts); absent = 0. May go below zero like `event_count`.
   */
  alarm_event_count?: number;
}

export const CHANGE_TYPES = [
  "event.created",
  "event.updated",
  "event.deleted",
  "exception.changed",
  "calendar.updated",
  "layer.attached",
  "layer.detached",
  "layer.refreshed",
  "alarm",
] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

/**
 * calendars/{calendarId}/shards/{n}/changes/{seq}: one change of the calendar, written in the
 * transaction of the write that made it, numbered on its shard (domain/commands/changes.ts).
 */
export interface ChangeRecord {
  /** Its number on its shard: 1, 2, 3... without gaps. */
  seq: number;
  shard: number;
  type: ChangeType;
  /** The event's id, or the calendar's (calendar.updated), or the layer's (layer.*). */
  id: string;
  at: string;
  /** The event as the write left it (event.created, event.updated; the series for exception.changed). */
  event?: EventRecord;
  /** exception.changed and alarm: the occurrence's original date. */
  original_date?: string;
  /** alarm: the occurrence that alarmed and how long before its start (domain/alarms/). */
  alarm?: AlarmFired;
  /** At the 7-day retention: a TTL policy on Firestore, the sweep on SQLite (domain/retention.ts). */
  purge_at: Date;
}

/** What an `alarm` change says besides its id and original date: the occurrence as it stands. */
export interface AlarmFired {
  event_id: string;
  date: string;
  /** Exact instants with offset; null for an all-day occurrence (and `end` without an end time). */
  start: string | null;
  end: string | null;
  minutes_before: number;
  name: string;
  /** When the alarm fell due (UTC instant); the change's `at` is when it was recorded. */
  due_at: string;
}

/**
 * alarm_queue/{calendarId}-{eventId}: the next instant one of an event's alarms falls due, the
 * index a tick reads instead of every calendar (domain/alarms/). Absent: no alarm ahead. Internal.
 */
export interface AlarmQueueRecord {
  calendar_id: string;
  event_id: string;
  /** The earliest alarm instant after `fired_through` (UTC ISO, so text order is time order). */
  due_at: string;
  /** Every alarm up to this instant has been recorded, or had not existed when the event was written. */
  fired_through: string;
  /**
   * Which of the calendar's lanes the entry is in (domain/alarms/lanes.ts: a hash of the event
   * id), and so which head the tick finds it by. Absent on entries queued before lanes: those
   * are given one by a pass over the queue (domain/alarms/backfill.ts), and only entries with a
   * lane count in the calendar's quota of events with alarms.
   */
  lane?: number;
}
