/**
 * Every adapter hands out records frozen, all the way down: SQLite shares one parsed object
 * between readers, so a reader that changed it would change it for all, and Firestore's
 * fresh objects are frozen too, so that code which mutates a record fails on both alike.
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
