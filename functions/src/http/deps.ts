/** What the protocol layers need beyond the domain's `Deps`: the composition roots build it. */
import type { Deps } from "../domain/deps.js";

/** The domain's dependencies and this process's rendered responses, which only the edge reads. */
export interface HttpDeps extends Deps {
  cache: RenderedCache;
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
