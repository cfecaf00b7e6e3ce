/**
 * The storage port: a small document store shaped like Firestore, so that the Firestore
 * adapter stays thin and the SQLite adapter can serve local runs and tests.
 *
 * Paths alternate collection and document ids: `calendars/cal_1/events/evt_2`.
 * A collection path has an odd number of segments, a document path an even one.
 *
 * Paths are typed: only `domain/paths.ts` builds them, from ids it has checked, so no caller
 * can concatenate a request's input into a path. Every adapter checks each path it is given
 * against the layout it was opened with as well (storage/paths-guard.ts).
 */
export type DocData = Record<string, unknown>;

declare const documentPath: unique symbol;
declare const collectionPath: unique symbol;
/** A document path built by domain/paths.ts: collection/id pairs. */
export type DocPath = string & { readonly [documentPath]: true };
/** A collection path built by domain/paths.ts: collection/id pairs and a last collection. */
export type CollectionPath = string & { readonly [collectionPath]: true };

/**
 * The collections a store holds, each named by its collection names with the ids left out:
 * `calendars/events` for `calendars/{id}/events`.
 */
export interface Layout {
  has(shape: string): boolean;
}

/** A document as read. `data` is deeply frozen on every adapter (SQLite shares parsed records): copy it to change it. */
export interface StoredDoc<T = DocData> {
  id: string;
  path: DocPath;
  data: T;
}

export type WhereClause = [field: string, op: "==", value: string | number | boolean | null];
export type OrderClause = [field: string, direction: "asc" | "desc"];

export interface QuerySpec {
  where?: WhereClause[];
  orderBy?: OrderClause[];
  /**
   * Only documents after this value of the first `orderBy` field, in its direction (a page
   * after the last one read); needs `orderBy`. Compare values of one type: a string or a
   * number cursor on a field holding that type.
   */
  startAfter?: string | number;
  limit?: number;
}

/**
 * Reads happen before writes, as in Firestore: a read after a write fails with
 * ReadAfterWriteError on every adapter. Writes are applied together at commit.
 * `D` and `C`: the path types, plain strings only for tests of the port itself (UncheckedStore).
 */
export interface Transaction<D extends string = DocPath, C extends string = CollectionPath> {
  get<T = DocData>(path: D): Promise<StoredDoc<T> | null>;
  getAll<T = DocData>(paths: D[]): Promise<Array<StoredDoc<T> | null>>;
  query<T = DocData>(collection: C, spec?: QuerySpec): Promise<StoredDoc<T>[]>;
  /** Fails the commit with DocumentExistsError when the document exists. */
  create(path: D, data: DocData): void;
  set(path: D, data: DocData): void;
  /** Merges top-level fields; fails the commit with DocumentMissingError when absent. */
  update(path: D, data: DocData): void;
  delete(path: D): void;
}

export interface Store<D extends string = DocPath, C extends string = CollectionPath> {
  /** True when one process owns the store (the SQLite file): whatever an earlier process left pending is dead. */
  readonly singleProcess?: boolean;
  /**
   * Inside a transaction joined by an operation (http/idempotency.ts), the store outside it:
   * reads of committed state that take no part in the transaction (and hold nothing).
   */
  readonly outside?: Store<D, C>;
  get<T = DocData>(path: D): Promise<StoredDoc<T> | null>;
  getAll<T = DocData>(paths: D[]): Promise<Array<StoredDoc<T> | null>>;
  query<T = DocData>(collection: C, spec?: QuerySpec): Promise<StoredDoc<T>[]>;
  /** Runs fn in a transaction; fn may be run again on contention, so it must not have side effects beyond tx. */
  runTransaction<T>(fn: (tx: Transaction<D, C>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * The port with plain string paths, for tests of the port itself: the adapters still check
 * every path against the layout they were opened with.
 */
export type UncheckedStore = Store<string, string>;

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
