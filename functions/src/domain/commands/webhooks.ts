/**
 * Webhook writes (docs/api.md#webhooks), each in its caller's transaction. The route has
 * checked that the caller may read every calendar it names; here: the URL, the quota, and one
 * delivery stream per calendar starting at the calendar's current counters, so a webhook gets
 * the changes made after it subscribed.
 */
import type { Transaction } from "../../storage/port.js";
import { readCounters } from "../change-watch.js";
import type { CommandDeps } from "../deps.js";
import { errors } from "../errors.js";
import { newId } from "../ids.js";
import { paths } from "../paths.js";
import { quotaLimits } from "../quotas.js";
import { ownWebhook, type WebhookOwner } from "../webhooks/own.js";
import {
  DEFAULT_WEBHOOK_TYPES,
  type DeliveryAttempt,
  type WebhookRecord,
  type WebhookStreamRecord,
  type WebhookType,
} from "../webhooks/records.js";
import type { WebhookSettings } from "../webhooks/settings.js";
import { newWebhookSecret, PREVIOUS_SECRET_MS } from "../webhooks/signing.js";
import { queueEntry } from "../webhooks/stream.js";
import { checkWebhookUrl } from "../webhooks/url.js";

/** The test pings a webhook keeps for GET .../deliveries. */
const KEPT_TESTS = 10;

export interface NewWebhook {
  url: string;
  calendars: string[];
  types?: WebhookType[];
  description?: string | null;
}

export interface WebhookPatch {
  url?: string;
  calendars?: string[];
  types?: WebhookType[];
  enabled?: boolean;
  description?: string | null;
}

const newStream = (webhookId: string, calendarId: string, positions: number[], now: string): WebhookStreamRecord => ({
  webhook_id: webhookId,
  calendar_id: calendarId,
  positions,
  failures: 0,
  failing_since: null,
  next_attempt_at: now,
  lease_holder: null,
  lease_expires_at: null,
  attempts: [],
});

async function countersOf(tx: Transaction, calendarIds: string[], shards: number): Promise<number[][]> {
  return Promise.all(calendarIds.map((id) => readCounters(tx, id, shards)));
}

export async function createWebhook(
  tx: Transaction,
  deps: Pick<CommandDeps, "clock" | "config">,
  agentId: string,
  input: NewWebhook,
  settings: Pick<WebhookSettings, "allowLoopback">,
): Promise<{ webhook: WebhookRecord; secret: string }> {
  const url = checkWebhookUrl(input.url, settings);
  const limit = quotaLimits(deps).webhooks_per_agent;
  const [held, counters] = await Promise.all([
    tx.query(paths.webhooks(), { where: [["agent_id", "==", agentId]], select: ["id"], limit: limit + 1 }),
    countersOf(tx, input.calendars, deps.config.revisionShards),
  ]);
  if (held.length >= limit) throw errors.quotaExceeded("webhooks_per_agent", limit);
  const now = deps.clock().toISOString();
  const secret = newWebhookSecret();
  const webhook: WebhookRecord = {
    id: newId("whk"),
    agent_id: agentId,
    url,
    calendars: input.calendars,
    types: input.types ?? DEFAULT_WEBHOOK_TYPES,
    description: input.description ?? null,
    enabled: true,
    disabled_reason: null,
    secret,
    previous_secret: null,
    previous_secret_expires_at: null,
    tests: [],
    created_at: now,
    updated_at: now,
  };
  tx.create(paths.webhook(webhook.id), webhook);
  input.calendars.forEach((calendarId, i) =>
    tx.create(paths.webhookStream(webhook.id, calendarId), newStream(webhook.id, calendarId, counters[i], now)),
  );
  return { webhook, secret };
}

/**
 * PATCH: a calendar added starts at its current counters, one removed loses its stream;
 * enabling clears `disabled_reason` and lets every stream retry at once.
 */
