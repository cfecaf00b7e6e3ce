// `npm run bench`: load-tests the local server (SQLite store) with autocannon beside two
// baselines measured in the same run, each server in its own child process: an Express
// "hello" app and a bare node:http "hello" server. Prints a table and PASS/MISS per target,
// and writes bench/results.json. Needs the build (`npm run build`, which `npm run bench` does).
// This machine's speed drifts with other work, so each case is compared with an Express
// baseline measured right before it (`vs Express`), not only with the one at the start.
//   BENCH_DURATION=10 seconds per case, BENCH_CONNECTIONS=32, BENCH_LIB=<dir> to measure
//   another build of functions/lib (e.g. a copy from before a change) under the same load.
// The load average is recorded: other work on the machine lowers every figure, the ratios less.

import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { benchBackground } from "./background.mjs";
import { benchFeedRefresh } from "./feed-refresh.mjs";
import { benchImport } from "./import.mjs";
import { benchColdStart, cpuMs, rssMb } from "./cold-start.mjs";
import { benchDeployedColdStart } from "./deployed-cold-start.mjs";
import { benchFeedRender } from "./feed-render.mjs";
import { benchMemory } from "./memory.mjs";
import { expectFreeBusyOk, seedFreeBusy } from "./freebusy.mjs";
import { expectMcpOk, mcpLatencyBesideRest, mcpListOccurrences } from "./mcp.mjs";
import { benchOccurrencePages } from "./occurrence-pages.mjs";
import { benchRoundTrips, printRoundTrips } from "./round-trips.mjs";
import { benchOccurrences } from "./occurrences.mjs";
import { seed } from "./seed.mjs";
import { startServer } from "./server-process.mjs";

// The servers measure the service, not its rate limits (which would answer 429 within a
// second); the child processes inherit this. Set RATE_LIMITS=on to measure with them.
process.env.RATE_LIMITS ??= "off";
// Nor the event quota: the write case adds over 10,000 events to one calendar in 10 s.
process.env.QUOTA_EVENTS_PER_CALENDAR ??= "1000000";
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Math.min(2, DURATION);
/** Seconds of the Express baseline measured right before each case. */
const ADJACENT_BASELINE = Math.max(1, Math.round(DURATION / 3));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
/**
 * BENCH_CASES=feed,me (any of events, me, write, page, freebusy, mcp, feed) measures only those
 * server cases: a build from before a case existed can still be measured on the others.
 */
const BENCH_CASES = process.env.BENCH_CASES?.split(",").map((c) => c.trim());
const wanted = (key) => !BENCH_CASES || BENCH_CASES.includes(key);
const HERE = fileURLToPath(new URL(".", import.meta.url));

/**
 * One autocannon run: a short warm-up (JIT, caches), then the measured run. With the server's
 * pid, also the CPU time the server spent per answer: on a machine shared with other work,
 * steadier than requests per second, which follow how much of a core the server was given.
 */
async function measure(name, options, duration = DURATION, warmup = WARMUP, pid = undefined) {
  const base = { connections: CONNECTIONS, ...options };
  await autocannon({ ...base, duration: warmup });
  const cpuBefore = pid && cpuMs(pid);
  const result = await autocannon({ ...base, duration });
  const cpuUsPerRequest = pid && Math.round(((cpuMs(pid) - cpuBefore) * 1000) / result.requests.total);
  if (result.non2xx > 0)
    throw new Error(`${name}: ${result.non2xx} answers were not 200; the case is broken, not slow`);
  return {
    name,
    requests_per_s: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    requests: result.requests.total,
    ...(pid ? { cpu_us_per_request: cpuUsPerRequest } : {}),
    // Connection errors and timeouts (no answer within 10 s) count against the case.
    failed: result.errors + result.timeouts,
  };
}

