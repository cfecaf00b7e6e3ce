import { StorePathError, type Layout } from "./port.js";

/**
 * The check every adapter runs on every path it is given, whoever built it: segments of
 * [A-Za-z0-9_-] only (no empty segment, no `.` or `..`, no `/` hidden in an id), collection/id
 * pairs, and collections the layout declares. So a path made of a request's input, should one
 * ever get past domain/paths.ts, reaches no document.
 */
const SEGMENT = /^[A-Za-z0-9_-]{1,1500}$/;

function checkedSegments(path: string, layout: Layout, expectDoc: boolean): string[] {
  if (typeof path !== "string") throw new StorePathError("not a string");
  const segments = path.split("/");
  const bad = segments.find((s) => !SEGMENT.test(s));
  if (bad !== undefined)
    throw new StorePathError(`segment ${JSON.stringify(bad.slice(0, 80))} in ${JSON.stringify(path.slice(0, 200))}`);
  if ((segments.length % 2 === 0) !== expectDoc) {
    throw new StorePathError(
      `${JSON.stringify(path.slice(0, 200))} is not a ${expectDoc ? "document" : "collection"} path`,
    );
  }
  const shape = segments.filter((_, i) => i % 2 === 0).join("/");
  if (!layout.has(shape)) throw new StorePathError(`collection ${JSON.stringify(shape)} is not in the store's layout`);
  return segments;
}

/** The path, when it is a document path of the layout; otherwise StorePathError. */
export function checkDocPath(path: string, layout: Layout): string {
  checkedSegments(path, layout, true);
  return path;
}

/** The path, when it is a collection path of the layout; otherwise StorePathError. */
export function checkCollectionPath(path: string, layout: Layout): string {
  checkedSegments(path, layout, false);
  return path;
}
