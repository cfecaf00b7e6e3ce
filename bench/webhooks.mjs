#!/usr/bin/env node
// Webhook delivery throughput: deliveries per second to one local receiver, and store
// documents read per delivered change, on SQLite in process (the tests' CountingStore).
//   npm run build && node bench/webhooks.mjs      (CHANGES=2000)
// Two figures: a backlog (CHANGES written while delivery is stopped, then delivered by passes)
// and live (the same number written by 4 writers while the job delivers, as `npm start` does).
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { countingStore } from "./counting-store.mjs";
import { apiClient } from "./api-client.mjs";

process.env.RATE_LIMITS ??= "off";
process.env.WEBHOOKS_ALLOW_LOOPBACK = "on";
const LIB = process.env.BENCH_LIB ?? fileURLToPath(new URL("../functions/lib", import.meta.url));
const CHANGES = Number(process.env.CHANGES ?? 2000);
const lib = (path) => import(pathToFileURL(join(LIB, path)).href);

const [
  { createApiApp },
  { ResponseCache },
  { SqliteStore },
  { LAYOUT, paths },
  { webhookJobFromSettings },
  { CountingStore },
] = await Promise.all([
  lib("app.js"),
  lib("http/response-cache.js"),
  lib("storage/sqlite/index.js"),
  lib("domain/paths.js"),
  lib("jobs/webhooks/build.js"),
  countingStore(),
]);
const [{ startJob }, { budgetOf }, { DEFAULT_DELIVERY_LIMITS }] = await Promise.all([
  lib("jobs/local-driver.js"),
  lib("jobs/pass.js"),
  lib("jobs/webhooks/limits.js"),
]);

const dataDir = mkdtempSync(join(tmpdir(), "almanac-webhooks-bench-"));
const inner = new SqliteStore(join(dataDir, "almanac.sqlite"), { layout: LAYOUT });
// Two views of one store: delivery's reads are counted apart from the API's (the writes').
const store = new CountingStore(inner);
// The configuration from this process's environment, as the composition roots read it (functions/src/config.ts).
const config = (await lib("config.js")).readConfig(process.env);
const apiDeps = {
  config,
  expensiveReads: (await lib("http/expensive-reads.js")).expensiveReadGateFor(config),
  store: inner,
  clock: () => new Date(),
  baseUrl: "http://localhost",
  log: () => {},
  memory: {},
  cache: new ResponseCache(),
};
const deps = { ...apiDeps, store };
const api = createServer(createApiApp(apiDeps));
await new Promise((done) => api.listen(0, "127.0.0.1", done));
const origin = `http://127.0.0.1:${api.address().port}`;
let received = 0;
const receiver = createServer((req, res) => {
  req.resume().on("end", () => {
    received++;
    res.writeHead(204).end();
  });
});
await new Promise((done) => receiver.listen(0, "127.0.0.1", done));
const hookUrl = `http://127.0.0.1:${receiver.address().port}/hook`;

const call = apiClient(origin);

// What the delivery machinery sustains: the per-agent minute (a policy, docs/decisions/webhooks.md) lifted.
const { webhookSettings } = await lib("domain/webhooks/settings.js");
const webhookJobUnlimited = () =>
  webhookJobFromSettings(webhookSettings(config), {
    limits: { ...DEFAULT_DELIVERY_LIMITS, perAgentPerMinute: Infinity },
  });

async function write(token, calendarId, n, writers = 4) {
  let next = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next < n) {
        const i = next++;
        await call("POST", `/v1/calendars/${calendarId}/events`, {
          token,
          body: { name: `E${i}`, date: "2027-01-01" },
        });
      }
    }),
  );
}

try {
  const minted = await call("POST", "/v1/mint", { body: { name: "Webhook bench" } });
  const { token } = minted;
  const calendarId = minted.calendar.id;
  await call("POST", "/v1/webhooks", { token, body: { url: hookUrl, calendars: [calendarId] } });

  // Backlog: written first, then delivered by passes alone.
  await write(token, calendarId, CHANGES);
  received = 0;
  store.take();
  let started = performance.now();
  const job = webhookJobUnlimited();
  while (received < CHANGES) {
    await job.run(deps, budgetOf(5_000));
    await job.idle();
    if ((await inner.query(paths.deliveryQueue())).length === 0) break;
  }
  let seconds = (performance.now() - started) / 1000;
  let counts = store.take();
  console.log(
    `backlog: ${received} deliveries in ${seconds.toFixed(2)} s = ${Math.round(received / seconds)}/s; ` +
      `${(counts.documentsRead / received).toFixed(2)} documents read per delivered change ` +
      `(${counts.documentsRead} reads, ${counts.transactions} read-write and ${counts.readOnlyTransactions} read-only transactions)`,
  );

  // Live: written by 4 writers while the job delivers (a pass every second and on every signal).
  received = 0;
  const runner = startJob(webhookJobUnlimited(), deps);
  store.take();
  started = performance.now();
  await write(token, calendarId, CHANGES);
  const written = performance.now();
  while (received < CHANGES) await new Promise((done) => setTimeout(done, 5));
  seconds = (performance.now() - started) / 1000;
  await runner.stop();
  counts = store.take();
  console.log(
    `live: ${received} deliveries in ${seconds.toFixed(2)} s (the writes took ${((written - started) / 1000).toFixed(2)} s) = ` +
      `${Math.round(received / seconds)}/s; ` +
      `${(counts.documentsRead / received).toFixed(2)} documents read by delivery per delivered change`,
  );
} finally {
  api.close();
  receiver.close();
  await inner.close();
  rmSync(dataDir, { recursive: true, force: true });
}