/** Fails loudly when a case's request does not answer 200 before it is measured. */
async function expectOk(url, init) {
  const res = await fetch(url, init).catch((err) => {
    throw new Error(`${init?.method ?? "GET"} ${url} failed: ${err.cause?.message ?? err.message}`);
  });
  if (res.status !== 200)
    throw new Error(`${init?.method ?? "GET"} ${url} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
}

/** Peak resident set of a process so far, in MB (Linux). */
function peakRssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1]);
  return Math.round(kb / 1024);
}

async function run() {
  // First, on a machine no case has loaded yet: starts are what a person meets.
  const firstAnswer = await benchColdStart();
  const deployed = await benchDeployedColdStart();
  const cases = [];
  const express = await startServer("express");
  const node = await startServer("node");
  for (const [kind, server] of [
    ["express", express],
    ["node", node],
  ]) {
    await expectOk(`${server.origin}/`);
    cases.push(await measure(`${kind} hello (baseline)`, { url: `${server.origin}/` }, DURATION, WARMUP, server.pid));
  }
  await node.stop();
  /** A case and the Express baseline measured just before it, under the same conditions. */
  const measureCase = async (name, options) => {
    const baseline = await measure("express", { url: `${express.origin}/` }, ADJACENT_BASELINE, 1, express.pid);
    return {
      ...(await measure(name, options, DURATION, WARMUP, almanac.pid)),
      express_now_per_s: baseline.requests_per_s,
      express_now_cpu_us_per_request: baseline.cpu_us_per_request,
    };
  };

  const dataDir = mkdtempSync(join(tmpdir(), "almanac-bench-"));
  const almanac = await startServer("almanac", { DATA_DIR: dataDir });
  let rss;
  try {
    const t0 = performance.now();
    const data = await seed(almanac.origin);
    console.log(`seeded through the API in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    // Idle: everything loaded and seeded (each app built by its first request), nothing running.
    await expectOk(`${almanac.origin}/c/${data.feedSlug}.ics`);
    await new Promise((done) => setTimeout(done, 2000));
    const idleRss = rssMb(almanac.pid);
    const idleHeld = await almanac.memory();
    // V8's memory reducer gives back the seeding's garbage after 8 s without allocation.
    await new Promise((done) => setTimeout(done, 12_000));
    const settledRss = rssMb(almanac.pid);
    const { origin } = almanac;
    const auth = { authorization: `Bearer ${data.token}` };

    const eventsUrl = `${origin}/v1/calendars/${data.readCalendarId}/events`;
    if (wanted("events")) {
      await expectOk(eventsUrl);
      cases.push(await measureCase("GET events (200, public, anonymous)", { url: eventsUrl }));
    }

    if (wanted("me")) {
      await expectOk(`${origin}/v1/me`, { headers: auth });
      cases.push(await measureCase("GET /v1/me (token)", { url: `${origin}/v1/me`, headers: auth }));
    }

    const writePath = `/v1/calendars/${data.writeCalendarId}/events`;
    const writeBody = JSON.stringify({ name: "Load test", date: "2027-05-04", start_time: "10:00", category: "bench" });
    const writeHeaders = { ...auth, "content-type": "application/json" };
    if (wanted("write")) {
      await expectOk(`${origin}${writePath}`, {
        method: "POST",
        headers: { ...writeHeaders, "idempotency-key": randomUUID() },
        body: writeBody,
      });
      cases.push(
        await measureCase("POST event (token, fresh key)", {
          url: origin,
          requests: [
            {
              method: "POST",
              path: writePath,
              headers: writeHeaders,
              body: writeBody,
              setupRequest: (req) => ({ ...req, headers: { ...req.headers, "idempotency-key": randomUUID() } }),
            },
          ],
        }),
      );
    }

    const pageUrl = `${origin}/c/${data.pageSlug}?view=month&date=${data.pageDate}`;
    if (wanted("page")) {
      await expectOk(pageUrl);
      cases.push(await measureCase("GET /c/{slug} month (500 events)", { url: pageUrl }));
    }

    if (wanted("freebusy")) {
      const freeBusyUrl = await seedFreeBusy(origin, data.token);
      await expectFreeBusyOk(freeBusyUrl, data.token);
      cases.push(await measureCase("GET /v1/freebusy (3 calendars x 200 events)", { url: freeBusyUrl, headers: auth }));
    }

    if (wanted("mcp")) {
      await expectMcpOk(origin, data);
      const mcp = await measureCase(
        "MCP tools/call list_occurrences (a month, token)",
        mcpListOccurrences(origin, data),
      );
      // And on one connection, beside the same read over REST (p50 of each, alternating).
      cases.push({ ...mcp, ...(await mcpLatencyBesideRest(origin, data)) });
    }

    if (wanted("feed")) {
      const feedUrl = `${origin}/c/${data.feedSlug}.ics`;
      await expectOk(feedUrl);
      cases.push(await measureCase("GET /c/{slug}.ics feed (200 events)", { url: feedUrl }));
      cases.push(await measureMixed(origin, data, auth));
    }

    rss = {
      idle_mb: idleRss,
      settled_mb: settledRss,
      peak_mb: peakRssMb(almanac.pid),
      idle: idleHeld,
      end: await almanac.memory(),
    };
  } finally {
    await almanac.stop();
    await express.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }

  const occurrences = await benchOccurrences();
  const occurrencePages = await benchOccurrencePages();
  const feedRender = await benchFeedRender();
  const memory = benchMemory();
  const roundTrips = await benchRoundTrips();
  const background = await benchBackground();
  console.log("background work:", background);
  const imported = await benchImport();
  console.log("import at the limits:", imported);
  const feedRefresh = await benchFeedRefresh();
  console.log("an outside feed's first fetch:", feedRefresh);
  return {
    cases,
    occurrences,
    occurrencePages,
    feedRender,
    deployed,
    firstAnswer,
    memory,
    rss,
    roundTrips,
    background,
    imported,
    feedRefresh,
  };
}

