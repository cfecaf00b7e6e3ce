// Store round trips per request: for each case, one request after a warm-up, measured
// in-process with the counting wrapper around the SQLite store (test/helpers/counting-store.ts):
// sequential round trips (overlapping calls are one; each read wave of a transaction and its
// commit count), documents read and written, transactions. On Firestore every round trip
// waits for the network, so these counts are what latency multiplies there.
// Cached reads are measured twice: "hit" answers from the response cache (the warm-up filled
// it), "miss" with the cache emptied first. Plus paging: every page of 2,500 events, limit 100.
//   node bench/round-trips.mjs            prints the table, writes `round_trips` in bench/results.json
//   node bench/round-trips.mjs --before   stores the run as `round_trips.before` (the baseline)
// Needs the build (`npm run build`). bench/run.mjs runs it too.
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { seed } from "./seed.mjs";
import { countingStore } from "./counting-store.mjs";

process.env.RATE_LIMITS ??= "off";
const HERE = fileURLToPath(new URL(".", import.meta.url));
const LIB = process.env.BENCH_LIB ?? fileURLToPath(new URL("../functions/lib", import.meta.url));
const PAGING_EVENTS = 2500;
const PAGING_LIMIT = 100;

const lib = (path) => import(pathToFileURL(join(LIB, path)).href);

/** The API and the pages apps in this process on one SQLite file, the store wrapped in the counter. */
async function startApps(dataDir) {
  const [{ createApiApp }, { createPagesApp }, { ResponseCache }, { SqliteStore }, { LAYOUT }, { CountingStore }] =
    await Promise.all([
      lib("app.js"),
      lib("pages/app.js"),
      lib("http/response-cache.js"),
      lib("storage/sqlite/index.js"),
      lib("domain/paths.js"),
      countingStore(),
    ]);
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
  const api = createApiApp(deps);
  const pages = createPagesApp(deps);
  const server = createServer((req, res) => ((req.url ?? "/").startsWith("/v1/") ? api : pages)(req, res));
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    store,
    emptyCache: () => (deps.cache = new ResponseCache()),
    close: async () => {
      await new Promise((done) => server.close(done));
      await store.close();
    },
  };
}

