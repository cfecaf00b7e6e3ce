/** What the protocol layers need beyond the domain's `Deps`: the composition roots build it. */
import type { Deps } from "../domain/deps.js";
import type { Sender } from "../domain/webhooks/sender.js";
import type { ResolveHost } from "../domain/webhooks/url.js";
import type { DocumentFetcher } from "../outbound/fetch-document.js";
import type { HttpConfig } from "./config.js";
import type { ExpensiveReadGate } from "./expensive-reads.js";

/** The domain's dependencies and this process's rendered responses, which only the edge reads. */
export interface HttpDeps extends Deps {
  /** The configuration read at start (functions/src/config.ts): the domain's part and the edge's. */
  config: HttpConfig;
  cache: RenderedCache;
  /** The instance's places for anonymous expensive reads (http/expensive-reads.ts, `expensiveReadGateFor`). */
  expensiveReads: ExpensiveReadGate;
  /** POSTs to webhook receivers (outbound/send.ts); when absent, one per WEBHOOKS_ALLOW_LOOPBACK at each use. */
  sender?: Sender;
  /** Resolves a webhook URL's host for the subscription check (outbound/lookup.ts); DNS when absent. */
  resolveHost?: ResolveHost;
  /** Reads OAuth clients' metadata documents (outbound/fetch-document.ts); one per WEBHOOKS_ALLOW_LOOPBACK when absent. */
  fetchDocument?: DocumentFetcher;
}

/**
 * Rendered responses kept under keys built from everything they were computed from (calendar
 * revisions, the parsed query), so a key never answers stale data (http/response-cache.ts).
 */
export interface RenderedCache {
  /** The text kept under `key`, encoded; `compute` runs only on a miss. */
  body(key: string, compute: () => Promise<string>): Promise<Buffer>;
  /** A JSON body serialized once and encoded, sent as it is (http/route.ts). */
  json(key: string, compute: () => Promise<object>): Promise<{ readonly body: Buffer }>;
  /** Entries kept and the bytes they are counted for. */
  stats(): { entries: number; bytes: number };
}
