/** The API app of a test: a fresh SQLite file, a clock the test moves by hand, the log captured. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import request from "supertest";
import type { Express } from "express";
import { afterEach, beforeEach } from "vitest";
import { createApiApp } from "../../functions/src/app.js";
import type { Config } from "../../functions/src/config.js";
import type { HttpDeps } from "../../functions/src/http/deps.js";
import { ResponseCache } from "../../functions/src/http/response-cache.js";
import { LAYOUT } from "../../functions/src/domain/paths.js";
import { SqliteStore } from "../../functions/src/storage/sqlite/index.js";
import { checkResponses } from "./check-responses.js";
import { configDeps, testConfig } from "./config.js";
import { declaredIndexesOnly } from "./declared-indexes.js";

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
 * The API app on a fresh SQLite file, with an injected clock and captured log, and the
 * configuration of `testConfig()` unless the test passes its own (`config`).
 */
export function createTestApp(options: { clock?: ReturnType<typeof testClock>; config?: Config } = {}): TestApp {
  const dataDir = mkdtempSync(join(tmpdir(), "almanac-test-"));
  // Every query must be one Firestore answers with the indexes firestore.indexes.json declares.
  const store = declaredIndexesOnly(new SqliteStore(join(dataDir, "almanac.sqlite"), { layout: LAYOUT }));
  const clock = options.clock ?? testClock();
  const logs: string[] = [];
  const deps: HttpDeps = {
    ...configDeps(options.config ?? testConfig()),
    store,
    clock,
    baseUrl: BASE_URL,
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
      await store.close();
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
