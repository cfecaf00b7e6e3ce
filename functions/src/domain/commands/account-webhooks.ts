/**
 * What a signed-in human does to the webhooks of one of their agents, from the account page
 * (docs/api.md#humans-claims-and-accounts): disable, enable or delete one. Each runs in the
 * caller's transaction: the agent is read and judged there (`accountAgent`, the policy's
 * `accountOwnsAgent`), then the webhook command the agent's own API calls run
 * (commands/webhooks.ts), so both write the same things: a deleted webhook takes its delivery
 * streams with it. Another account's agent, or a webhook that is not that agent's, is `not_found`.
 */
import type { Transaction } from "../../storage/port.js";
import { isIdOf } from "../ids.js";
import { errors } from "../errors.js";
import { paths } from "../paths.js";
import { ownWebhook, wholeAgent } from "../webhooks/own.js";
import type { WebhookRecord } from "../webhooks/records.js";
import { accountAgent } from "./accounts.js";
import { deleteWebhook, updateWebhook } from "./webhooks.js";

/** What the agent reads in `disabled_reason` (GET /v1/webhooks) once its human disabled the webhook. */
export const DISABLED_BY_ACCOUNT = "disabled by the agent's human on the account page";

/** No URL is changed here, so no URL rule applies. */
const NO_URL_CHANGE = { allowLoopback: false };

async function accountWebhook(tx: Transaction, userId: string, agentId: string, webhookId: string) {
  await accountAgent(tx, userId, agentId);
  if (!isIdOf("whk", webhookId)) throw errors.notFound("webhook");
  return ownWebhook(tx, wholeAgent(agentId), webhookId);
}

/**
 * Disables or enables one webhook of the account's agent. Disabling says why in
 * `disabled_reason`; enabling clears it and lets every stream retry at once (as the agent's
 * PATCH does). Asking for the state it is in changes nothing, so a reason it was disabled for
 * (failures) is kept.
 */
export async function setAccountWebhookEnabled(
  tx: Transaction,
  deps: Parameters<typeof updateWebhook>[1],
  userId: string,
  agentId: string,
  webhookId: string,
  enabled: boolean,
): Promise<WebhookRecord> {
  const hook = await accountWebhook(tx, userId, agentId, webhookId);
  if (hook.data.enabled === enabled) return hook.data;
  const updated = await updateWebhook(tx, deps, wholeAgent(agentId), webhookId, { enabled }, NO_URL_CHANGE);
  if (enabled) return updated;
  tx.update(paths.webhook(webhookId), { disabled_reason: DISABLED_BY_ACCOUNT });
  return { ...updated, disabled_reason: DISABLED_BY_ACCOUNT };
}

/** Deletes one webhook of the account's agent and its delivery streams (`deleteWebhook`). */
export async function deleteAccountWebhook(
  tx: Transaction,
  userId: string,
  agentId: string,
  webhookId: string,
): Promise<WebhookRecord> {
  await accountWebhook(tx, userId, agentId, webhookId);
  return deleteWebhook(tx, wholeAgent(agentId), webhookId);
}
