// The cost of alarm ticks (docs/decisions/alarms.md) over 10,000 events carrying alarms, in
// process on SQLite with the tests' counting store (test/helpers/counting-store.ts): documents
// read and written, transactions, sequential round trips and milliseconds per tick (one pass of
// the alarms job, jobs/alarms.ts), from an idle tick to one that finds every entry due. Events
// are written by the event command itself, so the queue, its heads and tenants are what the API
// would have left; the one-time backfill of entries from before lanes runs (and is counted)
// before the ticks.
//   npm run build && node bench/alarm-tick.mjs
// BENCH_LIB points at another build of functions/src (default functions/lib).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { countingStore } from "./counting-store.mjs";

const LIB = process.env.BENCH_LIB ?? fileURLToPath(new URL("../functions/lib", import.meta.url));
const EVENTS = 10_000;
const CALENDARS = 10;
const ZONES = ["UTC", "Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Sydney"];
const START = Date.parse("2027-01-04T06:00:00.000Z");
const MINUTE = 60_000;

const lib = (path) => import(pathToFileURL(join(LIB, path)).href);

const [{ SqliteStore }, { LAYOUT, paths }, { newId }, { createEvent }, { runAlarmTick }, { CountingStore }] =
  await Promise.all([
    lib("storage/sqlite/index.js"),
    lib("domain/paths.js"),
    lib("domain/ids.js"),
    lib("domain/commands/events.js"),
    lib("jobs/alarms.js"),
    countingStore(),
  ]);

const dataDir = mkdtempSync(join(tmpdir(), "almanac-alarm-tick-"));
const store = new CountingStore(new SqliteStore(join(dataDir, "almanac.sqlite"), { layout: LAYOUT }));
let now = START;
// The configuration from this process's environment, as the composition roots read it (functions/src/config.ts).
const config = (await lib("config.js")).readConfig(process.env);
const deps = { config, store, clock: () => new Date(now), baseUrl: "http://localhost", log: () => {}, memory: {} };
const actor = { agentId: "agt_bench", agentName: "Bench", credentialId: "cred_bench", scopes: [] };

/**
 * Half one-off events, half daily series; local starts spread over the ten hours from 08:00
 * (one a minute per calendar), two alarms each (15 and 5 minutes before), so every minute of
 * those hours brings some ten entries due.
 */
async function seed() {
  const calendars = [];
  for (let c = 0; c < CALENDARS; c++) {
    const calendar = {
      id: newId("cal"),
      name: `Bench ${c}`,
      slug: `bench-${c}`,
      timezone: ZONES[c % ZONES.length],
      visibility: "private",
      purpose: null,
      default_view: null,
      views: null,
      created_at: new Date(START).toISOString(),
      updated_at: new Date(START).toISOString(),
      revision: "r0",
      // One agent's ten calendars: one tenant of the alarm queue.
      created_by: "agt_bench",
    };
    await store.runTransaction(async (tx) => tx.set(paths.calendar(calendar.id), calendar));
    calendars.push(calendar);
  }
  const writes = [];
  for (let i = 0; i < EVENTS; i++) {
    const calendar = calendars[i % CALENDARS];
    const minutes = 8 * 60 + (Math.floor(i / CALENDARS) % 600);
    const time = `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
    const when = i % 2 === 0 ? { date: "2027-01-05" } : { recur: { type: "daily", starts: "2027-01-05" } };
    const input = { name: `Event ${i}`, ...when, start_time: time, alarms: [15, 5] };
    const usage = { used: Math.floor(i / CALENDARS), seed: 0, alarmEvents: Math.floor(i / CALENDARS) };
    writes.push(store.runTransaction((tx) => createEvent(tx, deps, actor, calendar, input, usage)));
    // SQLite commits consecutive transactions together: keep a group in flight.
    if (writes.length === 64) await Promise.all(writes.splice(0));
  }
  await Promise.all(writes);
}

async function measure(name, at) {
  now = at;
  const started = performance.now();
  const { result, counts } = await store.measure(() => runAlarmTick(deps));
  const ms = performance.now() - started;
  return {
    tick: name,
    due: result.due,
    fired: result.fired,
    rounds: result.rounds,
    turns: result.turns,
    more: result.more,
    read: counts.documentsRead,
    written: counts.documentsWritten,
    transactions: counts.transactions,
    round_trips: counts.roundTrips,
    ms: Math.round(ms * 10) / 10,
  };
}

const seeding = performance.now();
await seed();
const queued = (await store.query(paths.alarmQueue())).length;
console.log(
  `seeded ${EVENTS} events with alarms on ${CALENDARS} calendars, ${queued} queue entries, ` +
    `in ${Math.round(performance.now() - seeding)} ms`,
);
store.take();

// Entries from before lanes: none here, but the pass over the queue that finds so runs once per store.
const backfilling = performance.now();
const { counts: backfill } = await store.measure(async () => {
  while (!(await store.get(paths.alarmBackfill()))?.data.done_at) await runAlarmTick(deps, { now: new Date(START) });
});
console.log(
  `backfill (once per store): ${backfill.documentsRead} read, ${backfill.documentsWritten} written, ` +
    `${backfill.transactions} transactions, ${Math.round(performance.now() - backfilling)} ms`,
);

// The first local 08:00 of any zone is the earliest start; its alarms fall from 07:45 local.
const firstDue = Date.parse(
  (await store.query(paths.alarmTenants(), { orderBy: [["due_at", "asc"]], limit: 1 }))[0].data.due_at,
);
const rows = [];
rows.push(await measure("idle (nothing due)", firstDue - MINUTE));
rows.push(await measure("a minute of alarms", firstDue + MINUTE));
rows.push(await measure("again, same instant", firstDue + MINUTE));
rows.push(await measure("ten minutes later", firstDue + 11 * MINUTE));
rows.push(await measure("a day later: all due", firstDue + 24 * 60 * MINUTE));
console.table(rows);

// The rest of the backlog, tick after tick, as the local driver would run them.
let ticks = 0;
let fired = 0;
const draining = performance.now();
const { counts } = await store.measure(async () => {
  for (;;) {
    const result = await runAlarmTick(deps);
    ticks += 1;
    fired += result.fired;
    if (!result.more) break;
  }
});
console.log(
  `drained the backlog in ${ticks} more ticks, ${fired} alarms, ${Math.round(performance.now() - draining)} ms: ` +
    `${counts.documentsRead} read, ${counts.documentsWritten} written, ${counts.transactions} transactions`,
);
await store.close();
rmSync(dataDir, { recursive: true, force: true });
