/**
 * A calendar's shard revisions as an instance last read them for a cache key, kept for
 * KEPT_REVISIONS_MS so that anonymous reads answered from the response cache (pages, feeds,
 * the anonymous event list) do not read every shard each time (docs/decisions/revision-shards-and-cache.md,
 * "Freshness"). One per instance, in `deps.memory`.
 *
 * The freshness rule: an anonymous answer may be up to KEPT_REVISIONS_MS behind a write made
 * on another instance. On the instance that wrote, it is current: a write through the API holds
 * the calendar from before its transaction until it has settled (http/execute.ts), and a
 * recorded change forgets it at once (commands/changes.ts). Reads with a token never use what
 * is kept (revision.ts, `Freshness`).
 *
 * What is kept is the read itself, from the moment it starts: a read that raced a write is
 * forgotten with everything else of that calendar, so nothing read before a write can be kept
 * after it is forgotten, and readers at once share one read.
 */
import type { ShardRecord } from "./records.js";

/** How long an instance answers anonymous reads from the shard revisions it read last. */
export const KEPT_REVISIONS_MS = 1000;

type Shards = ShardRecord[] | null;

interface Kept {
  shards: Promise<Shards>;
  /** When the read started (ms): its answer is at least this recent. */
  readAt: number;
}

export class KeptRevisions {
  /** By calendar, oldest read first (an entry read again moves to the end). */
  private readonly kept = new Map<string, Kept>();
  /** Calendars with a write in flight on this instance, and how many. */
  private readonly held = new Map<string, number>();

  /** The calendar's shards as read at most KEPT_REVISIONS_MS ago, else read now with `read`. */
  shards(calendarId: string, now: number, read: () => Promise<Shards>): Promise<Shards> {
    const found = this.kept.get(calendarId);
    // A clock that went back keeps nothing it read "later".
    if (found && now >= found.readAt && now - found.readAt < KEPT_REVISIONS_MS) return found.shards;
    this.kept.delete(calendarId);
    this.dropExpired(now);
    const shards = read();
    if (this.held.has(calendarId)) return shards;
    const entry: Kept = { shards, readAt: now };
    this.kept.set(calendarId, entry);
    shards.catch(() => {
      if (this.kept.get(calendarId) === entry) this.kept.delete(calendarId);
    });
    return shards;
  }

  /** A change of the calendar was recorded on this instance: read its shards again. */
  forget(calendarId: string): void {
    this.kept.delete(calendarId);
  }

  /**
   * A write that may change the calendar starts on this instance: nothing read of it is kept
   * until `release`, so a read made before the write commits is not used after it.
   */
  hold(calendarId: string): void {
    this.held.set(calendarId, (this.held.get(calendarId) ?? 0) + 1);
    this.kept.delete(calendarId);
  }

  /** The write `hold` announced has committed or failed. */
  release(calendarId: string): void {
    const left = (this.held.get(calendarId) ?? 1) - 1;
    if (left > 0) this.held.set(calendarId, left);
    else this.held.delete(calendarId);
    this.kept.delete(calendarId);
  }

  /** Calendars kept: only those read within the window stay. */
  get size(): number {
    return this.kept.size;
  }

  /** Entries are in the order they were read: the expired ones are at the front. */
  private dropExpired(now: number): void {
    for (const [calendarId, entry] of this.kept) {
      if (now >= entry.readAt && now - entry.readAt < KEPT_REVISIONS_MS) break;
      this.kept.delete(calendarId);
    }
  }
}

/** The instance's kept revisions, made on first use. */
export function keptRevisions(memory: { keptRevisions?: KeptRevisions }): KeptRevisions {
  return (memory.keptRevisions ??= new KeptRevisions());
}
