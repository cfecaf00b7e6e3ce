/**
 * The API app of a test: a fresh SQLite file, a clock the test moves by hand, the log captured.
 * With ALMANAC_TEST_STORE=firestore (`npm run test:firestore`), a FirestoreStore on the Cloud
 * Firestore emulator instead, in a project of its own per app, deleted when the app closes.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import request from "supertest";
import type { Express } from "express";
import { deleteApp, initializeApp } from "firebase-admin/app";
import { getFirestore } from "firebase-admin/firestore";
import { afterEach, beforeEach } from "vitest";
import { createApiApp } from "../../functions/src/app.js";
import type { Config } from "../../functions/src/config.js";
import type { HttpDeps } from "../../functions/src/http/deps.js";
import { ResponseCache } from "../../functions/src/http/response-cache.js";
import { LAYOUT } from "../../functions/src/domain/paths.js";
import type { Store } from "../../functions/src/storage/port.js";
import { FirestoreStore } from "../../functions/src/storage/firestore/index.js";
import { SqliteStore } from "../../functions/src/storage/sqlite/index.js";
import { checkResponses } from "./check-responses.js";
import { configDeps, testConfig } from "./config.js";
import { declaredIndexesOnly } from "./declared-indexes.js";
import { clearProject, firestoreEmulator, uniqueProject } from "./firestore-emulator.js";

/** The store under the API tests: "sqlite" (the default) or "firestore" (ALMANAC_TEST_STORE). */
export const TEST_STORE = process.env.ALMANAC_TEST_STORE === "firestore" ? "firestore" : "sqlite";
if (!["firestore", "sqlite", undefined, ""].includes(process.env.ALMANAC_TEST_STORE)) {
  throw new Error(`ALMANAC_TEST_STORE must be "sqlite" or "firestore", not ${process.env.ALMANAC_TEST_STORE}`);
}
/** True under ALMANAC_TEST_STORE=firestore: for `skipIf` on the tests that need the SQLite adapter. */
export const onFirestore = TEST_STORE === "firestore";

/**
 * The title of a test or group that needs the SQLite adapter (`npm start`'s file, a server
 * process on it), skipped with `skipIf(onFirestore)`: on Firestore the title says so, and why.
 */
export const sqliteOnly = (title: string, why: string) =>
  onFirestore ? `${title} [skipped on Firestore, SQLite only: ${why}]` : title;

/** The emulator when the tests run on Firestore: a run that asked for it and has none fails. */
const emulatorHost = await (async () => {
  if (!onFirestore) return undefined;
  const emulator = await firestoreEmulator();
  if (!emulator.host) throw new Error(`ALMANAC_TEST_STORE=firestore, but no Firestore emulator: ${emulator.skipped}`);
  return emulator.host;
})();

/** A fresh store for one app: a SQLite file in dataDir, or a project of its own on the emulator. */
export function testStore(dataDir: string): { store: Store; close: () => Promise<void> } {
  if (!emulatorHost) {
    const store = new SqliteStore(join(dataDir, "almanac.sqlite"), { layout: LAYOUT });
    return { store, close: () => store.close() };
  }
  const host = emulatorHost;
  const projectId = uniqueProject("api");
  const firebase = initializeApp({ projectId }, projectId);
  const db = getFirestore(firebase);
  db.settings({ ignoreUndefinedProperties: true });
  const store = new FirestoreStore(db, LAYOUT);
  return {
    store,
    close: async () => {
      await store.close();
      await deleteApp(firebase);
      await clearProject(host, projectId);
    },
  };
}

export const BASE_URL = "https://almanac.test";
export const START = "2026-11-22T10:00:00.000Z";

/** A clock the test moves by hand. */
export function testClock(start = START) {
  let now = Date.parse(start);
  const clock = () => new Date(now);
  clock.advance = (ms: number) => {
    now += ms;
  };
  clock.set = (iso: string) => {
    now = Date.parse(iso);
  };
  return clock;
}

export interface TestApp {
  app: Express;
  deps: HttpDeps;
  clock: ReturnType<typeof testClock>;
  logs: string[];
  dataDir: string;
  http: () => request.Agent;
  close: () => Promise<void>;
}

/**
 * The API app on a fresh SQLite file (or Firestore project, see `TEST_STORE`), with an injected
 * clock and captured log, and the configuration of `testConfig()` unless the test passes its own
 * (`config`); its origin is BASE_URL unless the test passes the one it listens on (`baseUrl`).
 */
export function createTestApp(
  options: { clock?: ReturnType<typeof testClock>; config?: Config; baseUrl?: string } = {},
): TestApp {
  const dataDir = mkdtempSync(join(tmpdir(), "almanac-test-"));
  // Every query must be one Firestore answers with the indexes firestore.indexes.json declares.
  const backing = testStore(dataDir);
  const store = declaredIndexesOnly(backing.store);
  const clock = options.clock ?? testClock();
  const logs: string[] = [];
  const deps: HttpDeps = {
    ...configDeps(options.config ?? testConfig()),
    store,
    clock,
    baseUrl: options.baseUrl ?? BASE_URL,
    log: (line) => logs.push(line),
    memory: {},
    cache: new ResponseCache(),
  };
  // Every response of every test is checked against what /openapi.json documents for it.
  const app = createApiApp(deps, undefined, { checkOutcome: checkResponses() });
  return {
    app,
    deps,
    clock,
    logs,
    dataDir,
    http: () => request.agent(app),
    close: async () => {
      await backing.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh app before each test of the file, closed after it: `const t = appPerTest();` at the
 * top of a file stands for the app of whichever test is running (its members are read then).
 */
export function appPerTest(create: () => TestApp = createTestApp): TestApp {
  let current: TestApp | undefined;
  beforeEach(() => {
    current = create();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const now = (): TestApp => {
    if (!current) throw new Error("appPerTest: the app exists only while a test or its hooks run");
    return current;
  };
  return {
    get app() {
      return now().app;
    },
    get deps() {
      return now().deps;
    },
    get clock() {
      return now().clock;
    },
    get logs() {
      return now().logs;
    },
    get dataDir() {
      return now().dataDir;
    },
    http: () => now().http(),
    close: () => now().close(),
  };
}
