import { errors } from "../http/errors.js";
const encode = (key) => Buffer.from(JSON.stringify(key), "utf8").toString("base64url");
function decode(cursor) {
    try {
        const key = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
        if (Array.isArray(key) && key.length === 2 && key.every((k) => typeof k === "string"))
            return key;
    }
    catch {
        // fall through to the 400 below
    }
    throw errors.invalid("invalid_request", "query: `cursor` is not a next_cursor of this list; send it back unchanged", {
        field: "cursor",
    });
}
export const compareSortKeys = (a, b) => (a[0] !== b[0] ? (a[0] < b[0] ? -1 : 1) : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
/**
 * Sorts a list that lives inside one parent (grants, views, layers, requests of a calendar)
 * and cuts one page from it. Sorting in memory keeps Firestore free of composite indexes;
 * these collections stay small (a calendar's sharing records).
 */
export function paginate(all, page, keyOf, order) {
    const sign = order === "asc" ? 1 : -1;
    const sorted = [...all].sort((a, b) => sign * compareSortKeys(keyOf(a), keyOf(b)));
    const after = page.cursor === undefined ? null : decode(page.cursor);
    const rest = after ? sorted.filter((item) => sign * compareSortKeys(keyOf(item), after) > 0) : sorted;
    const items = rest.slice(0, page.limit);
    const more = rest.length > page.limit;
    return { items, next_cursor: more ? encode(keyOf(items[items.length - 1])) : null };
}
//# sourceMappingURL=paging.js.map