/**
 * A delivery pass (docs/decisions/webhooks.md): every enabled webhook's streams that are due
 * (no retry pending, no other instance's lease) and behind their calendar's shard counters are
 * delivered, each by deliverStream. The change feed is the outbox, so a pass needs no queue:
 * what a stream has not delivered is what its calendar's shards hold after its positions.
 */
import { readCounters } from "../change-watch.js";
import { paths } from "../paths.js";
import type { WebhookRecord, WebhookStreamRecord } from "./records.js";
import { deliverStream, isDue, type DeliveryContext } from "./stream.js";

/** Streams delivered at once in one pass; one stream's changes always go one by one. */
const STREAMS_AT_ONCE = 8;

export interface PassResult {
  /** Streams found behind their calendar and due. */
  due: number;
  delivered: number;
  failed: number;
  /** The earliest retry still pending (epoch ms) of a stream with changes waiting, or null. */
  nextRetryAt: number | null;
}

export async function runDeliveryPass(ctx: DeliveryContext): Promise<PassResult> {
  const { store, clock } = ctx.deps;
  const hooks = await store.query(paths.webhooks(), { where: [["enabled", "==", true]] });
  const streams: Array<{ hook: WebhookRecord; stream: WebhookStreamRecord }> = [];
  await Promise.all(
    hooks.map(async (hook) => {
      for (const doc of await store.query(paths.webhookStreams(hook.id)))
        streams.push({ hook: hook.data, stream: doc.data });
    }),
  );
  const calendars = [...new Set(streams.map((s) => s.stream.calendar_id))];
  const counters = new Map<string, number[]>();
  await Promise.all(
    calendars.map(async (id) => counters.set(id, await store.runReadOnly((reads) => readCounters(reads, id)))),
  );
  const now = clock();
  const behind = streams.filter(({ stream }) =>
    (counters.get(stream.calendar_id) ?? []).some((c, n) => c > (stream.positions[n] ?? 0)),
  );
  const due = behind.filter(({ stream }) => isDue(stream, ctx.holder, now, Boolean(ctx.deps.store.singleProcess)));
  const retries = behind
    .filter(({ stream }) => !due.some((d) => d.stream === stream))
    .map(({ stream }) => Date.parse(stream.next_attempt_at));
  const result: PassResult = {
    due: due.length,
    delivered: 0,
    failed: 0,
    nextRetryAt: retries.length > 0 ? Math.min(...retries) : null,
  };
  let next = 0;
  const worker = async () => {
    while (next < due.length) {
      const { hook, stream } = due[next++];
      try {
        const outcome = await deliverStream(ctx, hook, stream.calendar_id);
        result.delivered += outcome.delivered;
        if (outcome.failed) result.failed += 1;
      } catch (err) {
        // A store failure on one stream leaves its lease to expire; the others go on.
        result.failed += 1;
        ctx.deps.log(`webhook ${hook.id} delivery of ${stream.calendar_id} failed: ${String(err)}`, {
          severity: "ERROR",
        });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(STREAMS_AT_ONCE, due.length) }, worker));
  return result;
}
