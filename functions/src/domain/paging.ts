import { errors } from "../http/errors.js";

/** `limit` and `cursor` of a list endpoint (DECISIONS section 1). */
export interface PageRequest {
  limit: number;
  cursor?: string;
}

export interface Page<T> {
  items: T[];
  /** Opaque; null when the list is complete. */
  next_cursor: string | null;
}

/** The sort position of an item: a timestamp and the id that breaks ties. */
export type SortKey = [string, string];

const encode = (key: SortKey): string => Buffer.from(JSON.stringify(key), "utf8").toString("base64url");

function decode(cursor: string): SortKey {
  try {
    const key = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown;
    if (Array.isArray(key) && key.length === 2 && key.every((k) => typeof k === "string")) return key as SortKey;
  } catch {
    // fall through to the 400 below
  }
  throw errors.invalid("invalid_request", "query: `cursor` is not a next_cursor of this list; send it back unchanged", {
    field: "cursor",
  });
}

export const compareSortKeys = (a: SortKey, b: SortKey): number =>
  a[0] !== b[0] ? (a[0] < b[0] ? -1 : 1) : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;

/**
 * Sorts a list that lives inside one parent (grants, views, layers, requests of a calendar)
 * and cuts one page from it. Sorting in memory keeps Firestore free of composite indexes;
 * these collections stay small (a calendar's sharing records).
 */
export function paginate<T>(all: T[], page: PageRequest, keyOf: (item: T) => SortKey, order: "asc" | "desc"): Page<T> {
  const sign = order === "asc" ? 1 : -1;
  const sorted = [...all].sort((a, b) => sign * compareSortKeys(keyOf(a), keyOf(b)));
  const after = page.cursor === undefined ? null : decode(page.cursor);
  const rest = after ? sorted.filter((item) => sign * compareSortKeys(keyOf(item), after) > 0) : sorted;
  const items = rest.slice(0, page.limit);
  const more = rest.length > page.limit;
  return { items, next_cursor: more ? encode(keyOf(items[items.length - 1])) : null };
}
