/**
 * A Store decorator that counts what requests cost the store: sequential round trips,
 * documents read and written, transactions. For tests and the benchmark (bench/round-trips.mjs
 * loads this file through esbuild); the apps never wrap their store in it.
 *
 * A round trip is a wave of calls that overlap: a call joins the current wave when it starts
 * before any call of that wave has answered (`Promise.all` of two gets is one round trip), and
 * starts a new wave otherwise (a read that waits for another is a second one). Inside a
 * transaction each read wave counts the same way, and the commit is one more (a read-only
 * transaction has none). On a remote
 * store each wave waits for the network once, so the count is what latency multiplies.
 * Answers are handed on one event-loop turn later, as a remote store's would arrive: calls
 * started in the same turn overlap, whatever microtask each starts in, even on a store that
 * answers at once (SQLite).
 * Documents read are the documents the store returned (a get of a missing one returns none).
 */
// From node:timers, not the globals: fake timers in a test must not hold the answers back.
import { setImmediate } from "node:timers";
import type {
  CollectionRef,
  DocRef,
  QueryOf,
  Store,
  StoredDoc,
  Transaction,
  TransactionReads,
} from "../../functions/src/storage/port.js";

export interface StoreCounts {
  /** Sequential waves of store calls, commits included. */
  roundTrips: number;
  documentsRead: number;
  documentsWritten: number;
  /** Read-write transactions (runTransaction). */
  transactions: number;
  /** Read-only transactions (runReadOnly): no commit, no locks. */
  readOnlyTransactions: number;
  /** Store calls, however they overlapped (a commit is one). */
  calls: number;
}

const zero = (): StoreCounts => ({
  roundTrips: 0,
  documentsRead: 0,
  documentsWritten: 0,
  transactions: 0,
  readOnlyTransactions: 0,
  calls: 0,
});

export class CountingStore implements Store {
  private counts = zero();
  /** The current wave: closed once one of its calls has answered. */
  private wave = { closed: true };

  constructor(private readonly inner: Store) {}

  get singleProcess(): boolean | undefined {
    return this.inner.singleProcess;
  }

  /** The counts since the last `take`, the window left open. */
  peek(): Readonly<StoreCounts> {
    return { ...this.counts };
  }

  /** The counts since the last `take` (or since the store was wrapped), and a fresh window. */
  take(): StoreCounts {
    const taken = this.counts;
    this.counts = zero();
    this.wave = { closed: true };
    return taken;
  }

  /** Runs `fn` in a window of its own: its result and what it cost. Run one at a time. */
  async measure<T>(fn: () => Promise<T>): Promise<{ result: T; counts: StoreCounts }> {
    this.take();
    const result = await fn();
    return { result, counts: this.take() };
  }

  get<T>(path: DocRef<T>): Promise<StoredDoc<T> | null> {
    return this.call(
      () => this.inner.get<T>(path),
      (doc) => (doc ? 1 : 0),
    );
  }

  getAll<T>(paths: readonly DocRef<T>[]): Promise<Array<StoredDoc<T> | null>> {
    if (paths.length === 0) return this.inner.getAll<T>(paths); // no call goes out (Firestore's adapter answers [] itself)
    return this.call(
      () => this.inner.getAll<T>(paths),
      (docs) => docs.filter(Boolean).length,
    );
  }

  query<T>(collection: CollectionRef<T>, spec?: QueryOf<NoInfer<T>>): Promise<StoredDoc<T>[]> {
    return this.call(
      () => this.inner.query<T>(collection, spec),
      (docs) => docs.length,
    );
  }

  count<T>(collection: CollectionRef<T>, spec?: Pick<QueryOf<NoInfer<T>>, "where">): Promise<number> {
    // Firestore bills a count one read per thousand matches, at least one.
    return this.call(
      () => this.inner.count<T>(collection, spec),
      (n) => Math.max(1, Math.ceil(n / 1000)),
    );
  }

  async runTransaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    let commit: (() => void) | undefined;
    let written = 0;
    try {
      const result = await this.inner.runTransaction(async (tx) => {
        commit?.(); // a retry: the attempt before has answered
        this.counts.transactions++;
        written = 0;
        const value = await fn(this.countingTx(tx, () => written++));
        this.counts.calls++;
        commit = this.startCall();
        return value;
      });
      this.counts.documentsWritten += written;
      return result;
    } finally {
      commit?.();
    }
  }

  runReadOnly<T>(fn: (reads: TransactionReads) => Promise<T>): Promise<T> {
    return this.inner.runReadOnly((reads) => {
      this.counts.readOnlyTransactions++;
      return fn(this.countingReads(reads));
    });
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private countingTx(tx: Transaction, wrote: () => void): Transaction {
    return {
      ...this.countingReads(tx),
      create: (path, data) => (wrote(), tx.create(path, data)),
      set: (path, data) => (wrote(), tx.set(path, data)),
      update: (path, data) => (wrote(), tx.update(path, data)),
      delete: (path) => (wrote(), tx.delete(path)),
    };
  }

  private countingReads(tx: TransactionReads): TransactionReads {
    return {
      get: <T>(path: DocRef<T>) =>
        this.call(
          () => tx.get<T>(path),
          (doc) => (doc ? 1 : 0),
        ),
      getAll: <T>(paths: readonly DocRef<T>[]) =>
        paths.length === 0
          ? tx.getAll<T>(paths)
          : this.call(
              () => tx.getAll<T>(paths),
              (docs) => docs.filter(Boolean).length,
            ),
      query: <T>(collection: CollectionRef<T>, spec?: QueryOf<NoInfer<T>>) =>
        this.call(
          () => tx.query<T>(collection, spec),
          (docs) => docs.length,
        ),
    };
  }

  /** Called synchronously when a store call starts; returns what to call once it has answered. */
  private startCall(): () => void {
    if (this.wave.closed) {
      this.wave = { closed: false };
      this.counts.roundTrips++;
    }
    const wave = this.wave;
    return () => {
      wave.closed = true;
    };
  }

  private async call<R>(run: () => Promise<R>, documents: (result: R) => number): Promise<R> {
    this.counts.calls++;
    const answered = this.startCall();
    try {
      const result = await run();
      await new Promise((arrive) => setImmediate(arrive));
      this.counts.documentsRead += documents(result);
      return result;
    } finally {
      answered();
    }
  }
}
