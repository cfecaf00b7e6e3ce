// The servers of the benchmarks, each in a child process of its own (`bench/servers.mjs <kind>`),
// and the measurement the stand-alone cases (bench/mcp.mjs, bench/freebusy.mjs) share.
import { fork } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { SERVER_NODE_FLAGS } from "./node-flags.mjs";

const HERE = fileURLToPath(new URL(".", import.meta.url));

/** Starts `bench/servers.mjs <kind>` in a child process and waits for its port. */
export async function startServer(kind, env = {}) {
  const child = fork(join(HERE, "servers.mjs"), [kind], {
    // The local server runs with the flags `npm start` gives it.
    execArgv: kind === "almanac" ? SERVER_NODE_FLAGS : [],
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const port = await new Promise((done, fail) => {
    child.once("message", (m) => done(m.port));
    child.once("exit", (code) => fail(new Error(`${kind} server exited with ${code} before listening`)));
  });
  const stopped = new Promise((done) => child.once("exit", done));
  return {
    origin: `http://127.0.0.1:${port}`,
    pid: child.pid,
    /** V8's heap and the response cache of the server, in MB (servers.mjs answers). */
    memory: async () => {
      const answer = new Promise((done) => child.on("message", (m) => m.memory && done(m)));
      child.send({ memory: true });
      const { memory, cache } = await answer;
      const mb = (bytes) => Math.round((bytes / 1048576) * 10) / 10;
      return {
        heap_total_mb: mb(memory.heapTotal),
        heap_used_mb: mb(memory.heapUsed),
        response_cache_mb: cache ? mb(cache.bytes) : null,
        response_cache_entries: cache?.entries ?? null,
      };
    },
    stop: async () => {
      child.kill("SIGTERM");
      await stopped;
    },
  };
}

/**
 * A stand-alone case: 2 s of warm-up, then BENCH_DURATION seconds (default 10) at
 * BENCH_CONNECTIONS (default 32); any answer but 200 fails it.
 */
export async function measureAlone(name, options) {
  const duration = Number(process.env.BENCH_DURATION ?? 10);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
  await autocannon({ connections, ...options, duration: Math.min(2, duration) });
  const r = await autocannon({ connections, ...options, duration });
  if (r.non2xx > 0) throw new Error(`${name}: ${r.non2xx} answers were not 200`);
  return { name, requests_per_s: Math.round(r.requests.average), p50_ms: r.latency.p50, p99_ms: r.latency.p99 };
}
