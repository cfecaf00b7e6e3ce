/**
 * The local server's alarm ticks (docs/decisions/alarms.md): one tick at a time, then the next
 * at the queue's earliest `due_at` and at most a second later, so an alarm is recorded within
 * milliseconds of its instant when it was queued ahead, and within a second when a write
 * queued it less than a second ahead. Deployed, a scheduled function runs one tick a minute.
 */
// From node:timers, not the globals: a test that fakes timers must not stop the alarms.
import { clearTimeout, setTimeout } from "node:timers";
import type { Deps } from "../deps.js";
import { nextDue, runAlarmTick } from "./tick.js";

/** The longest the timer sleeps: what a write queueing an alarm due sooner may wait. */
export const ALARM_WAKE_MS = 1_000;

export interface AlarmTimer {
  /** No tick starts after this; resolves once the running one (if any) has finished. */
  stop(): Promise<void>;
}

export function startAlarmTimer(deps: Pick<Deps, "store" | "clock" | "log">): AlarmTimer {
  let stopped = false;
  let running: Promise<void> | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const cycle = async (): Promise<void> => {
    let wait = ALARM_WAKE_MS;
    try {
      const result = await runAlarmTick(deps);
      const due = result.more ? 0 : await nextDue(deps);
      if (due !== null) wait = Math.min(Math.max(due - deps.clock().getTime(), 0), ALARM_WAKE_MS);
    } catch (err) {
      deps.log(`alarm tick failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`, {
        severity: "ERROR",
      });
    }
    if (!stopped) timer = setTimeout(run, wait).unref();
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
