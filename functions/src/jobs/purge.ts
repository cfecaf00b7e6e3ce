/**
 * The purge of deleted calendars as a job (docs/decisions/calendar-deletion.md): a pass takes
 * queued calendars oldest deletion first and runs their steps (domain/purge/calendars.ts), one
 * batch per transaction, opened here; the domain's steps only take the transaction. A pass ends
 * at its budget's deadline or after PURGE_PASS_BATCHES batches that deleted something, and
 * answers `more` when it left work. Locally the local driver runs it (idle 2 s); deployed, the
 * scheduled function `purges` runs passes for up to 45 s a minute.
 */
import { finishPurge, purgeSteps, queuedPurges, type BatchResult, type PurgeStep } from "../domain/purge/calendars.js";
import { budgetOf, timeLeft, type Budget, type Job, type JobDeps } from "./pass.js";

/** Batches that delete something, per pass; a pass that spends them answers `more` and the next goes on. */
export const PURGE_PASS_BATCHES = 50;
/** How long a deleted calendar's documents may wait for a pass on `npm start`, when none is running. */
export const PURGE_IDLE_MS = 2_000;
/** A pass's time when a driver runs it on its own. */
const PURGE_PASS_MS = 10_000;

export interface PurgeResult {
  /** Calendars whose last document went in this pass. */
  purged: number;
  /** Documents deleted. */
  documents: number;
  /** Work is left: the pass spent its budget. */
  more: boolean;
}

/**
 * One pass: queued calendars, oldest deletion first, each step of each until it is done, within
 * `budget` and `maxBatches` batches that delete something. A batch that finds nothing costs
 * none, so every pass makes progress, however small its budget.
 */
export async function purgePass(
  deps: JobDeps,
  budget: Budget = budgetOf(PURGE_PASS_MS),
  maxBatches = PURGE_PASS_BATCHES,
): Promise<PurgeResult> {
  const result: PurgeResult = { purged: 0, documents: 0, more: false };
  let left = maxBatches;
  const spend = () => left-- > 0 && timeLeft(budget) > 0;
  const queued = await queuedPurges(deps.store, maxBatches);
  for (const entry of queued) {
    if (timeLeft(budget) <= 0) return { ...result, more: true };
    const calendarId = entry.data.calendar_id;
    if (!(await runSteps(deps, purgeSteps(deps, calendarId), spend, result))) return { ...result, more: true };
    await deps.store.runTransaction(async (tx) => finishPurge(tx, calendarId));
    result.purged += 1;
  }
  return { ...result, more: queued.length === maxBatches };
}

/** Each step in order until it is done, one transaction per batch; false when the budget ran out first. */
async function runSteps(
  deps: JobDeps,
  steps: PurgeStep[],
  spend: () => boolean,
  result: PurgeResult,
): Promise<boolean> {
  for (const step of steps) {
    for (;;) {
      const batch: BatchResult = await deps.store.runTransaction((tx) => step(tx));
      result.documents += batch.deleted;
      if (batch.done) break;
      if (!spend()) return false;
    }
  }
  return true;
}

export const purgeJob: Job = {
  name: "purges",
  idleMs: PURGE_IDLE_MS,
  passMs: PURGE_PASS_MS,
  async run(deps, budget) {
    const result = await purgePass(deps, budget);
    if (result.purged > 0) deps.log(`purge: ${result.purged} deleted calendars purged (${result.documents} documents)`);
    // Nothing is known to fall due: a DELETE queues its calendar at any time, found by the next idle pass.
    return { done: result.purged, more: result.more, nextDueAt: null };
  },
};
