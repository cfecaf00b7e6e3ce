import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
// From node:timers, not the globals: fake timers in a test must not hold back the COMMIT.
import { clearImmediate, setImmediate } from "node:timers";
import Database from "better-sqlite3";
import { LAYOUT } from "../../domain/paths.js";
import { deepFreeze } from "../frozen.js";
import { checkCollectionPath, checkDocPath } from "../paths-guard.js";
import {
  DocumentExistsError,
  DocumentMissingError,
  ReadAfterWriteError,
  splitPath,
  StorePathError,
  type DocData,
  type Layout,
  type QuerySpec,
  storedDoc,
  type AdapterTransaction,
  type Store,
  type StoredDoc,
  type UncheckedStore,
} from "../port.js";
import { decodeDoc, encodeDoc } from "./json.js";

type Write = { kind: "create" | "set" | "update"; path: string; data: object } | { kind: "delete"; path: string };

export interface SqliteStoreOptions {
  /** The collections this store holds (default: the app's, domain/paths.ts); any other path is refused. */
  layout?: Layout;
  /**
   * Only this connection uses the file (the local server): SQLite then takes its file locks
   * once and keeps the WAL index in memory, instead of locking and unlocking the file around
   * every read (a read's syscalls were most of a free/busy request's CPU). Another connection
   * to the file gets `database is locked` until this one closes.
   */
  exclusive?: boolean;
}

/**
 * better-sqlite3's compiled addon, named to it: the local server's bundle holds better-sqlite3's
 * JavaScript (scripts/bundle-server.mjs), from where its own search for the addon, which starts
 * at the calling file's folder, would miss it. Undefined (better-sqlite3 searches) when it was
 * built somewhere other than build/Release.
 */
const NATIVE_BINDING = ((): string | undefined => {
  try {
    return createRequire(import.meta.url).resolve("better-sqlite3/build/Release/better_sqlite3.node");
  } catch {
    return undefined;
  }
})();

/** Hands a transaction's outcome to its caller: its result, or the COMMIT's error when given. */
type Deliver = (commitError?: unknown) => void;

const FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Parsed documents kept for reuse (about 2 KB each with their text). */
const PARSED_CACHE_SIZE = 5_000;
/** Transactions sharing one COMMIT at most, so that a long queue is still acknowledged steadily. */
const MAX_BATCH = 64;

/**
 * The embedded store for local runs and tests: one table of JSON documents.
 * Transactions are serialized on the connection (one runs at a time), so a read-then-write
 * transaction sees no interleaved writes. One process owns a database file at a time.
 *
 * Group commit: with `synchronous=FULL` every COMMIT waits for an fsync, so consecutive
 * transactions share one. Each applies its writes in a SAVEPOINT of one open SQLite
 * transaction (a failing write undoes that transaction's writes only), and the batch is
 * committed once the queue has run dry (setImmediate: after the I/O callbacks ready now have
 * queued their transactions) or MAX_BATCH transactions have joined it. Every transaction that
 * ran while the batch was open, reads included, is answered only after that COMMIT succeeded,
 * so nothing is acknowledged, or decided on data, that a crash could still take back; a
 * failed COMMIT (a disk failure) rolls the batch back and rejects them all.
 * Trade-off: reads outside transactions (`get`, `getAll`, `query`) use the same connection,
 * so they may see a write a few milliseconds before its writer is acknowledged (or, should
 * that COMMIT fail, a write that never lands).
 */
export class SqliteStore implements Store, UncheckedStore {
  readonly singleProcess = true;
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  /** Nested in the open batch, better-sqlite3 runs this in a SAVEPOINT (ROLLBACK TO on a throw). */
  private readonly applyInSavepoint: (writes: Write[]) => void;
  private queue: Promise<void> = Promise.resolve();
  /** The transactions that ran while the batch was open, waiting for its COMMIT. */
  private waiting: Deliver[] = [];
  private commitTimer: NodeJS.Immediate | undefined;
  /**
   * JSON.parse is most of the cost of a read: a document whose stored text is unchanged is
   * answered with the object parsed last time. It is frozen, since every reader shares it.
   */
  private readonly parsed = new Map<string, { text: string; data: unknown }>();
  private readonly layout: Layout;

