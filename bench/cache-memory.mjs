// Memory under unique queries (issue 9): starts the local server in a child process, seeds a
// calendar, records the server's resident set, sends REQUESTS reads of the calendar's events
// each with a unique `category` of VALUE_LENGTH characters, and records it again. Before the
// response cache counted its keys, 40,000 such requests (14 KB values) grew the server from
// 113 MB to 815 MB.
//   npm run build && node bench/cache-memory.mjs
//   REQUESTS=40000 VALUE_LENGTH=900 CONCURRENCY=16 SERVER=functions/dist/server.cjs (another build to compare)
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SERVER = resolve(ROOT, process.env.SERVER ?? "functions/dist/server.cjs");
const REQUESTS = Number(process.env.REQUESTS ?? 40_000);
const VALUE_LENGTH = Number(process.env.VALUE_LENGTH ?? 900);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 16);

const freePort = () =>
  new Promise((done, fail) => {
    const probe = createServer().once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });

/** Resident set (VmRSS) and its peak (VmHWM) of a process, in MB (Linux). */
function memoryMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(status)?.[1]);
  return { rss: Math.round(kb("VmRSS") / 1024), peak: Math.round(kb("VmHWM") / 1024) };
}

async function waitForServer(origin, child) {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      await fetch(`${origin}/openapi.json`);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error("server did not start");
}

async function json(res) {
  const body = await res.json();
  if (res.status !== 200) throw new Error(`${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

async function seed(origin) {
  const minted = await json(
    await fetch(`${origin}/v1/mint`, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": "cache-memory-mint" },
      body: JSON.stringify({ name: "Cache bench", calendar: { name: "Cache bench" } }),
    }),
  );
  const headers = { "content-type": "application/json", authorization: `Bearer ${minted.token}` };
  for (let i = 0; i < 20; i++) {
    await json(
      await fetch(`${origin}/v1/calendars/${minted.calendar.id}/events`, {
        method: "POST",
        headers: { ...headers, "idempotency-key": `cache-memory-${i}` },
        body: JSON.stringify({
          name: `Event ${i}`,
          date: `2027-01-${String(i + 1).padStart(2, "0")}`,
          category: `c${i % 3}`,
        }),
      }),
    );
  }
  return minted.calendar.id;
}

/** The i-th unique category value, VALUE_LENGTH characters. */
const uniqueValue = (i) => `${i}-`.padEnd(VALUE_LENGTH, "x");

async function flood(origin, calendarId) {
  let next = 0;
  let failed = 0;
  const statuses = new Map();
  const worker = async () => {
    while (next < REQUESTS) {
      const i = next++;
      const res = await fetch(`${origin}/v1/calendars/${calendarId}/events?category=${uniqueValue(i)}`);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status !== 200) failed++;
      await res.arrayBuffer();
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { seconds: Math.round((performance.now() - t0) / 100) / 10, failed, statuses: Object.fromEntries(statuses) };
}

const dataDir = mkdtempSync(join(tmpdir(), "almanac-cache-memory-"));
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const child = spawn(process.execPath, [SERVER], {
  env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, RATE_LIMITS: "off" },
  stdio: ["ignore", "ignore", "inherit"],
});
try {
  await waitForServer(origin, child);
  const calendarId = await seed(origin);
  // Warm up the routes the flood uses, so the first figure includes the JIT and the modules.
  for (let i = 0; i < 200; i++)
    await (await fetch(`${origin}/v1/calendars/${calendarId}/events?category=c${i % 3}`)).arrayBuffer();
  const before = memoryMb(child.pid);
  const run = await flood(origin, calendarId);
  const after = memoryMb(child.pid);
  console.log(
    JSON.stringify({
      server: SERVER.replace(ROOT, ""),
      requests: REQUESTS,
      value_length: VALUE_LENGTH,
      concurrency: CONCURRENCY,
      ...run,
      rss_before_mb: before.rss,
      rss_after_mb: after.rss,
      peak_rss_mb: after.peak,
    }),
  );
} finally {
  child.kill("SIGTERM");
  await new Promise((done) => child.once("exit", done));
  rmSync(dataDir, { recursive: true, force: true });
}
