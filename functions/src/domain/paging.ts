/**
 * Paging of every list (docs/api.md#paging): `limit` and an opaque `cursor`, the sort key of
 * the last item returned, so a page stays right under inserts and deletes. One codec turns a
 * key into a cursor and back; a cursor this list did not give out is `errors.badCursor`, the
 * same answer on every list.
 */
import { errors } from "./errors.js";

/** `limit` and `cursor` of a list endpoint (docs/api.md#paging). */
export interface PageRequest {
  limit: number;
  cursor?: string;
}

export interface Page<T> {
  items: T[];
  /** Opaque; null when the list is complete. The routes answer it as `next_cursor`. */
  nextCursor: string | null;
}

/** A position in a list: parts compared in order, the last one an id that breaks ties. */
export type SortKey = readonly (string | number)[];

type PartType = "string" | "number";

/** The key a shape describes: `["number", "string"]` is `readonly [number, string]`. */
export type KeyOfShape<S extends readonly PartType[]> = {
  readonly [I in keyof S]: S[I] extends "number" ? number : string;
};

export function compareSortKeys(a: SortKey, b: SortKey): number {
  for (let i = 0; i < a.length; i++) {
    if (a[i] < b[i]) return -1;
    if (a[i] > b[i]) return 1;
  }
  return 0;
}

export interface CursorCodec<K extends SortKey> {
  encode(key: K): string;
  /** The key a cursor carries, or 400 invalid_request when this list did not give it out. */
  decode(cursor: string): K;
}

/**
 * The cursors of one list, whose keys have the given shape; `valid` checks what the shape
 * cannot say (a part that must be a date). A cursor is the key as base64url JSON.
 */
export function cursorCodec<const S extends readonly PartType[]>(
  shape: S,
  valid: (key: KeyOfShape<S>) => boolean = () => true,
): CursorCodec<KeyOfShape<S>> {
  const isKey = (value: unknown): value is KeyOfShape<S> =>
    Array.isArray(value) &&
    value.length === shape.length &&
    value.every((part, i) => typeof part === shape[i]) &&
    valid(value as unknown as KeyOfShape<S>);
  return {
    encode: (key) => Buffer.from(JSON.stringify(key), "utf8").toString("base64url"),
    decode(cursor) {
      let key: unknown;
      try {
        key = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
      } catch {
        key = null;
      }
      if (!isKey(key)) throw errors.badCursor();
      return key;
    },
  };
}

/** Lists of a calendar's sharing records order by creation: `[created_at, id]`. */
export type CreationKey = KeyOfShape<["string", "string"]>;
const creationCursors = cursorCodec(["string", "string"]);

/**
 * Sorts a list that lives inside one parent (grants, views, layers, requests of a calendar)
 * and cuts one page from it. Sorting in memory keeps Firestore free of composite indexes;
 * these collections stay small (a calendar's sharing records).
 */
export function paginate<T>(
  all: T[],
  page: PageRequest,
  keyOf: (item: T) => CreationKey,
  order: "asc" | "desc",
): Page<T> {
  const sign = order === "asc" ? 1 : -1;
  const sorted = [...all].sort((a, b) => sign * compareSortKeys(keyOf(a), keyOf(b)));
  const after = page.cursor === undefined ? null : creationCursors.decode(page.cursor);
  const rest = after ? sorted.filter((item) => sign * compareSortKeys(keyOf(item), after) > 0) : sorted;
  const items = rest.slice(0, page.limit);
  const more = rest.length > page.limit;
  return { items, nextCursor: more ? creationCursors.encode(keyOf(items[items.length - 1])) : null };
}
