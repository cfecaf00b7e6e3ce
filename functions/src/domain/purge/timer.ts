/**
 * The local server's purge passes (docs/decisions/calendar-deletion.md): the next at once while
 * one comes back with work left, else PURGE_WAKE_MS later. A pass that finds nothing queued is
 * one indexed query. Deployed, the scheduled function `purges` runs the passes.
 */
import type { Deps } from "../deps.js";
import { errorText, startPasses, type Passes } from "../passes.js";
import { purgeDeletedCalendars } from "./calendars.js";

/** How long a deleted calendar's documents may wait for their first pass on `npm start`. */
export const PURGE_WAKE_MS = 2_000;

export function startPurgeTimer(deps: Pick<Deps, "store" | "clock" | "log">): Passes {
  return startPasses(
    async () => {
      const result = await purgeDeletedCalendars(deps);
      if (result.purged > 0)
        deps.log(`purge: ${result.purged} deleted calendars purged (${result.documents} documents)`);
      return result.more ? 0 : PURGE_WAKE_MS;
    },
    { waitMs: PURGE_WAKE_MS, report: (err) => deps.log(`purge failed: ${errorText(err)}`, { severity: "ERROR" }) },
  );
}
