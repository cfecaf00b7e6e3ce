/**
 * What a delivery stream reads of the change feed, in one read-only transaction (one consistent
 * cut, as GET .../changes reads): whether the webhook's agent may still read the calendar, the
 * shard counters, and the changes after the stream's positions, merged as the feed merges them
 * (by time, then shard, each shard's order kept). The feed's own reader (queries/changes.ts)
 * works on signed cursors for callers; a stream keeps its positions in the store itself.
 */
import type { TransactionReads } from "../../storage/port.js";
import { readCounters } from "../change-watch.js";
import { paths } from "../paths.js";
import { mayRead } from "../policy.js";
import type { ChangeRecord } from "../records.js";

export interface StreamPage {
  /** The agent may no longer read the calendar (grant revoked, calendar private or gone): nothing else was read. */
  allowed: boolean;
  /** A change after the positions is already purged: the stream must skip to `counters`. */
  expired: boolean;
  counters: number[];
  /** In delivery order, `seq` counted as the feed counts it (the sum of the positions after each). */
  changes: Array<{ seq: number; change: ChangeRecord }>;
}

export async function readStreamPage(
  reads: TransactionReads,
  agentId: string,
  calendarId: string,
  positions: readonly number[],
  limit: number,
  now: Date,
): Promise<StreamPage> {
  const [calendar, membership, counters] = await Promise.all([
    reads.get(paths.calendar(calendarId)),
    reads.get(paths.membership(agentId, calendarId)),
    readCounters(reads, calendarId),
  ]);
  // The webhook was created with calendar:read; the agent's role decides whether it still reads.
  const actor = { agentId, agentName: "", credentialId: "", scopes: ["calendar:read"] as const };
  if (!calendar || !mayRead(calendar.data, actor, membership?.data.role ?? null)) {
    return { allowed: false, expired: false, counters, changes: [] };
  }
  let expired = false;
  const pending = counters.filter((c, n) => c > (positions[n] ?? 0)).length;
  // A share of the batch from each shard with changes, not the whole batch from each: the merge
  // below stops where a shard's share runs out, so fewer changes are read than a batch would hold.
  const share = pending === 0 ? 0 : Math.ceil(limit / pending) + 1;
  const perShard = await Promise.all(
    counters.map(async (counter, n) => {
      const after = positions[n] ?? 0;
      const want = Math.min(share, counter - after);
      if (want <= 0) return [];
      const docs = await reads.query(paths.changes(calendarId, n), {
        orderBy: [["seq", "asc"]],
        startAfter: after,
        limit: want,
      });
      if (
        docs.length !== want ||
        docs.some((d, i) => d.data.seq !== after + 1 + i) ||
        docs[0].data.purge_at.getTime() <= now.getTime()
      ) {
        expired = true;
      }
      return docs.map((d) => d.data);
    }),
  );
  if (expired) return { allowed: true, expired, counters, changes: [] };

  let seq = positions.reduce((a, b) => a + b, 0);
  const heads = perShard.map(() => 0);
  const changes: StreamPage["changes"] = [];
  // Merged by time as the feed merges; a shard whose share is used up while it holds more ends
  // the page, so nothing is sent before a change of that shard it would come after.
  const exhausted = (n: number) =>
    heads[n] >= perShard[n].length && (perShard[n].at(-1)?.seq ?? positions[n] ?? 0) < counters[n];
  while (changes.length < limit && !perShard.some((_, n) => exhausted(n))) {
    let pick = -1;
    for (let n = 0; n < perShard.length; n++) {
      const head = perShard[n][heads[n]];
      if (head && (pick < 0 || head.at < perShard[pick][heads[pick]].at)) pick = n;
    }
    if (pick < 0) break;
    changes.push({ seq: ++seq, change: perShard[pick][heads[pick]++] });
  }
  return { allowed: true, expired: false, counters, changes };
}
