/**
 * A Store decorator for tests: every query, in transactions too, must be one Firestore answers
 * with the indexes firestore.indexes.json declares. SQLite answers any query, so a query that
 * needs an undeclared composite index would pass every test and fail only once deployed
 * (FAILED_PRECONDITION); here it throws, naming the index to declare.
 *
 * The rules (https://firebase.google.com/docs/firestore/query-data/index-overview): equality
 * filters alone are served by merging single-field indexes, and so is any query on one field;
 * anything else needs a composite index of the equality fields, then the order's fields with
 * their directions (a range's field, when not ordered on, is ordered ascending after them). A
 * field a `fieldOverrides` entry exempts has no single-field index to serve it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type {
  CollectionRef,
  QueryOf,
  QuerySpec,
  Store,
  Transaction,
  TransactionReads,
} from "../../functions/src/storage/port.js";

type Order = "ASCENDING" | "DESCENDING";
export interface IndexField {
  fieldPath: string;
  order?: Order;
  arrayConfig?: string;
}
export interface CompositeIndex {
  collectionGroup: string;
  queryScope?: "COLLECTION" | "COLLECTION_GROUP";
  fields: readonly IndexField[];
}
/** firestore.indexes.json, the parts a query's plan depends on. */
export interface IndexSpec {
  indexes: readonly CompositeIndex[];
  fieldOverrides?: ReadonlyArray<{
    collectionGroup: string;
    fieldPath: string;
    indexes: ReadonlyArray<{ order?: Order; arrayConfig?: string; queryScope?: string }>;
  }>;
}

export const DECLARED: IndexSpec = JSON.parse(
  readFileSync(join(import.meta.dirname, "../../firestore.indexes.json"), "utf8"),
) as IndexSpec;

const direction = (dir: "asc" | "desc"): Order => (dir === "asc" ? "ASCENDING" : "DESCENDING");

/** The collection group Firestore indexes a collection under: its last segment. */
const groupOf = (collection: string): string => collection.slice(collection.lastIndexOf("/") + 1);

/** A query's fields as an index lays them out: equality fields (by name), then the order. */
interface Plan {
  equalities: string[];
  ordered: Array<[field: string, order: Order]>;
}

function planOf(spec: QuerySpec): Plan {
  const where = spec.where ?? [];
  const ordered: Plan["ordered"] = (spec.orderBy ?? []).map(([field, dir]) => [field, direction(dir)]);
  // Firestore orders by each range's field after the explicit order (the adapters add
  // `startAfter` as a range on the first orderBy field, already in the order).
  for (const [field, op] of where)
    if (op !== "==" && !ordered.some(([f]) => f === field)) ordered.push([field, "ASCENDING"]);
  const equalities = [...new Set(where.filter(([, op]) => op === "==").map(([field]) => field))]
    .filter((field) => !ordered.some(([f]) => f === field))
    .sort();
  return { equalities, ordered };
}

const indexOf = (group: string, { equalities, ordered }: Plan): CompositeIndex => ({
  collectionGroup: group,
  queryScope: "COLLECTION",
  fields: [
    ...equalities.map((fieldPath): IndexField => ({ fieldPath, order: "ASCENDING" })),
    ...ordered.map(([fieldPath, order]): IndexField => ({ fieldPath, order })),
  ],
});

/** The composite index a query needs, or null when single-field indexes serve it (exemptions aside). */
export function compositeIndexFor(collection: string, spec: QuerySpec): CompositeIndex | null {
  const plan = planOf(spec);
  const fields = new Set([...plan.equalities, ...plan.ordered.map(([f]) => f)]);
  return plan.ordered.length === 0 || fields.size === 1 ? null : indexOf(groupOf(collection), plan);
}

