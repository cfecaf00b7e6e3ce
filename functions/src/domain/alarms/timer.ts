/**
 * The local server's alarm ticks (docs/decisions/alarms.md): one tick at a time, then the next
 * at the queue's earliest `due_at` and at most a second later, so an alarm is recorded within
 * milliseconds of its instant when it was queued ahead, and within a second when a write
 * queued it less than a second ahead. Deployed, a scheduled function runs one tick a minute.
 */
import type { Deps } from "../deps.js";
import { errorText, startPasses, type Passes } from "../passes.js";
import { nextDue, runAlarmTick } from "./tick.js";

/** The longest the timer sleeps: what a write queueing an alarm due sooner may wait. */
export const ALARM_WAKE_MS = 1_000;

export function startAlarmTimer(deps: Pick<Deps, "store" | "clock" | "log">): Passes {
  return startPasses(
    async () => {
      const result = await runAlarmTick(deps);
      const due = result.more ? 0 : await nextDue(deps);
      return due === null ? ALARM_WAKE_MS : Math.min(Math.max(due - deps.clock().getTime(), 0), ALARM_WAKE_MS);
    },
    { waitMs: ALARM_WAKE_MS, report: (err) => deps.log(`alarm tick failed: ${errorText(err)}`, { severity: "ERROR" }) },
  );
}
