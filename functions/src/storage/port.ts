/**
 * The storage port: a small document store shaped like Firestore, so that the Firestore
 * adapter stays thin and the SQLite adapter can serve local runs and tests.
 *
 * Paths alternate collection and document ids: `calendars/cal_1/events/evt_2`.
 * A collection path has an odd number of segments, a document path an even one.
 *
 * References are typed: only `domain/paths.ts` builds them, from ids it has checked, so no
 * caller can concatenate a request's input into a path, and each carries the type of the
 * record stored there (`paths.event(c, e)` is a `DocRef<EventRecord>`), so reads return that
 * type and writes must give it, without a type argument or a cast at the call. Every adapter
 * checks each path it is given against the layout it was opened with as well
 * (storage/paths-guard.ts).
 */
export type DocData = Record<string, unknown>;

declare const documentRecord: unique symbol;
declare const collectionRecord: unique symbol;
/** The path of a document holding a `T` (collection/id pairs), built by domain/paths.ts. */
export type DocRef<T> = string & { readonly [documentRecord]: T };
/** The path of a collection of `T` (collection/id pairs and a last collection), built by domain/paths.ts. */
export type CollectionRef<T> = string & { readonly [collectionRecord]: T };
/** Any document's reference, whatever it holds. */
export type DocPath = DocRef<unknown>;
/** Any collection's reference, whatever it holds. */
export type CollectionPath = CollectionRef<unknown>;

/**
 * The collections a store holds, each named by its collection names with the ids left out:
 * `calendars/events` for `calendars/{id}/events`.
 */
export interface Layout {
  has(shape: string): boolean;
}

/**
 * A document as read. `data` is deeply frozen on every adapter (SQLite shares parsed records,
 * Firestore's are frozen to match; a contract case checks both): copy it to change it.
 */
export interface StoredDoc<T = DocData> {
  id: string;
  path: DocRef<T>;
  data: Readonly<T>;
}

type FieldOf<T> = Extract<keyof T, string>;
type Value = string | number | boolean | null;
/** What an equality filter on a field of this type may compare with (anything for untyped data). */
type ValueFor<V> = unknown extends V ? Value : Extract<V, Value>;

/**
 * The comparisons a query may make. A range (`<`, `<=`, `>`, `>=`) matches values of the
 * compared value's type only, and Firestore allows ranges on one field per query, first in
 * `orderBy` when there is one: a single-field index serves it, no composite index needed.
 */
export type WhereOp = "==" | "<" | "<=" | ">" | ">=";

/** `[field, op, value]`: a field of `T` and a value of its type. */
export type WhereClause<T = DocData> = {
  [K in FieldOf<T>]: readonly [field: K, op: WhereOp, value: ValueFor<T[K]>];
}[FieldOf<T>];
export type OrderClause<T = DocData> = readonly [field: FieldOf<T>, direction: "asc" | "desc"];

export interface QuerySpec {
  where?: readonly WhereClause[];
  orderBy?: readonly OrderClause[];
  /**
   * Only documents after this value of the first `orderBy` field, in its direction (a page
   * after the last one read); needs `orderBy`. Compare values of one type: a string or a
   * number cursor on a field holding that type.
   */
  startAfter?: string | number;
  limit?: number;
  /**
   * Only these top-level fields of each document (Firestore's `select`): a read that shows
   * no notes does not load them. Absent: every field.
   */
  select?: readonly string[];
}

/** A query of a collection of `T`: the fields it filters and orders on are `T`'s. */
export type QueryOf<T> = QuerySpec & {
  where?: readonly WhereClause<T>[];
  orderBy?: readonly OrderClause<T>[];
  select?: readonly FieldOf<T>[];
};

/** The reads of a transaction: all of them at one consistent snapshot. A read-only transaction has these only. */
export interface TransactionReads {
  get<T>(ref: DocRef<T>): Promise<StoredDoc<T> | null>;
  getAll<T>(refs: readonly DocRef<T>[]): Promise<Array<StoredDoc<T> | null>>;
  query<T>(collection: CollectionRef<T>, spec?: QueryOf<NoInfer<T>>): Promise<StoredDoc<T>[]>;
}

