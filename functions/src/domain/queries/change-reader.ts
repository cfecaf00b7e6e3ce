/**
 * The change feed's one reader, shared by GET .../changes (queries/changes.ts, positions from
 * a signed cursor) and webhook streams (webhooks/feed.ts, positions stored per stream): in a
 * read-only transaction, the changes after the reader's position on each revision shard, up to
 * counters read in the same transaction, merged by time (then shard), each shard's order kept.
 */
import type { TransactionReads } from "../../storage/port.js";
import { paths } from "../paths.js";
import type { ChangeRecord } from "../records.js";

export interface ChangesRead {
  /** In the order the reader sees them; `seq` is the sum of the positions after each change. */
  changes: Array<{ seq: number; change: ChangeRecord }>;
  /** The reader's positions after the last change taken. */
  positions: number[];
}

export interface ChangesAfter {
  /** The shards' change counters, read in the same transaction. */
  counters: readonly number[];
  /** The reader's position on each shard: the number of the last change it has seen there. */
  positions: readonly number[];
  /** Changes taken at most. */
  limit: number;
  /** Changes read at most from each shard. */
  perShard: number;
  now: Date;
}

/**
 * At most `limit` changes after `positions`. A shard whose `perShard` changes are all taken
 * while it holds more ends the merge there, so nothing is taken that comes after a change not
 * read. Null when a change after the positions is gone (purged, or a number missing): the reader
 * is behind the feed's retention.
 */
export async function readChangesAfter(
  reads: TransactionReads,
  calendarId: string,
  { counters, positions, limit, perShard, now }: ChangesAfter,
): Promise<ChangesRead | null> {
  const start = counters.map((_, n) => positions[n] ?? 0);
  const shards = await Promise.all(
    counters.map(async (counter, n) => {
      const after = start[n];
      const want = Math.min(perShard, counter - after);
      if (want <= 0) return [];
      const docs = await reads.query(paths.changes(calendarId, n), {
        orderBy: [["seq", "asc"]],
        startAfter: after,
        limit: want,
      });
      // Numbers have no gaps: a missing one was purged before this reader saw it.
      const complete = docs.length === want && docs.every((d, i) => d.data.seq === after + 1 + i);
      if (!complete || docs[0].data.purge_at.getTime() <= now.getTime()) return null;
      return docs.map((d) => d.data);
    }),
  );
  const read: ChangeRecord[][] = [];
  for (const changes of shards) {
    if (changes === null) return null;
    read.push(changes);
  }
  return mergeByTime(read, counters, start, limit);
}

function mergeByTime(
  shards: ChangeRecord[][],
  counters: readonly number[],
  start: number[],
  limit: number,
): ChangesRead {
  const positions = [...start];
  let seq = positions.reduce((a, b) => a + b, 0);
  const heads = shards.map(() => 0);
  const changes: ChangesRead["changes"] = [];
  const cutShort = (n: number) => heads[n] >= shards[n].length && positions[n] < counters[n];
  while (changes.length < limit && !shards.some((_, n) => cutShort(n))) {
    let pick = -1;
    for (let n = 0; n < shards.length; n++) {
      const head = shards[n][heads[n]];
      if (head && (pick < 0 || head.at < shards[pick][heads[pick]].at)) pick = n;
    }
    if (pick < 0) break;
    const change = shards[pick][heads[pick]++];
    positions[pick] = change.seq;
    changes.push({ seq: ++seq, change });
  }
  return { changes, positions };
}
