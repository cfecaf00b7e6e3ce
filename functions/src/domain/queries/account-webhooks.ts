/**
 * The webhooks of one of the account's agents, as the account page lists them
 * (docs/decisions/accounts.md). The caller lists only the account's own agents
 * (`listAccountAgents`); the secrets and the attempts are never read.
 */
import type { Deps } from "../deps.js";
import { paths } from "../paths.js";
import type { WebhookRecord } from "../webhooks/records.js";

export type AccountWebhook = Pick<
  WebhookRecord,
  "id" | "url" | "calendars" | "types" | "description" | "enabled" | "disabled_reason" | "created_at"
> & {
  /** The calendars whose stream ended because the agent may no longer read them (none: empty). */
  lost_access: NonNullable<WebhookRecord["lost_access"]>;
};

/** At most this many webhooks of one agent are listed (its quota is 20 unless raised). */
export const ACCOUNT_WEBHOOKS_SHOWN = 100;

const SHOWN = [
  "id",
  "url",
  "calendars",
  "types",
  "description",
  "enabled",
  "disabled_reason",
  "created_at",
  "lost_access",
] as const;

/** The agent's webhooks, oldest first; `more` when it has more than are shown. */
export async function agentWebhooks(
  deps: Pick<Deps, "store">,
  agentId: string,
): Promise<{ webhooks: AccountWebhook[]; more: boolean }> {
  const docs = await deps.store.query(paths.webhooks(), {
    where: [["agent_id", "==", agentId]],
    select: SHOWN,
    limit: ACCOUNT_WEBHOOKS_SHOWN + 1,
  });
  const webhooks = docs
    .map(({ data }): AccountWebhook => ({
      id: data.id,
      url: data.url,
      calendars: data.calendars,
      types: data.types,
      description: data.description ?? null,
      enabled: data.enabled,
      disabled_reason: data.disabled_reason ?? null,
      created_at: data.created_at,
      lost_access: data.lost_access ?? [],
    }))
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  return { webhooks: webhooks.slice(0, ACCOUNT_WEBHOOKS_SHOWN), more: webhooks.length > ACCOUNT_WEBHOOKS_SHOWN };
}
