import { setTimeout } from "node:timers/promises";
import { deleteApp, getApps, initializeApp, type App } from "firebase-admin/app";
import {
  FieldPath,
  getFirestore,
  type DocumentSnapshot,
  type Firestore,
  type Query,
  type Transaction as FsTransaction,
} from "firebase-admin/firestore";
import { deepFreeze } from "../frozen.js";
import { checkCollectionPath, checkDocPath } from "../paths-guard.js";
import {
  ContentionError,
  DocumentExistsError,
  DocumentMissingError,
  ReadAfterWriteError,
  storedDoc,
  type DocData,
  type Layout,
  type QuerySpec,
  type Store,
  type StoredDoc,
  type Transaction,
  type TransactionReads,
} from "../port.js";
import { timestampsToDates } from "./timestamps.js";

/** gRPC status codes that the Firestore client puts on its errors as `code`. */
const NOT_FOUND = 5;
const ALREADY_EXISTS = 6;
const ABORTED = 10;
const INVALID_ARGUMENT = 3;

/**
 * A transaction the server closed under its function (its locks taken by another, on the
 * emulator after its 2 s lock timeout) answers its next call INVALID_ARGUMENT "Transaction is
 * invalid or closed", which firebase-admin retries only in production's wording ("transaction
 * has expired"). Such a transaction wrote nothing, and transaction functions have no side
 * effects beyond it, so it is run again, a few times, after a short random wait.
 */
const CLOSED_UNDER_IT = /transaction is invalid or closed|transaction has expired/i;
const CLOSED_RETRIES = 5;
const closedUnderIt = (err: unknown): boolean =>
  (err as { code?: unknown }).code === INVALID_ARGUMENT && CLOSED_UNDER_IT.test(String((err as Error).message));

let shared: { store: FirestoreStore; app: App } | undefined;

/**
 * The Firestore adapter: a thin mapping of the storage port onto firebase-admin.
 * Paths in the port are Firestore document and collection paths already.
 */
export class FirestoreStore implements Store {
  /**
   * The store of the deployed function: on firebase-admin's default app (of `projectId`, the
   * configured project), created once per process as that app is, until `close`.
   */
  static onDefaultApp(layout: Layout, projectId: string): FirestoreStore {
    if (!shared) {
      const app = getApps().find((a) => a.name === "[DEFAULT]") ?? initializeApp({ projectId });
      const db = getFirestore(app);
      db.settings({ ignoreUndefinedProperties: true });
      shared = { store: new FirestoreStore(db, layout), app };
    }
    return shared.store;
  }

  /**
   * `db` should have `ignoreUndefinedProperties: true` set, as onDefaultApp does. `layout`:
   * the collections this store holds (the app's come from the composition root); any other path is refused.
   */
  constructor(
    private readonly db: Firestore,
    private readonly layout: Layout,
  ) {}

  async get<T = DocData>(path: string): Promise<StoredDoc<T> | null> {
    return toStored<T>(await this.doc(path).get());
  }

  async getAll<T = DocData>(paths: readonly string[]): Promise<Array<StoredDoc<T> | null>> {
    if (paths.length === 0) return [];
    const snaps = await this.db.getAll(...paths.map((p) => this.doc(p)));
    return snaps.map((s) => toStored<T>(s));
  }

  async query<T = DocData>(collection: string, spec: QuerySpec = {}): Promise<StoredDoc<T>[]> {
    const snap = await this.buildQuery(collection, spec).get();
    return snap.docs.map((s) => toStored<T>(s, spec.select)!);
  }

  async count(collection: string, spec: Pick<QuerySpec, "where"> = {}): Promise<number> {
    const snap = await this.buildQuery(collection, spec).count().get();
    return snap.data().count;
  }

