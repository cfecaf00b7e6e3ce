import type { Store } from "../storage/port.js";
import type { DomainConfig } from "./config.js";
import type { KeptRevisions } from "./kept-revisions.js";

/** What the apps need from the outside world; tests pass their own clock and store. */
export interface Deps {
  store: Store;
  clock: () => Date;
  /** Origin used to build absolute URLs, e.g. `https://almanac.example` (no trailing slash). */
  baseUrl: string;
  /** One line, and on the deployed functions structured fields for Cloud Logging. */
  log: (line: string, fields?: LogFields) => void;
  /** What this instance of the service keeps across requests: every request's `deps` shares it. */
  memory: InstanceMemory;
  /**
   * The configuration, read once at start by the composition root (functions/src/config.ts):
   * the domain's part of it (quotas, revision shards, the cursor key, change-feed limits).
   */
  config: DomainConfig;
  /** Most events and exceptions one read may load (queries/occurring.ts); READ_BUDGET when absent. */
  readBudget?: number;
}

/**
 * What a command needs beside its transaction: no store, so that everything a command reads
 * or writes goes through the one transaction its caller opened and handed it.
 */
export type CommandDeps = Omit<Deps, "store">;

/** Fields of a log line; `severity` as Cloud Logging names it (INFO when absent). */
export interface LogFields {
  severity?: "INFO" | "WARNING" | "ERROR";
  [field: string]: unknown;
}

/**
 * One instance's memory beyond a request, one object per app: a GET's `store` is a wrapper of
 * its own (http/prefetch.ts), so the store cannot say which instance asks.
 */
export interface InstanceMemory {
  /** The change feed's cursor key once read or made (domain/cursor-key.ts). */
  changeCursorKey?: Promise<Buffer>;
  /** Calendars' shard revisions as last read for an anonymous cached answer (domain/kept-revisions.ts). */
  keptRevisions?: KeptRevisions;
}