/**
 * Whether serving feeds holds up a cheap request: `/v1/me` asked on one connection, alone and
 * then while feeds are fetched at MIXED_FEED_RATE a second (feed readers polling, on 8
 * connections) and one event of the feed changes every MIXED_WRITE_EVERY_MS, so that the feed
 * is rendered again, not only answered from the cache. The feeds come at a set rate, not as
 * fast as the server answers: a saturated server keeps every request waiting its turn, cheap or
 * not (GET /v1/me alone at 32 connections has a p99 over 20 ms), which says nothing of blocking.
 */
const MIXED_WRITE_EVERY_MS = 250;
const MIXED_FEED_RATE = 200;
async function measureMixed(origin, data, auth) {
  // The feed's load runs in a worker thread: its 32 connections would otherwise delay this
  // process's own reading of /v1/me answers, and the wait measured would be the client's.
  const feed = { url: `${origin}/c/${data.feedSlug}.ics`, connections: 8, overallRate: MIXED_FEED_RATE, workers: 1 };
  const me = { url: `${origin}/v1/me`, headers: auth, connections: 1 };
  const alone = await measure("/v1/me alone", me);
  const events = await (await fetch(`${origin}/v1/calendars/${data.feedCalendarId}/events`, { headers: auth })).json();
  const target = `${origin}/v1/calendars/${data.feedCalendarId}/events/${events.events[0].id}`;
  let n = 0;
  const writeErrors = [];
  const writer = setInterval(() => {
    void fetch(target, {
      method: "PATCH",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ notes: `Changed ${++n} times during the mixed case.` }),
    })
      .then(async (res) => {
        await res.arrayBuffer();
        if (res.status !== 200) writeErrors.push(`answered ${res.status}`);
      })
      .catch((err) => writeErrors.push(err.cause?.message ?? err.message));
  }, MIXED_WRITE_EVERY_MS);
  try {
    await Promise.all([autocannon({ ...feed, duration: WARMUP }), autocannon({ ...me, duration: WARMUP })]);
    const [feedResult, meResult] = await Promise.all([
      autocannon({ ...feed, duration: DURATION }),
      autocannon({ ...me, duration: DURATION }),
    ]);
    if (feedResult.non2xx + meResult.non2xx > 0) throw new Error("mixed case: some answers were not 200");
    if (writeErrors.length > 0) throw new Error(`mixed case: writes failed: ${writeErrors.slice(0, 3).join("; ")}`);
    return {
      name: `mixed: GET /v1/me (1 conn.) during ${MIXED_FEED_RATE} feeds/s + a write every ${MIXED_WRITE_EVERY_MS} ms`,
      requests_per_s: Math.round(meResult.requests.average),
      p50_ms: meResult.latency.p50,
      p99_ms: meResult.latency.p99,
      requests: meResult.requests.total,
      failed: meResult.errors + meResult.timeouts + feedResult.errors + feedResult.timeouts,
      alone_p50_ms: alone.p50_ms,
      alone_p99_ms: alone.p99_ms,
      feed_requests_per_s: Math.round(feedResult.requests.average),
      feed_p99_ms: feedResult.latency.p99,
      writes: n,
    };
  } finally {
    clearInterval(writer);
  }
}