export async function benchRoundTrips() {
  const dataDir = mkdtempSync(join(tmpdir(), "almanac-round-trips-"));
  const apps = await startApps(dataDir);
  try {
    return await measureAll(apps);
  } finally {
    await apps.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function measureAll({ origin, store, emptyCache }) {
  const data = await seed(origin);
  const auth = { authorization: `Bearer ${data.token}` };
  const call = async (
    method,
    path,
    { token = true, body, key = method === "POST" ? randomUUID() : undefined } = {},
  ) => {
    const headers = {
      ...(token ? auth : {}),
      ...(body ? { "content-type": "application/json" } : {}),
      ...(key ? { "idempotency-key": key } : {}),
    };
    const res = await fetch(`${origin}${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return text.startsWith("{") ? JSON.parse(text) : text;
  };
  const newEvent = () =>
    call("POST", `/v1/calendars/${data.writeCalendarId}/events`, {
      body: { name: "Round trip", date: "2027-05-04", start_time: "10:00" },
    });

  // A host with two public layers, for `layers=all`.
  const host = await call("POST", "/v1/calendars", { body: { name: "Bench host", visibility: "public" } });
  for (const key of ["team", "ops"]) {
    const layer = await call("POST", "/v1/calendars", { body: { name: `Bench ${key}`, visibility: "public" } });
    for (let i = 0; i < 20; i++)
      await call("POST", `/v1/calendars/${layer.id}/events`, {
        body: { name: `${key} ${i}`, date: `2027-04-${String(1 + i).padStart(2, "0")}` },
      });
    await call("POST", `/v1/calendars/${host.id}/layers`, { body: { calendar_id: layer.id, key } });
  }
  const readEvents = `/v1/calendars/${data.readCalendarId}/events`;
  const someEvent = (await call("GET", `${readEvents}?limit=1`)).events[0].id;
  const secondPage = (await call("GET", `${readEvents}?limit=50`)).next_cursor;
  const patched = await newEvent();
  const replayKey = randomUUID();

  /** name, what the request is, and whether the response cache decides its cost. */
  const cases = [
    ["GET /v1/me (token)", () => call("GET", "/v1/me")],
    ["GET one event (anonymous, public)", () => call("GET", `${readEvents}/${someEvent}`, { token: false })],
    ["GET one event (token, owner)", () => call("GET", `${readEvents}/${someEvent}`)],
    ["GET events (anonymous, public)", () => call("GET", readEvents, { token: false }), "cached"],
    ["GET events (token, owner)", () => call("GET", readEvents), "cached"],
    ["GET events, 2nd page of 50 (token)", () => call("GET", `${readEvents}?limit=50&cursor=${secondPage}`), "cached"],
    [
      "GET events layers=all, 2 layers (token)",
      () => call("GET", `/v1/calendars/${host.id}/events?layers=all`),
      "cached",
    ],
    [
      "GET occurrences, a month (token)",
      () => call("GET", `/v1/calendars/${data.readCalendarId}/occurrences?from=2027-03-01&to=2027-03-31`),
      "cached",
    ],
    [
      "GET /c/{slug} month page (500 events)",
      () => call("GET", `/c/${data.pageSlug}?view=month&date=${data.pageDate}`, { token: false }),
      "cached",
    ],
    ["GET /c/{slug}.ics feed (500 events)", () => call("GET", `/c/${data.pageSlug}.ics`, { token: false }), "cached"],
    ["POST event (token, fresh key)", newEvent],
    [
      "POST event (token, replayed key)",
      () =>
        call("POST", `/v1/calendars/${data.writeCalendarId}/events`, {
          key: replayKey,
          body: { name: "Replayed", date: "2027-05-05" },
        }),
    ],
    [
      "PATCH event (token)",
      () =>
        call("PATCH", `/v1/calendars/${data.writeCalendarId}/events/${patched.id}`, {
          body: { name: `Renamed ${randomUUID()}` },
        }),
    ],
    [
      "DELETE event (token)",
      async (prepared) => call("DELETE", `/v1/calendars/${data.writeCalendarId}/events/${prepared.id}`),
      null,
      newEvent,
    ],
    [
      "POST /v1/mint (anonymous, fresh key)",
      () => call("POST", "/v1/mint", { token: false, body: { name: "Round trip agent" } }),
    ],
  ];

  const results = [];
  for (const [name, send, cached, prepare] of cases) {
    const runs = cached
      ? [
          ["hit", () => {}],
          ["miss", emptyCache],
        ]
      : [[null, () => {}]];
    for (const [cache, before] of runs) {
      await send(prepare ? await prepare() : undefined); // warm-up: JIT, lazy imports, and the cache for a hit
      const prepared = prepare ? await prepare() : undefined;
      before();
      store.take();
      await send(prepared);
      const counts = store.take();
      results.push({
        name: cache ? `${name}, cache ${cache}` : name,
        round_trips: counts.roundTrips,
        documents_read: counts.documentsRead,
        documents_written: counts.documentsWritten,
        transactions: counts.transactions,
      });
    }
  }
  return { cases: results, paging: await measurePaging(origin, store, emptyCache, call) };
}

/** Every page of a calendar of PAGING_EVENTS events, limit PAGING_LIMIT, as an agent pages: documents read in total. */
async function measurePaging(origin, store, emptyCache, call) {
  const calendar = await call("POST", "/v1/calendars", { body: { name: "Bench paging", visibility: "public" } });
  const path = `/v1/calendars/${calendar.id}/events`;
  for (let i = 0; i < PAGING_EVENTS; i += 25) {
    await Promise.all(
      Array.from({ length: Math.min(25, PAGING_EVENTS - i) }, (_, j) => {
        const n = i + j;
        return call("POST", path, {
          body: {
            name: `Paged ${n}`,
            date: `2027-${String(1 + (n % 12)).padStart(2, "0")}-${String(1 + (n % 28)).padStart(2, "0")}`,
          },
        });
      }),
    );
  }
  emptyCache();
  store.take();
  let cursor = null;
  let pages = 0;
  let events = 0;
  let documents = 0;
  let mostRoundTrips = 0;
  do {
    const page = await call("GET", `${path}?limit=${PAGING_LIMIT}${cursor ? `&cursor=${cursor}` : ""}`);
    const counts = store.take();
    documents += counts.documentsRead;
    mostRoundTrips = Math.max(mostRoundTrips, counts.roundTrips);
    pages++;
    events += page.events.length;
    cursor = page.next_cursor;
  } while (cursor);
  if (events !== PAGING_EVENTS) throw new Error(`paging listed ${events} of ${PAGING_EVENTS} events`);
  return {
    events: PAGING_EVENTS,
    limit: PAGING_LIMIT,
    pages,
    documents_read: documents,
    documents_per_event: Math.round((documents / PAGING_EVENTS) * 10) / 10,
    most_round_trips_per_page: mostRoundTrips,
  };
}

export function printRoundTrips({ cases, paging }, before) {
  const prior = new Map((before?.cases ?? []).map((c) => [c.name, c]));
  const header = before
    ? ["case", "round trips (before)", "docs read (before)", "docs written", "transactions"]
    : ["case", "round trips", "docs read", "docs written", "transactions"];
  const cell = (now, then) => (then === undefined || then === now ? String(now) : `${now} (${then})`);
  const rows = cases.map((c) => [
    c.name,
    cell(c.round_trips, prior.get(c.name)?.round_trips),
    cell(c.documents_read, prior.get(c.name)?.documents_read),
    String(c.documents_written),
    String(c.transactions),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  console.log([line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n"));
  const was = before?.paging ? ` (before: ${before.paging.documents_read})` : "";
  console.log(
    `\npaging ${paging.events} events, limit ${paging.limit}: ${paging.pages} pages, ` +
      `${paging.documents_read} documents read in total${was} ` +
      `(${paging.documents_per_event} per event), at most ${paging.most_round_trips_per_page} round trips a page`,
  );
}

const isMain = import.meta.url === pathToFileURL(process.argv[1] ?? "").href;
if (isMain) {
  const asBaseline = process.argv.includes("--before");
  const measured = await benchRoundTrips();
  const file = join(HERE, "results.json");
  const results = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
  const before = asBaseline ? undefined : results.round_trips?.before;
  printRoundTrips(measured, before);
  const run = { date: new Date().toISOString(), ...measured };
  results.round_trips = asBaseline ? { ...results.round_trips, before: run } : { ...run, before };
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nwrote round_trips${asBaseline ? ".before" : ""} in bench/results.json`);
}
