/**
 * Reads a GET can start before it knows who is asking: the documents its path names (the
 * calendar, the event), fetched in one call alongside the token's, so that requireCalendar
 * and getEvent find them loaded and the caller's membership is the request's second round
 * trip, not its third. Nothing changes in what is decided or shown: a prefetched record
 * reaches a handler only through the read it would have made anyway, in the same order,
 * after the same policy. Writes are not prefetched: their reads belong to their transaction.
 */
import { paths } from "../domain/paths.js";
import type { DocPath, Store, StoredDoc } from "../storage/port.js";

/** The documents a route's path parameters name. */
const NAMED_BY_PARAMS: Array<(p: Record<string, unknown>) => DocPath | null> = [
  (p) => (typeof p.calendarId === "string" ? paths.calendar(p.calendarId) : null),
  (p) => (typeof p.calendarId === "string" && typeof p.eventId === "string" ? paths.event(p.calendarId, p.eventId) : null),
];

export function documentsNamedBy(params: Record<string, unknown>): DocPath[] {
  try {
    return NAMED_BY_PARAMS.flatMap((named) => named(params) ?? []);
  } catch {
    return []; // an id no record can have (paths.ts refuses it): the route answers 404 itself
  }
}

/** `store` with `docs` already on their way: the first get of each finds it; every other read goes to the store. */
export function withPrefetched(store: Store, docs: DocPath[]): Store {
  if (docs.length === 0) return store;
  const loaded = store.getAll(docs);
  // A request refused before it reads them (401) leaves them unread; whoever reads one sees its error.
  loaded.catch(() => {});
  const waiting = new Map<string, number>(docs.map((path, i) => [path, i]));
  return {
    singleProcess: store.singleProcess,
    outside: store.outside,
    get<T>(path: DocPath): Promise<StoredDoc<T> | null> {
      const index = waiting.get(path);
      if (index === undefined) return store.get<T>(path);
      waiting.delete(path);
      return loaded.then((docs) => docs[index] as StoredDoc<T> | null);
    },
    getAll: (list) => store.getAll(list),
    query: (collection, spec) => store.query(collection, spec),
    runTransaction: (fn) => store.runTransaction(fn),
    close: () => store.close(),
  };
}
