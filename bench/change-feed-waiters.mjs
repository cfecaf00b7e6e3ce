// What long-polls waiting on the change feed cost the store (issue 23): documents read per
// second while 50 requests wait (`GET /v1/calendars/{id}/changes?wait=60`) on one calendar
// that nobody writes, whose 8 shard documents all exist (the most a watcher's tick reads).
// In process, the API app over the SQLite store wrapped in the tests' counting store
// (test/helpers/counting-store.ts); on Firestore each document read is a billed read.
//   node bench/change-feed-waiters.mjs     prints the figure; touches no results file
// Needs the build (`npm run build`); BENCH_LIB=<dir> reads another build, as in run.mjs.
// WAITERS=50 and SECONDS=10 (the window measured) may be set.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { countingStore } from "./counting-store.mjs";
import { apiClient } from "./api-client.mjs";

process.env.RATE_LIMITS ??= "off";
const LIB = process.env.BENCH_LIB ?? fileURLToPath(new URL("../functions/lib", import.meta.url));
const WAITERS = Number(process.env.WAITERS ?? 50);
const SECONDS = Number(process.env.SECONDS ?? 10);

const lib = (path) => import(pathToFileURL(join(LIB, path)).href);

const [
  { createApiApp },
  { ResponseCache },
  { SqliteStore },
  { LAYOUT, paths },
  { waitingRequests },
  { CountingStore },
] = await Promise.all([
  lib("app.js"),
  lib("http/response-cache.js"),
  lib("storage/sqlite/index.js"),
  lib("domain/paths.js"),
  lib("domain/queries/changes.js"),
  countingStore(),
]);

const dataDir = mkdtempSync(join(tmpdir(), "almanac-change-feed-waiters-"));
const store = new CountingStore(new SqliteStore(join(dataDir, "almanac.sqlite"), { layout: LAYOUT }));
// The configuration from this process's environment, as the composition roots read it (functions/src/config.ts).
const config = (await lib("config.js")).readConfig(process.env);
const deps = {
  config,
  store,
  clock: () => new Date(),
  baseUrl: "http://localhost",
  log: () => {},
  memory: {},
  cache: new ResponseCache(),
  expensiveReads: (await lib("http/expensive-reads.js")).expensiveReadGateFor(config),
};
const server = createServer(createApiApp(deps));
await new Promise((done) => server.listen(0, "127.0.0.1", done));
const origin = `http://127.0.0.1:${server.address().port}`;
const waiting = new AbortController();

try {
  const call = apiClient(origin);
  const minted = await call("POST", "/v1/mint", { body: { name: "Change feed bench" } });
  const { token } = minted;
  const calendarId = minted.calendar.id;
  // Writes draw shards at random: write until every shard document exists.
  while ((await store.query(paths.shards(calendarId))).length < config.revisionShards) {
    await call("POST", `/v1/calendars/${calendarId}/events`, { token, body: { name: "Shard", date: "2027-05-04" } });
  }
  const feed = `/v1/calendars/${calendarId}/changes`;
  const { cursor } = await call("GET", feed, { token });
  for (let i = 0; i < WAITERS; i++) {
    fetch(`${origin}${feed}?cursor=${cursor}&wait=60`, {
      headers: { authorization: `Bearer ${token}` },
      signal: waiting.signal,
    }).catch(() => {}); // aborted at the end
  }
  while (waitingRequests() < WAITERS) await sleep(5);

  store.take();
  const began = performance.now();
  await sleep(SECONDS * 1000);
  const counts = store.take();
  const seconds = (performance.now() - began) / 1000;
  const perSecond = counts.documentsRead / seconds;
  console.log(
    `documents read per second, ${WAITERS} waiters on one idle calendar: ${perSecond.toFixed(1)}\n` +
      `  over ${seconds.toFixed(1)} s: ${counts.documentsRead} documents, ` +
      `${counts.readOnlyTransactions ?? 0} read-only and ${counts.transactions} read-write transactions`,
  );
} finally {
  waiting.abort();
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
}
