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
  /** Rendered responses of this process, keyed by calendar revisions (http/response-cache.ts). */
  cache: RenderedCache;
  /** Quotas (docs/api.md#quotas); when absent, the environment's (domain/quotas.ts). */
  quotas?: QuotaLimits;
  /** Most events and exceptions one read may load (queries/occurring.ts); READ_BUDGET when absent. */
  readBudget?: number;
}

/** Fields of a log line; `severity` as Cloud Logging names it (INFO when absent). */
export interface LogFields {
  severity?: "INFO" | "WARNING" | "ERROR";
  [field: string]: unknown;
}

/**
 * Rendered responses kept under keys built from everything they were computed from (calendar
 * revisions, the parsed query), so a key never answers stale data. The protocol layer
 * implements it (http/response-cache.ts) and decides what a prepared body is.
 */
export interface RenderedCache {
  /** The text kept under `key`, encoded; `compute` runs only on a miss. */
  body(key: string, compute: () => Promise<string>): Promise<Buffer>;
  /** A JSON body serialized once and encoded, sent as it is (http/route.ts). */
  json(key: string, compute: () => Promise<object>): Promise<{ readonly body: Buffer }>;
  /** Entries kept and the bytes they are counted for. */
  stats(): { entries: number; bytes: number };
}
