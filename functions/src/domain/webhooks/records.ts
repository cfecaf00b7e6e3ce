/**
 * The records of webhooks (docs/api.md#webhooks): a subscription and, per subscribed calendar,
 * its delivery stream. Apart from domain/records.ts so that webhooks keep their own file;
 * domain/paths.ts maps them to their collections like every other record.
 */
import { CHANGE_TYPES, type ChangeType } from "../records.js";

/**
 * What a webhook may subscribe to: every type of the change feed, `alarm` (alarms coming due,
 * recorded in the feed as well), and `ping`, which only POST .../test sends.
 */
export type WebhookType = ChangeType | "alarm" | "ping";
// A Set: the feed may come to list `alarm` itself.
export const WEBHOOK_TYPES = [...new Set<WebhookType>([...CHANGE_TYPES, "alarm", "ping"])] as [
  WebhookType,
  ...WebhookType[],
];
/** What a webhook subscribes to when it names no types: everything but test pings. */
export const DEFAULT_WEBHOOK_TYPES: WebhookType[] = WEBHOOK_TYPES.filter((type) => type !== "ping");

/** One attempt to deliver one change (or a test ping), as GET .../deliveries shows it. */
export interface DeliveryAttempt {
  /** The delivery's `webhook-id` header: the same on every retry of that change. */
  change_id: string;
  type: string;
  calendar_id: string | null;
  /** 1 for the first try of a change, 2 for its first retry... */
  attempt: number;
  /** The receiver's HTTP status, or null when none came (refused address, timeout, network). */
  status: number | null;
  latency_ms: number;
  error: string | null;
  at: string;
}

/** webhooks/{webhookId}: one agent's subscription. `secret*` fields are internal. */
export interface WebhookRecord {
  id: string;
  agent_id: string;
  url: string;
  calendars: string[];
  types: WebhookType[];
  description: string | null;
  enabled: boolean;
  disabled_reason: string | null;
  /** `whsec_` and base64 of 32 random bytes: what deliveries are signed with. */
  secret: string;
  /** The secret before the last rotation, still signing until `previous_secret_expires_at`. */
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  /** The last test pings (POST .../test), newest last; the streams keep the deliveries. */
  tests: DeliveryAttempt[];
  /**
   * Calendars whose stream ended quietly because the agent may no longer read them (a grant
   * revoked, the calendar made private, the agent revoked); absent on webhooks that never lost one.
   */
  lost_access?: LostAccess[];
  created_at: string;
  updated_at: string;
}

/** Why a stream stopped delivering without counting as failing. */
export type AccessLoss = "no_access" | "agent_revoked";

export interface LostAccess {
  calendar_id: string;
  reason: AccessLoss;
  since: string;
}

/**
 * calendars/{calendarId}/webhook_streams/{webhookId}: where delivery of one calendar to one webhook
 * stands. The change feed is the outbox: `positions` is the change-feed cursor this stream has
 * delivered up to (the last number delivered on each revision shard), so a crash between a
 * write and its delivery only delays it.
 */
export interface WebhookStreamRecord {
  webhook_id: string;
  calendar_id: string;
  positions: number[];
  /** Failed attempts on the change at the head of the stream since its last success. */
  failures: number;
  /** When the first of those failures happened, or null. */
  failing_since: string | null;
  /** No delivery is tried before this instant (retry backoff). */
  next_attempt_at: string;
  /** The delivering instance, so two never deliver the same stream at once, until `lease_expires_at`. */
  lease_holder: string | null;
  lease_expires_at: string | null;
  /** The last attempts of this stream, newest last. */
  attempts: DeliveryAttempt[];
}

/**
 * webhook_outbox/{calendarId}-{shard}: a shard of the calendar recorded changes that are not yet
 * fanned out to its streams. Every write that records a change sets it (a blind write beside the
 * shard document it already writes), so finding work costs what was written, not what follows it.
 */
export interface WebhookOutboxRecord {
  calendar_id: string;
  shard: number;
  /** The last write that set it: a fan-out removes the entry only if no write came after its read. */
  due_at: string;
}

/**
 * delivery_queue/{webhookId}-{calendarId}: a stream with deliveries waiting or a retry pending,
 * found by `due_at`. Removed when the stream is caught up, so idle streams cost nothing.
 */
export interface DeliveryQueueRecord {
  webhook_id: string;
  calendar_id: string;
  agent_id: string;
  /** The receiver's host and port: at most a few deliveries to one receiver run at once. */
  receiver: string;
  due_at: string;
  /** Set by each fan-out: a delivery that read an older value leaves the entry for the next pass. */
  woken_at: string;
}
