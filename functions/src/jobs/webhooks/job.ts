/**
 * Webhook delivery as a job (docs/decisions/webhooks.md). A pass fans out what was written
 * (fan-out.ts), then takes the streams due from the delivery queue, earliest first, and starts
 * each one the limits allow (limits.ts): a slow, hanging or failing receiver holds only its own
 * places, so it delays only its own streams. Streams run on after the pass returns; the next
 * pass skips those still running. `stop` aborts the attempts in flight and waits for them.
 */
import { randomBytes } from "node:crypto";
import { setTimeout } from "node:timers/promises";
import { hostname } from "node:os";
import { paths } from "../../domain/paths.js";
import type { DeliveryQueueRecord } from "../../domain/webhooks/records.js";
import type { Sender } from "../../domain/webhooks/sender.js";
import type { WebhookSettings } from "../../domain/webhooks/settings.js";
import type { Holder } from "../../domain/webhooks/stream.js";
import { presentChange } from "../../presenters/changes.js";
import { IDLE, timeLeft, type Budget, type Job, type PassResult } from "../pass.js";
import { deliverStream, type DeliveryContext, type DeliveryDeps } from "./deliver.js";
import { fanOut } from "./fan-out.js";
import { AgentAllowance, DEFAULT_DELIVERY_LIMITS, type DeliveryLimits } from "./limits.js";

/** How long one stream delivers before it gives its place back and queues again. */
const STREAM_MS = 30_000;
/** Due queue entries one pass reads. */
const QUEUE_BATCH = 200;
/** The soonest a pass asks for the next one, so a retry due now does not spin the driver. */
const NEXT_PASS_MIN_MS = 50;

export interface WebhookJobOptions {
  settings: WebhookSettings;
  send: Sender;
  limits?: DeliveryLimits;
}

export interface WebhookJob extends Job<DeliveryDeps> {
  /** Streams delivering now. */
  running(): number;
  /** Resolves when no stream is delivering. */
  idle(): Promise<void>;
  stop(budget?: Budget): Promise<number>;
}

const keyOf = (e: Pick<DeliveryQueueRecord, "webhook_id" | "calendar_id">) => `${e.webhook_id} ${e.calendar_id}`;

export function createWebhookJob(options: WebhookJobOptions): WebhookJob {
  const limits = options.limits ?? DEFAULT_DELIVERY_LIMITS;
  const processId = `${hostname()}-${process.pid}-${randomBytes(4).toString("hex")}-`;
  const holder: Holder = { id: `${processId}${randomBytes(6).toString("hex")}`, process: processId };
  const running = new Map<string, Promise<void>>();
  const perReceiver = new Map<string, number>();
  let abort = new AbortController();
  let done = 0;
  let allowance: AgentAllowance | undefined;

  /** Due streams the last pass read and could not start yet, earliest first. */
  let backlog: DeliveryQueueRecord[] = [];
  const blocked = { places: false, agents: false };

  const start = (deps: DeliveryDeps, entry: DeliveryQueueRecord) => {
    const key = keyOf(entry);
    perReceiver.set(entry.receiver, (perReceiver.get(entry.receiver) ?? 0) + 1);
    const ctx: DeliveryContext = {
      deps,
      settings: options.settings,
      send: options.send,
      // A delivery's `data` is the change exactly as GET .../changes shows it.
      present: presentChange,
      holder,
      signal: abort.signal,
      streamDeadline: performance.now() + STREAM_MS,
      allowance: allowance!,
    };
    const task = deliverStream(ctx, entry)
      .then((outcome) => {
        done += outcome.delivered;
      })
      .catch((err: unknown) => {
        // A store failure on one stream leaves its lease to expire; the others go on.
        deps.log(`webhook ${entry.webhook_id} delivery of ${entry.calendar_id} failed: ${String(err)}`, {
          severity: "ERROR",
        });
      })
      .finally(() => {
        running.delete(key);
        const left = (perReceiver.get(entry.receiver) ?? 1) - 1;
        if (left > 0) perReceiver.set(entry.receiver, left);
        else perReceiver.delete(entry.receiver);
        // The place is free: the next stream waiting for it starts now, not at the next pass.
        if (!abort.signal.aborted) fill(deps);
      });
    running.set(key, task);
  };

  /** Starts what the backlog holds as far as the limits allow; the rest waits its turn. */
  const fill = (deps: DeliveryDeps) => {
    blocked.places = false;
    blocked.agents = false;
    backlog = backlog.filter((entry) => {
      if (running.has(keyOf(entry))) return false;
      if (running.size >= limits.atOnce || (perReceiver.get(entry.receiver) ?? 0) >= limits.perReceiver) {
        blocked.places = true;
        return true;
      }
      if (!allowance!.left(entry.agent_id)) {
        blocked.agents = true;
        return true;
      }
      start(deps, entry);
      return false;
    });
  };

  async function run(deps: DeliveryDeps, budget: Budget): Promise<PassResult> {
    allowance ??= new AgentAllowance(limits.perAgentPerMinute, () => deps.clock().getTime());
    if (abort.signal.aborted) abort = new AbortController();
    const fanned = await fanOut(deps, budget);
    const now = deps.clock();
    const due = await deps.store.query(paths.deliveryQueue(), {
      where: [["due_at", "<=", now.toISOString()]],
      orderBy: [["due_at", "asc"]],
      limit: QUEUE_BATCH,
    });
    backlog = due.map((d) => d.data);
    fill(deps);
    const counted = done;
    done = 0;
    if (fanned.more || (due.length === QUEUE_BATCH && backlog.length === 0))
      return { done: counted, more: timeLeft(budget) > 0, nextDueAt: null };
    const [next] = await deps.store.query(paths.deliveryQueue(), { orderBy: [["due_at", "asc"]], limit: 1 });
    const candidates = [
      blocked.agents ? allowance.nextWindow() : null,
      next && !running.has(keyOf(next.data)) && !blocked.places
        ? Math.max(Date.parse(next.data.due_at), now.getTime() + NEXT_PASS_MIN_MS)
        : null,
    ].filter((t): t is number => t !== null);
    return candidates.length > 0
      ? { done: counted, more: false, nextDueAt: Math.min(...candidates) }
      : { ...IDLE, done: counted };
  }

  return {
    name: "webhooks",
    idleMs: 1_000,
    passMs: 5_000,
    wakeOnChange: true,
    run,
    running: () => running.size,
    idle: async () => {
      while (running.size > 0) await Promise.all([...running.values()]);
    },
    stop: async (budget) => {
      const finished = Promise.all([...running.values()]);
      if (budget) await Promise.race([finished, setTimeout(timeLeft(budget))]);
      abort.abort();
      while (running.size > 0) await Promise.all([...running.values()]);
      const counted = done;
      done = 0;
      return counted;
    },
  };
}
