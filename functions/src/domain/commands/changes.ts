/**
 * The change feed's writing side (docs/api.md#change-feed). Every write that changes what a calendar's
 * readers see records one change, in its own transaction, through `recordChange`: so a change
 * is never lost, and never visible before its write commits.
 *
 * Changes are numbered per revision shard (domain/revision.ts), not per calendar: a write
 * draws one of the calendar's 8 shards and reads it in its transaction anyway, so the change
 * takes that shard's next number (`change_seq`) and lives at
 * `calendars/{id}/shards/{n}/changes/{seq}`. Writes meet on a document only when they draw
 * the same shard, as they already do; a per-calendar counter would queue every write on one
 * document. Within a shard the numbers follow commit order (each write read the previous
 * number), which is what makes the reader's cursor, a vector of 8 positions, exact
 * (domain/queries/changes.ts and docs/ARCHITECTURE.md, "Change feed").
 */
import type { Transaction } from "../../storage/port.js";
import { signalChange } from "../change-signals.js";
import type { Deps } from "../deps.js";
import { keptRevisions } from "../kept-revisions.js";
import { paths } from "../paths.js";
import type { AlarmFired, ChangeRecord, ChangeType, EventRecord } from "../records.js";
import { CHANGE_RETENTION_MS } from "../retention.js";
import type { DrawnShard } from "../revision.js";

export interface NewChange {
  type: ChangeType;
  id: string;
  event?: EventRecord;
  original_date?: string;
  alarm?: AlarmFired;
}

/**
 * Records a change of `calendarId` on the shard its write drew (before `touchShard` writes the
 * shard, which stores the raised number). Call it after the transaction's reads.
 */
export function recordChange(
  tx: Transaction,
  deps: Pick<Deps, "clock"> & Partial<Pick<Deps, "memory">>,
  calendarId: string,
  shard: DrawnShard,
  change: NewChange,
): void {
  // Anonymous reads on this instance read the shards again from now (domain/kept-revisions.ts).
  // Without a memory, the change is seen like another instance's: up to KEPT_REVISIONS_MS late.
  if (deps.memory) keptRevisions(deps.memory).forget(calendarId);
  if (shard.touched) throw new Error("recordChange: record the change before touchShard writes the shard");
  const now = deps.clock();
  shard.changeSeq += 1;
  const record: ChangeRecord = {
    seq: shard.changeSeq,
    shard: shard.index,
    type: change.type,
    id: change.id,
    at: now.toISOString(),
    ...(change.event ? { event: withoutInternals(change.event) } : {}),
    ...(change.original_date ? { original_date: change.original_date } : {}),
    ...(change.alarm ? { alarm: change.alarm } : {}),
    purge_at: new Date(now.getTime() + CHANGE_RETENTION_MS),
  };
  tx.create(paths.change(calendarId, shard.index, shard.changeSeq), record);
  if (!shard.outboxed) {
    // Blind, beside the shard this write already holds: webhook delivery finds the calendar by it.
    tx.set(paths.webhookOutboxEntry(calendarId, shard.index), {
      calendar_id: calendarId,
      shard: shard.index,
      due_at: record.at,
    });
    shard.outboxed = true;
  }
  signalChange(calendarId);
}

/** The event as the API shows it keeps no list key. */
function withoutInternals(event: EventRecord): EventRecord {
  const { sort_key: _sortKey, ...shown } = event;
  return shown;
}
