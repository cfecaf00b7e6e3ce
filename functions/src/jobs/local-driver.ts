/**
 * The local driver (`npm start`): each job runs one pass at a time, the next at once when a
 * pass reports more, else at its next due instant but at most `idleMs` later, and at once on a
 * change this process records when the job wakes on changes.
 */
// From node:timers, not the globals: a test that fakes timers must not stop the passes.
import { clearTimeout, setTimeout } from "node:timers";
import { onAnyChangeSignal } from "../domain/change-signals.js";
import { budgetOf, type Job, type JobDeps, type PassResult } from "./pass.js";

/** After a signal: the writing transaction may not have committed yet, so a pass now and one a little later. */
const AFTER_SIGNAL_MS = [10, 150];

export interface RunningJob {
  /** Asks for a pass soon. */
  kick(): void;
  /** Runs a pass now (after the running one) and answers its result. */
  pass(): Promise<PassResult>;
  /** No pass starts after this; resolves once the running one has finished. */
  stop(): Promise<void>;
}

export const errorText = (err: unknown): string => (err instanceof Error ? (err.stack ?? err.message) : String(err));

export interface StartOptions {
  /** The first pass this long after the start. */
  startAfterMs?: number;
  /** Passes only on this process's changes and kicks, never on a timer (a deployed API instance). */
  onlyOnChange?: boolean;
}

export function startJob<D extends JobDeps>(job: Job<D>, deps: D, options: StartOptions = {}): RunningJob {
  let stopped = false;
  let running: Promise<PassResult> | null = null;
  let again = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const schedule = (ms: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(kick, Math.max(0, ms)).unref();
  };
  const once = async (): Promise<PassResult> => {
    let result: PassResult;
    do {
      again = false;
      try {
        result = await job.run(deps, budgetOf(job.passMs));
      } catch (err) {
        deps.log(`${job.name} pass failed: ${errorText(err)}`, { severity: "ERROR" });
        result = { done: 0, more: false, nextDueAt: null };
      }
    } while (again && !stopped);
    if (options.onlyOnChange && !result.more) return result;
    const wait = result.more
      ? 0
      : result.nextDueAt === null
        ? job.idleMs
        : Math.min(job.idleMs, result.nextDueAt - deps.clock().getTime());
    schedule(wait);
    return result;
  };
  const pass = (): Promise<PassResult> => {
    if (running) {
      again = true;
      return running;
    }
    const current = once().finally(() => {
      if (running === current) running = null;
    });
    running = current;
    return current;
  };
  function kick() {
    if (!stopped) void pass();
  }
  const unlisten = job.wakeOnChange
    ? onAnyChangeSignal(() => {
        for (const ms of AFTER_SIGNAL_MS) setTimeout(kick, ms).unref();
      })
    : () => undefined;
  if (!options.onlyOnChange) schedule(options.startAfterMs ?? 0);
  return {
    kick,
    pass,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      unlisten();
      await running?.catch(() => undefined);
      await job.stop?.();
    },
  };
}

/**
 * A job whose code loads when it first runs, `startAfterMs` after the server, so that the
 * server's first answers neither wait for it nor share their start with it. A failed load is
 * logged and leaves the server answering.
 */
export function startJobLater<D extends JobDeps>(
  load: () => Promise<Job<D>>,
  deps: D,
  options: StartOptions & { startAfterMs: number },
): RunningJob {
  let started: Promise<RunningJob | null> | undefined;
  const timer = setTimeout(() => {
    started = load().then(
      (job) => startJob(job, deps, { ...options, startAfterMs: 0 }),
      (err: unknown) => {
        deps.log(`background start failed: ${errorText(err)}`, { severity: "ERROR" });
        return null;
      },
    );
  }, options.startAfterMs).unref();
  return {
    kick: () => void started?.then((running) => running?.kick()),
    pass: async () => (await started)?.pass() ?? { done: 0, more: false, nextDueAt: null },
    stop: async () => {
      clearTimeout(timer);
      await (await started)?.stop();
    },
  };
}
