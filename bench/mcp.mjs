// The MCP case of the bench (issue 14): `tools/call list_occurrences` over POST /mcp, one
// JSON-RPC request per HTTP request with the bearer token, as an MCP client sends it once
// initialized (the server is stateless). bench/run.mjs measures it beside the other cases;
// `node bench/mcp.mjs` measures it alone (with an adjacent Express baseline and the same
// read over REST, and the MCP layer alone over a stand-in API answering the same bytes),
// without touching bench/results.json. Needs the build, like run.mjs.
//   BENCH_DURATION=10 seconds per case, BENCH_CONNECTIONS=32, BENCH_LIB=<dir> as in run.mjs.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { measureAlone, startServer } from "./server-process.mjs";
import { seed } from "./seed.mjs";

/** A month of the read calendar: 200 events, a fifth of them weekly. */
const RANGE = { from: process.env.MCP_FROM ?? "2027-03-01", to: process.env.MCP_TO ?? "2027-03-31" };

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
    // The MCP layer alone, over the very bytes REST answers: the most the tool call can reach.
    const rest = restListOccurrences(almanac.origin, data);
    const answerFile = join(dataDir, "rest-answer.json");
    writeFileSync(answerFile, Buffer.from(await (await fetch(rest.url, { headers: rest.headers })).arrayBuffer()));
    layer = await startServer("mcp-layer", { MCP_LAYER_ANSWER: answerFile });
    const rows = [];
    const span = `${RANGE.from} to ${RANGE.to}`;
    for (const [name, options] of [
      [`REST GET occurrences, ${span} (token)`, rest],
      [`MCP tools/call list_occurrences, ${span} (token)`, mcpListOccurrences(almanac.origin, data)],
      [
        "MCP layer alone: the same call over a stand-in API answering those bytes",
        mcpListOccurrences(layer.origin, data),
      ],
    ]) {
      const baseline = await measureAlone("express hello", { url: `${express.origin}/` });
      const row = await measureAlone(name, options);
      rows.push({ ...row, express_now_per_s: baseline.requests_per_s });
    }
    for (const r of rows) {
      const share = Math.round((r.requests_per_s / r.express_now_per_s) * 100);
      console.log(
        `${r.name}: ${r.requests_per_s} req/s, p50 ${r.p50_ms} ms, p99 ${r.p99_ms} ms; ` +
          `Express hello then ${r.express_now_per_s} req/s: ${share}%`,
      );
    }
  } finally {
    await layer?.stop();
    await almanac.stop();
    await express.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
