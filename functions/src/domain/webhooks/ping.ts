/**
 * POST /v1/webhooks/{id}/test: one `ping` delivery now, signed like any other, and its attempt.
 * Sent before the route's transaction (http/route.ts `prepare`): a receiver may take 10 s, and
 * no transaction waits on a network call.
 */
import { randomBytes } from "node:crypto";
import type { LookupFunction } from "node:net";
import type { Deps } from "../deps.js";
import type { DeliveryAttempt, WebhookRecord } from "./records.js";
import { postJson } from "./send.js";
import type { WebhookSettings } from "./settings.js";
import { deliveryHeaders, signingSecrets } from "./signing.js";

export async function sendPing(
  deps: Pick<Deps, "clock">,
  hook: WebhookRecord,
  settings: WebhookSettings,
  lookup?: LookupFunction,
): Promise<DeliveryAttempt> {
  const now = deps.clock();
  const id = `${hook.id}_ping_${randomBytes(8).toString("hex")}`;
  const body = JSON.stringify({
    type: "ping",
    calendar_id: null,
    data: { webhook_id: hook.id, url: hook.url },
    at: now.toISOString(),
  });
  const sent = await postJson(hook.url, deliveryHeaders(signingSecrets(hook, now), id, now, body), body, {
    allowLoopback: settings.allowLoopback,
    timeoutMs: settings.timeoutMs,
    lookup,
  });
  return {
    change_id: id,
    type: "ping",
    calendar_id: null,
    attempt: 1,
    status: sent.status,
    latency_ms: sent.latencyMs,
    error: sent.error,
    at: now.toISOString(),
  };
}
