// Cold start as a person meets it (issue 15): `node functions/dist/server.cjs` (what `npm start`
// runs, after the build) from process start to the first answered request, and the memory of
// that fresh process. Median of RUNS fresh processes, each on a fresh data directory.
//   node bench/cold-start.mjs   (after npm run build; BENCH_LIB=<dir> for another build)
// The Firebase Auth emulator that `npm start` starts beside the server (local-auth.ts) is off
// here: it is a separate process of firebase-tools, not the server's start.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SERVER_NODE_FLAGS } from "./node-flags.mjs";

const RUNS = 7;
const REPO = new URL("..", import.meta.url).pathname;
const DIST = new URL("../functions/dist", import.meta.url).pathname;
/** What `npm start` runs, or server.js of another build (BENCH_LIB=functions/lib, say). */
const ENTRY = process.env.BENCH_LIB ? join(process.env.BENCH_LIB, "server.js") : join(DIST, "server.cjs");

export async function freePort() {
  const server = createServer();
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address();
  await new Promise((done) => server.close(done));
  return port;
}

/** Resident set of a process now, in MB (Linux). */
export function rssMb(pid, field = "VmRSS") {
  const kb = Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);
  return Math.round(kb / 1024);
}

/**
 * CPU time a process has used so far, in ms (Linux, /proc/{pid}/stat utime + stime): on a
 * machine shared with other work, steadier than the wall-clock time.
 */
export function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * (1000 / CLOCK_TICKS);
}
const CLOCK_TICKS = 100;

/**
 * Spawns `command`, then asks `url` every 2 ms until it answers (any status): milliseconds
 * from the spawn to that answer, the process's CPU time and RSS then, and what it wrote to
 * stderr until it stopped. Stops the process.
 */
export async function timeToFirstAnswer(command, args, env, url, init) {
  const t0 = performance.now();
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
    cwd: REPO,
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  // "close": the process has exited and its stderr is read to the end.
  const closed = new Promise((done) => child.once("close", done));
  let failed = false;
  void closed.then(() => (failed = true));
  let answer;
  try {
    while (!answer) {
      if (failed) throw new Error(`${command} ${args.join(" ")} exited before answering`);
      try {
        const res = await fetch(url, init);
        await res.arrayBuffer();
        const ms = performance.now() - t0;
        answer = { ms, cpu_ms: cpuMs(child.pid), rss_mb: rssMb(child.pid), status: res.status };
      } catch {
        await new Promise((done) => setTimeout(done, 2));
      }
    }
  } finally {
    child.kill("SIGTERM");
    await closed;
  }
  return { ...answer, stderr };
}

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

/**
 * Baselines started and asked the same way in the same run, since this machine's speed drifts:
 * a bare node:http server and an Express app, each answering the same path.
 */
const BASELINES = {
  node: `import { createServer } from "node:http";
createServer((_req, res) => res.end("{}")).listen(Number(process.env.PORT), "127.0.0.1");`,
  express: `import express from "express";
express().get("/v1/me", (_req, res) => res.status(401).json({})).listen(Number(process.env.PORT), "127.0.0.1");`,
};

/** One fresh process on a fresh data directory, asked `GET /v1/me` until it answers. */
export async function startOnce(command, args) {
  const dataDir = mkdtempSync(join(tmpdir(), "almanac-cold-"));
  const port = await freePort();
  try {
    const env = { PORT: String(port), DATA_DIR: dataDir, ALMANAC_AUTH_EMULATOR: "off" };
    return await timeToFirstAnswer(command, args, env, `http://127.0.0.1:${port}/v1/me`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const medians = (samples) => ({
  ms: Math.round(median(samples.map((s) => s.ms))),
  cpu_ms: median(samples.map((s) => s.cpu_ms)),
  rss_mb: median(samples.map((s) => s.rss_mb)),
});

/**
 * Process start to the first answer of `GET /v1/me` (401 without a token: the API answering),
 * medians of `runs` fresh processes, beside the two baselines, started in turn (Almanac, node,
 * Express, Almanac, ...) so that a slower minute on this shared machine falls on all three.
 */
export async function benchColdStart(runs = RUNS) {
  const starts = {
    almanac: [process.execPath, [...SERVER_NODE_FLAGS, ENTRY]],
    node: [process.execPath, ["--input-type=module", "-e", BASELINES.node]],
    express: [process.execPath, ["--input-type=module", "-e", BASELINES.express]],
  };
  const samples = { almanac: [], node: [], express: [] };
  for (let i = 0; i < runs; i++) {
    for (const [name, [command, args]] of Object.entries(starts)) samples[name].push(await startOnce(command, args));
  }
  const [almanac, node, express] = [medians(samples.almanac), medians(samples.node), medians(samples.express)];
  return {
    first_answer_ms: almanac.ms,
    first_answer_cpu_ms: almanac.cpu_ms,
    rss_after_first_answer_mb: almanac.rss_mb,
    node_http_hello: node,
    express_hello: express,
    runs,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchColdStart());
