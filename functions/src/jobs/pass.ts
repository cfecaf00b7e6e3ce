/**
 * The one contract of background work. A job's pass is handed its deps and a budget, does a
 * bounded amount of work, and says whether more is waiting and when it next falls due. Two
 * drivers run passes, and only two: the local one (timers and change signals, local-driver.ts)
 * and the deployed one (scheduled functions, scheduled-driver.ts).
 */
import type { Deps } from "../domain/deps.js";

export interface Budget {
  /** performance.now() after which a pass starts nothing new and cuts what it waits on short. */
  deadline: number;
}

export interface PassResult {
  /** Units of work done (alarms recorded, deliveries made, calendars purged...), for the log. */
  done: number;
  /** Work was left for want of budget: run again at once. */
  more: boolean;
  /** When the earliest known work falls due (epoch ms), or null when nothing is known to wait. */
  nextDueAt: number | null;
}

export type JobDeps = Pick<Deps, "store" | "clock" | "log">;

export interface Job<D extends JobDeps = JobDeps> {
  /** Names the job in logs. */
  name: string;
  /** The longest a local driver sleeps between passes, whatever nextDueAt says. */
  idleMs: number;
  /** A pass's budget, in ms, when a driver runs it on its own. */
  passMs: number;
  /** Wake at once when this process records a change (webhook delivery does). */
  wakeOnChange?: boolean;
  run(deps: D, budget: Budget): Promise<PassResult>;
  /**
   * For a job whose work runs on after its pass (webhook deliveries): let what is in flight
   * finish within `budget` (none: at once), cut the rest short, and answer the work done since
   * the last pass. Drivers call it when they stop, and at the end of a scheduled run.
   */
  stop?(budget?: Budget): Promise<number>;
}

export const budgetOf = (ms: number): Budget => ({ deadline: performance.now() + ms });

/** Milliseconds left in a budget, never below zero. */
export const timeLeft = (budget: Budget): number => Math.max(0, budget.deadline - performance.now());

/** A pass that found nothing to do and knows of nothing coming. */
export const IDLE: PassResult = { done: 0, more: false, nextDueAt: null };
