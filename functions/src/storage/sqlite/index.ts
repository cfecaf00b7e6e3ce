import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
// From node:timers, not the globals: fake timers in a test must not hold back the COMMIT.
import { clearImmediate, setImmediate } from "node:timers";
import Database from "better-sqlite3";
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
  type Store,
  type StoredDoc,
  type Transaction,
  type TransactionReads,
} from "../port.js";
import { decodeDoc, encodeDoc } from "./json.js";

type Write = { kind: "create" | "set" | "update"; path: string; data: object } | { kind: "delete"; path: string };

export interface SqliteStoreOptions {
  /** The collections this store holds (the app's come from the composition root); any other path is refused. */
  layout: Layout;
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
 * JavaScript (scripts/bundle.mjs), from where its own search for the addon, which starts
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

/** A document as read: its JSON text, and its long text fields' (JSON, or null without any). */
interface Row {
  data: string;
  bulk: string | null;
}

/** Top-level text fields at least this long are stored apart, in the `bulk` table. */
const BULK_FIELD_LENGTH = 256;

/** The document's text, its long text fields' and their names (null when it has none), as stored. */
function splitDoc(data: object): [data: string, bulk: string | null, bulkFields: string | null] {
  const long = Object.entries(data).filter(([, v]) => typeof v === "string" && v.length >= BULK_FIELD_LENGTH);
  if (long.length === 0) return [encodeDoc(data), null, null];
  const short = { ...data } as DocData;
  for (const [key] of long) delete short[key];
  return [encodeDoc(short), JSON.stringify(Object.fromEntries(long)), long.map(([key]) => key).join(",")];
}

/** Hands a transaction's outcome to its caller: its result, or the COMMIT's error when given. */
type Deliver = (commitError?: unknown) => void;

const FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Fields that queries compare with ranges; any other field still works, by a scan of its collection. */
const RANGE_INDEXED_FIELDS = ["date", "original_date", "series_end", "span_end", "sort_key", "due_at", "ical_uid"];
/**
 * Equalities then a range, where the range's index alone would walk every match of the range:
 * the alarm tick's queries of one lane of one calendar, and of one tenant's heads
 * (domain/alarms/lanes.ts), read a few of thousands due at one instant (18 ms a query of a lane
 * among 30,000 entries without it, 0.04 ms with it).
 */
const COMPOSITE_INDEXES = [
  ["calendar_id", "lane", "due_at"],
  ["tenant", "due_at"],
];
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
/** Documents a non-transactional getAll reads between two turns of the event loop. */
const READS_PER_TURN = 100;

export class SqliteStore implements Store {
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

