import type { Deps } from "../deps.js";
import { paths } from "../paths.js";
import { reachesAll } from "../policy.js";
import { ownWebhook, type WebhookOwner } from "../webhooks/own.js";
import type { DeliveryAttempt, WebhookRecord } from "../webhooks/records.js";

/** GET .../deliveries answers at most this many attempts. */
export const DELIVERIES_SHOWN = 100;

/**
 * The caller's webhooks, oldest first (at most webhooks_per_agent of them: no paging); to a
 * restricted credential, those that follow only calendars it reaches.
 */
export async function listWebhooks(deps: Deps, owner: WebhookOwner): Promise<WebhookRecord[]> {
  const docs = await deps.store.query(paths.webhooks(), { where: [["agent_id", "==", owner.agentId]] });
  return docs
    .map((d) => d.data)
    .filter((hook) => reachesAll(owner, hook.calendars))
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
}

export async function getWebhook(deps: Deps, owner: WebhookOwner, webhookId: string): Promise<WebhookRecord> {
  return (await ownWebhook(deps.store, owner, webhookId)).data;
}

/** The last attempts of every stream of the webhook and its test pings, newest first. */
export async function listDeliveries(deps: Deps, owner: WebhookOwner, webhookId: string): Promise<DeliveryAttempt[]> {
  const hook = await ownWebhook(deps.store, owner, webhookId);
  const streams = await deps.store.getAll(hook.data.calendars.map((c) => paths.webhookStream(webhookId, c)));
  const all = [...hook.data.tests, ...streams.flatMap((s) => s?.data.attempts ?? [])];
  // Stable sort: within one instant, attempts keep their stream's order, newest last before reversing.
  return all
    .map((a, i) => ({ a, i }))
    .sort((x, y) => y.a.at.localeCompare(x.a.at) || y.i - x.i)
    .slice(0, DELIVERIES_SHOWN)
    .map(({ a }) => a);
}
