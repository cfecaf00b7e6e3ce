/** The webhook job as the composition roots start it: the configuration's settings and sender. */
import type { LookupFunction } from "node:net";
import type { DomainConfig } from "../../domain/config.js";
import type { Sender } from "../../domain/webhooks/sender.js";
import { webhookSettings, type WebhookSettings } from "../../domain/webhooks/settings.js";
import { createSender } from "../../outbound/send.js";
import { createWebhookJob, type WebhookJob } from "./job.js";
import type { DeliveryLimits } from "./limits.js";

export interface WebhookJobParts {
  /** The instance's sender (HttpDeps.sender), so pings and deliveries share connections. */
  send?: Sender;
  /** Name resolution of a sender built here (tests resolve names of their own). */
  lookup?: LookupFunction;
  limits?: DeliveryLimits;
}

export function webhookJobFromSettings(settings: WebhookSettings, parts: WebhookJobParts = {}): WebhookJob {
  const send = parts.send ?? createSender({ allowLoopback: settings.allowLoopback, lookup: parts.lookup });
  return createWebhookJob({ settings, send, limits: parts.limits });
}

export const webhookJobFromConfig = (deps: { config: Pick<DomainConfig, "webhooks">; sender?: Sender }): WebhookJob =>
  webhookJobFromSettings(webhookSettings(deps.config), { send: deps.sender });
