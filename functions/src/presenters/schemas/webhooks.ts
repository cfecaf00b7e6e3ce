import { z } from "zod";
import { WEBHOOK_TYPES } from "../../domain/webhooks/records.js";
import { changeRecord } from "./changes.js";

/** A webhook as its agent sees it; never its secret (presenters/webhooks.ts). */
export const webhookRecord = z.object({
  id: z.string(),
  url: z.string(),
  calendars: z.array(z.string()),
  types: z.array(z.enum(WEBHOOK_TYPES)),
  description: z.string().nullable(),
  enabled: z.boolean(),
  disabled_reason: z
    .string()
    .nullable()
    .meta({ description: "Why deliveries stopped (set when failures disabled the webhook); cleared by enabling it" }),
  lost_access: z
    .array(
      z.object({
        calendar_id: z.string(),
        reason: z.enum(["no_access", "agent_revoked"]),
        since: z.string(),
      }),
    )
    .meta({
      description:
        "Calendars not delivered because the agent may no longer read them (never counted as failing); " +
        "delivery resumes if access comes back",
    }),
  created_at: z.string(),
});
export type PresentedWebhook = z.input<typeof webhookRecord>;

/** Create and rotate: the webhook and its signing secret, answered once (a replay leaves it out). */
export const webhookWithSecret = z.object({
  webhook: webhookRecord,
  secret: z
    .string()
    .optional()
    .meta({ description: "`whsec_` + base64: the key that signs deliveries. Shown once; absent on a replay" }),
});

export const deliveryAttempt = z.object({
  change_id: z.string().meta({ description: "The delivery's `webhook-id` header, the same on every retry" }),
  type: z.string(),
  calendar_id: z.string().nullable(),
  attempt: z.number().int(),
  status: z.number().int().nullable().meta({ description: "The receiver's HTTP status; null when none came" }),
  latency_ms: z.number().int(),
  error: z.string().nullable(),
  at: z.string(),
});
export type PresentedAttempt = z.input<typeof deliveryAttempt>;

/** What a receiver is sent: one change, signed as Standard Webhooks specifies (docs/api.md#webhooks). */
export const webhookDelivery = z.object({
  type: z.string().meta({ description: "The change's type (`event.created`, `alarm`, ...), or `ping` for a test" }),
  calendar_id: z.string().nullable(),
  data: changeRecord.meta({ description: "The change as GET .../changes shows it" }),
  at: z.string().meta({ description: "When the change was recorded" }),
});
