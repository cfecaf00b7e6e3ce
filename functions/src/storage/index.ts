import type { Store } from "./port.js";

/** Loaded lazily so that the deployed function never needs better-sqlite3. */
export async function openSqliteStore(file: string): Promise<Store> {
  const { SqliteStore } = await import("./sqlite/index.js");
  return new SqliteStore(file);
}

export async function openFirestoreStore(): Promise<Store> {
  const { FirestoreStore } = await import("./firestore/index.js");
  return FirestoreStore.fromEnvironment();
}
