/**
 * The storage port: a small document store shaped like Firestore, so that the Firestore
 * adapter stays thin and the SQLite adapter can serve local runs and tests.
 *
 * Paths alternate collection and document ids: `calendars/cal_1/events/evt_2`.
 * A collection path has an odd number of segments, a document path an even one.
 */
export type DocData = Record<string, unknown>;

export interface StoredDoc<T = DocData> {
  id: string;
  path: string;
  data: T;
}

export type WhereClause = [field: string, op: "==", value: string | number | boolean | null];
export type OrderClause = [field: string, direction: "asc" | "desc"];

export interface QuerySpec {
  where?: WhereClause[];
  orderBy?: OrderClause[];
  limit?: number;
}

/** Reads happen before writes, as in Firestore; writes are applied together at commit. */
export interface Transaction {
  get<T = DocData>(path: string): Promise<StoredDoc<T> | null>;
  getAll<T = DocData>(paths: string[]): Promise<Array<StoredDoc<T> | null>>;
  query<T = DocData>(collection: string, spec?: QuerySpec): Promise<StoredDoc<T>[]>;
  /** Fails the commit with DocumentExistsError when the document exists. */
  create(path: string, data: DocData): void;
  set(path: string, data: DocData): void;
  /** Merges top-level fields; fails the commit with DocumentMissingError when absent. */
  update(path: string, data: DocData): void;
  delete(path: string): void;
}

export interface Store {
  /** True when one process owns the store (the SQLite file): whatever an earlier process left pending is dead. */
  readonly singleProcess?: boolean;
  get<T = DocData>(path: string): Promise<StoredDoc<T> | null>;
  getAll<T = DocData>(paths: string[]): Promise<Array<StoredDoc<T> | null>>;
  query<T = DocData>(collection: string, spec?: QuerySpec): Promise<StoredDoc<T>[]>;
  /** Runs fn in a transaction; fn may be run again on contention, so it must not have side effects beyond tx. */
  runTransaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  close(): Promise<void>;
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
