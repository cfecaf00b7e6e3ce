import { z } from "zod";
import {
  createWebhook,
  deleteWebhook,
  recordTestAttempt,
  rotateWebhookSecret,
  updateWebhook,
} from "../domain/commands/webhooks.js";
import { requireCalendar } from "../domain/queries/access.js";
import { getWebhook, listDeliveries, listWebhooks } from "../domain/queries/webhooks.js";
import type { Actor } from "../domain/actor.js";
import type { Deps } from "../domain/deps.js";
import { ownWebhook } from "../domain/webhooks/own.js";
import { sendPing } from "../domain/webhooks/ping.js";
import { WEBHOOK_TYPES } from "../domain/webhooks/records.js";
import { webhookSettings } from "../domain/webhooks/settings.js";
import { verifyWebhookUrl } from "../domain/webhooks/url.js";
import type { HttpDeps } from "../http/deps.js";
import { defineRoute } from "../http/route.js";
import { resolverFor } from "../outbound/lookup.js";
import { sharedSender } from "../outbound/send.js";
import { presentAttempt, presentWebhook } from "../presenters/webhooks.js";
import { calendarIdList, deleted, idOf, trimmedName } from "./common.js";
import { deliveryAttempt, webhookRecord, webhookWithSecret } from "../presenters/schemas/webhooks.js";

/** Calendars one webhook may follow. */
const MAX_CALENDARS = 50;

const calendars = calendarIdList(MAX_CALENDARS).describe("Calendar ids to follow");
const types = z
  .array(z.enum(WEBHOOK_TYPES))
  .min(1, { message: "must name at least one type; omit `types` for every change type" })
  .refine((t) => new Set(t).size === t.length, { message: "must list distinct types" })
  .describe("Change types; default all but ping");
const url = z.string().max(2000, { message: "must be at most 2000 characters" }).describe("Public https URL");
const description = trimmedName(500).nullable().describe("A note for you");
const webhookParams = z.object({ webhookId: idOf("whk").describe("Webhook id") });

/** The composition root's sender, or one built from the settings of this moment (tests switch loopback per test). */
const senderOf = (deps: HttpDeps) => deps.sender ?? sharedSender(deps.config.webhooks);

const systemResolver = resolverFor();

/**
 * A new URL judged by the address policy of deliveries, its name resolved: in `prepare`,
 * outside the transaction, which no DNS answer may hold.
 */
const verifiedUrl = (deps: HttpDeps, url: string) =>
  verifyWebhookUrl(url, webhookSettings(deps.config), deps.resolveHost ?? systemResolver);

/** The caller must be able to read every calendar it subscribes to (404 as for any unreadable calendar). */
async function requireReadable(deps: Deps, actor: Actor, ids: readonly string[]): Promise<void> {
  for (const id of ids) await requireCalendar(deps, id, actor, "calendar.read");
}

