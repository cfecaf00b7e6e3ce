/**
 * Where delivery passes run (docs/decisions/webhooks.md). An instance runs at most one pass at
 * a time: a pass asked for while one runs runs once more after it. The local server asks every
 * second and on every change signalled in the process; the deployed API asks on its own writes
 * only, and the scheduled function drains for up to ~50 s a minute.
 */
import { randomBytes } from "node:crypto";
import { clearInterval, setInterval, setTimeout } from "node:timers";
import { onAnyChangeSignal } from "../change-signals.js";
import type { Deps } from "../deps.js";
import { runDeliveryPass, type PassResult } from "./pass.js";
import { webhookSettings, type WebhookSettings } from "./settings.js";
import { THIS_PROCESS, type DeliveryContext, type PresentChange } from "./stream.js";

/** A pass stops starting new batches this long after it began, so it ends within its caller's time. */
const PASS_MS = 30_000;
/** After a signal: the writing transaction may not have committed yet, so a pass now and one a little later. */
const AFTER_SIGNAL_MS = [10, 150];

export interface RunnerOptions {
  present: PresentChange;
  /** A pass every this many ms; null: only on signals and `kick`. */
  intervalMs: number | null;
  settings?: () => WebhookSettings;
  lookup?: DeliveryContext["lookup"];
}

export interface WebhookRunner {
  /** Asks for a pass soon (once more after the running one, if any). */
  kick(): void;
  /** Runs a pass now (after the running one) and answers its result. */
  pass(): Promise<PassResult>;
  stop(): Promise<void>;
}

export const newHolder = (): string => `${THIS_PROCESS}${randomBytes(6).toString("hex")}`;

export function deliveryContext(
  deps: Pick<Deps, "store" | "clock" | "log">,
  options: Pick<RunnerOptions, "present" | "settings" | "lookup"> & { holder?: string; forMs?: number },
): DeliveryContext {
  return {
    deps,
    settings: (options.settings ?? webhookSettings)(),
    holder: options.holder ?? newHolder(),
    present: options.present,
    deadline: performance.now() + (options.forMs ?? PASS_MS),
    lookup: options.lookup,
  };
}

export function startWebhookRunner(deps: Pick<Deps, "store" | "clock" | "log">, options: RunnerOptions): WebhookRunner {
  const holder = newHolder();
  let running: Promise<PassResult> | null = null;
  let again = false;
  let stopped = false;

  const runOnce = async (): Promise<PassResult> => {
    let result: PassResult;
    do {
      again = false;
      result = await runDeliveryPass(deliveryContext(deps, { ...options, holder }));
    } while (again && !stopped);
    return result;
  };
  const pass = (): Promise<PassResult> => {
    if (running) {
      again = true;
      return running;
    }
    const current = runOnce().finally(() => {
      if (running === current) running = null;
    });
    running = current;
    return current;
  };
  const kick = () => {
    if (stopped) return;
    pass().catch((err: unknown) => deps.log(`webhook pass failed: ${String(err)}`, { severity: "ERROR" }));
  };
  const timer = options.intervalMs === null ? null : setInterval(kick, options.intervalMs).unref();
  const unlisten = onAnyChangeSignal(() => {
    for (const ms of AFTER_SIGNAL_MS) setTimeout(kick, ms).unref();
  });
  return {
    kick,
    pass,
    stop: async () => {
      stopped = true;
      if (timer) clearInterval(timer);
      unlisten();
      await running?.catch(() => undefined);
    },
  };
}

/**
 * Passes for up to `forMs`: again while streams were due, or while a retry falls inside the
 * time left; it returns early once nothing is waiting, and the next run picks up what comes after.
 */
export async function drainWebhooks(
  deps: Pick<Deps, "store" | "clock" | "log">,
  options: Pick<RunnerOptions, "present" | "settings"> & { forMs: number },
): Promise<{ passes: number; delivered: number }> {
  const started = performance.now();
  const holder = newHolder();
  let passes = 0;
  let delivered = 0;
  for (;;) {
    const left = options.forMs - (performance.now() - started);
    if (left <= 0) break;
    const result = await runDeliveryPass(deliveryContext(deps, { ...options, holder, forMs: left }));
    passes += 1;
    delivered += result.delivered;
    const retryIn = result.nextRetryAt === null ? null : result.nextRetryAt - deps.clock().getTime();
    if (result.due === 0 && (retryIn === null || retryIn > left)) break;
    await new Promise((done) => setTimeout(done, Math.min(1_000, Math.max(retryIn ?? 1_000, 50))));
  }
  return { passes, delivered };
}
