import type { ResponseCache } from "../http/response-cache.js";
import type { Store } from "../storage/port.js";

/** What the apps need from the outside world; tests pass their own clock and store. */
export interface Deps {
  store: Store;
  clock: () => Date;
  /** Origin used to build absolute URLs, e.g. `https://almanac.example` (no trailing slash). */
  baseUrl: string;
  log: (line: string) => void;
  /** Rendered responses of this process, keyed by calendar revisions. */
  cache: ResponseCache;
}

export const nowIso = (deps: Pick<Deps, "clock">): string => deps.clock().toISOString();
