// `npm run bench:peer`: Almanac beside Radicale (the CalDAV server people host themselves,
// Debian's package), on this machine, with the same 200 events (bench/feed-events.mjs).
// Almanac is seeded through its API; each event of Almanac's own feed is then PUT into Radicale
// as it is (same UID, same text), and both feeds are checked to carry the same UIDs. The cases
// run interleaved, ROUNDS rounds, and each figure is the median of its rounds:
//   whole feed at 32 connections and at 1 (GET /c/{slug}.ics | GET of the calendar collection),
//   one event (GET /v1/.../events/{id} | GET of its .ics), a write (POST an event | PUT one),
//   the time-range query (GET /occurrences for March 2027, expanded | RFC 4791 REPORT with a
//   time-range for March 2027, which Radicale answers with the matching events unexpanded),
// then process start to first answer (median of 5 starts after an untimed one) and RSS (idle
// after seeding, peak at the end) of each.
// Prints a table and the ratios, writes bench/peer-results.json. Skips when `radicale` is not
// on PATH (`sudo apt-get install -y radicale` on Debian or Ubuntu).
//   PEER_DURATION=5 seconds per measurement, PEER_ROUNDS=3, BENCH_CONNECTIONS=32
import { spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
// autocannon writes any method but checks it against its own list of nine, without REPORT
// (RFC 4791's time-range query): the list is a plain array it exports, so REPORT joins it.
import autocannonMethods from "autocannon/lib/httpMethods.js";
import { freePort, rssMb, timeToFirstAnswer } from "./cold-start.mjs";
import { FEED_RANGE, FEED_TIMEZONE, feedEvents } from "./feed-events.mjs";
import { SERVER_NODE_FLAGS } from "./node-flags.mjs";

if (!autocannonMethods.includes("REPORT")) autocannonMethods.push("REPORT");

const DURATION = Number(process.env.PEER_DURATION ?? 5);
const ROUNDS = Number(process.env.PEER_ROUNDS ?? 3);
const STARTS = 5;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const HERE = fileURLToPath(new URL(".", import.meta.url));
/** What `npm start` runs, or server.js of another build (BENCH_LIB=functions/lib, say). */
const ALMANAC_ENTRY = process.env.BENCH_LIB
  ? join(process.env.BENCH_LIB, "server.js")
  : join(HERE, "../functions/dist/server.cjs");
const RADICALE_USER = "bench";
const RADICALE_AUTH = `Basic ${Buffer.from(`${RADICALE_USER}:bench`).toString("base64")}`;

function radicaleVersion() {
  const found = spawnSync("radicale", ["--version"], { encoding: "utf8" });
  return found.status === 0 ? found.stdout.trim() : null;
}

/** A server process started fresh, with the time it took to answer its first request. */
async function startProcess(command, args, env, probe) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  // Timed in processes of their own (each stopped after), the median of STARTS, then started
  // for the cases. One start before them, untimed, for each side alike: the files it reads are
  // then in the page cache.
  const startOnce = () => timeToFirstAnswer(command, args(port), env(port), `${origin}${probe.path}`, probe.init);
  await startOnce();
  const starts = [];
  for (let i = 0; i < STARTS; i++) starts.push((await startOnce()).ms);
  const coldMs = starts.sort((a, b) => a - b)[STARTS >> 1];
  const child = spawn(command, args(port), {
    env: { ...process.env, ...env(port) },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const stopped = new Promise((done) => child.once("exit", done));
  for (;;) {
    try {
      await (await fetch(`${origin}${probe.path}`, probe.init)).arrayBuffer();
      break;
    } catch {
      await new Promise((done) => setTimeout(done, 10));
    }
  }
  return {
    origin,
    pid: child.pid,
    first_answer_ms: Math.round(coldMs),
    stop: async () => {
      child.kill("SIGTERM");
      await stopped;
    },
  };
}

async function call(origin, method, path, headers, body) {
  const res = await fetch(`${origin}${path}`, { method, headers, body });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return text;
}

async function seedAlmanac(origin) {
  const json = { "content-type": "application/json" };
  const post = async (path, token, body) =>
    JSON.parse(
      await call(
        origin,
        "POST",
        path,
        { ...json, "idempotency-key": randomUUID(), ...(token ? { authorization: `Bearer ${token}` } : {}) },
        JSON.stringify(body),
      ),
    );
  const minted = await post("/v1/mint", null, { name: "Peer bench" });
  const calendar = await post("/v1/calendars", minted.token, {
    name: "Bench feed",
    visibility: "public",
    timezone: FEED_TIMEZONE,
  });
  const events = feedEvents();
  const ids = [];
  for (let i = 0; i < events.length; i += 8) {
    const batch = events.slice(i, i + 8);
    ids.push(
      ...(await Promise.all(batch.map((e) => post(`/v1/calendars/${calendar.id}/events`, minted.token, e)))).map(
        (e) => e.id,
      ),
    );
  }
  const newCalendar = () => post("/v1/calendars", minted.token, { name: "Writes", timezone: FEED_TIMEZONE });
  return { token: minted.token, calendar, newCalendar, eventId: ids[0] };
}

/** Almanac's feed cut into one iCalendar object per event (its VTIMEZONEs with each), by UID. */
function splitFeed(text) {
  const body = text.replaceAll("\r\n ", "");
  const zones = [...body.matchAll(/BEGIN:VTIMEZONE\r\n[\s\S]*?END:VTIMEZONE\r\n/g)].map((m) => m[0]).join("");
  const head = body.slice(0, body.indexOf("BEGIN:VTIMEZONE") >= 0 ? body.indexOf("BEGIN:VTIMEZONE") : 0);
  const prodid = /PRODID:[^\r]*\r\n/.exec(head)?.[0] ?? "PRODID:-//almanac//feeds//EN\r\n";
  return [...body.matchAll(/BEGIN:VEVENT\r\n[\s\S]*?END:VEVENT\r\n/g)].map(([vevent]) => ({
    uid: /\r\nUID:([^\r]*)\r\n/.exec(vevent)[1],
    ics: `BEGIN:VCALENDAR\r\nVERSION:2.0\r\n${prodid}${zones}${vevent}END:VCALENDAR\r\n`,
  }));
}

const uidsOf = (text) => new Set([...text.replaceAll("\r\n ", "").matchAll(/\r\nUID:([^\r]*)\r\n/g)].map((m) => m[1]));
const fileOf = (uid) => `${uid.split("@")[0]}.ics`;

async function seedRadicale(origin, objects) {
  const auth = { authorization: RADICALE_AUTH };
  const mkcalendar = (path) =>
    call(origin, "MKCALENDAR", path, { ...auth, "content-type": "application/xml" }, MKCALENDAR_BODY);
  await mkcalendar(`/${RADICALE_USER}/feed/`);
  for (let i = 0; i < objects.length; i += 4) {
    await Promise.all(
      objects
        .slice(i, i + 4)
        .map((o) =>
          call(
            origin,
            "PUT",
            `/${RADICALE_USER}/feed/${fileOf(o.uid)}`,
            { ...auth, "content-type": "text/calendar" },
            o.ics,
          ),
        ),
    );
  }
}

const MKCALENDAR_BODY = `<?xml version="1.0" encoding="utf-8"?>
<C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
  <D:set><D:prop><D:displayname>Bench</D:displayname></D:prop></D:set>
</C:mkcalendar>`;

const rangeStamp = (date) => `${date.replaceAll("-", "")}T000000Z`;
const REPORT_BODY = `<?xml version="1.0" encoding="utf-8"?>
<C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
  <D:prop><D:getetag/><C:calendar-data/></D:prop>
  <C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT">
    <C:time-range start="${rangeStamp(FEED_RANGE.from)}" end="20270401T000000Z"/>
  </C:comp-filter></C:comp-filter></C:filter>
</C:calendar-query>`;

function writeIcs() {
  const uid = randomUUID();
  return {
    uid,
    body: [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//almanac//bench//EN",
      "BEGIN:VEVENT",
      `UID:${uid}`,
      "DTSTAMP:20261123T100000Z",
      "DTSTART:20270504T100000Z",
      "DURATION:PT1H",
      "SUMMARY:Load test",
      "END:VEVENT",
      "END:VCALENDAR",
      "",
    ].join("\r\n"),
  };
}

/** The cases: for each, what Almanac and Radicale are asked (autocannon options, origin added later). */
function cases(almanac, radicale) {
  const radicaleAuth = { authorization: RADICALE_AUTH };
  const feedPath = `/${RADICALE_USER}/feed/`;
  return [
    {
      name: `whole feed (200 events), ${CONNECTIONS} connections`,
      almanac: { path: `/c/${almanac.calendar.slug}.ics` },
      radicale: { path: feedPath, headers: radicaleAuth },
    },
    {
      name: "whole feed (200 events), 1 connection",
      connections: 1,
      almanac: { path: `/c/${almanac.calendar.slug}.ics` },
      radicale: { path: feedPath, headers: radicaleAuth },
    },
    {
      name: "one event",
      almanac: { path: `/v1/calendars/${almanac.calendar.id}/events/${almanac.eventId}` },
      radicale: { path: `${feedPath}${fileOf(radicale.firstUid)}`, headers: radicaleAuth },
    },
    {
      // Each measurement writes into a calendar of its own (a new one each time: Almanac's quota
      // is 10,000 events a calendar, and a growing collection would slow Radicale down).
      name: "write one event",
      almanac: {
        method: "POST",
        path: "/v1/calendars/{fresh}/events",
        headers: { authorization: `Bearer ${almanac.token}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "Load test", date: "2027-05-04", start_time: "10:00", end_time: "11:00" }),
        prepare: async (origin, request) => {
          const id = (await almanac.newCalendar()).id;
          return {
            ...request,
            path: `/v1/calendars/${id}/events`,
            setupRequest: (req) => ({ ...req, headers: { ...req.headers, "idempotency-key": randomUUID() } }),
          };
        },
      },
      radicale: {
        method: "PUT",
        path: `/${RADICALE_USER}/writes/`,
        headers: { ...radicaleAuth, "content-type": "text/calendar" },
        prepare: async (origin, request) => {
          const collection = `/${RADICALE_USER}/writes-${randomUUID()}/`;
          await call(
            origin,
            "MKCALENDAR",
            collection,
            { ...radicaleAuth, "content-type": "application/xml" },
            MKCALENDAR_BODY,
          );
          return {
            ...request,
            setupRequest: (req) => {
              const { uid, body } = writeIcs();
              return { ...req, path: `${collection}${uid}.ics`, body };
            },
          };
        },
      },
    },
    {
      name: "March 2027: /occurrences (expanded) | REPORT time-range (not expanded)",
      almanac: { path: `/v1/calendars/${almanac.calendar.id}/occurrences?from=${FEED_RANGE.from}&to=${FEED_RANGE.to}` },
      radicale: {
        method: "REPORT",
        path: feedPath,
        headers: { ...radicaleAuth, depth: "1", "content-type": "application/xml" },
        body: REPORT_BODY,
      },
    },
  ];
}

/** One measurement: a one-second warm-up, then DURATION seconds. */
async function measure(origin, { prepare, ...request }, connections) {
  const prepared = prepare ? await prepare(origin, request) : request;
  const options = { url: origin, connections, requests: [prepared] };
  await autocannon({ ...options, duration: 1 });
  const result = await autocannon({ ...options, duration: DURATION });
  return {
    requests_per_s: result.requests.average,
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    non_2xx: result.non2xx,
    failed: result.errors + result.timeouts,
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

async function run() {
  const work = mkdtempSync(join(tmpdir(), "almanac-peer-"));
  const radicaleConfig = join(work, "radicale.conf");
  writeFileSync(
    radicaleConfig,
    [
      "[auth]",
      "type = none",
      "[storage]",
      `filesystem_folder = ${join(work, "radicale")}`,
      "[web]",
      "type = none",
      "[logging]",
      "level = warning",
      "",
    ].join("\n"),
  );
  const almanacServer = await startProcess(
    process.execPath,
    () => [...SERVER_NODE_FLAGS, ALMANAC_ENTRY],
    (port) => ({
      PORT: String(port),
      DATA_DIR: join(work, "almanac"),
      ALMANAC_AUTH_EMULATOR: "off",
      RATE_LIMITS: "off",
    }),
    { path: "/v1/me" },
  );
  const radicaleServer = await startProcess(
    "radicale",
    (port) => ["--config", radicaleConfig, "--hosts", `127.0.0.1:${port}`],
    () => ({}),
    { path: `/${RADICALE_USER}/`, init: { headers: { authorization: RADICALE_AUTH } } },
  );
  try {
    console.log(`seeding ${feedEvents().length} events into Almanac (API), then the same into Radicale (PUT)...`);
    const almanac = await seedAlmanac(almanacServer.origin);
    const feed = await call(almanacServer.origin, "GET", `/c/${almanac.calendar.slug}.ics`, {});
    const objects = splitFeed(feed);
    await seedRadicale(radicaleServer.origin, objects);
    const radicaleFeed = await call(radicaleServer.origin, "GET", `/${RADICALE_USER}/feed/`, {
      authorization: RADICALE_AUTH,
    });
    const [ours, theirs] = [uidsOf(feed), uidsOf(radicaleFeed)];
    const same = ours.size === theirs.size && [...ours].every((uid) => theirs.has(uid));
    if (!same || ours.size !== feedEvents().length)
      throw new Error(`the feeds differ: Almanac has ${ours.size} UIDs, Radicale ${theirs.size}`);
    console.log(`both feeds carry the same ${ours.size} UIDs\n`);
    const idle = { almanac: rssMb(almanacServer.pid), radicale: rssMb(radicaleServer.pid) };

    const list = cases(almanac, { firstUid: objects[0].uid });
    const samples = list.map(() => ({ almanac: [], radicale: [] }));
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [i, c] of list.entries()) {
        for (const side of round % 2 ? ["almanac", "radicale"] : ["radicale", "almanac"]) {
          const origin = side === "almanac" ? almanacServer.origin : radicaleServer.origin;
          const m = await measure(origin, c[side], c.connections ?? CONNECTIONS);
          if (m.non_2xx > 0) throw new Error(`${c.name} (${side}): ${m.non_2xx} answers were not 2xx`);
          samples[i][side].push(m);
        }
      }
      console.log(`round ${round} of ${ROUNDS} done`);
    }
    const results = list.map((c, i) => {
      const side = (s) => ({
        requests_per_s: Math.round(median(samples[i][s].map((m) => m.requests_per_s)) * 10) / 10,
        p50_ms: median(samples[i][s].map((m) => m.p50_ms)),
        p99_ms: median(samples[i][s].map((m) => m.p99_ms)),
        failed: samples[i][s].reduce((n, m) => n + m.failed, 0),
      });
      const [a, r] = [side("almanac"), side("radicale")];
      return {
        name: c.name,
        almanac: a,
        radicale: r,
        // No answer from Radicale within a run (a slow REPORT) leaves the ratio open.
        ratio: r.requests_per_s > 0 ? Math.round((a.requests_per_s / r.requests_per_s) * 10) / 10 : null,
      };
    });
    const peak = { almanac: rssMb(almanacServer.pid, "VmHWM"), radicale: rssMb(radicaleServer.pid, "VmHWM") };
    return {
      results,
      memory: { idle_mb: idle, peak_mb: peak },
      first_answer_ms: { almanac: almanacServer.first_answer_ms, radicale: radicaleServer.first_answer_ms },
    };
  } finally {
    await Promise.all([almanacServer.stop(), radicaleServer.stop()]);
    rmSync(work, { recursive: true, force: true });
  }
}

function report(version, { results, memory, first_answer_ms }) {
  const rows = results.map((r) => [
    r.name,
    `${r.almanac.requests_per_s} req/s, p50 ${r.almanac.p50_ms} ms, p99 ${r.almanac.p99_ms} ms`,
    `${r.radicale.requests_per_s} req/s, p50 ${r.radicale.p50_ms} ms, p99 ${r.radicale.p99_ms} ms`,
    r.ratio === null ? "(Radicale did not answer)" : `${r.ratio}x`,
  ]);
  rows.push([
    "RSS idle / peak",
    `${memory.idle_mb.almanac} / ${memory.peak_mb.almanac} MB`,
    `${memory.idle_mb.radicale} / ${memory.peak_mb.radicale} MB`,
    "",
  ]);
  rows.push(["process start to first answer", `${first_answer_ms.almanac} ms`, `${first_answer_ms.radicale} ms`, ""]);
  const header = ["case", "Almanac", `Radicale ${version}`, "ratio"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => cells.map((c, i) => c.padEnd(widths[i])).join("  ");
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of rows) console.log(line(r));

  const [feed32, feed1] = results;
  const targets = [
    [`whole feed at ${CONNECTIONS} connections >= 10x Radicale`, feed32.ratio >= 10, `${feed32.ratio}x`],
    [
      `whole feed at ${CONNECTIONS} connections: Almanac p99 < 100 ms`,
      feed32.almanac.p99_ms < 100,
      `${feed32.almanac.p99_ms} ms`,
    ],
    ["whole feed on one connection >= 2x Radicale", feed1.ratio >= 2, `${feed1.ratio}x`],
  ];
  console.log("");
  for (const [target, pass, value] of targets) console.log(`${pass ? "PASS" : "MISS"}  ${target}: ${value}`);
  writeFileSync(
    join(HERE, "peer-results.json"),
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        radicale: version,
        cpus: availableParallelism(),
        cpu_model: cpus()[0]?.model ?? null,
        load_average: { at_start: LOAD_AT_START, at_end: loadavg()[0] },
        connections: CONNECTIONS,
        duration_s: DURATION,
        rounds: ROUNDS,
        results,
        memory,
        first_answer_ms,
        targets: targets.map(([target, pass, value]) => ({ target, pass, value })),
      },
      null,
      2,
    )}\n`,
  );
  console.log("\nwrote bench/peer-results.json");
}

const LOAD_AT_START = loadavg()[0];
const version = radicaleVersion();
if (!version) {
  console.log(
    "SKIP  the peer comparison needs Radicale on PATH: `sudo apt-get install -y radicale` (Debian, Ubuntu), " +
      "or `python3 -m pip install radicale`; then `npm run bench:peer` again.",
  );
} else {
  console.log(
    `Almanac vs Radicale ${version}: ${CONNECTIONS} connections, ${DURATION} s a measurement, ${ROUNDS} rounds ` +
      `interleaved (medians), ${availableParallelism()} CPUs, load average ${LOAD_AT_START.toFixed(2)}\n`,
  );
  report(version, await run());
}