  async runTransaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    // Paths of the writes that carry a precondition, to name the document in a failed commit.
    let creates: string[] = [];
    let updates: string[] = [];
    const attempt = () =>
      this.db.runTransaction(async (t) => {
        creates = [];
        updates = [];
        const reading = new Set<Promise<unknown>>();
        return settleReadsOnFailure(reading, () => fn(this.wrap(t, creates, updates, reading)));
      });
    try {
      for (let retry = 1; ; retry++) {
        try {
          return await attempt();
        } catch (err) {
          if (!closedUnderIt(err) || retry > CLOSED_RETRIES) throw err;
          await setTimeout(50 * retry + Math.random() * 200);
        }
      }
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      const message = err instanceof Error ? err.message : String(err);
      if (code === ALREADY_EXISTS && creates.length > 0) throw new DocumentExistsError(pick(creates, message));
      if (code === NOT_FOUND && updates.length > 0) throw new DocumentMissingError(pick(updates, message));
      if (code === ABORTED) throw new ContentionError(`transaction gave up after retries: ${message}`);
      throw err;
    }
  }

  /**
   * firebase-admin's read-only transaction: its reads share one snapshot and take no locks, and
   * it has no commit. Without `readTime` the snapshot is the first read's.
   */
  async runReadOnly<T>(fn: (reads: TransactionReads) => Promise<T>): Promise<T> {
    return this.db.runTransaction(
      (t) => {
        const reading = new Set<Promise<unknown>>();
        return settleReadsOnFailure(reading, () => fn(this.reads(t, () => {}, reading)));
      },
      { readOnly: true },
    );
  }

  async close(): Promise<void> {
    await this.db.terminate();
    if (shared?.store === this) {
      const { app } = shared;
      shared = undefined;
      await deleteApp(app);
    }
  }

  /** Every path the adapter hands to Firestore passes the layout check first. */
  private doc(path: string) {
    return this.db.doc(checkDocPath(path, this.layout));
  }

  /** The reads of `t`, each kept in `reading` while it runs; each calls `check` with what it reads first. */
  private reads(t: FsTransaction, check: (path: string) => void, reading: Set<Promise<unknown>>): TransactionReads {
    const tracked = <R>(read: Promise<R>): Promise<R> => {
      reading.add(read);
      void read.then(
        () => reading.delete(read),
        () => reading.delete(read),
      );
      return read;
    };
    return {
      get: async <T>(path: string) => {
        check(path);
        return toStored<T>(await tracked(t.get(this.doc(path))));
      },
      getAll: async <T>(paths: readonly string[]) => {
        check(paths.join(", "));
        if (paths.length === 0) return [];
        const snaps = await tracked(t.getAll(...paths.map((p) => this.doc(p))));
        return snaps.map((s) => toStored<T>(s));
      },
      query: async <T>(collection: string, spec?: QuerySpec) => {
        check(collection);
        const snap = await tracked(t.get(this.buildQuery(collection, spec ?? {})));
        return snap.docs.map((s) => toStored<T>(s, spec?.select)!);
      },
    };
  }

  private wrap(t: FsTransaction, creates: string[], updates: string[], reading: Set<Promise<unknown>>): Transaction {
    const doc = (path: string) => this.doc(path);
    // The SDK refuses a read after a write as well, but not a getAll of nothing, which never reaches it.
    let wrote = false;
    const beforeWrites = (path: string) => {
      if (wrote) throw new ReadAfterWriteError(path);
    };
    return {
      ...this.reads(t, beforeWrites, reading),
      create: (path: string, data: object) => {
        const ref = doc(path);
        creates.push(path);
        t.create(ref, data);
        wrote = true;
      },
      set: (path: string, data: object) => {
        t.set(doc(path), data);
        wrote = true;
      },
      update: (path: string, data: object) => {
        // FieldPath per key: a key is one top-level field, never a dotted path into a map.
        const fields: Array<[string, unknown]> = Object.entries(data);
        const pairs = fields.filter(([, v]) => v !== undefined).flatMap(([k, v]) => [new FieldPath(k), v]);
        const ref = doc(path);
        if (pairs.length === 0) throw new Error(`update of ${path} has no fields`);
        updates.push(path);
        const [field, value, ...rest] = pairs;
        t.update(ref, field as FieldPath, value, ...rest);
        wrote = true;
      },
      delete: (path: string) => {
        t.delete(doc(path));
        wrote = true;
      },
    };
  }

  private buildQuery(collection: string, spec: QuerySpec): Query {
    let q: Query = this.db.collection(checkCollectionPath(collection, this.layout));
    for (const [field, op, value] of spec.where ?? []) q = q.where(field, op, value);
    for (const [field, dir] of spec.orderBy ?? []) q = q.orderBy(field, dir);
    if (spec.startAfter !== undefined) {
      const [field, dir] = spec.orderBy?.[0] ?? [];
      if (field === undefined) throw new Error("query: startAfter needs an orderBy");
      // An inequality on the first orderBy field rather than a cursor: it keeps values of the
      // cursor's type only, as SQLite's comparison does.
      q = q.where(field, dir === "desc" ? "<" : ">", spec.startAfter);
    }
    if (spec.limit !== undefined) q = q.limit(spec.limit);
    if (spec.select) q = q.select(...spec.select);
    return q;
  }
}

/** `select` keeps those fields only, whatever the server sent. */
function toStored<T>(snap: DocumentSnapshot, select?: readonly string[]): StoredDoc<T> | null {
  if (!snap.exists) return null;
  const data = snap.data()!;
  const kept = select ? Object.fromEntries(select.filter((f) => f in data).map((f) => [f, data[f]])) : data;
  return storedDoc<T>(snap.id, snap.ref.path, deepFreeze(timestampsToDates(kept)));
}

/** The path that the error message names (longest first, so `a/bc` wins over `a/b`), else the first. */
function pick(paths: string[], message: string): string {
  const named = [...paths].sort((a, b) => b.length - a.length).find((p) => message.includes(p));
  return named ?? paths[0];
}

/**
 * Runs a transaction's function; should it fail while reads it started are still out (a
 * `Promise.all` whose second path threw after the first read began), waits for them before the
 * transaction rolls back, so none is left to reject on a closed transaction unhandled.
 */
async function settleReadsOnFailure<T>(reading: Set<Promise<unknown>>, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    await Promise.allSettled([...reading]);
    throw err;
  }
}
