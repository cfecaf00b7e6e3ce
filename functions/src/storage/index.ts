import type { Layout, Store } from "./port.js";
import type { SqliteStore } from "./sqlite/index.js";

/**
 * The local server's store, which only its process opens (exclusive). Loaded lazily so that
 * the deployed function never needs better-sqlite3.
 */
export async function openSqliteStore(file: string, layout: Layout): Promise<SqliteStore> {
  const { SqliteStore } = await import("./sqlite/index.js");
  try {
    return new SqliteStore(file, { layout, exclusive: true });
  } catch (err) {
    if ((err as { code?: unknown }).code !== "SQLITE_BUSY") throw err;
    throw new StoreConfigError(
      `${file} is in use by another process (another Almanac server on the same DATA_DIR?): ` +
        "stop that one, or give this one another DATA_DIR",
    );
  }
}

/** The store cannot be opened as the environment is set up; the message says what to set. */
export class StoreConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StoreConfigError";
  }
}

/**
 * Where the deployed functions find Firestore: read at start with the rest of the configuration
 * (functions/src/config.ts), in storage's own terms.
 */
export interface FirestoreSettings {
  /** `GCLOUD_PROJECT`, else `GOOGLE_CLOUD_PROJECT`, else `demo-almanac`. */
  projectId: string;
  /** `FUNCTIONS_EMULATOR=true`: running in the Functions emulator. */
  functionsEmulator: boolean;
  /** `FIRESTORE_EMULATOR_HOST`, or null (firebase-admin reads the variable itself). */
  emulatorHost: string | null;
}

export async function openFirestoreStore(layout: Layout, settings: FirestoreSettings): Promise<Store> {
  // In the Functions emulator without a Firestore emulator, firebase-admin would reach for
  // production Firestore (no credentials, often no network) and each request would hang
  // until the emulator's 60 s timeout answered 504.
  if (settings.functionsEmulator && !settings.emulatorHost) {
    throw new StoreConfigError(
      "the Functions emulator runs without a Firestore emulator: start everything with `npm run emulators` " +
        "(Functions, Hosting and Auth on the Cloud Firestore emulator), or add firestore to `--only` (needs Java 21), " +
        "or set FIRESTORE_EMULATOR_HOST=host:port to a running Firestore emulator before `firebase emulators:start`",
    );
  }
  const { FirestoreStore } = await import("./firestore/index.js");
  return FirestoreStore.onDefaultApp(layout, settings.projectId);
}