function report({
  cases,
  occurrences,
  occurrencePages,
  feedRender,
  deployed,
  firstAnswer,
  memory,
  rss,
  roundTrips,
  background,
  imported,
  feedRefresh,
}) {
  const express = cases[0].requests_per_s;
  const expressCpu = cases[0].cpu_us_per_request;
  for (const c of cases) {
    c.vs_express = Math.round((c.requests_per_s / (c.express_now_per_s ?? express)) * 100) / 100;
    // The same comparison by the server's CPU time per answer (Express's, then, over the case's).
    const cpu = c.cpu_us_per_request;
    if (cpu) c.vs_express_cpu = Math.round(((c.express_now_cpu_us_per_request ?? expressCpu) / cpu) * 100) / 100;
  }
  const mixed = byNamePrefix(cases, "mixed") ?? {};
  // A case left out (BENCH_CASES) leaves its targets out.
  const byName = (prefix) => cases.find((c) => c.name.startsWith(prefix)) ?? {};

  const targets = [
    ["events read >= 50% of Express", byName("GET events").vs_express, ">=", 0.5],
    ["events read p99 < 20 ms", byName("GET events").p99_ms, "<", 20],
    ["/v1/me >= 60% of Express", byName("GET /v1/me").vs_express, ">=", 0.6],
    ["event write >= 25% of Express", byName("POST event").vs_express, ">=", 0.25],
    ["month page >= 20% of Express", byName("GET /c/{slug} month").vs_express, ">=", 0.2],
    ["free/busy (3 calendars x 200 events) >= 30% of Express", byName("GET /v1/freebusy").vs_express, ">=", 0.3],
    ["MCP tools/call list_occurrences >= 20% of Express", byName("MCP tools/call").vs_express, ">=", 0.2],
    // The two above again by the server's CPU time per answer, which the machine's other work moves less.
    ["free/busy >= 30% of Express, by CPU per answer", byName("GET /v1/freebusy").vs_express_cpu, ">=", 0.3],
    ["MCP list_occurrences >= 20% of Express, by CPU per answer", byName("MCP tools/call").vs_express_cpu, ">=", 0.2],
    [
      "MCP tools/call p50 within 1 ms of the same REST read (1 connection)",
      mcpOverRestMs(byName("MCP tools/call")),
      "<=",
      1,
    ],
    ["occurrences (1,000 rules x 366 days) < 50 ms", occurrences.median_ms, "<", 50],
    [
      "occurrence page (20 layers x 1,000 daily series, a year, limit 1,000) < 100 ms",
      occurrencePages.first_page_median_ms,
      "<",
      100,
    ],
    ["feed render (200 events) <= 5 ms", feedRender.median_ms, "<=", 5],
    ["feed (200 events) p99 < 100 ms", byName("GET /c/{slug}.ics").p99_ms, "<", 100],
    ["/v1/me p99 during feed fetches < 20 ms", mixed.p99_ms, "<", 20],
    [
      "deployed cold start: api first answer <= 1.1x a hello reading one document",
      deployed.api.firestore_ratio,
      "<=",
      1.1,
    ],
    [
      "deployed cold start: pages first answer <= 1.1x a hello reading one document",
      deployed.pages.firestore_ratio,
      "<=",
      1.1,
    ],
    ["process start to first answer (functions/dist/server.cjs) <= 300 ms", firstAnswer.first_answer_ms, "<=", 300],
    ["server idle RSS <= 90 MB", rss.idle_mb, "<=", 90],
    ["server peak RSS <= 150 MB", rss.peak_mb, "<=", 150],
    ["20,000 idle webhook streams < 10% of a core", background.idle_core_percent, "<", 10],
    ["/openapi.json p99 beside 20,000 streams < 100 ms", background.openapi_p99_idle_ms, "<", 100],
    ["/openapi.json p99 during a fan-out to 400 webhooks < 100 ms", background.openapi_p99_during_fan_out_ms, "<", 100],
    ["another tenant's delivery beside a 9 s receiver < 5 s", background.other_tenant_delivery_ms, "<", 5_000],
    ["longest event-loop block during a 2 MB import of 5,000 events < 250 ms", imported.first.loop_max_ms, "<", 250],
    ["/openapi.json slowest answer during that import < 500 ms", imported.first.others_max_ms, "<", 500],
    ["longest event-loop block during a 5,000-event feed's first fetch < 250 ms", feedRefresh.loop_max_ms, "<", 250],
  ]
    .filter(([, value]) => value !== undefined)
    .map(([target, value, op, limit]) => ({ target, value, limit, pass: PASSES[op](value, limit) }));

  const rows = cases.map((c) => [
    c.name,
    String(c.requests_per_s),
    c.p50_ms.toFixed(1),
    c.p99_ms.toFixed(1),
    String(c.express_now_per_s ?? express),
    `${Math.round(c.vs_express * 100)}%`,
    c.cpu_us_per_request ? String(c.cpu_us_per_request) : "",
    c.vs_express_cpu ? `${Math.round(c.vs_express_cpu * 100)}%` : "",
  ]);
  printTable(
    ["case", "req/s", "p50 ms", "p99 ms", "Express req/s then", "vs Express", "CPU µs/answer", "vs Express (CPU)"],
    rows,
  );
  const mcp = byName("MCP tools/call");
  if (mcp.mcp_p50_ms !== undefined)
    console.log(`\n1 connection, p50: MCP tools/call ${mcp.mcp_p50_ms} ms, the same REST read ${mcp.rest_p50_ms} ms`);
  console.log(
    [
      `\noccurrences: ${occurrences.median_ms} ms`,
      `occurrence page: ${occurrencePages.first_page_median_ms} ms (later ${occurrencePages.later_page_median_ms} ms)`,
      `feed render: ${feedRender.median_ms} ms`,
      `deployed cold start (bench/deployed-cold-start.mjs): api ${deployed.api.ms} ms, pages ` +
        `${deployed.pages.ms} ms, onRequest hello ${deployed.hello.ms} ms, ` +
        `the hello reading one document ${deployed.firestore_floor.ms} ms`,
      `local start: ${firstAnswer.first_answer_ms} ms (start to first answer, ` +
        `${firstAnswer.first_answer_cpu_ms} ms CPU; node:http hello ${firstAnswer.node_http_hello.ms} ms, ` +
        `Express hello ${firstAnswer.express_hello.ms} ms)`,
      `server RSS: idle ${rss.idle_mb} MB (${rss.settled_mb} MB 12 s later), peak ${rss.peak_mb} MB ` +
        `(idle: V8 heap ${rss.idle.heap_used_mb} of ${rss.idle.heap_total_mb} MB, ` +
        `response cache ${rss.idle.response_cache_mb} MB; at the end ${rss.end.heap_used_mb} of ` +
        `${rss.end.heap_total_mb} MB, cache ${rss.end.response_cache_mb} MB in ${rss.end.response_cache_entries} entries)`,
      `load average now: ${loadavg()[0].toFixed(2)}\n`,
    ].join("   "),
  );
  for (const t of targets) console.log(`${t.pass ? "PASS" : "MISS"}  ${t.target}: ${t.value}`);
  for (const c of cases.filter((c) => c.failed > 0))
    console.log(`WARN  ${c.name}: ${c.failed} requests failed or timed out`);

  const results = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: availableParallelism(),
    cpu_model: cpus()[0]?.model ?? null,
    load_average: { at_start: LOAD_AT_START, at_end: loadavg()[0] },
    connections: CONNECTIONS,
    duration_s: DURATION,
    cases,
    occurrences,
    occurrence_pages: occurrencePages,
    // The baseline of bench/round-trips.mjs --before is kept from the file written last.
    round_trips: { date: new Date().toISOString(), ...roundTrips, before: BASELINE_ROUND_TRIPS },
    feed_render: feedRender,
    deployed_cold_start: deployed,
    first_answer: firstAnswer,
    idle_rss_mb: rss.idle_mb,
    settled_idle_rss_mb: rss.settled_mb,
    peak_rss_mb: rss.peak_mb,
    server_memory: { idle: rss.idle, end: rss.end },
    memory_by_part: memory,
    background_work: background,
    import_at_the_limits: imported,
    feed_first_fetch: feedRefresh,
    targets,
  };
  writeFileSync(join(HERE, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
  console.log("\nmemory of a fresh process, part by part (bench/memory.mjs):");
  console.table(memory);
  console.log("\nstore round trips per request (before: bench/round-trips.mjs --before):\n");
  printRoundTrips(roundTrips, BASELINE_ROUND_TRIPS);
  console.log("\nwrote bench/results.json");
}

/** How much longer the MCP call's p50 is than REST's, on one connection (bench/mcp.mjs). */
const mcpOverRestMs = (c) =>
  c.mcp_p50_ms === undefined ? undefined : Math.round((c.mcp_p50_ms - c.rest_p50_ms) * 100) / 100;

const PASSES = { "<": (v, l) => v < l, "<=": (v, l) => v <= l, ">=": (v, l) => v >= l };
const byNamePrefix = (cases, prefix) => cases.find((c) => c.name.startsWith(prefix));

function printTable(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of rows) console.log(line(r));
}

const LOAD_AT_START = loadavg()[0];
console.log(
  `Almanac bench: ${CONNECTIONS} connections, ${DURATION} s per case, ${availableParallelism()} CPUs, ` +
    `Node ${process.version}, load average ${LOAD_AT_START.toFixed(2)}\n`,
);
const BASELINE_ROUND_TRIPS = (() => {
  try {
    return JSON.parse(readFileSync(join(HERE, "results.json"), "utf8")).round_trips?.before;
  } catch {
    return undefined;
  }
})();
report(await run());
