/**
 * The change feed's long-poll waits here (domain/queries/changes.ts). While at least one
 * request of this instance waits on a calendar, one watcher reads that calendar's shard
 * counters every CHANGE_POLL_MS, in a read-only transaction, and wakes the waiters whose
 * cursor a counter has passed; each then reads its own page. So an idle calendar costs one
 * read of its shard documents (at most `deps.config.revisionShards`) a second, however many wait on it, and a waiter
 * costs nothing until there is something for it. With no waiter left the watcher stops.
 *
 * A signal of this process (domain/change-signals.ts) makes the watcher read at once; since a
 * signal can come before its write commits, it reads again after each of RECHECKS_MS until the
 * counters move. Writes on other instances are seen at the next tick.
 *
 * Watchers are per instance of the service (its `deps.memory`), so two apps in one process
 * (tests) each read their own store.
 */
// From node:timers, not the globals: fake timers in a test must not hold a waiter back.
import { clearTimeout, setTimeout } from "node:timers";
import type { TransactionReads } from "../storage/port.js";
import { onChangeSignal } from "./change-signals.js";
import type { Deps, InstanceMemory } from "./deps.js";
import { paths } from "./paths.js";
import { DEFAULT_SHARDS } from "./revision.js";

/** How often a watcher reads the counters when no signal came (changes written by other instances). */
export const CHANGE_POLL_MS = 1_000;
/** After a signal that found nothing yet (the write had not committed), the next reads come sooner. */
const RECHECKS_MS = [20, 50, 100, 200, 400];

type WatchDeps = Pick<Deps, "store" | "memory" | "log" | "config">;

/**
 * Each of the `shards` shards' last change number (`deps.config.revisionShards`); shards never
 * written count 0. Only that field is read. The default is there for the callers in
 * domain/webhooks/ until they pass the configured count.
 */
export async function readCounters(
  reads: TransactionReads,
  calendarId: string,
  shards: number = DEFAULT_SHARDS,
): Promise<number[]> {
  const counters: number[] = new Array<number>(shards).fill(0);
  for (const doc of await reads.query(paths.shards(calendarId), { select: ["change_seq"] })) {
    const n = Number(doc.id);
    if (n >= 0 && n < shards) counters[n] = doc.data.change_seq ?? 0;
  }
  return counters;
}

/**
 * Resolves with the calendar's counters once one of them is past `known` (the waiter's
 * position on each shard), or null after `ms` or as soon as `abort` is aborted.
 */
export function nextChange(
  deps: WatchDeps,
  calendarId: string,
  known: readonly number[],
  ms: number,
  abort: AbortSignal,
): Promise<number[] | null> {
  if (abort.aborted) return Promise.resolve(null);
  return new Promise((resolve) => {
    const watch = watchOf(deps, calendarId);
    let settled = false;
    const done = (counters: number[] | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      abort.removeEventListener("abort", aborted);
      watch.leave(waiter);
      resolve(counters);
    };
    const waiter: Waiter = { known, wake: done };
    const aborted = () => done(null);
    const timer = setTimeout(() => done(null), ms);
    abort.addEventListener("abort", aborted, { once: true });
    watch.join(waiter);
  });
}

interface Waiter {
  known: readonly number[];
  wake(counters: number[]): void;
}

const watches = new WeakMap<InstanceMemory, Map<string, CalendarWatch>>();

function watchOf(deps: WatchDeps, calendarId: string): CalendarWatch {
  let mine = watches.get(deps.memory);
  if (!mine) watches.set(deps.memory, (mine = new Map<string, CalendarWatch>()));
  const existing = mine.get(calendarId);
  if (existing) return existing;
  const calendars = mine;
  const watch = new CalendarWatch(deps, calendarId, () => {
    if (calendars.get(calendarId) === watch) calendars.delete(calendarId);
  });
  calendars.set(calendarId, watch);
  return watch;
}

const passed = (counters: readonly number[], known: readonly number[]): boolean =>
  counters.some((c, n) => c > known[n]);

class CalendarWatch {
  private readonly waiters = new Set<Waiter>();
  /** The counters last read; undefined before the first read. */
  private latest: number[] | undefined;
  private timer: NodeJS.Timeout | undefined;
  private reading = false;
  /** A signal came while a read was out: read again once it is back. */
  private again = false;
  /** Quick reads left after a signal. */
  private rechecks = 0;
  private stopped = false;
  private readonly stopListening: () => void;

  /**
   * `deps` are the first waiter's: its store is read for every waiter (a GET's store wraps the
   * instance's with a per-request memo, which a read-only transaction passes by).
   */
  constructor(
    private readonly deps: WatchDeps,
    private readonly calendarId: string,
    private readonly forget: () => void,
  ) {
    this.stopListening = onChangeSignal(calendarId, () => {
      this.rechecks = RECHECKS_MS.length;
      void this.read();
    });
    this.schedule(CHANGE_POLL_MS);
  }

  join(waiter: Waiter): void {
    this.waiters.add(waiter);
    // A change this watcher has already seen, made after the waiter's own read.
    if (this.latest && passed(this.latest, waiter.known)) waiter.wake(this.latest);
  }

  leave(waiter: Waiter): void {
    this.waiters.delete(waiter);
    if (this.waiters.size > 0 || this.stopped) return;
    this.stopped = true;
    clearTimeout(this.timer);
    this.stopListening();
    this.forget();
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.read(), ms);
  }

  private async read(): Promise<void> {
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    clearTimeout(this.timer);
    let counters: number[] | undefined;
    try {
      counters = await this.deps.store.runReadOnly((reads) =>
        readCounters(reads, this.calendarId, this.deps.config.revisionShards),
      );
    } catch (err) {
      // The waiters' own reads report what is wrong; the watcher tries again at the next tick.
      this.deps.log(`change feed: reading the shard counters failed: ${String(err)}`, { severity: "WARNING" });
    }
    this.reading = false;
    if (this.stopped) return;
    let moved = false;
    if (counters) {
      const before = this.latest;
      moved = before !== undefined && counters.some((c, n) => c !== before[n]);
      this.latest = counters;
      for (const waiter of [...this.waiters]) {
        if (!passed(counters, waiter.known)) continue;
        moved = true;
        waiter.wake(counters);
      }
    }
    if (this.stopped) return;
    if (this.again) {
      this.again = false;
      return this.read();
    }
    if (moved) this.rechecks = 0;
    const pause = this.rechecks > 0 ? RECHECKS_MS[RECHECKS_MS.length - this.rechecks--] : CHANGE_POLL_MS;
    this.schedule(pause);
  }
}
