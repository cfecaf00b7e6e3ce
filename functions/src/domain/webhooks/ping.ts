/**
 * POST /v1/webhooks/{id}/test: one `ping` delivery now, signed like any other, and its attempt.
 * Sent before the route's transaction (http/route.ts `prepare`): a receiver may take 10 s, and
 * no transaction waits on a network call. The sender is the caller's (outbound/send.ts, handed
 * down through the HTTP deps): the domain makes no network call of its own.
 */
import { randomBytes } from "node:crypto";
import type { Deps } from "../deps.js";
import type { DeliveryAttempt, WebhookRecord } from "./records.js";
import type { Sender } from "./sender.js";
import type { WebhookSettings } from "./settings.js";
import { deliveryHeaders, signingSecrets } from "./signing.js";

export async function sendPing(
  deps: Pick<Deps, "clock">,
  hook: WebhookRecord,
  settings: Pick<WebhookSettings, "timeoutMs">,
  send: Sender,
): Promise<DeliveryAttempt> {
  const now = deps.clock();
  const id = `${hook.id}_ping_${randomBytes(8).toString("hex")}`;
  const body = JSON.stringify({
    type: "ping",
    calendar_id: null,
    data: { webhook_id: hook.id, url: hook.url },
    at: now.toISOString(),
  });
  const sent = await send(hook.url, deliveryHeaders(signingSecrets(hook, now), id, now, body), body, {
    timeoutMs: settings.timeoutMs,
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