  constructor(file: string, options: SqliteStoreOptions) {
    this.layout = options.layout;
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
    // Long text fields (an event's notes) live apart, in `bulk`, and `docs` names them
    // (`bulk_fields`): filters, projections and lists read and parse short rows only.
    const columns = this.db.prepare("SELECT name FROM pragma_table_info('docs')").all() as Array<{ name: string }>;
    if (!columns.some((c) => c.name === "bulk_fields")) this.db.exec("ALTER TABLE docs ADD COLUMN bulk_fields TEXT");
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS bulk (
         collection TEXT NOT NULL,
         id TEXT NOT NULL,
         data TEXT NOT NULL,
         PRIMARY KEY (collection, id)
       ) WITHOUT ROWID`,
    );
    // The date fields that range reads bound (queries/occurring.ts): an index each, so a
    // month of a large calendar reads that month's rows, not the collection's.
    for (const field of RANGE_INDEXED_FIELDS) {
      this.db.exec(`CREATE INDEX IF NOT EXISTS docs_${field} ON docs (collection, ${jsonRef(field)})`);
    }
    for (const fields of COMPOSITE_INDEXES) {
      const name = `docs_${fields.join("_")}`;
      this.db.exec(`CREATE INDEX IF NOT EXISTS ${name} ON docs (collection, ${fields.map(jsonRef).join(", ")})`);
    }
    this.applyInSavepoint = this.db.transaction((writes: Write[]) => {
      for (const w of writes) this.applyWrite(w);
    });
  }

  async get<T = DocData>(path: string): Promise<StoredDoc<T> | null> {
    return this.read<T>(path);
  }

  /**
   * Reads are synchronous here: a page's or a feed's thousand events with their notes (10 MB of
   * JSON) would hold the process in one piece, so other requests run every READS_PER_TURN
   * documents. Outside a transaction nothing promises one snapshot (Firestore's getAll does,
   * but no reader outside a transaction relies on it).
   */
  async getAll<T = DocData>(paths: readonly string[]): Promise<Array<StoredDoc<T> | null>> {
    const docs: Array<StoredDoc<T> | null> = [];
    for (let i = 0; i < paths.length; i += READS_PER_TURN) {
      if (i > 0) await new Promise((next) => setImmediate(next));
      for (const p of paths.slice(i, i + READS_PER_TURN)) docs.push(this.read<T>(p));
    }
    return docs;
  }

  async query<T = DocData>(collection: string, spec: QuerySpec = {}): Promise<StoredDoc<T>[]> {
    return this.select<T>(collection, spec);
  }

  async count(collection: string, spec: Pick<QuerySpec, "where"> = {}): Promise<number> {
    checkCollectionPath(collection, this.layout);
    const params: unknown[] = [collection];
    const sql = `SELECT count(*) AS n FROM docs WHERE collection = ?${filtersSql(spec.where ?? [], params)}`;
    return (this.stmt(sql).get(...params) as { n: number }).n;
  }

  runTransaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
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
   * A transaction that has no writes, in the queue like any other: no write comes between its
   * reads, and it is answered only after the COMMIT of the batch open while it ran, so what it
   * saw has committed (as with `runTransaction`, never before). The queue waits for it as for
   * any transaction; its reads are synchronous, so that is short. Without write methods, by
   * type and at run time.
   */
  runReadOnly<T>(fn: (reads: TransactionReads) => Promise<T>): Promise<T> {
    return this.runTransaction((tx) =>
      fn({
        get: (ref) => tx.get(ref),
        getAll: (refs) => tx.getAll(refs),
        query: (collection, spec) => tx.query(collection, spec),
      }),
    );
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
    const [inGroup, params] = this.layout.has(group)
      ? ["collection = ?", [group]]
      : ["substr(collection, -length(?)) = ?", [`/${group}`, `/${group}`]];
    const doomed = `${inGroup} AND ${expired}`;
    this.stmt(
      `DELETE FROM bulk WHERE (collection, id) IN (SELECT collection, id FROM docs WHERE ${doomed} AND bulk_fields IS NOT NULL)`,
    ).run(...params, now.toISOString());
    const removed = this.stmt(`DELETE FROM docs WHERE ${doomed}`).run(...params, now.toISOString()).changes;
    if (removed > 0) this.parsed.clear();
    return removed;
  }

  async close(): Promise<void> {
    await this.queue;
    this.commit();
    this.db.close();
  }

  private async attempt<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const writes: Write[] = [];
    // Firestore's rule, so that a transaction which breaks it fails here too, not only when deployed.
    const beforeWrites = (path: string) => {
      if (writes.length > 0) throw new ReadAfterWriteError(path);
    };
    const tx: Transaction = {
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
        const [data, bulk, bulkFields] = splitDoc(w.data);
        const r = this.stmt("INSERT OR IGNORE INTO docs (collection, id, data, bulk_fields) VALUES (?, ?, ?, ?)").run(
          collection,
          id,
          data,
          bulkFields,
        );
        if (r.changes === 0) throw new DocumentExistsError(w.path);
        this.writeBulk(collection, id, bulk);
        return;
      }
      case "set": {
        const [data, bulk, bulkFields] = splitDoc(w.data);
        this.stmt("INSERT OR REPLACE INTO docs (collection, id, data, bulk_fields) VALUES (?, ?, ?, ?)").run(
          collection,
          id,
          data,
          bulkFields,
        );
        this.writeBulk(collection, id, bulk);
        return;
      }
      case "update": {
        const current = this.read<DocData>(w.path);
        if (!current) throw new DocumentMissingError(w.path);
        const [data, bulk, bulkFields] = splitDoc({ ...current.data, ...w.data });
        this.stmt("UPDATE docs SET data = ?, bulk_fields = ? WHERE collection = ? AND id = ?").run(
          data,
          bulkFields,
          collection,
          id,
        );
        this.writeBulk(collection, id, bulk);
        return;
      }
      case "delete":
        this.stmt("DELETE FROM docs WHERE collection = ? AND id = ?").run(collection, id);
        this.writeBulk(collection, id, null);
        return;
    }
  }

  private writeBulk(collection: string, id: string, bulk: string | null): void {
    if (bulk === null) this.stmt("DELETE FROM bulk WHERE collection = ? AND id = ?").run(collection, id);
    else this.stmt("INSERT OR REPLACE INTO bulk (collection, id, data) VALUES (?, ?, ?)").run(collection, id, bulk);
  }

  /** The document's long fields, when it has any. */
  private readBulk(collection: string, id: string, bulkFields: string | null): string | null {
    if (bulkFields === null) return null;
    const row = this.stmt("SELECT data FROM bulk WHERE collection = ? AND id = ?").get(collection, id) as
      { data: string } | undefined;
    return row?.data ?? null;
  }

  private checked(path: string): string {
    return checkDocPath(path, this.layout);
  }

  private read<T>(path: string): StoredDoc<T> | null {
    const { collection, id } = splitPath(this.checked(path));
    const row = this.stmt("SELECT data, bulk_fields FROM docs WHERE collection = ? AND id = ?").get(collection, id) as
      { data: string; bulk_fields: string | null } | undefined;
    if (!row) return null;
    return storedDoc<T>(
      id,
      path,
      this.parse(path, { data: row.data, bulk: this.readBulk(collection, id, row.bulk_fields) }),
    );
  }

  private select<T>(collection: string, spec: QuerySpec): StoredDoc<T>[] {
    checkCollectionPath(collection, this.layout);
    const params: unknown[] = [collection];
    // A projection reads the short part only, and whether there is a long one.
    let sql = "SELECT id, data, bulk_fields FROM docs WHERE collection = ?";
    sql += filtersSql(spec.where ?? [], params);
    // As in Firestore, ordering on a field leaves out documents that lack it.
    for (const [field] of spec.orderBy ?? []) sql += ` AND ${jsonType(field)} IS NOT NULL`;
    if (spec.startAfter !== undefined) {
      const [field, dir] = spec.orderBy?.[0] ?? [];
      if (field === undefined) throw new Error("query: startAfter needs an orderBy");
      const type = typeof spec.startAfter === "number" ? "'integer', 'real'" : "'text'";
      sql += ` AND ${jsonType(field)} IN (${type}) AND ${jsonRef(field)} ${dir === "desc" ? "<" : ">"} ?`;
      params.push(spec.startAfter);
    }
    // As Firestore orders a range query without orderBy: by the range's field first (which
    // also lets SQLite walk that field's index instead of the whole collection).
    const ranged = spec.where?.find(([, op]) => op !== "==");
    const orderBy = spec.orderBy ?? (ranged ? [[ranged[0], "asc"] as const] : []);
    const order = orderBy.map(([field, dir]) => `${jsonRef(field)} ${dir === "desc" ? "DESC" : "ASC"}`);
    sql += ` ORDER BY ${[...order, "id ASC"].join(", ")}`;
    if (spec.limit !== undefined) {
      sql += " LIMIT ?";
      params.push(spec.limit);
    }
    const rows = this.stmt(sql).all(...params) as Array<{ id: string; data: string; bulk_fields: string | null }>;
    const { select } = spec;
    return rows.map((r) => {
      const path = `${collection}/${r.id}`;
      if (!select) {
        const whole = { data: r.data, bulk: this.readBulk(collection, r.id, r.bulk_fields) };
        return storedDoc<T>(r.id, path, this.parse(path, whole));
      }
      // The short part answers a projection of short fields; a selected long one is read by itself.
      const long = r.bulk_fields?.split(",");
      const data =
        long && select.some((f) => long.includes(f)) ? this.read<DocData>(path)!.data : (decodeDoc(r.data) as DocData);
      const picked: DocData = {};
      for (const field of select) if (field in data) picked[field] = data[field];
      return storedDoc<T>(r.id, path, deepFreeze(picked));
    });
  }

  private parse(path: string, row: Row): unknown {
    const text = row.bulk === null ? row.data : `${row.data}\u0000${row.bulk}`;
    const hit = this.parsed.get(path);
    if (hit?.text === text) return hit.data;
    const head = decodeDoc(row.data) as DocData;
    const data = deepFreeze(row.bulk === null ? head : { ...head, ...(JSON.parse(row.bulk) as DocData) });
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

/** The filters as SQL conditions (each starting with AND), their values pushed onto `params`. */
function filtersSql(where: NonNullable<QuerySpec["where"]>, params: unknown[]): string {
  let sql = "";
  // Firestore semantics: values match only their own type, and `== null` needs an explicit null.
  for (const [field, op, value] of where) {
    const type = jsonType(field);
    if (value === null || typeof value === "boolean") {
      if (op !== "==") throw new Error(`query: ${op} compares strings or numbers, not ${String(value)}`);
      sql += ` AND ${type} = '${String(value)}'`;
    } else if (op !== "==" && typeof value === "string") {
      // SQLite orders numbers and nulls before all text: a text bound matches text only,
      // and the field's index answers without parsing a row.
      sql += ` AND ${jsonRef(field)} ${op} ?`;
      params.push(value);
    } else {
      const types = typeof value === "number" ? "'integer', 'real'" : "'text'";
      sql += ` AND ${jsonRef(field)} ${op === "==" ? "=" : op} ? AND ${type} IN (${types})`;
      params.push(value);
    }
  }
  return sql;
}

function checkedField(field: string): string {
  if (!FIELD.test(field)) throw new Error(`unsupported field name in query: ${field}`);
  return field;
}

const jsonRef = (field: string): string => `json_extract(data, '$.${checkedField(field)}')`;
const jsonType = (field: string): string => `json_type(data, '$.${checkedField(field)}')`;
