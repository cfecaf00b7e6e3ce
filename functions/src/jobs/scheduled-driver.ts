/**
 * The deployed driver: a scheduled function's run is passes of one job for up to `forMs`,
 * again at once while a pass reports more, and after a short wait while the next due instant
 * falls inside the time left; it ends early once nothing is waiting. Work a pass left running
 * (deliveries) may finish within the run's time, and is cut short at its end.
 */
import { setTimeout } from "node:timers/promises";
import { budgetOf, timeLeft, type Job, type JobDeps } from "./pass.js";

/** The longest a run sleeps between passes, so work written meanwhile elsewhere is found soon. */
const MAX_SLEEP_MS = 1_000;

export async function runWithin<D extends JobDeps>(
  job: Job<D>,
  deps: D,
  forMs: number,
): Promise<{ passes: number; done: number }> {
  const run = budgetOf(forMs);
  let passes = 0;
  let done = 0;
  try {
    while (timeLeft(run) > 0) {
      const result = await job.run(deps, budgetOf(Math.min(job.passMs, timeLeft(run))));
      passes += 1;
      done += result.done;
      if (result.more) continue;
      const dueIn = result.nextDueAt === null ? null : result.nextDueAt - deps.clock().getTime();
      if (dueIn === null || dueIn > timeLeft(run)) break;
      await setTimeout(Math.min(MAX_SLEEP_MS, Math.max(dueIn, 50)));
    }
  } finally {
    done += (await job.stop?.(run)) ?? 0;
  }
  return { passes, done };
}
