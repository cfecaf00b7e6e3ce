/**
 * What waiting on the change feed costs the store (issue 23): 50 long-polls on one idle
 * calendar are one watcher's read of the calendar's shard counters per CHANGE_POLL_MS, in a
 * read-only transaction, not a read of each waiter's page. The calendar has all 8 shard
 * documents (the most a tick can read). Real sockets, the counting store over the test's store
 * (SQLite, or Firestore under ALMANAC_TEST_STORE); the watcher's timers are real ones
 * (node:timers), so the window is real time, and the bound holds for any window: ticks are at
 * least CHANGE_POLL_MS apart.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createApiApp } from "../../functions/src/app.js";
import { paths } from "../../functions/src/domain/paths.js";
import { CHANGE_POLL_MS, waitingRequests } from "../../functions/src/domain/queries/changes.js";
import type { HttpDeps } from "../../functions/src/http/deps.js";
import { ResponseCache } from "../../functions/src/http/response-cache.js";
import { BASE_URL, testClock, testStore } from "../helpers/app.js";
import { checkResponses } from "../helpers/check-responses.js";
import { configDeps } from "../helpers/config.js";
import { CountingStore } from "../helpers/counting-store.js";
import { mintAgent, newEvent } from "../helpers/factories.js";

const WAITERS = 50;
/** The requirement: documents read per second by 50 waiters on one idle calendar. */
const MAX_READS_PER_SECOND = 10;
const WINDOW_MS = 3_500;

let w: {
  app: ReturnType<typeof createApiApp>;
  store: CountingStore;
  shards: number;
  origin: string;
  close: () => Promise<void>;
};

beforeEach(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "almanac-idle-cost-"));
  const backing = testStore(dataDir);
  const store = new CountingStore(backing.store);
  const deps: HttpDeps = {
    ...configDeps(),
    store,
    clock: testClock(),
    baseUrl: BASE_URL,
    log: () => {},
    memory: {},
    cache: new ResponseCache(),
  };
  const app = createApiApp(deps, undefined, { checkOutcome: checkResponses() });
  const server: Server = createServer(app);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  w = {
    app,
    store,
    shards: deps.config.revisionShards,
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await backing.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
});
afterEach(() => w.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(holds: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = performance.now() + ms;
  while (!holds()) {
    if (performance.now() > deadline) throw new Error(`${what}: still not so after ${ms} ms`);
    await sleep(5);
  }
}

it(`${WAITERS} waiters on one idle calendar read at most ${MAX_READS_PER_SECOND} documents a second, all woken by one write`, async () => {
  const owner = await mintAgent(w, "Owner");
  const cal = owner.calendarId;
  // Writes draw shards at random: write until every shard document exists.
  while ((await w.store.query(paths.shards(cal))).length < w.shards) await newEvent(w, owner, cal);
  const feed = `${w.origin}/v1/calendars/${cal}/changes`;
  const start = (await (await fetch(feed, { headers: owner.auth })).json()) as { cursor: string };

  w.store.take();
  const answers = Array.from({ length: WAITERS }, () =>
    fetch(`${feed}?cursor=${start.cursor}&wait=30`, { headers: owner.auth }).then(async (res) => ({
      status: res.status,
      body: (await res.json()) as { changes: Array<{ id: string }> },
    })),
  );
  await until(() => waitingRequests() === WAITERS, 5_000, "all waiting");
  // Each waiter reads its first page (one read-only transaction) before it waits on the watcher:
  // the window opens once all have, so it counts the waiting alone, however slow the machine.
  await until(() => w.store.peek().readOnlyTransactions >= WAITERS, 10_000, "every first page read");
  await sleep(50);

  w.store.take();
  const began = performance.now();
  await sleep(WINDOW_MS);
  const counts = w.store.take();
  const seconds = (performance.now() - began) / 1000;

  const perSecond = counts.documentsRead / seconds;
  const perTick = counts.documentsRead / counts.readOnlyTransactions;
  console.log(
    `change feed: documents read per second, ${WAITERS} waiters on one idle calendar: ${perSecond.toFixed(1)} ` +
      `(${counts.readOnlyTransactions} read-only transactions of ${perTick} documents in ${seconds.toFixed(2)} s)`,
  );
  // One watcher: one read-only read of the shard documents per tick, however many wait.
  expect(counts.transactions).toBe(0);
  expect(counts.readOnlyTransactions).toBeGreaterThanOrEqual(Math.floor(WINDOW_MS / CHANGE_POLL_MS) - 1);
  expect(counts.readOnlyTransactions).toBeLessThanOrEqual(Math.floor((seconds * 1000) / CHANGE_POLL_MS) + 1);
  expect(perTick).toBe(w.shards);
  expect((perTick * 1000) / CHANGE_POLL_MS).toBeLessThanOrEqual(MAX_READS_PER_SECOND);
  expect(perSecond).toBeLessThanOrEqual(MAX_READS_PER_SECOND);

  // One write wakes them all, each with the change; then nothing waits and nothing is read.
  const event = await newEvent(w, owner, cal, { name: "Wake" });
  const answered = await Promise.all(answers);
  expect(answered.map((a) => a.status)).toEqual(answered.map(() => 200));
  for (const { body } of answered) expect(body.changes.map((c) => c.id)).toEqual([event.id]);
  expect(waitingRequests()).toBe(0);
  w.store.take();
  await sleep(CHANGE_POLL_MS + 300);
  expect(w.store.take()).toMatchObject({ calls: 0, transactions: 0, readOnlyTransactions: 0 });
}, 30_000);