export async function updateWebhook(
  tx: Transaction,
  deps: Pick<CommandDeps, "clock" | "config">,
  owner: WebhookOwner,
  webhookId: string,
  patch: WebhookPatch,
  settings: Pick<WebhookSettings, "allowLoopback">,
): Promise<WebhookRecord> {
  const url = patch.url === undefined ? undefined : checkWebhookUrl(patch.url, settings);
  const doc = await ownWebhook(tx, owner, webhookId);
  const before = doc.data;
  const calendars = patch.calendars ?? before.calendars;
  const added = calendars.filter((id) => !before.calendars.includes(id));
  const removed = before.calendars.filter((id) => !calendars.includes(id));
  const counters = await countersOf(tx, added, deps.config.revisionShards);
  const now = deps.clock().toISOString();
  const enabling = patch.enabled === true && !before.enabled;
  const changes: Partial<WebhookRecord> = {
    ...(url !== undefined ? { url } : {}),
    ...(patch.calendars !== undefined ? { calendars } : {}),
    ...(patch.types !== undefined ? { types: patch.types } : {}),
    ...(patch.description !== undefined ? { description: patch.description } : {}),
    ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
    ...(patch.enabled === true ? { disabled_reason: null } : {}),
  };
  const updated = { ...before, ...changes, updated_at: now };
  tx.update(doc.path, { ...changes, updated_at: now });
  added.forEach((calendarId, i) =>
    tx.set(paths.webhookStream(webhookId, calendarId), newStream(webhookId, calendarId, counters[i], now)),
  );
  for (const calendarId of removed) {
    tx.delete(paths.webhookStream(webhookId, calendarId));
    tx.delete(paths.deliveryQueueEntry(webhookId, calendarId));
  }
  // Enabled again, or sent elsewhere: every stream is due at once (the queue entry names the receiver).
  if (enabling || (url !== undefined && url !== before.url)) {
    for (const calendarId of calendars.filter((id) => !added.includes(id))) {
      if (enabling)
        tx.update(paths.webhookStream(webhookId, calendarId), {
          failures: 0,
          failing_since: null,
          next_attempt_at: now,
        });
      tx.set(paths.deliveryQueueEntry(webhookId, calendarId), queueEntry(updated, calendarId, now, now));
    }
  }
  return updated;
}

export async function deleteWebhook(tx: Transaction, owner: WebhookOwner, webhookId: string): Promise<WebhookRecord> {
  const doc = await ownWebhook(tx, owner, webhookId);
  tx.delete(doc.path);
  for (const calendarId of doc.data.calendars) {
    tx.delete(paths.webhookStream(webhookId, calendarId));
    tx.delete(paths.deliveryQueueEntry(webhookId, calendarId));
  }
  return doc.data;
}

/** A new secret; the one it replaces keeps signing (beside it) for 24 hours. */
export async function rotateWebhookSecret(
  tx: Transaction,
  deps: Pick<CommandDeps, "clock">,
  owner: WebhookOwner,
  webhookId: string,
): Promise<{ webhook: WebhookRecord; secret: string }> {
  const doc = await ownWebhook(tx, owner, webhookId);
  const now = deps.clock();
  const secret = newWebhookSecret();
  const changes: Partial<WebhookRecord> = {
    secret,
    previous_secret: doc.data.secret,
    previous_secret_expires_at: new Date(now.getTime() + PREVIOUS_SECRET_MS).toISOString(),
    updated_at: now.toISOString(),
  };
  tx.update(doc.path, changes);
  return { webhook: { ...doc.data, ...changes }, secret };
}

/** Keeps a test ping's attempt with the webhook. */
export async function recordTestAttempt(
  tx: Transaction,
  owner: WebhookOwner,
  webhookId: string,
  attempt: DeliveryAttempt,
): Promise<WebhookRecord> {
  const doc = await ownWebhook(tx, owner, webhookId);
  const tests = [...doc.data.tests, attempt].slice(-KEPT_TESTS);
  tx.update(doc.path, { tests });
  return { ...doc.data, tests };
}
