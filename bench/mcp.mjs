// The MCP case of the bench (issue 14): `tools/call list_occurrences` over POST /mcp, one
// JSON-RPC request per HTTP request with the bearer token, as an MCP client sends it once
// initialized (the server is stateless), beside the same read over REST
// (`GET /v1/calendars/{id}/occurrences`, a month). bench/run.mjs measures it with the other
// cases; `node bench/mcp.mjs` measures it alone, without touching bench/results.json: the p50
// latency of each on one connection, then each one's req/s at 32 connections as a share of an
// Express hello measured just before it, and the MCP layer alone over a stand-in API answering
// the same bytes. Needs the build, like run.mjs.
//   BENCH_DURATION=10 seconds per case, BENCH_LIB=<dir> as in run.mjs.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { measureAlone, startServer } from "./server-process.mjs";
import { seed } from "./seed.mjs";

/** A month of the read calendar: 200 events, a fifth of them weekly. */
const RANGE = { from: process.env.MCP_FROM ?? "2027-03-01", to: process.env.MCP_TO ?? "2027-03-31" };
/** The throughput cases' load, as the issue states it. */
const CONNECTIONS = 32;

function callMessage(data) {
  return {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "list_occurrences", arguments: { calendarId: data.readCalendarId, ...RANGE } },
  };
}

/** The autocannon options of the case (POST /mcp, JSON answer). */
export function mcpListOccurrences(origin, data) {
  return {
    url: origin,
    requests: [
      {
        method: "POST",
        path: "/mcp",
        headers: {
          authorization: `Bearer ${data.token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-06-18",
        },
        body: JSON.stringify(callMessage(data)),
      },
    ],
  };
}

/** Fails loudly unless the call answers a tool result that is no error, with occurrences in it. */
export async function expectMcpOk(origin, data) {
  const { requests } = mcpListOccurrences(origin, data);
  const res = await fetch(`${origin}/mcp`, { method: "POST", headers: requests[0].headers, body: requests[0].body });
  const text = await res.text();
  const result = res.status === 200 ? JSON.parse(text).result : undefined;
  const answer = result && !result.isError ? JSON.parse(result.content[0].text) : undefined;
  if (!Array.isArray(answer?.occurrences)) {
    throw new Error(`MCP tools/call list_occurrences answered ${res.status}: ${text.slice(0, 300)}`);
  }
}

/** The REST request the tool call makes, for comparison. */
export const restListOccurrences = (origin, data) => ({
  url: `${origin}/v1/calendars/${data.readCalendarId}/occurrences?from=${RANGE.from}&to=${RANGE.to}`,
  headers: { authorization: `Bearer ${data.token}` },
});

/** Requests of each kind on one connection: enough for a steady median, a few seconds in all. */
const LATENCY_SAMPLES = Number(process.env.MCP_LATENCY_SAMPLES ?? 2000);

/**
 * The p50 latency of the MCP call and of the same REST read, in ms, on one keep-alive
 * connection, the two alternating so that the machine's drift hits both alike. Timed here
 * rather than by autocannon, whose latencies are whole milliseconds.
 */
export async function mcpLatencyBesideRest(origin, data, samples = LATENCY_SAMPLES) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const mcp = mcpListOccurrences(origin, data).requests[0];
  const rest = restListOccurrences(origin, data);
  const calls = {
    mcp: () => timed(agent, `${origin}/mcp`, { method: "POST", headers: mcp.headers }, mcp.body),
    rest: () => timed(agent, rest.url, { method: "GET", headers: rest.headers }),
  };
  const times = { mcp: [], rest: [] };
  try {
    for (let i = 0; i < samples / 10; i++) for (const call of Object.values(calls)) await call();
    for (let i = 0; i < samples; i++) for (const [kind, call] of Object.entries(calls)) times[kind].push(await call());
  } finally {
    agent.destroy();
  }
  return { mcp_p50_ms: median(times.mcp), rest_p50_ms: median(times.rest), samples };
}

/** Milliseconds from sending a request to its answer's last byte; anything but 200 fails. */
function timed(agent, url, options, body) {
  return new Promise((done, fail) => {
    const start = performance.now();
    const req = request(url, { ...options, agent }, (res) => {
      res.on("data", () => {});
      res.on("end", () =>
        res.statusCode === 200 ? done(performance.now() - start) : fail(new Error(`${url} answered ${res.statusCode}`)),
      );
    });
    req.on("error", fail);
    req.end(body);
  });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)] * 100) / 100;
};

// Alone: `node bench/mcp.mjs`.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.env.RATE_LIMITS ??= "off";
  const dataDir = mkdtempSync(join(tmpdir(), "almanac-bench-mcp-"));
  const express = await startServer("express");
  const almanac = await startServer("almanac", { DATA_DIR: dataDir });
  let layer;
  try {
    const data = await seed(almanac.origin);
    await expectMcpOk(almanac.origin, data);
    const span = `${RANGE.from} to ${RANGE.to}`;
    const latency = await mcpLatencyBesideRest(almanac.origin, data);
    console.log(
      `1 connection, p50 of ${latency.samples} each: MCP tools/call list_occurrences ${latency.mcp_p50_ms} ms, ` +
        `REST GET occurrences ${latency.rest_p50_ms} ms (${span}): ` +
        `MCP +${(latency.mcp_p50_ms - latency.rest_p50_ms).toFixed(2)} ms`,
    );
    // The MCP layer alone, over the very bytes REST answers: the most the tool call can reach.
    const rest = restListOccurrences(almanac.origin, data);
    const answerFile = join(dataDir, "rest-answer.json");
    writeFileSync(answerFile, Buffer.from(await (await fetch(rest.url, { headers: rest.headers })).arrayBuffer()));
    layer = await startServer("mcp-layer", { MCP_LAYER_ANSWER: answerFile });
    for (const [name, options] of [
      [`REST GET occurrences, ${span} (token)`, rest],
      [`MCP tools/call list_occurrences, ${span} (token)`, mcpListOccurrences(almanac.origin, data)],
      [
        "MCP layer alone: the same call over a stand-in API answering those bytes",
        mcpListOccurrences(layer.origin, data),
      ],
    ]) {
      const baseline = await measureAlone("express hello", { url: `${express.origin}/`, connections: CONNECTIONS });
      const row = await measureAlone(name, { ...options, connections: CONNECTIONS });
      const share = Math.round((row.requests_per_s / baseline.requests_per_s) * 100);
      console.log(
        `${CONNECTIONS} connections, ${name}: ${row.requests_per_s} req/s, p50 ${row.p50_ms} ms, ` +
          `p99 ${row.p99_ms} ms; Express hello just before ${baseline.requests_per_s} req/s: ${share}%`,
      );
    }
  } finally {
    await layer?.stop();
    await almanac.stop();
    await express.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
