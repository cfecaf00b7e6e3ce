/**
 * A Store decorator that tells where a job's transactions spend their time: per kind of
 * transaction (named by the collection of its first read, e.g. `alarm_heads` for a head moved
 * on, `shards` for a settling, which reads its alarm shard first), how many ran, how many
 * attempts they took (firebase-admin runs the function again after an abort, such as a lock
 * waited on too long), how many failed, and their time from start to settled, its slowest read
 * and its slowest commit. For the alarm tests on Firestore; the apps never wrap their store in it.
 */
import type { CollectionRef, DocRef, QueryOf, Store, Transaction } from "../../functions/src/storage/port.js";

export interface KindStats {
  transactions: number;
  attempts: number;
  failed: number;
  totalMs: number;
  maxMs: number;
  /** Attempts a read of which failed (a lock waited on too long aborts the attempt there). */
  readsFailed: number;
  /** Attempts whose commit failed: the function had returned, and it ran again. */
  commitsFailed: number;
  maxReadMs: number;
  maxCommitMs: number;
  /** What the slowest read read. */
  slowestRead: string;
}

/** `calendars/c/shards/3` -> `shards`, `alarm_queue` -> `alarm_queue`. */
const kindOf = (path: string): string => {
  const parts = path.split("/");
  return (parts.length % 2 === 0 ? parts.at(-2) : parts.at(-1)) ?? path;
};

const fresh = (): KindStats => ({
  transactions: 0,
  attempts: 0,
  failed: 0,
  totalMs: 0,
  maxMs: 0,
  readsFailed: 0,
  commitsFailed: 0,
  maxReadMs: 0,
  maxCommitMs: 0,
  slowestRead: "",
});

export class TransactionStats implements Store {
  readonly kinds = new Map<string, KindStats>();

  constructor(private readonly inner: Store) {}

  get singleProcess(): boolean | undefined {
    return this.inner.singleProcess;
  }

  get: Store["get"] = (ref) => this.inner.get(ref);
  getAll: Store["getAll"] = (refs) => this.inner.getAll(refs);
  query: Store["query"] = (collection, spec) => this.inner.query(collection, spec);
  count: Store["count"] = (collection, spec) => this.inner.count(collection, spec);
  runReadOnly: Store["runReadOnly"] = (fn) => this.inner.runReadOnly(fn);
  close = (): Promise<void> => this.inner.close();

  async runTransaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const started = performance.now();
    let kind = "(no read)";
    const local = fresh();
    let returnedAt: number | null = null;
    const named = (path: string) => {
      if (kind === "(no read)") kind = kindOf(path);
    };
    const read = async <R>(what: string, run: () => Promise<R>): Promise<R> => {
      const from = performance.now();
      try {
        return await run();
      } catch (err) {
        local.readsFailed += 1;
        throw err;
      } finally {
        const ms = performance.now() - from;
        if (ms > local.maxReadMs) {
          local.maxReadMs = ms;
          local.slowestRead = kindOf(what);
        }
      }
    };
    try {
      const result = await this.inner.runTransaction(async (tx) => {
        if (returnedAt !== null) {
          local.commitsFailed += 1;
          local.maxCommitMs = Math.max(local.maxCommitMs, performance.now() - returnedAt);
          returnedAt = null;
        }
        local.attempts += 1;
        const value = await fn(this.observed(tx, named, read));
        returnedAt = performance.now();
        return value;
      });
      if (returnedAt !== null) local.maxCommitMs = Math.max(local.maxCommitMs, performance.now() - returnedAt);
      return result;
    } catch (err) {
      local.failed = 1;
      throw err;
    } finally {
      const ms = performance.now() - started;
      const stats = this.kinds.get(kind) ?? fresh();
      stats.transactions += 1;
      stats.attempts += local.attempts;
      stats.failed += local.failed;
      stats.readsFailed += local.readsFailed;
      stats.commitsFailed += local.commitsFailed;
      stats.totalMs += ms;
      stats.maxMs = Math.max(stats.maxMs, ms);
      if (local.maxReadMs > stats.maxReadMs) {
        stats.maxReadMs = local.maxReadMs;
        stats.slowestRead = local.slowestRead;
      }
      stats.maxCommitMs = Math.max(stats.maxCommitMs, local.maxCommitMs);
      this.kinds.set(kind, stats);
    }
  }

  /** One line per kind. */
  report(): string {
    return [...this.kinds]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(
        ([kind, s]) =>
          `${kind}: ${s.transactions} transactions in ${s.attempts} attempts (${s.readsFailed} failed at a read, ` +
          `${s.commitsFailed} at the commit), ${s.failed} gave up; ` +
          `mean ${Math.round(s.totalMs / s.transactions)} ms, max ${Math.round(s.maxMs)} ms, ` +
          `slowest read ${Math.round(s.maxReadMs)} ms (${s.slowestRead}), slowest commit ${Math.round(s.maxCommitMs)} ms`,
      )
      .join("\n");
  }

  private observed(
    tx: Transaction,
    named: (path: string) => void,
    read: <R>(what: string, run: () => Promise<R>) => Promise<R>,
  ): Transaction {
    return {
      get: <T>(path: DocRef<T>) => (named(path), read(path, () => tx.get<T>(path))),
      getAll: <T>(paths: readonly DocRef<T>[]) => {
        const first = paths[0] ?? "(none)";
        named(first);
        return read(first, () => tx.getAll<T>(paths));
      },
      query: <T>(collection: CollectionRef<T>, spec?: QueryOf<NoInfer<T>>) => (
        named(collection),
        read(collection, () => tx.query<T>(collection, spec))
      ),
      create: (path, data) => tx.create(path, data),
      set: (path, data) => tx.set(path, data),
      update: (path, data) => tx.update(path, data),
      delete: (path) => tx.delete(path),
    };
  }
}
