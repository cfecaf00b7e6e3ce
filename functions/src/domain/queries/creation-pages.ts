/**
 * One page of a list ordered by creation (`[created_at, id]`, domain/paging.ts), read from the
 * store a page at a time: the query orders on `created_at`, so a list of any length costs a
 * page of reads. Records of one millisecond tie on `created_at`, and the store orders those its
 * own way (SQLite by id ascending, Firestore by document name in the last `orderBy`'s
 * direction), so wherever a page would start or end inside such a millisecond, its records are
 * read whole and put in id order here: the answer is the one sorting the whole list would give.
 */
import type { CollectionRef, QueryOf, QuerySpec, Store, WhereClause } from "../../storage/port.js";
import { compareSortKeys, cursorCodec, type CreationKey, type Page, type PageRequest } from "../paging.js";

interface Created {
  id: string;
  created_at: string;
}

/** The same cursors as paging.ts's in-memory lists of sharing records: `[created_at, id]`. */
const cursors = cursorCodec(["string", "string"]);

const keyOf = (record: Created): CreationKey => [record.created_at, record.id];

/**
 * The page of `collection`'s records matching `where` (equality filters) that follows
 * `page.cursor`, oldest first (`asc`) or newest first (`desc`). `where` and the order on
 * `created_at` make the query's index (firestore.indexes.json).
 */
export async function pageByCreation<T extends Created>(
  store: Pick<Store, "query">,
  collection: CollectionRef<T>,
  where: readonly WhereClause<T>[],
  page: PageRequest,
  order: "asc" | "desc",
): Promise<Page<T>> {
  const after = page.cursor === undefined ? null : cursors.decode(page.cursor);
  const sign = order === "asc" ? 1 : -1;
  const byKey = (a: T, b: T) => sign * compareSortKeys(keyOf(a), keyOf(b));
  // `created_at` is a field of every T, which the port's field types cannot see through a
  // generic T: the spec is checked as an untyped one.
  const query = async (spec: QuerySpec): Promise<T[]> =>
    (await store.query(collection, spec as unknown as QueryOf<T>)).map((d) => d.data);
  const filters = where as readonly WhereClause[];
  // Equality filters only: no composite index, whatever `where` holds.
  const createdAt = (at: string) => query({ where: [...filters, ["created_at", "==", at]] });
  // The rest of the cursor's millisecond and the records after it, in one round trip.
  const [tied, later] = await Promise.all([
    after ? createdAt(after[0]) : [],
    query({
      where: filters,
      orderBy: [["created_at", order]],
      ...(after ? { startAfter: after[0] } : {}),
      limit: page.limit + 1,
    }).then((records) => records.sort(byKey)),
  ]);
  let rest = [...tied.filter((r) => after && sign * compareSortKeys(keyOf(r), after) > 0).sort(byKey), ...later];
  // A full `later` may stop inside its last millisecond, holding whichever of its records the
  // store chose: when the page reaches into that millisecond, all of it is read.
  const boundary = later.length > page.limit ? later[later.length - 1].created_at : null;
  if (boundary !== null && rest[page.limit - 1].created_at === boundary) {
    const whole = (await createdAt(boundary)).sort(byKey);
    rest = [...rest.filter((r) => r.created_at !== boundary), ...whole];
  }
  const items = rest.slice(0, page.limit);
  const more = rest.length > page.limit;
  return { items, nextCursor: more ? cursors.encode(keyOf(items[items.length - 1])) : null };
}
