import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { DocumentExistsError, DocumentMissingError, splitPath, } from "../port.js";
const FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/;
/**
 * The embedded store for local runs and tests: one table of JSON documents.
 * Transactions are serialized on the connection (one runs at a time), so a read-then-write
 * transaction sees no interleaved writes; the writes are applied in one BEGIN IMMEDIATE
 * transaction at commit. One process owns a database file at a time.
 */
export class SqliteStore {
    db;
    statements = new Map();
    queue = Promise.resolve();
    constructor(file) {
        if (file !== ":memory:")
            mkdirSync(dirname(file), { recursive: true });
        this.db = new Database(file);
        this.db.pragma("journal_mode = WAL");
        this.db.pragma("synchronous = FULL");
        this.db.pragma("busy_timeout = 5000");
        this.db.exec(`CREATE TABLE IF NOT EXISTS docs (
         collection TEXT NOT NULL,
         id TEXT NOT NULL,
         data TEXT NOT NULL,
         PRIMARY KEY (collection, id)
       ) WITHOUT ROWID`);
    }
    async get(path) {
        return this.read(path);
    }
    async getAll(paths) {
        return paths.map((p) => this.read(p));
    }
    async query(collection, spec = {}) {
        return this.select(collection, spec);
    }
    runTransaction(fn) {
        const run = this.queue.then(() => this.attempt(fn));
        this.queue = run.catch(() => undefined);
        return run;
    }
    async close() {
        await this.queue;
        this.db.close();
    }
    async attempt(fn) {
        const writes = [];
        const tx = {
            get: async (path) => this.read(path),
            getAll: async (paths) => paths.map((p) => this.read(p)),
            query: async (collection, spec) => this.select(collection, spec ?? {}),
            create: (path, data) => void writes.push({ kind: "create", path, data }),
            set: (path, data) => void writes.push({ kind: "set", path, data }),
            update: (path, data) => void writes.push({ kind: "update", path, data }),
            delete: (path) => void writes.push({ kind: "delete", path }),
        };
        const result = await fn(tx);
        if (writes.length > 0)
            this.commit(writes);
        return result;
    }
    commit(writes) {
        const apply = this.db.transaction((all) => {
            for (const w of all)
                this.applyWrite(w);
        });
        apply.immediate(writes);
    }
    applyWrite(w) {
        const { collection, id } = splitPath(w.path);
        switch (w.kind) {
            case "create": {
                const r = this.stmt("INSERT OR IGNORE INTO docs (collection, id, data) VALUES (?, ?, ?)").run(collection, id, JSON.stringify(w.data));
                if (r.changes === 0)
                    throw new DocumentExistsError(w.path);
                return;
            }
            case "set":
                this.stmt("INSERT OR REPLACE INTO docs (collection, id, data) VALUES (?, ?, ?)").run(collection, id, JSON.stringify(w.data));
                return;
            case "update": {
                const current = this.read(w.path);
                if (!current)
                    throw new DocumentMissingError(w.path);
                this.stmt("UPDATE docs SET data = ? WHERE collection = ? AND id = ?").run(JSON.stringify({ ...current.data, ...w.data }), collection, id);
                return;
            }
            case "delete":
                this.stmt("DELETE FROM docs WHERE collection = ? AND id = ?").run(collection, id);
                return;
        }
    }
    read(path) {
        const { collection, id } = splitPath(path);
        const row = this.stmt("SELECT data FROM docs WHERE collection = ? AND id = ?").get(collection, id);
        return row ? { id, path, data: JSON.parse(row.data) } : null;
    }
    select(collection, spec) {
        const params = [collection];
        let sql = "SELECT id, data FROM docs WHERE collection = ?";
        for (const [field, , value] of spec.where ?? []) {
            const ref = jsonRef(field);
            if (value === null) {
                sql += ` AND ${ref} IS NULL`;
            }
            else {
                sql += ` AND ${ref} = ?`;
                params.push(typeof value === "boolean" ? Number(value) : value);
            }
        }
        const order = (spec.orderBy ?? []).map(([field, dir]) => `${jsonRef(field)} ${dir === "desc" ? "DESC" : "ASC"}`);
        sql += ` ORDER BY ${[...order, "id ASC"].join(", ")}`;
        if (spec.limit !== undefined) {
            sql += " LIMIT ?";
            params.push(spec.limit);
        }
        const rows = this.stmt(sql).all(...params);
        return rows.map((r) => ({ id: r.id, path: `${collection}/${r.id}`, data: JSON.parse(r.data) }));
    }
    stmt(sql) {
        let s = this.statements.get(sql);
        if (!s) {
            s = this.db.prepare(sql);
            this.statements.set(sql, s);
        }
        return s;
    }
}
function jsonRef(field) {
    if (!FIELD.test(field))
        throw new Error(`unsupported field name in query: ${field}`);
    return `json_extract(data, '$.${field}')`;
}
//# sourceMappingURL=index.js.map