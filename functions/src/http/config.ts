/**
 * The edge's part of the one configuration object (functions/src/config.ts reads it from the
 * environment once, at start; `HttpDeps.config` carries it): rate limits, the places for
 * anonymous expensive reads, `trust proxy` and sign-in, beside the domain's own settings.
 * Types and defaults only, so that reading the configuration loads none of the edge.
 */
import type { DomainConfig } from "../domain/config.js";
import type { FirebaseAccountSettings } from "./firebase-accounts.js";

export interface RateWindow {
  limit: number;
  windowMs: number;
}

export interface RateLimitConfig {
  enabled: boolean;
  mint: RateWindow;
  writes: RateWindow;
  reads: RateWindow;
  pages: RateWindow;
  /**
   * Most clients one limiter remembers (for up to two windows). Beyond it (a flood of forged
   * addresses), new clients share one budget, so memory stays bounded: about 310 bytes a
   * client, 6 MB at the default.
   */
  maxClients: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const DEFAULT_RATE_LIMITS: RateLimitConfig = {
  enabled: true,
  mint: { limit: 20, windowMs: HOUR },
  writes: { limit: 600, windowMs: MINUTE },
  reads: { limit: 3_000, windowMs: MINUTE },
  pages: { limit: 600, windowMs: MINUTE },
  maxClients: 20_000,
};

/** Anonymous expensive reads one instance computes at once (`ANONYMOUS_READS_AT_ONCE`). */
export const DEFAULT_ANONYMOUS_READS_AT_ONCE = 4;

export interface HttpConfig extends DomainConfig {
  /** `RATE_LIMITS` and `RATE_LIMIT_*` (http/rate-limit.ts). */
  rateLimits: RateLimitConfig;
  /**
   * Places for anonymous occurrences, free/busy, page and feed reads (http/expensive-reads.ts),
   * or null for no bound (with `RATE_LIMITS=off`, as every limit).
   */
  anonymousReadsAtOnce: number | null;
  /**
   * Express's `trust proxy` for the deployed apps behind Hosting (`TRUST_PROXY_HOPS`, else the
   * first X-Forwarded-For entry: `true`); the local server trusts no proxy whatever it says.
   */
  trustProxy: boolean | number;
  /** Sign-in on Firebase Authentication (http/firebase-accounts.ts). */
  firebase: FirebaseAccountSettings;
}