/**
 * Reads happen before writes, as in Firestore: a read after a write fails with
 * ReadAfterWriteError on every adapter. Writes are applied together at commit. Each method
 * takes its record type from the reference; `NoInfer` keeps a write's data from widening it,
 * so a misspelt or missing field fails the build.
 */
export interface Transaction extends TransactionReads {
  /** Fails the commit with DocumentExistsError when the document exists. */
  create<T extends object>(ref: DocRef<T>, data: NoInfer<T>): void;
  set<T extends object>(ref: DocRef<T>, data: NoInfer<T>): void;
  /** Merges top-level fields; fails the commit with DocumentMissingError when absent. */
  update<T extends object>(ref: DocRef<T>, data: NoInfer<Partial<T>>): void;
  delete(ref: DocPath): void;
}

export interface Store {
  /** True when one process owns the store (the SQLite file): whatever an earlier process left pending is dead. */
  readonly singleProcess?: boolean;
  get<T>(ref: DocRef<T>): Promise<StoredDoc<T> | null>;
  getAll<T>(refs: readonly DocRef<T>[]): Promise<Array<StoredDoc<T> | null>>;
  query<T>(collection: CollectionRef<T>, spec?: QueryOf<NoInfer<T>>): Promise<StoredDoc<T>[]>;
  /**
   * How many documents match the filters, without reading them (Firestore's `count()`
   * aggregation: one read per thousand matches). Outside any transaction.
   */
  count<T>(collection: CollectionRef<T>, spec?: Pick<QueryOf<NoInfer<T>>, "where">): Promise<number>;
  /** Runs fn in a transaction; fn may be run again on contention, so it must not have side effects beyond tx. */
  runTransaction<R>(fn: (tx: Transaction) => Promise<R>): Promise<R>;
  /**
   * Runs fn's reads at one consistent snapshot, writing nothing (Firestore's read-only
   * transaction): it takes no locks, so it never holds back or aborts a writer, and it is not
   * retried. What it reads has committed. For reads that must agree with each other and
   * run often (the change feed's).
   */
  runReadOnly<R>(fn: (reads: TransactionReads) => Promise<R>): Promise<R>;
  close(): Promise<void>;
}

/**
 * A document as an adapter hands it out: the port's one assertion about data, that a
 * document at a reference holds the reference's record (only domain/paths.ts makes
 * references, and the port's writes only accept that record).
 */
export function storedDoc<T>(id: string, path: string, data: unknown): StoredDoc<T> {
  return { id, path: path as DocRef<T>, data: data as T };
}

export class DocumentExistsError extends Error {
  constructor(readonly path: string) {
    super(`document already exists: ${path}`);
    this.name = "DocumentExistsError";
  }
}

export class DocumentMissingError extends Error {
  constructor(readonly path: string) {
    super(`document does not exist: ${path}`);
    this.name = "DocumentMissingError";
  }
}

/**
 * A path that is not collection/id pairs of the store's layout: empty segments, `.` or `..`,
 * characters outside [A-Za-z0-9_-], or an undeclared collection. Nothing is read or written.
 */
export class StorePathError extends Error {
  constructor(readonly reason: string) {
    super(`refused store path: ${reason}`);
    this.name = "StorePathError";
  }
}

/**
 * A transaction read after it wrote. Firestore refuses it (its SDK throws), so both adapters
 * do: a transaction makes all its reads, then its writes.
 */
export class ReadAfterWriteError extends Error {
  constructor(readonly path: string) {
    super(`transaction read ${path} after writing: make every read of a transaction before its first write`);
    this.name = "ReadAfterWriteError";
  }
}

/** The store gave up on a transaction after retries (Firestore ABORTED). */
export class ContentionError extends Error {
  constructor(message = "the store is busy with conflicting writes") {
    super(message);
    this.name = "ContentionError";
  }
}

export function splitPath(path: string): { collection: string; id: string } {
  const cut = path.lastIndexOf("/");
  if (cut <= 0 || cut === path.length - 1) throw new Error(`not a document path: ${path}`);
  return { collection: path.slice(0, cut), id: path.slice(cut + 1) };
}
