/**
 * How deliveries behave (docs/api.md#webhooks). The configuration decides one thing,
 * `WEBHOOKS_ALLOW_LOOPBACK=on` (local runs and tests: `http:` and loopback receivers); the rest
 * are the contract's figures, which tests shorten by passing their own.
 */
import type { DomainConfig } from "../config.js";

export interface WebhookSettings {
  /** `http:` URLs and loopback hosts are allowed (never any other private address). */
  allowLoopback: boolean;
  /** A receiver must answer 2xx within this. */
  timeoutMs: number;
  /** The first retry's delay; each further one doubles, with jitter, up to `backoffCapMs`. */
  backoffBaseMs: number;
  backoffCapMs: number;
  /** A stream failing this long, or this many times in a row, disables its webhook. */
  disableAfterMs: number;
  disableAfterFailures: number;
  /** How long a pass holds a stream before another instance may take it over. */
  leaseMs: number;
  /** Changes read from the feed at once; the cursor is stored after each such batch. */
  batch: number;
}

export const DEFAULT_WEBHOOK_SETTINGS: Omit<WebhookSettings, "allowLoopback"> = {
  timeoutMs: 10_000,
  backoffBaseMs: 1_000,
  backoffCapMs: 60 * 60 * 1000,
  disableAfterMs: 24 * 60 * 60 * 1000,
  disableAfterFailures: 1_000,
  leaseMs: 60_000,
  batch: 100,
};

export function webhookSettings(config: Pick<DomainConfig, "webhooks">): WebhookSettings {
  return { ...DEFAULT_WEBHOOK_SETTINGS, allowLoopback: config.webhooks.allowLoopback };
}

/**
 * The delay before retry number `failures` (1 after the first failure): the base doubling up
 * to the cap, then between 75 % and 100 % of it, so receivers that failed together do not all
 * come back at the same instant.
 */
export function retryDelayMs(settings: Pick<WebhookSettings, "backoffBaseMs" | "backoffCapMs">, failures: number) {
  const exponent = Math.min(Math.max(failures - 1, 0), 40);
  const full = Math.min(settings.backoffCapMs, settings.backoffBaseMs * 2 ** exponent);
  return Math.round(full * (0.75 + Math.random() * 0.25));
}
