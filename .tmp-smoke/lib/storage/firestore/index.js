import { deleteApp, getApps, initializeApp } from "firebase-admin/app";
import { FieldPath, getFirestore, } from "firebase-admin/firestore";
import { ContentionError, DocumentExistsError, DocumentMissingError, } from "../port.js";
/** gRPC status codes that the Firestore client puts on its errors as `code`. */
const NOT_FOUND = 5;
const ALREADY_EXISTS = 6;
const ABORTED = 10;
let shared;
/**
 * The Firestore adapter: a thin mapping of the storage port onto firebase-admin.
 * Paths in the port are Firestore document and collection paths already.
 */
export class FirestoreStore {
    db;
    /** The store of the deployed function: the default app, created once per process. */
    static fromEnvironment() {
        if (!shared) {
            const projectId = process.env.GCLOUD_PROJECT ?? process.env.GOOGLE_CLOUD_PROJECT ?? "demo-almanac";
            const app = getApps().find((a) => a.name === "[DEFAULT]") ?? initializeApp({ projectId });
            const db = getFirestore(app);
            db.settings({ ignoreUndefinedProperties: true });
            shared = { store: new FirestoreStore(db), app };
        }
        return shared.store;
    }
    /** `db` should have `ignoreUndefinedProperties: true` set, as fromEnvironment does. */
    constructor(db) {
        this.db = db;
    }
    async get(path) {
        return toStored(await this.db.doc(path).get());
    }
    async getAll(paths) {
        if (paths.length === 0)
            return [];
        const snaps = await this.db.getAll(...paths.map((p) => this.db.doc(p)));
        return snaps.map((s) => toStored(s));
    }
    async query(collection, spec = {}) {
        const snap = await this.buildQuery(collection, spec).get();
        return snap.docs.map((s) => toStored(s));
    }
    async runTransaction(fn) {
        // Paths of the writes that carry a precondition, to name the document in a failed commit.
        let creates = [];
        let updates = [];
        try {
            return await this.db.runTransaction(async (t) => {
                creates = [];
                updates = [];
                return fn(this.wrap(t, creates, updates));
            });
        }
        catch (err) {
            const code = err.code;
            const message = err instanceof Error ? err.message : String(err);
            if (code === ALREADY_EXISTS && creates.length > 0)
                throw new DocumentExistsError(pick(creates, message));
            if (code === NOT_FOUND && updates.length > 0)
                throw new DocumentMissingError(pick(updates, message));
            if (code === ABORTED)
                throw new ContentionError(`transaction gave up after retries: ${message}`);
            throw err;
        }
    }
    async close() {
        await this.db.terminate();
        if (shared?.store === this) {
            const { app } = shared;
            shared = undefined;
            await deleteApp(app);
        }
    }
    wrap(t, creates, updates) {
        const db = this.db;
        return {
            get: async (path) => toStored(await t.get(db.doc(path))),
            getAll: async (paths) => {
                if (paths.length === 0)
                    return [];
                const snaps = await t.getAll(...paths.map((p) => db.doc(p)));
                return snaps.map((s) => toStored(s));
            },
            query: async (collection, spec) => {
                const snap = await t.get(this.buildQuery(collection, spec ?? {}));
                return snap.docs.map((s) => toStored(s));
            },
            create: (path, data) => {
                creates.push(path);
                t.create(db.doc(path), data);
            },
            set: (path, data) => void t.set(db.doc(path), data),
            update: (path, data) => {
                // FieldPath per key: a key is one top-level field, never a dotted path into a map.
                const pairs = Object.entries(data)
                    .filter(([, v]) => v !== undefined)
                    .flatMap(([k, v]) => [new FieldPath(k), v]);
                if (pairs.length === 0)
                    throw new Error(`update of ${path} has no fields`);
                updates.push(path);
                const [field, value, ...rest] = pairs;
                t.update(db.doc(path), field, value, ...rest);
            },
            delete: (path) => void t.delete(db.doc(path)),
        };
    }
    buildQuery(collection, spec) {
        let q = this.db.collection(collection);
        for (const [field, op, value] of spec.where ?? [])
            q = q.where(field, op, value);
        for (const [field, dir] of spec.orderBy ?? [])
            q = q.orderBy(field, dir);
        if (spec.limit !== undefined)
            q = q.limit(spec.limit);
        return q;
    }
}
function toStored(snap) {
    if (!snap.exists)
        return null;
    return { id: snap.id, path: snap.ref.path, data: snap.data() };
}
/** The path that the error message names (longest first, so `a/bc` wins over `a/b`), else the first. */
function pick(paths, message) {
    const named = [...paths].sort((a, b) => b.length - a.length).find((p) => message.includes(p));
    return named ?? paths[0];
}
//# sourceMappingURL=index.js.map