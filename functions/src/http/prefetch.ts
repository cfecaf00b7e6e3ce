/**
 * The reads of one GET, so that reads which do not depend on each other overlap:
 * - the documents the route's path names (the calendar, the event) are fetched in one call
 *   alongside the token's, so requireCalendar and getEvent find them loaded and the caller's
 *   membership is the request's second round trip, not its third;
 * - every read is made once per request: one started early (requireCalendar's `alongside`,
 *   while the caller's role is read) is found by whoever asks for the same later.
 * Nothing changes in what is decided or shown: a record reaches a handler only through the
 * read it would have made anyway, in the same order, after the same policy. Only GETs: a
 * write's reads belong to its transaction.
 */
import { paths } from "../domain/paths.js";
import type { DocPath, Store } from "../storage/port.js";

/** The documents a route's path parameters name. */
const NAMED_BY_PARAMS: Array<(p: Record<string, unknown>) => DocPath | null> = [
  (p) => (typeof p.calendarId === "string" ? paths.calendar(p.calendarId) : null),
  (p) =>
    typeof p.calendarId === "string" && typeof p.eventId === "string" ? paths.event(p.calendarId, p.eventId) : null,
];

export function documentsNamedBy(params: Record<string, unknown>): DocPath[] {
  try {
    return NAMED_BY_PARAMS.flatMap((named) => named(params) ?? []);
  } catch {
    return []; // an id no record can have (paths.ts refuses it): the route answers 404 itself
  }
}

/** `store` for one GET: `prefetch` on its way at once, and each read made once. */
export function requestReads(store: Store, prefetch: DocPath[]): Store {
  const made = new Map<string, Promise<unknown>>();
  /** The read's answer: the first ask makes it, later asks share it. */
  const once = <R>(key: string, read: () => Promise<R>): Promise<R> => {
    let answer = made.get(key) as Promise<R> | undefined;
    if (!answer) {
      made.set(key, (answer = read()));
      // A read nobody awaits (the request was refused first) must not be an unhandled rejection;
      // whoever awaits it sees its error.
      answer.catch(() => {});
    }
    return answer;
  };
  if (prefetch.length > 0) {
    const loaded = once(`getAll ${prefetch.join(" ")}`, () => store.getAll(prefetch));
    for (const [i, path] of prefetch.entries()) void once(`get ${path}`, () => loaded.then((docs) => docs[i]));
  }
  return {
    singleProcess: store.singleProcess,
    get: (path) => once(`get ${path}`, () => store.get(path)),
    getAll: (list) => once(`getAll ${list.join(" ")}`, () => store.getAll(list)),
    query: (collection, spec) =>
      once(`query ${collection} ${JSON.stringify(spec ?? {})}`, () => store.query(collection, spec)),
    count: (collection, spec) =>
      once(`count ${collection} ${JSON.stringify(spec ?? {})}`, () => store.count(collection, spec)),
    runTransaction: (fn) => store.runTransaction(fn),
    // Never shared: each asks for the store as it is now.
    runReadOnly: (fn) => store.runReadOnly(fn),
    close: () => store.close(),
  };
}
