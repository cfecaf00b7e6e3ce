#!/usr/bin/env node
// Background work on the local server (`npm start`'s bundle, in a child process):
//   idle:     20 agents x 20 webhooks x 50 public calendars = 20,000 delivery streams; the idle
//             server's CPU over IDLE_S seconds (default 10), and /openapi.json's p99 meanwhile;
//   fan-out:  one write to a calendar all 400 webhooks follow: until the 400 deliveries arrived,
//             and /openapi.json's p99 during it;
//   fairness: another tenant's 12 changes queued on a receiver that answers after 9 s, then one
//             write of a second tenant: how long until its delivery arrives.
//   npm run build && node bench/background.mjs
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import autocannon from "autocannon";
import { apiClient } from "./api-client.mjs";
import { startServer } from "./server-process.mjs";

const IDLE_S = Number(process.env.IDLE_S ?? 10);
const TICKS = 100; // clock ticks a second (USER_HZ) on Linux

/** CPU seconds the process has used, from /proc (user + system). */
const cpuSeconds = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
};

async function startReceiver(delayMs = 0) {
  const receiver = { received: 0, url: "" };
  const server = createServer((req, res) => {
    req.resume().on("end", () => {
      receiver.received += 1;
      setTimeout(() => res.writeHead(204).end(), delayMs);
    });
  });
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  receiver.url = `http://127.0.0.1:${server.address().port}/hook`;
  receiver.close = () => {
    server.closeAllConnections();
    server.close();
  };
  return receiver;
}

const until = async (test, withinMs) => {
  const started = performance.now();
  while (!test()) {
    if (performance.now() - started > withinMs) throw new Error(`not within ${withinMs} ms`);
    await new Promise((done) => setTimeout(done, 5));
  }
  return Math.round(performance.now() - started);
};

const openapiP99 = async (origin, seconds) => {
  const r = await autocannon({ url: `${origin}/openapi.json`, connections: 4, duration: seconds });
  if (r.non2xx > 0) throw new Error(`/openapi.json: ${r.non2xx} answers were not 200`);
  return r.latency.p99;
};

export async function benchBackground() {
  const dataDir = mkdtempSync(join(tmpdir(), "almanac-background-bench-"));
  const server = await startServer("almanac", {
    DATA_DIR: dataDir,
    RATE_LIMITS: "off",
    WEBHOOKS_ALLOW_LOOPBACK: "on",
  });
  const call = apiClient(server.origin);
  const fast = await startReceiver();
  const slow = await startReceiver(9_000);
  try {
    const owner = await call("POST", "/v1/mint", { body: { name: "Publisher" } });
    const calendars = [owner.calendar.id];
    while (calendars.length < 50) {
      const made = await call("POST", "/v1/calendars", {
        token: owner.token,
        body: { name: `Public ${calendars.length}`, timezone: "UTC", visibility: "public" },
      });
      calendars.push(made.id);
    }
    const setupStarted = performance.now();
    for (let a = 0; a < 20; a++) {
      const agent = await call("POST", "/v1/mint", { body: { name: `Follower ${a}` } });
      await Promise.all(
        Array.from({ length: 20 }, () =>
          call("POST", "/v1/webhooks", { token: agent.token, body: { url: fast.url, calendars } }),
        ),
      );
    }
    const setupS = (performance.now() - setupStarted) / 1000;
    await new Promise((done) => setTimeout(done, 3_000));

    const before = cpuSeconds(server.pid);
    const idleStarted = performance.now();
    await new Promise((done) => setTimeout(done, IDLE_S * 1000));
    const idleCore = (cpuSeconds(server.pid) - before) / ((performance.now() - idleStarted) / 1000);
    const idleP99 = await openapiP99(server.origin, 5);

    fast.received = 0;
    const during = openapiP99(server.origin, 5);
    await call("POST", `/v1/calendars/${calendars[0]}/events`, {
      token: owner.token,
      body: { name: "Fanned out", date: "2027-01-01" },
    });
    const fanOutMs = await until(() => fast.received >= 400, 60_000);
    const fanOutP99 = await during;

    const mallory = await call("POST", "/v1/mint", { body: { name: "Mallory" } });
    const victor = await call("POST", "/v1/mint", { body: { name: "Victor" } });
    const victorHook = await startReceiver();
    await call("POST", "/v1/webhooks", {
      token: mallory.token,
      body: { url: slow.url, calendars: [mallory.calendar.id] },
    });
    await call("POST", "/v1/webhooks", {
      token: victor.token,
      body: { url: victorHook.url, calendars: [victor.calendar.id] },
    });
    for (let i = 0; i < 12; i++)
      await call("POST", `/v1/calendars/${mallory.calendar.id}/events`, {
        token: mallory.token,
        body: { name: `Slow ${i}`, date: "2027-01-01" },
      });
    await until(() => slow.received >= 1, 10_000);
    const written = performance.now();
    await call("POST", `/v1/calendars/${victor.calendar.id}/events`, {
      token: victor.token,
      body: { name: "Victor's", date: "2027-01-01" },
    });
    await until(() => victorHook.received >= 1, 60_000);
    const fairnessMs = Math.round(performance.now() - written);
    victorHook.close();

    return {
      streams: 20 * 20 * calendars.length,
      setup_s: Math.round(setupS * 10) / 10,
      idle_core_percent: Math.round(idleCore * 1000) / 10,
      openapi_p99_idle_ms: idleP99,
      fan_out_400_ms: fanOutMs,
      openapi_p99_during_fan_out_ms: fanOutP99,
      other_tenant_delivery_ms: fairnessMs,
    };
  } finally {
    fast.close();
    slow.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) console.log(await benchBackground());
