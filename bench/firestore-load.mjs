// Contention on one calendar, on Firestore: WRITERS agents' requests at once create events in
// the same calendar for DURATION_S seconds, through the API app in this process on the
// Firestore adapter. Reports answers by status (503 `unavailable`: a transaction that
// firebase-admin gave up on after its retries), transaction attempts beyond the first (each an
// ABORTED that was retried), p50/p99 latency, and documents read and written per create.
// Not run in CI. On the Cloud Firestore emulator (isolated transactions, but its locks and
// latencies are not production's), or on a real project for production's figures:
//   node bench/firestore-load.mjs                    (starts the emulator: scripts/firestore-emulator.mjs)
//   FIRESTORE_EMULATOR_HOST=127.0.0.1:8080 node bench/firestore-load.mjs         (a running emulator)
//   GOOGLE_APPLICATION_CREDENTIALS=key.json GCLOUD_PROJECT=<id> node bench/firestore-load.mjs
//   WRITERS=50 DURATION_S=10 ALMANAC_REVISION_SHARDS=8 (the deployment setting under test)
// Needs the build (`npm run build`). Writes to the project: use one made for testing.
import { createServer } from "node:http";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { clearProject, startFirestoreEmulator } from "../scripts/firestore-emulator.mjs";
import { countingStore } from "./counting-store.mjs";

process.env.RATE_LIMITS ??= "off";
process.env.QUOTA_EVENTS_PER_CALENDAR ??= "1000000";
const WRITERS = Number(process.env.WRITERS ?? 50);
const DURATION_S = Number(process.env.DURATION_S ?? 10);
const LIB = fileURLToPath(new URL("../functions/lib", import.meta.url));
const lib = (path) => import(pathToFileURL(join(LIB, path)).href);

/** The store with every transaction's attempts counted: firebase-admin runs the function again after ABORTED. */
function countingAttempts(store) {
  const attempts = { transactions: 0, retries: 0 };
  const runTransaction = store.runTransaction.bind(store);
  store.runTransaction = (fn) => {
    attempts.transactions += 1;
    let tries = 0;
    return runTransaction((tx) => {
      if (tries++ > 0) attempts.retries += 1;
      return fn(tx);
    });
  };
  return attempts;
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

async function main() {
  const [{ createApiApp }, { ResponseCache }, { openFirestoreStore }, { LAYOUT, paths }, { CountingStore }] =
    await Promise.all([
      lib("app.js"),
      lib("http/response-cache.js"),
      lib("storage/index.js"),
      lib("domain/paths.js"),
      countingStore(),
    ]);
  // The configuration from this process's environment, as the composition roots read it (functions/src/config.ts).
  const config = (await lib("config.js")).readConfig(process.env);
  const store = new CountingStore(await openFirestoreStore(LAYOUT, config.firestore));
  const attempts = countingAttempts(store);
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
  const post = (path, body, token) =>
    fetch(`${origin}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "idempotency-key": crypto.randomUUID(),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
  try {
    const owner = await (await post("/v1/mint", { name: "load owner" })).json();
    const calendarId = owner.calendar.id;
    const writers = [];
    for (let i = 0; i < WRITERS; i++) {
      const agent = await (await post("/v1/mint", { name: `writer ${i}` })).json();
      const grant = await post(
        `/v1/calendars/${calendarId}/grants`,
        { agent_id: agent.agent.id, role: "writer" },
        owner.token,
      );
      if (grant.status !== 200) throw new Error(`grant answered ${grant.status}: ${await grant.text()}`);
      writers.push(agent.token);
    }
    store.take();
    Object.assign(attempts, { transactions: 0, retries: 0 });
    const latencies = [];
    const statuses = {};
    const created = [];
    const until = performance.now() + DURATION_S * 1000;
    await Promise.all(
      writers.map(async (token, i) => {
        for (let n = 0; performance.now() < until; n++) {
          const t0 = performance.now();
          const res = await post(
            `/v1/calendars/${calendarId}/events`,
            { name: `w${i} #${n}`, date: "2027-01-15" },
            token,
          );
          if (res.status === 200) created.push((await res.json()).id);
          else await res.arrayBuffer();
          latencies.push(performance.now() - t0);
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        }
      }),
    );
    const counts = store.take();
    const creates = latencies.length;
    latencies.sort((a, b) => a - b);
    const check = await checkCalendar(store, paths, calendarId, created);
    console.log({
      writers: WRITERS,
      duration_s: DURATION_S,
      shards: config.revisionShards,
      creates,
      creates_per_s: Math.round(creates / DURATION_S),
      statuses,
      transactions: attempts.transactions,
      aborted_and_retried: attempts.retries,
      p50_ms: Math.round(percentile(latencies, 0.5)),
      p99_ms: Math.round(percentile(latencies, 0.99)),
      reads_per_create: Math.round((counts.documentsRead / creates) * 10) / 10,
      writes_per_create: Math.round((counts.documentsWritten / creates) * 10) / 10,
      ...check,
    });
    if (!check.ok) process.exitCode = 1;
  } finally {
    await new Promise((done) => server.close(done));
    await store.close();
  }
}

/**
 * What the store holds after the load: every answered create's event once and nothing else, the
 * shards' counts adding up to it, and each shard's change numbers 1..change_seq without a gap,
 * with one `event.created` change per event.
 */
async function checkCalendar(store, paths, calendarId, created) {
  const events = await store.query(paths.events(calendarId));
  const shards = await store.query(paths.shards(calendarId));
  const ids = new Set(events.map((e) => e.id));
  const lost = created.filter((id) => !ids.has(id)).length;
  const extra = events.length - new Set(created).size + lost;
  const counted = shards.reduce((sum, s) => sum + s.data.event_count, 0);
  let gaps = 0;
  const createdChanges = [];
  for (const shard of shards) {
    const n = Number(shard.id);
    const changes = await store.query(paths.changes(calendarId, n));
    const seqs = changes.map((c) => c.data.seq).sort((a, b) => a - b);
    if (seqs.length !== (shard.data.change_seq ?? 0) || seqs.some((seq, i) => seq !== i + 1)) gaps += 1;
    for (const c of changes) if (c.data.type === "event.created") createdChanges.push(c.data.id);
  }
  const changeIds = new Set(createdChanges);
  const changesOk = createdChanges.length === changeIds.size && created.every((id) => changeIds.has(id));
  return {
    events_lost: lost,
    events_extra: extra,
    shard_count_matches: counted === events.length,
    shards_with_broken_sequence: gaps,
    one_change_per_create: changesOk,
    ok: lost === 0 && extra === 0 && counted === events.length && gaps === 0 && changesOk,
  };
}

// Neither an emulator nor a project given: an emulator of its own, on a project of its own.
const started =
  process.env.FIRESTORE_EMULATOR_HOST || process.env.GOOGLE_APPLICATION_CREDENTIALS
    ? undefined
    : await startFirestoreEmulator();
if (started) {
  process.env.FIRESTORE_EMULATOR_HOST = started.host;
  process.env.GCLOUD_PROJECT ??= `demo-almanac-load-${process.pid}`;
}
try {
  await main();
} finally {
  if (started) {
    await clearProject(started.host, process.env.GCLOUD_PROJECT);
    await started.stop();
  }
}
