/** The webhook job as the composition roots start it: the settings' sender under the one address policy. */
import { webhookSettings, type WebhookSettings } from "../../domain/webhooks/settings.js";
import { createSender } from "../../outbound/send.js";
import { createWebhookJob, type WebhookJob } from "./job.js";
import type { DeliveryLimits } from "./limits.js";

export function webhookJobFromSettings(
  settings: WebhookSettings = webhookSettings(),
  options: { lookup?: Parameters<typeof createSender>[0]["lookup"]; limits?: DeliveryLimits } = {},
): WebhookJob {
  const send = createSender({ allowLoopback: settings.allowLoopback, lookup: options.lookup });
  return createWebhookJob({ settings, send, limits: options.limits });
}
