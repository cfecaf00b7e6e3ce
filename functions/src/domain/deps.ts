import type { ResponseCache } from "../http/response-cache.js";
import type { Store } from "../storage/port.js";
import type { QuotaLimits } from "./quotas.js";

/** What the apps need from the outside world; tests pass their own clock and store. */
export interface Deps {
  store: Store;
  clock: () => Date;
  /** Origin used to build absolute URLs, e.g. `https://almanac.example` (no trailing slash). */
  baseUrl: string;
  /** One line, and on the deployed functions structured fields for Cloud Logging. */
  log: (line: string, fields?: LogFields) => void;
  /** Rendered responses of this process, keyed by calendar revisions. */
  cache: ResponseCache;
  /** Quotas (DECISIONS section 12); when absent, the environment's (domain/quotas.ts). */
  quotas?: QuotaLimits;
}

/** Fields of a log line; `severity` as Cloud Logging names it (INFO when absent). */
export interface LogFields {
  severity?: "INFO" | "WARNING" | "ERROR";
  [field: string]: unknown;
}

export const nowIso = (deps: Pick<Deps, "clock">): string => deps.clock().toISOString();
