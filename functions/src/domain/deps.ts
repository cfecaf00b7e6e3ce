import type { Store } from "../storage/port.js";

/** What the apps need from the outside world; tests pass their own clock and store. */
export interface Deps {
  store: Store;
  clock: () => Date;
  /** Origin used to build absolute URLs, e.g. `https://almanac.example` (no trailing slash). */
  baseUrl: string;
  log: (line: string) => void;
}

export const nowIso = (deps: Pick<Deps, "clock">): string => deps.clock().toISOString();
