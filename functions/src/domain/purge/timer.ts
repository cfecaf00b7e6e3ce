/**
 * The local server's purge passes (docs/decisions/calendar-deletion.md): one pass at a time,
 * the next at once while one comes back with work left, else PURGE_WAKE_MS later. A pass that
 * finds nothing queued is one indexed query. Deployed, a scheduled function runs the passes.
 */
// From node:timers, not the globals: a test that fakes timers must not stop the purge.
import { clearTimeout, setTimeout } from "node:timers";
import type { Deps } from "../deps.js";
import { purgeDeletedCalendars } from "./calendars.js";

/** How long a deleted calendar's documents may wait for their first pass on `npm start`. */
export const PURGE_WAKE_MS = 2_000;

export function startPurgeTimer(deps: Pick<Deps, "store" | "clock" | "log">): { stop(): Promise<void> } {
  let stopped = false;
  let running: Promise<void> | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const cycle = async (): Promise<void> => {
    let more = false;
    try {
      const result = await purgeDeletedCalendars(deps);
      more = result.more;
      if (result.purged > 0)
        deps.log(`purge: ${result.purged} deleted calendars purged (${result.documents} documents)`);
    } catch (err) {
      deps.log(`purge failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`, {
        severity: "ERROR",
      });
    }
    if (!stopped) timer = setTimeout(run, more ? 0 : PURGE_WAKE_MS).unref();
  };
  const run = () => {
    running = cycle().finally(() => {
      running = null;
    });
  };
  timer = setTimeout(run, 0).unref();

  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
