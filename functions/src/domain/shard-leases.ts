/**
 * Shard leases: concurrent writes of one calendar made by one instance never take the same
 * revision shard (domain/revision.ts). Two transactions that read and write one shard meet on
 * it in the store: one waits for the other's lock and, when that takes too long, is aborted and
 * run again after a backoff (on Firestore a second or more each time). An instance knows which
 * shards its own writes hold, so it hands each write a shard none of them holds, and a write
 * that finds every shard taken waits here, in memory, for the first to be given back, instead
 * of in the store. Writes of other instances still draw at random and may meet these.
 *
 * A lease is taken inside the transaction, where the write draws its shard, and given back
 * when the whole transaction has settled (committed, or failed after its retries): a retry
 * draws the same shard again, and the store has released the shard's lock by then. So the
 * transaction must run within `withShardLeases`; a transaction opened without it draws at
 * random, as before. One `ShardLeases` per instance, in `deps.memory`.
 */
import type { TransactionReads } from "../storage/port.js";
import type { InstanceMemory } from "./deps.js";

/**
 * The longest a write waits for a shard of its calendar before it draws one at random anyway:
 * a guard against a wait that could never end (a transaction holding one calendar's shard
 * while waiting for another's), far above any wait a calendar's writers queue for.
 */
export const LEASE_WAIT_MS = 2_000;

interface Waiter {
  /** The shard index asked for, or null for any free one. */
  want: number | null;
  grant: (index: number) => void;
}

interface CalendarLeases {
  held: Set<number>;
  waiting: Waiter[];
}

/** The shards this instance's writes hold, per calendar; only calendars with a write in flight are kept. */
export class ShardLeases {
  private readonly calendars = new Map<string, CalendarLeases>();

  /**
   * A shard of `calendarId` (one of `shards`) no other write of this instance holds, or `want`
   * when given: at once when one is free, else when one is given back. Null after `waitMs`:
   * the caller draws at random and holds nothing.
   */
  take(calendarId: string, shards: number, want: number | null, waitMs = LEASE_WAIT_MS): Promise<number | null> {
    let leases = this.calendars.get(calendarId);
    if (!leases) {
      leases = { held: new Set(), waiting: [] };
      this.calendars.set(calendarId, leases);
    }
    const free = freeIndex(leases.held, shards, want);
    if (free !== null) {
      leases.held.add(free);
      return Promise.resolve(free);
    }
    const calendar = leases;
    return new Promise((resolve) => {
      const waiter: Waiter = {
        want,
        grant: (index) => {
          clearTimeout(timer);
          resolve(index);
        },
      };
      const timer = setTimeout(() => {
        calendar.waiting.splice(calendar.waiting.indexOf(waiter), 1);
        this.forgetIfIdle(calendarId, calendar);
        resolve(null);
      }, waitMs);
      calendar.waiting.push(waiter);
    });
  }

  /** Gives shard `index` back: to the longest waiting write that can take it, else free. */
  release(calendarId: string, index: number): void {
    const leases = this.calendars.get(calendarId);
    if (!leases) return;
    const next = leases.waiting.findIndex((w) => w.want === null || w.want === index);
    if (next >= 0) {
      const [waiter] = leases.waiting.splice(next, 1);
      waiter?.grant(index);
      return;
    }
    leases.held.delete(index);
    this.forgetIfIdle(calendarId, leases);
  }

  /** Calendars with shards held or writes waiting (for tests). */
  get size(): number {
    return this.calendars.size;
  }

  private forgetIfIdle(calendarId: string, leases: CalendarLeases): void {
    if (leases.held.size === 0 && leases.waiting.length === 0) this.calendars.delete(calendarId);
  }
}

/** `want` when not held, else a random index of those not held; null when none is free. */
function freeIndex(held: ReadonlySet<number>, shards: number, want: number | null): number | null {
  if (want !== null) return held.has(want) ? null : want;
  if (held.size >= shards) return null;
  const free: number[] = [];
  for (let i = 0; i < shards; i++) if (!held.has(i)) free.push(i);
  return free[Math.floor(Math.random() * free.length)] ?? null;
}

const leasesOf = new WeakMap<InstanceMemory, ShardLeases>();

/** The instance's shard leases. */
export function shardLeases(memory: InstanceMemory): ShardLeases {
  let leases = leasesOf.get(memory);
  if (!leases) {
    leases = new ShardLeases();
    leasesOf.set(memory, leases);
  }
  return leases;
}

/** The leases one transaction holds, across its attempts. */
class LeaseScope {
  /** Per calendar, the shard indexes held (the first is the one a draw reuses). */
  private readonly held = new Map<string, number[]>();

  constructor(private readonly leases: ShardLeases) {}

  async take(calendarId: string, shards: number, want: number | null): Promise<number | null> {
    const mine = this.held.get(calendarId) ?? [];
    const first = mine[0];
    if (want === null && first !== undefined && first < shards) return first;
    if (want !== null && mine.includes(want)) return want;
    const index = await this.leases.take(calendarId, shards, want);
    if (index !== null) this.held.set(calendarId, [...mine, index]);
    return index;
  }

  releaseAll(): void {
    for (const [calendarId, indexes] of this.held) for (const i of indexes) this.leases.release(calendarId, i);
    this.held.clear();
  }
}

const scopes = new WeakMap<TransactionReads, LeaseScope>();

/**
 * Runs `open`, which opens one transaction and calls `enter` with each attempt's `tx` first:
 * the shard draws in it take leases of the instance (`leaseShard`), all given back once `open`
 * has settled. (The domain opens no transaction: its callers do, http/execute.ts and jobs/.)
 */
export async function withShardLeases<T>(
  memory: InstanceMemory,
  open: (enter: (tx: TransactionReads) => void) => Promise<T>,
): Promise<T> {
  const scope = new LeaseScope(shardLeases(memory));
  try {
    return await open((tx) => scopes.set(tx, scope));
  } finally {
    scope.releaseAll();
  }
}

/**
 * The shard of `calendarId` a write in `tx` takes: `want`, or any free one when null, waiting
 * for it when this instance's other writes hold it. Null when `tx` was not opened within
 * `withShardLeases` (or the wait ran out): the caller draws as it did without leases.
 */
export function leaseShard(
  tx: TransactionReads,
  calendarId: string,
  shards: number,
  want: number | null = null,
): Promise<number | null> {
  const scope = scopes.get(tx);
  return scope ? scope.take(calendarId, shards, want) : Promise.resolve(null);
}
