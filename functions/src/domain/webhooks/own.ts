import type { StoredDoc, TransactionReads } from "../../storage/port.js";
import { EVERY_CALENDAR, type Actor } from "../actor.js";
import { errors } from "../errors.js";
import { paths } from "../paths.js";
import { reachesAll } from "../policy.js";
import type { WebhookRecord } from "./records.js";

/** Whose webhooks: an agent, through a credential that may reach only some of its calendars. */
export type WebhookOwner = Pick<Actor, "agentId" | "calendars">;

/** The agent itself, every calendar it reaches (its human's account page). */
export const wholeAgent = (agentId: string): WebhookOwner => ({ agentId, ...EVERY_CALENDAR });

/**
 * The caller's webhook: another agent's is 404, as if it did not exist, and so is one that
 * follows a calendar the caller's credential does not reach.
 */
export async function ownWebhook(
  reads: Pick<TransactionReads, "get">,
  owner: WebhookOwner,
  webhookId: string,
): Promise<StoredDoc<WebhookRecord>> {
  const doc = await reads.get(paths.webhook(webhookId));
  if (!doc || doc.data.agent_id !== owner.agentId || !reachesAll(owner, doc.data.calendars)) {
    throw errors.notFound("webhook");
  }
  return doc;
}