export const webhookRoutes = [
  defineRoute({
    method: "get",
    path: "/v1/webhooks",
    summary: "List your webhooks, oldest first",
    tags: ["webhooks"],
    auth: "required",
    scope: "calendar:read",
    response: z.object({ webhooks: z.array(webhookRecord) }),
    errors: ["unauthorized", "insufficient_scope"],
    handler: async ({ deps, actor }) => ({ webhooks: (await listWebhooks(deps, actor)).map(presentWebhook) }),
  }),
  defineRoute({
    method: "post",
    path: "/v1/webhooks",
    summary:
      "Subscribe a URL to the changes of calendars you can read: each change is POSTed, signed (Standard Webhooks), " +
      "at least once and in feed order per calendar",
    tags: ["webhooks"],
    auth: "required",
    scope: "calendar:read",
    body: z.strictObject({ url, calendars, types: types.optional(), description: description.optional() }),
    secretFields: ["secret"],
    response: webhookWithSecret,
    errors: ["invalid_request", "unauthorized", "insufficient_scope", "not_found", "quota_exceeded"],
    prepare: async ({ deps, body }) => verifiedUrl(deps, body.url),
    handler: async ({ tx, deps, actor, body, prepared: url }) => {
      await requireReadable(deps, actor, body.calendars);
      const { webhook, secret } = await createWebhook(
        tx,
        deps,
        actor.agentId,
        { ...body, url },
        webhookSettings(deps.config),
      );
      return { webhook: presentWebhook(webhook), secret };
    },
  }),
  defineRoute({
    method: "get",
    path: "/v1/webhooks/{webhookId}",
    summary: "Read one of your webhooks",
    tags: ["webhooks"],
    auth: "required",
    scope: "calendar:read",
    params: webhookParams,
    response: webhookRecord,
    errors: ["unauthorized", "insufficient_scope", "not_found"],
    handler: async ({ deps, actor, params }) => presentWebhook(await getWebhook(deps, actor, params.webhookId)),
  }),
  defineRoute({
    method: "patch",
    path: "/v1/webhooks/{webhookId}",
    summary:
      "Change a webhook's URL, calendars, types or description, or pause and resume it (`enabled`; enabling clears `disabled_reason`)",
    tags: ["webhooks"],
    auth: "required",
    scope: "calendar:read",
    params: webhookParams,
    body: z.strictObject({
      url: url.optional(),
      calendars: calendars.optional(),
      types: types.optional(),
      enabled: z.boolean().optional().describe("false pauses, true resumes"),
      description: description.optional(),
    }),
    response: webhookRecord,
    errors: ["invalid_request", "unauthorized", "insufficient_scope", "not_found"],
    prepare: async ({ deps, body }) => (body.url === undefined ? undefined : verifiedUrl(deps, body.url)),
    handler: async ({ tx, deps, actor, params, body, prepared: url }) => {
      const current = await ownWebhook(deps.store, actor, params.webhookId);
      if (body.calendars)
        await requireReadable(
          deps,
          actor,
          body.calendars.filter((id) => !current.data.calendars.includes(id)),
        );
      const patch = url === undefined ? body : { ...body, url };
      const hook = await updateWebhook(tx, deps, actor, params.webhookId, patch, webhookSettings(deps.config));
      return presentWebhook(hook);
    },
  }),
  defineRoute({
    method: "delete",
    path: "/v1/webhooks/{webhookId}",
    summary: "Delete a webhook: no delivery starts after this",
    tags: ["webhooks"],
    auth: "required",
    scope: "calendar:read",
    params: webhookParams,
    response: deleted,
    errors: ["unauthorized", "insufficient_scope", "not_found"],
    handler: async ({ tx, actor, params }) => ({
      deleted: (await deleteWebhook(tx, actor, params.webhookId)).id,
    }),
  }),
  defineRoute({
    method: "post",
    path: "/v1/webhooks/{webhookId}/rotate-secret",
    summary: "Give the webhook a new signing secret; for 24 hours deliveries carry signatures by both",
    tags: ["webhooks"],
    auth: "required",
    scope: "calendar:read",
    params: webhookParams,
    bodyOptional: true,
    body: z.strictObject({}),
    secretFields: ["secret"],
    response: webhookWithSecret,
    errors: ["unauthorized", "insufficient_scope", "not_found"],
    handler: async ({ tx, deps, actor, params }) => {
      const { webhook, secret } = await rotateWebhookSecret(tx, deps, actor, params.webhookId);
      return { webhook: presentWebhook(webhook), secret };
    },
  }),
  defineRoute({
    method: "post",
    path: "/v1/webhooks/{webhookId}/test",
    summary: "Send a signed `ping` delivery to the webhook's URL now and answer how it went",
    tags: ["webhooks"],
    auth: "required",
    scope: "calendar:read",
    params: webhookParams,
    bodyOptional: true,
    body: z.strictObject({}),
    response: z.object({ delivered: z.boolean(), attempt: deliveryAttempt }),
    errors: ["unauthorized", "insufficient_scope", "not_found"],
    // The POST goes out before the transaction: no transaction waits on a receiver.
    prepare: async ({ deps, actor, params }) => {
      const hook = await ownWebhook(deps.store, actor, params.webhookId);
      return sendPing(deps, hook.data, webhookSettings(deps.config), senderOf(deps));
    },
    handler: async ({ tx, actor, params, prepared }) => {
      await recordTestAttempt(tx, actor, params.webhookId, prepared);
      const delivered = prepared.status !== null && prepared.status >= 200 && prepared.status < 300 && !prepared.error;
      return { delivered, attempt: presentAttempt(prepared) };
    },
  }),
  defineRoute({
    method: "get",
    path: "/v1/webhooks/{webhookId}/deliveries",
    summary: "The webhook's last 100 delivery attempts (tests included), newest first",
    tags: ["webhooks"],
    auth: "required",
    scope: "calendar:read",
    params: webhookParams,
    response: z.object({ deliveries: z.array(deliveryAttempt) }),
    errors: ["unauthorized", "insufficient_scope", "not_found"],
    handler: async ({ deps, actor, params }) => ({
      deliveries: (await listDeliveries(deps, actor, params.webhookId)).map(presentAttempt),
    }),
  }),
];