/** Whether a declared index serves a plan: its equality fields in any order and direction, then the order exactly. */
function serves(declared: CompositeIndex, group: string, { equalities, ordered }: Plan): boolean {
  if (declared.collectionGroup !== group || (declared.queryScope ?? "COLLECTION") !== "COLLECTION") return false;
  const fields = declared.fields;
  if (fields.length !== equalities.length + ordered.length || fields.some((f) => !f.order)) return false;
  const leading = fields.slice(0, equalities.length).map((f) => f.fieldPath);
  if (leading.sort().join("\0") !== equalities.join("\0")) return false;
  return ordered.every(([field, order], i) => {
    const declaredField = fields[equalities.length + i];
    return declaredField.fieldPath === field && declaredField.order === order;
  });
}

/** Why Firestore would refuse the query with these indexes, or null when it would answer it. */
export function missingIndex(collection: string, spec: QuerySpec, declared: IndexSpec = DECLARED): string | null {
  const group = groupOf(collection);
  const what = `query of ${collection} ${JSON.stringify(spec)}`;
  let plan = planOf(spec);
  if (!compositeIndexFor(collection, spec)) {
    // Served by single-field indexes, unless `fieldOverrides` exempts one of its fields.
    const order = plan.ordered[0]?.[1] ?? null;
    const fields = [...new Set([...plan.equalities, ...plan.ordered.map(([f]) => f)])];
    const unindexed = fields.filter((field) => {
      const override = declared.fieldOverrides?.find((o) => o.collectionGroup === group && o.fieldPath === field);
      return override && !override.indexes.some((i) => i.order && (order === null || i.order === order));
    });
    if (unindexed.length === 0) return null;
    if (fields.length === 1)
      return `${what}: field ${unindexed[0]} of ${group} is exempted from indexing (fieldOverrides), and no composite index has one field`;
    // Equality filters only: a composite index of their fields serves them instead.
    plan = { equalities: fields.sort(), ordered: [] };
  }
  if (declared.indexes.some((index) => serves(index, group, plan))) return null;
  return `${what} needs a composite index: declare it in firestore.indexes.json's "indexes": ${JSON.stringify(indexOf(group, plan))}`;
}

export class UndeclaredIndexError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UndeclaredIndexError";
  }
}

type Checked = "query" | "count" | "runTransaction" | "runReadOnly";
type PassedThrough = "get" | "getAll" | "close" | "singleProcess";
/** Every member of Store is checked or passed through: a new one fails the build until sorted here. */
const everyMemberSorted: [Exclude<keyof Store, Checked | PassedThrough>] extends [never] ? true : never = true;
void everyMemberSorted;

/**
 * The store, with each query and count checked against `declared` before it runs. Anything
 * else of the store passes through, its own members too (a SQLite store's sweep).
 */
export function declaredIndexesOnly<S extends Store>(store: S, declared: IndexSpec = DECLARED): S {
  const check = <R>(collection: string, spec: QuerySpec | undefined, run: () => Promise<R>): Promise<R> => {
    const missing = missingIndex(collection, spec ?? {}, declared);
    return missing ? Promise.reject(new UndeclaredIndexError(missing)) : run();
  };
  const reads = (inner: TransactionReads): TransactionReads => ({
    get: (ref) => inner.get(ref),
    getAll: (refs) => inner.getAll(refs),
    query: <T>(collection: CollectionRef<T>, spec?: QueryOf<NoInfer<T>>) =>
      check(collection, spec, () => inner.query<T>(collection, spec)),
  });
  const checked: Pick<Store, Checked> = {
    query: (collection, spec) => check(collection, spec, () => store.query(collection, spec)),
    count: (collection, spec) => check(collection, spec, () => store.count(collection, spec)),
    runTransaction: (fn) =>
      store.runTransaction((tx) =>
        fn({
          ...reads(tx),
          create: (ref, data) => tx.create(ref, data),
          set: (ref, data) => tx.set(ref, data),
          update: (ref, data) => tx.update(ref, data),
          delete: (ref) => tx.delete(ref),
        } satisfies Transaction),
      ),
    runReadOnly: (fn) => store.runReadOnly((r) => fn(reads(r))),
  };
  return new Proxy(store, {
    get(target, key) {
      if (typeof key === "string" && Object.hasOwn(checked, key)) return checked[key as Checked];
      const value: unknown = Reflect.get(target, key);
      // Bound to the store itself: its private fields are not the proxy's.
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
