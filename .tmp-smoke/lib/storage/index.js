/** Loaded lazily so that the deployed function never needs better-sqlite3. */
export async function openSqliteStore(file) {
    const { SqliteStore } = await import("./sqlite/index.js");
    return new SqliteStore(file);
}
export async function openFirestoreStore() {
    const { FirestoreStore } = await import("./firestore/index.js");
    return FirestoreStore.fromEnvironment();
}
//# sourceMappingURL=index.js.map