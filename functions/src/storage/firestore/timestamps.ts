import { Timestamp } from "firebase-admin/firestore";

/**
 * firebase-admin writes a JS Date as a Timestamp (what a TTL policy purges on) and reads it
 * back as a Timestamp; the port hands out Dates, as the SQLite adapter does. Replaced in
 * place: `snapshot.data()` returns a fresh object on every call.
 */
export function timestampsToDates<T>(value: T): T {
  if (value instanceof Timestamp) return value.toDate() as T;
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const inner = record[key];
      if (inner !== null && typeof inner === "object") record[key] = timestampsToDates(inner);
    }
  }
  return value;
}
