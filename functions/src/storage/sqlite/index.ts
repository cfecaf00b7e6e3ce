import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import {
  DocumentExistsError,
  DocumentMissingError,
  splitPath,
  type DocData,
  type QuerySpec,
  type Store,
  type StoredDoc,
  type Transaction,
} from "../port.js";

type Write =
  | { kind: "create" | "set" | "update"; path: string; data: DocData }
  | { kind: "delete"; path: string };

const FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Parsed documents kept for reuse (about 2 KB each with their text). */
const PARSED_CACHE_SIZE = 5_000;

/**
 * The embedded store for local runs and tests: one table of JSON documents.
 * Transactions are serialized on the connection (one runs at a time), so a read-then-write
 * transaction sees no interleaved writes; the writes are applied in one BEGIN IMMEDIATE
 * transaction at commit. One process owns a database file at a time.
 */
export class SqliteStore implements Store {
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * JSON.parse is most of the cost of a read: a document whose stored text is unchanged is
   * answered with the object parsed last time. It is frozen, since every reader shares it.
   */
  private readonly parsed = new Map<string, { text: string; data: unknown }>();

  constructor(file: string) {
    if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
    this.db = new Database(file);
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
  }

  async get<T = DocData>(path: string): Promise<StoredDoc<T> | null> {
    return this.read<T>(path);
  }

  async getAll<T = DocData>(paths: string[]): Promise<Array<StoredDoc<T> | null>> {
    return paths.map((p) => this.read<T>(p));
  }

  async query<T = DocData>(collection: string, spec: QuerySpec = {}): Promise<StoredDoc<T>[]> {
    return this.select<T>(collection, spec);
  }

  runTransaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const run = this.queue.then(() => this.attempt(fn));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    await this.queue;
    this.db.close();
  }

  private async attempt<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const writes: Write[] = [];
    const tx: Transaction = {
      get: async (path) => this.read(path),
      getAll: async (paths) => paths.map((p) => this.read(p)),
      query: async (collection, spec) => this.select(collection, spec ?? {}),
      create: (path, data) => void writes.push({ kind: "create", path, data }),
      set: (path, data) => void writes.push({ kind: "set", path, data }),
      update: (path, data) => void writes.push({ kind: "update", path, data }),
      delete: (path) => void writes.push({ kind: "delete", path }),
    };
    const result = await fn(tx);
    if (writes.length > 0) this.commit(writes);
    return result;
  }

  private commit(writes: Write[]): void {
    const apply = this.db.transaction((all: Write[]) => {
      for (const w of all) this.applyWrite(w);
    });
    apply.immediate(writes);
  }

  private applyWrite(w: Write): void {
    const { collection, id } = splitPath(w.path);
    switch (w.kind) {
      case "create": {
        const r = this.stmt("INSERT OR IGNORE INTO docs (collection, id, data) VALUES (?, ?, ?)").run(
          collection,
          id,
          JSON.stringify(w.data),
        );
        if (r.changes === 0) throw new DocumentExistsError(w.path);
        return;
      }
      case "set":
        this.stmt("INSERT OR REPLACE INTO docs (collection, id, data) VALUES (?, ?, ?)").run(
          collection,
          id,
          JSON.stringify(w.data),
        );
        return;
      case "update": {
        const current = this.read<DocData>(w.path);
        if (!current) throw new DocumentMissingError(w.path);
        this.stmt("UPDATE docs SET data = ? WHERE collection = ? AND id = ?").run(
          JSON.stringify({ ...current.data, ...w.data }),
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

  private read<T>(path: string): StoredDoc<T> | null {
    const { collection, id } = splitPath(path);
    const row = this.stmt("SELECT data FROM docs WHERE collection = ? AND id = ?").get(collection, id) as
      | { data: string }
      | undefined;
    return row ? { id, path, data: this.parse<T>(path, row.data) } : null;
  }

  private select<T>(collection: string, spec: QuerySpec): StoredDoc<T>[] {
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
    const order = (spec.orderBy ?? []).map(([field, dir]) => `${jsonRef(field)} ${dir === "desc" ? "DESC" : "ASC"}`);
    sql += ` ORDER BY ${[...order, "id ASC"].join(", ")}`;
    if (spec.limit !== undefined) {
      sql += " LIMIT ?";
      params.push(spec.limit);
    }
    const rows = this.stmt(sql).all(...params) as Array<{ id: string; data: string }>;
    return rows.map((r) => {
      const path = `${collection}/${r.id}`;
      return { id: r.id, path, data: this.parse<T>(path, r.data) };
    });
  }

  private parse<T>(path: string, text: string): T {
    const hit = this.parsed.get(path);
    if (hit?.text === text) return hit.data as T;
    const data = deepFreeze(JSON.parse(text));
    if (this.parsed.size >= PARSED_CACHE_SIZE) this.parsed.delete(this.parsed.keys().next().value!);
    this.parsed.set(path, { text, data });
    return data as T;
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

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

function checkedField(field: string): string {
  if (!FIELD.test(field)) throw new Error(`unsupported field name in query: ${field}`);
  return field;
}

const jsonRef = (field: string): string => `json_extract(data, '$.${checkedField(field)}')`;
const jsonType = (field: string): string => `json_type(data, '$.${checkedField(field)}')`;