  constructor(file: string, options: SqliteStoreOptions = {}) {
    this.layout = options.layout ?? LAYOUT;
    if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
    this.db = new Database(file, { nativeBinding: NATIVE_BINDING });
    if (options.exclusive) this.db.pragma("locking_mode = EXCLUSIVE");
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = FULL");
    this.db.pragma("busy_timeout = 5000");
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS docs (
         collection TEXT NOT NULL,
         id TEXT NOT NULL,
         data TEXT NOT NULL,
         PRIMARY KEY (collection, id)
       ) WITHOUT ROWID`,
    );
    this.applyInSavepoint = this.db.transaction((writes: Write[]) => {
      for (const w of writes) this.applyWrite(w);
    });
  }

  async get<T = DocData>(path: string): Promise<StoredDoc<T> | null> {
    return this.read<T>(path);
  }

  async getAll<T = DocData>(paths: readonly string[]): Promise<Array<StoredDoc<T> | null>> {
    return paths.map((p) => this.read<T>(p));
  }

  async query<T = DocData>(collection: string, spec: QuerySpec = {}): Promise<StoredDoc<T>[]> {
    return this.select<T>(collection, spec);
  }

  runTransaction<T>(fn: (tx: AdapterTransaction) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      // The queue moves on once this transaction's writes are applied, not once they are committed.
      this.queue = this.queue
        .then(() =>
          this.attempt(fn).then(
            (result) => this.join((commitError) => (commitError ? reject(commitError) : resolve(result))),
            (error: unknown) => this.join((commitError) => reject(commitError ?? error)),
          ),
        )
        .catch(reject);
    });
  }

  /**
   * Deletes the documents of a collection group (as Firestore's TTL policies apply: the
   * top-level collection of that name when the layout has one, else every nested collection of
   * that name) whose Date field `field` is at or before `now`, and returns how many went.
   * Should a group-commit batch be open, the DELETE joins it.
   */
  purgeExpired(group: string, field: string, now: Date): number {
    if (!/^[a-z_]+$/.test(group)) throw new StorePathError(`not a collection group name: ${group}`);
    const instant = `json_extract(data, '$.${checkedField(field)}."$date"')`;
    const expired = `${instant} IS NOT NULL AND ${instant} <= ?`;
    // A top-level collection of the layout is read through the primary key; a nested group
    // (`calendars/{id}/shards/{n}/changes`) needs a scan of the table's collection names.
    const removed = this.layout.has(group)
      ? this.stmt(`DELETE FROM docs WHERE collection = ? AND ${expired}`).run(group, now.toISOString()).changes
      : this.stmt(`DELETE FROM docs WHERE substr(collection, -length(?)) = ? AND ${expired}`).run(
          `/${group}`,
          `/${group}`,
          now.toISOString(),
        ).changes;
    if (removed > 0) this.parsed.clear();
    return removed;
  }

  async close(): Promise<void> {
    await this.queue;
    this.commit();
    this.db.close();
  }

  private async attempt<T>(fn: (tx: AdapterTransaction) => Promise<T>): Promise<T> {
    const writes: Write[] = [];
    // Firestore's rule, so that a transaction which breaks it fails here too, not only when deployed.
    const beforeWrites = (path: string) => {
      if (writes.length > 0) throw new ReadAfterWriteError(path);
    };
    const tx: AdapterTransaction = {
      get: async <T>(path: string) => {
        beforeWrites(path);
        return this.read<T>(path);
      },
      getAll: async <T>(paths: readonly string[]) => {
        beforeWrites(paths.join(", "));
        return paths.map((p) => this.read<T>(p));
      },
      query: async <T>(collection: string, spec?: QuerySpec) => {
        beforeWrites(collection);
        return this.select<T>(collection, spec ?? {});
      },
      // Checked when queued, so the transaction's function sees the refusal where it wrote.
      create: (path: string, data: object) => void writes.push({ kind: "create", path: this.checked(path), data }),
      set: (path: string, data: object) => void writes.push({ kind: "set", path: this.checked(path), data }),
      update: (path: string, data: object) => void writes.push({ kind: "update", path: this.checked(path), data }),
      delete: (path: string) => void writes.push({ kind: "delete", path: this.checked(path) }),
    };
    const result = await fn(tx);
    if (writes.length > 0) {
      this.failLostBatch();
      if (!this.db.inTransaction) this.db.exec("BEGIN IMMEDIATE");
      this.applyInSavepoint(writes);
    }
    return result;
  }

  /** A finished transaction waits for the open batch's COMMIT; with no batch open, nothing it saw can be undone. */
  private join(deliver: Deliver): void {
    this.failLostBatch();
    if (!this.db.inTransaction) return deliver();
    this.waiting.push(deliver);
    if (this.waiting.length >= MAX_BATCH) this.commit();
    else this.commitTimer ??= setImmediate(() => this.commit());
  }

  private commit(): void {
    clearImmediate(this.commitTimer);
    this.commitTimer = undefined;
    this.failLostBatch();
    if (!this.db.inTransaction) return;
    const batch = this.waiting.splice(0);
    try {
      this.db.exec("COMMIT");
    } catch (error) {
      for (const deliver of batch) deliver(error);
      // Should even the ROLLBACK fail, its error propagates: the store is unusable (fail-stop).
      if (this.db.inTransaction) this.db.exec("ROLLBACK");
      return;
    }
    for (const deliver of batch) deliver();
  }

  /** SQLite rolls a transaction back by itself after some I/O errors: the batch waiting in it is lost. */
  private failLostBatch(): void {
    if (this.waiting.length === 0 || this.db.inTransaction) return;
    const lost = new Error("the store lost uncommitted writes: SQLite rolled back the open transaction");
    for (const deliver of this.waiting.splice(0)) deliver(lost);
  }

  private applyWrite(w: Write): void {
    const { collection, id } = splitPath(w.path);
    switch (w.kind) {
      case "create": {
        const r = this.stmt("INSERT OR IGNORE INTO docs (collection, id, data) VALUES (?, ?, ?)").run(
          collection,
          id,
          encodeDoc(w.data),
        );
        if (r.changes === 0) throw new DocumentExistsError(w.path);
        return;
      }
      case "set":
        this.stmt("INSERT OR REPLACE INTO docs (collection, id, data) VALUES (?, ?, ?)").run(
          collection,
          id,
          encodeDoc(w.data),
        );
        return;
      case "update": {
        const current = this.read<DocData>(w.path);
        if (!current) throw new DocumentMissingError(w.path);
        this.stmt("UPDATE docs SET data = ? WHERE collection = ? AND id = ?").run(
          encodeDoc({ ...current.data, ...w.data }),
          collection,
          id,
        );
        return;
      }
      case "delete":
        this.stmt("DELETE FROM docs WHERE collection = ? AND id = ?").run(collection, id);
        return;
    }
  }

  private checked(path: string): string {
    return checkDocPath(path, this.layout);
  }

  private read<T>(path: string): StoredDoc<T> | null {
    const { collection, id } = splitPath(this.checked(path));
    const row = this.stmt("SELECT data FROM docs WHERE collection = ? AND id = ?").get(collection, id) as
      { data: string } | undefined;
    return row ? storedDoc<T>(id, path, this.parse(path, row.data)) : null;
  }

  private select<T>(collection: string, spec: QuerySpec): StoredDoc<T>[] {
    checkCollectionPath(collection, this.layout);
    const params: unknown[] = [collection];
    let sql = "SELECT id, data FROM docs WHERE collection = ?";
    // Firestore semantics: values match only their own type, and `== null` needs an explicit null.
    for (const [field, , value] of spec.where ?? []) {
      const type = jsonType(field);
      if (value === null || typeof value === "boolean") {
        sql += ` AND ${type} = '${String(value)}'`;
      } else {
        sql += ` AND ${jsonRef(field)} = ? AND ${type} IN (${typeof value === "number" ? "'integer', 'real'" : "'text'"})`;
        params.push(value);
      }
    }
    // As in Firestore, ordering on a field leaves out documents that lack it.
    for (const [field] of spec.orderBy ?? []) sql += ` AND ${jsonType(field)} IS NOT NULL`;
    if (spec.startAfter !== undefined) {
      const [field, dir] = spec.orderBy?.[0] ?? [];
      if (field === undefined) throw new Error("query: startAfter needs an orderBy");
      const type = typeof spec.startAfter === "number" ? "'integer', 'real'" : "'text'";
      sql += ` AND ${jsonType(field)} IN (${type}) AND ${jsonRef(field)} ${dir === "desc" ? "<" : ">"} ?`;
      params.push(spec.startAfter);
    }
    const order = (spec.orderBy ?? []).map(([field, dir]) => `${jsonRef(field)} ${dir === "desc" ? "DESC" : "ASC"}`);
    sql += ` ORDER BY ${[...order, "id ASC"].join(", ")}`;
    if (spec.limit !== undefined) {
      sql += " LIMIT ?";
      params.push(spec.limit);
    }
    const rows = this.stmt(sql).all(...params) as Array<{ id: string; data: string }>;
    return rows.map((r) => {
      const path = `${collection}/${r.id}`;
      return storedDoc<T>(r.id, path, this.parse(path, r.data));
    });
  }

  private parse(path: string, text: string): unknown {
    const hit = this.parsed.get(path);
    if (hit?.text === text) return hit.data;
    const data = deepFreeze(decodeDoc(text));
    if (this.parsed.size >= PARSED_CACHE_SIZE) this.parsed.delete(this.parsed.keys().next().value!);
    this.parsed.set(path, { text, data });
    return data;
  }

  private stmt(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }
}

function checkedField(field: string): string {
  if (!FIELD.test(field)) throw new Error(`unsupported field name in query: ${field}`);
  return field;
}

const jsonRef = (field: string): string => `json_extract(data, '$.${checkedField(field)}')`;
const jsonType = (field: string): string => `json_type(data, '$.${checkedField(field)}')`;
