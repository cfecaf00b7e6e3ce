/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): `v1,` and the base64
 * HMAC-SHA256 of `${id}.${timestamp}.${body}`, keyed with the bytes after `whsec_`. After a
 * rotation both secrets sign, space-separated, for 24 hours, so a receiver may switch at leisure.
 */
import { createHmac, randomBytes } from "node:crypto";
import type { WebhookRecord } from "./records.js";

const PREFIX = "whsec_";
/** 32 random bytes: above Standard Webhooks' 24-byte minimum. */
const SECRET_BYTES = 32;
export const PREVIOUS_SECRET_MS = 24 * 60 * 60 * 1000;

export const newWebhookSecret = (): string => `${PREFIX}${randomBytes(SECRET_BYTES).toString("base64")}`;

const keyOf = (secret: string): Buffer => Buffer.from(secret.slice(PREFIX.length), "base64");

export function sign(secret: string, id: string, timestampSeconds: number, body: string): string {
  return `v1,${createHmac("sha256", keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`).digest("base64")}`;
}

/** The secrets that sign now: the current one, and the one before a rotation for 24 hours. */
export function signingSecrets(
  hook: Pick<WebhookRecord, "secret" | "previous_secret" | "previous_secret_expires_at">,
  now: Date,
): string[] {
  const previous =
    hook.previous_secret &&
    hook.previous_secret_expires_at &&
    Date.parse(hook.previous_secret_expires_at) > now.getTime()
      ? [hook.previous_secret]
      : [];
  return [hook.secret, ...previous];
}

/** The headers of one delivery. */
export function deliveryHeaders(secrets: string[], id: string, now: Date, body: string): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": secrets.map((secret) => sign(secret, id, timestamp, body)).join(" "),
  };
}
