/**
 * What a delivery stream reads of the change feed, in one read-only transaction (one consistent
 * cut, as GET .../changes reads): whether the webhook's agent may still read the calendar, the
 * shard counters, and the changes after the stream's positions, read and merged by the feed's
 * own reader (queries/change-reader.ts); a stream keeps its positions in the store, where
 * GET .../changes takes them from a signed cursor.
 */
import type { TransactionReads } from "../../storage/port.js";
import { readCounters } from "../change-watch.js";
import { paths } from "../paths.js";
import { mayRead } from "../policy.js";
import { readChangesAfter } from "../queries/change-reader.js";
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
  const pending = counters.filter((c, n) => c > (positions[n] ?? 0)).length;
  // A share of the batch from each shard with changes, not the whole batch from each: the merge
  // stops where a shard's share runs out, so fewer changes are read than a batch would hold.
  const share = pending === 0 ? 0 : Math.ceil(limit / pending) + 1;
  const read = await readChangesAfter(reads, calendarId, { counters, positions, limit, perShard: share, now });
  if (!read) return { allowed: true, expired: true, counters, changes: [] };
  return { allowed: true, expired: false, counters, changes: read.changes };
}
