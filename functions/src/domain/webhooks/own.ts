import type { StoredDoc, TransactionReads } from "../../storage/port.js";
import { errors } from "../errors.js";
import { paths } from "../paths.js";
import type { WebhookRecord } from "./records.js";

/** The caller's webhook: another agent's is 404, as if it did not exist. */
export async function ownWebhook(
  reads: Pick<TransactionReads, "get">,
  agentId: string,
  webhookId: string,
): Promise<StoredDoc<WebhookRecord>> {
  const doc = await reads.get(paths.webhook(webhookId));
  if (!doc || doc.data.agent_id !== agentId) throw errors.notFound("webhook");
  return doc;
}
