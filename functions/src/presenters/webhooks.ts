import type { DeliveryAttempt, WebhookRecord } from "../domain/webhooks/records.js";
import type { PresentedAttempt, PresentedWebhook } from "./schemas/webhooks.js";

export const presentWebhook = (hook: WebhookRecord): PresentedWebhook => ({
  id: hook.id,
  url: hook.url,
  calendars: hook.calendars,
  types: hook.types,
  description: hook.description,
  enabled: hook.enabled,
  disabled_reason: hook.disabled_reason,
  lost_access: (hook.lost_access ?? []).map(({ calendar_id, reason, since }) => ({ calendar_id, reason, since })),
  created_at: hook.created_at,
});

export const presentAttempt = (a: DeliveryAttempt): PresentedAttempt => ({
  change_id: a.change_id,
  type: a.type,
  calendar_id: a.calendar_id,
  attempt: a.attempt,
  status: a.status,
  latency_ms: a.latency_ms,
  error: a.error,
  at: a.at,
});
