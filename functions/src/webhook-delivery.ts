/**
 * Webhook delivery as the composition roots start it (server.ts, index.ts): the domain's runner
 * (domain/webhooks/runner.ts) with the change feed's presenter, so a delivery's `data` is the
 * change exactly as GET .../changes shows it.
 */
import type { Deps } from "./domain/deps.js";
import {
  deliveryContext,
  drainWebhooks,
  startWebhookRunner,
  type RunnerOptions,
  type WebhookRunner,
} from "./domain/webhooks/runner.js";
import type { DeliveryContext } from "./domain/webhooks/stream.js";
import { presentChange } from "./presenters/changes.js";

type DeliveryDeps = Pick<Deps, "store" | "clock" | "log">;

export function startWebhookDelivery(deps: DeliveryDeps, options: Omit<RunnerOptions, "present">): WebhookRunner {
  return startWebhookRunner(deps, { ...options, present: presentChange });
}

/** The scheduled function's work: passes for up to `forMs`. */
export const drainWebhookDeliveries = (deps: DeliveryDeps, forMs: number) =>
  drainWebhooks(deps, { present: presentChange, forMs });

/** One pass's context, for tests and the benchmark that drive passes themselves. */
export const webhookDeliveryContext = (
  deps: DeliveryDeps,
  options: Omit<Parameters<typeof deliveryContext>[1], "present"> = {},
): DeliveryContext => deliveryContext(deps, { ...options, present: presentChange });
