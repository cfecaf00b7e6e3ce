/**
 * A background loop of passes, one at a time: each pass says how long to wait before the next
 * (0: at once). Used by the local server's alarm timer and purge (domain/alarms/timer.ts,
 * domain/purge/timer.ts); deployed, scheduled functions run the same passes instead.
 */
// From node:timers, not the globals: a test that fakes timers must not stop the passes.
import { clearTimeout, setTimeout } from "node:timers";

export interface Passes {
  /** No pass starts after this; resolves once the running one (if any) has finished. */
  stop(): Promise<void>;
}

export function startPasses(
  pass: () => Promise<number>,
  onError: { waitMs: number; report: (err: unknown) => void },
): Passes {
  let stopped = false;
  let running: Promise<void> | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const cycle = async (): Promise<void> => {
    let wait = onError.waitMs;
    try {
      wait = await pass();
    } catch (err) {
      onError.report(err);
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

/** An error's text for the log, its stack when it has one. */
export const errorText = (err: unknown): string => (err instanceof Error ? (err.stack ?? err.message) : String(err));
