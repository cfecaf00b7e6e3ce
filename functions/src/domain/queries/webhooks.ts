import type { Deps } from "../deps.js";
import { paths } from "../paths.js";
import { ownWebhook } from "../webhooks/own.js";
import type { DeliveryAttempt, WebhookRecord } from "../webhooks/records.js";

/** GET .../deliveries answers at most this many attempts. */
export const DELIVERIES_SHOWN = 100;

/** The caller's webhooks, oldest first (at most webhooks_per_agent of them: no paging). */
export async function listWebhooks(deps: Deps, agentId: string): Promise<WebhookRecord[]> {
  const docs = await deps.store.query(paths.webhooks(), { where: [["agent_id", "==", agentId]] });
  return docs.map((d) => d.data).sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
}

export async function getWebhook(deps: Deps, agentId: string, webhookId: string): Promise<WebhookRecord> {
  return (await ownWebhook(deps.store, agentId, webhookId)).data;
}

/** The last attempts of every stream of the webhook and its test pings, newest first. */
export async function listDeliveries(deps: Deps, agentId: string, webhookId: string): Promise<DeliveryAttempt[]> {
  const hook = await ownWebhook(deps.store, agentId, webhookId);
  const streams = await deps.store.getAll(hook.data.calendars.map((c) => paths.webhookStream(webhookId, c)));
  const all = [...hook.data.tests, ...streams.flatMap((s) => s?.data.attempts ?? [])];
  // Stable sort: within one instant, attempts keep their stream's order, newest last before reversing.
  return all
    .map((a, i) => ({ a, i }))
    .sort((x, y) => y.a.at.localeCompare(x.a.at) || y.i - x.i)
    .slice(0, DELIVERIES_SHOWN)
    .map(({ a }) => a);
}
