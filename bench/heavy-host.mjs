// The attacker's host: a public calendar with 20 public layers of 1,000 events each (one-offs
// over the year and weekly series), every event with 10,000 characters of notes (Markdown with
// links and lists, its own text): 21,000 writes, within the quotas. Then, anonymously and with the default rate limits:
//   1. each expensive read once, uncached: its time, size, the server's RSS growth and the
//      longest stretch it held the event loop;
//   2. 16 such reads at once (distinct, so none is cached) while /openapi.json is asked every
//      20 ms: its p99 must stay under 200 ms;
//   3. one POST /mcp with a JSON-RPC batch of 100 list_occurrences calls: refused, and the
//      server still answers.
// Kept out of CI (a minute of seeding):
//   npm run build && node bench/heavy-host.mjs            (LAYERS=20 EVENTS=1000 NOTES=10000)
import { fork } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { answerLoopDelay, loopDelayOf } from "./loop-delay.mjs";

const LAYERS = Number(process.env.LAYERS ?? 20);
const EVENTS = Number(process.env.EVENTS ?? 1000);
const NOTES = Number(process.env.NOTES ?? 10_000);

if (process.argv[2] === "server") await serve();
else await measure();

/** Child: the local server on a fresh data dir, its layers' events written through its own store. */
async function serve() {
  const lib = new URL("../functions/lib/", import.meta.url).href;
  const { startLocalServer } = await import(`${lib}server.js`);
  const { newId } = await import(`${lib}domain/ids.js`);
  const { paths } = await import(`${lib}domain/paths.js`);
  const { storedEvent } = await import(`${lib}domain/events/stored.js`);
  const { deps, server } = await startLocalServer({ port: 0, dataDir: process.env.DATA_DIR, log: () => {} });
  const origin = `http://127.0.0.1:${server.address().port}`;
  const post = async (path, body, token, key) => {
    const res = await fetch(`${origin}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": key, authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    const json = await res.json();
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const minted = await (
    await fetch(`${origin}/v1/mint`, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": "heavy-mint" },
      body: JSON.stringify({ name: "Heavy" }),
    })
  ).json();
  const host = await post(
    "/v1/calendars",
    { name: "Heavy host", slug: "heavy-host", visibility: "public" },
    minted.token,
    "host",
  );
  const view = await post(
    `/v1/calendars/${host.id}/views`,
    { name: "Public part", filter: { categories: ["c1", "c2"] } },
    minted.token,
    "view",
  );
  // Markdown with links and lists, a different text per event (a page cannot reuse one rendering).
  const body = "**Agenda** with [a link](https://example.com/agenda) and a list:\n\n- one\n- two\n\n";
  const notesOf = (l, i) => `Event ${l}-${i}. ${body.repeat(Math.ceil(NOTES / body.length))}`.slice(0, NOTES);
  const pad = (n) => String(n).padStart(2, "0");
  const now = new Date().toISOString();
  for (let l = 0; l < LAYERS; l++) {
    const layer = await post("/v1/calendars", { name: `Layer ${l}`, visibility: "public" }, minted.token, `layer-${l}`);
    await deps.store.runTransaction(async (tx) => {
      for (let i = 0; i < EVENTS; i++) {
        const id = newId("evt");
        const series = i % 5 === 0;
        const day = (i * 7 + l) % 365;
        const date = new Date(Date.UTC(2026, 0, 1 + day)).toISOString().slice(0, 10);
        const event = {
          id,
          calendar_id: layer.id,
          kind: series ? "recurring" : "one-off",
          name: `Event ${l}.${i}`,
          date: series ? null : date,
          recur: series
            ? {
                type: "weekly",
                day: new Date(`${date}T00:00:00Z`).getUTCDay() || 7,
                starts: date,
                ...(i % 10 === 0 ? { count: 20 } : {}),
              }
            : null,
          start_time: `${pad(8 + (i % 10))}:${pad((i * 5) % 60)}`,
          end_time: `${pad(9 + (i % 10))}:00`,
          category: `c${i % 4}`,
          notes: notesOf(l, i),
          art: null,
          created_by: { id: minted.agent.id, name: "Heavy" },
          created_at: now,
          updated_at: now,
        };
        tx.set(paths.event(layer.id, id), storedEvent(event, layer));
      }
    });
    await post(`/v1/calendars/${host.id}/layers`, { calendar_id: layer.id, key: `l${l}` }, minted.token, `attach-${l}`);
  }
  answerLoopDelay();
  process.on("SIGTERM", () => process.exit(0)); // so that --cpu-prof (PROFILE_DIR) writes its profile
  process.send({ origin, hostId: host.id, viewSlug: view.slug });
}

async function measure() {
  const dataDir = mkdtempSync(join(tmpdir(), "almanac-heavy-host-"));
  const child = fork(fileURLToPath(import.meta.url), ["server"], {
    execArgv: process.env.PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.PROFILE_DIR}`] : [],
    env: { ...process.env, DATA_DIR: dataDir },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const loopMaxMs = loopDelayOf(child);
  const rssMb = () => {
    const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
    return Math.round(Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)[1]) / 1024);
  };
  try {
    const t0 = performance.now();
    const { origin, hostId, viewSlug } = await new Promise((done, fail) => {
      child.once("message", done);
      child.once("exit", (code) => fail(new Error(`server exited with ${code}`)));
    });
    const seeded = ((performance.now() - t0) / 1000).toFixed(1);
    console.log(`seeded ${LAYERS} layers × ${EVENTS} events, ${NOTES} characters of notes each, in ${seeded} s`);

    const reads = (month) => {
      const from = `2026-${month}-01`;
      const to = `2026-${month}-28`;
      const host = `calendars=${hostId}&from=${from}&to=${to}`;
      return [
        ["occurrences, 4 weeks", `/v1/calendars/${hostId}/occurrences?from=${from}&to=${to}`],
        ["free/busy, 4 weeks", `/v1/freebusy?${host}`],
        ["slots, 4 weeks", `/v1/freebusy/slots?${host}&minutes=30`],
        ["month page", `/c/heavy-host?view=month&date=2026-${month}-15`],
        ["schedule page", `/c/heavy-host?view=schedule&date=${from}`],
        ["view page", `/v/${viewSlug}?view=month&date=2026-${month}-15`],
      ];
    };
    const once = [
      ...reads("12"),
      ["occurrences, a year", `/v1/calendars/${hostId}/occurrences?from=2026-01-01&to=2026-12-31`],
      ["calendar feed", "/c/heavy-host.ics"],
      ["view feed", `/v/${viewSlug}.ics`],
    ];
    // One read of each kind on another month first: the table measures reads, not the first
    // load of the code they run (bench/cold-start.mjs measures that).
    for (const [, path] of reads("06")) await (await fetch(`${origin}${path}`)).arrayBuffer();
    console.log("\n1. Each anonymous read once, uncached (the code loaded by a read of another month)");
    console.log("| read | status | ms | KB | RSS before → after (MB) | longest event-loop block (ms) |");
    console.log("|---|---|---|---|---|---|");
    for (const [name, path] of once) {
      await loopMaxMs();
      const before = rssMb();
      const start = performance.now();
      const res = await fetch(`${origin}${path}`);
      const body = Buffer.from(await res.arrayBuffer());
      const ms = Math.round(performance.now() - start);
      const kb = Math.round(body.length / 1024);
      console.log(`| ${name} | ${res.status} | ${ms} | ${kb} | ${before} → ${rssMb()} | ${await loopMaxMs()} |`);
    }

    console.log("\n2. 16 uncached reads at once, /openapi.json every 20 ms");
    const openapi = [];
    let running = true;
    const sampler = (async () => {
      while (running) {
        const start = performance.now();
        await (await fetch(`${origin}/openapi.json`)).arrayBuffer();
        openapi.push(performance.now() - start);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const months = ["02", "03", "04", "05", "07", "08", "09", "10"];
    const burst = months.flatMap((m) => reads(m).slice(0, 2)).slice(0, 16);
    const statuses = new Map();
    const started = performance.now();
    await Promise.all(
      burst.map(async ([, path]) => {
        const res = await fetch(`${origin}${path}`);
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }),
    );
    const burstMs = Math.round(performance.now() - started);
    running = false;
    await sampler;
    openapi.sort((a, b) => a - b);
    const p = (q) => Math.round(openapi[Math.min(openapi.length - 1, Math.floor(q * openapi.length))]);
    const answered = [...statuses].map(([s, n]) => `${n} × ${s}`).join(", ");
    console.log(
      `burst: ${answered} in ${burstMs} ms; /openapi.json ${openapi.length} samples, p50 ${p(0.5)} ms, p99 ${p(0.99)} ms, max ${p(1)} ms`,
    );

    console.log("\n3. A JSON-RPC batch of 100 list_occurrences calls on /mcp/public");
    const batch = Array.from({ length: 100 }, (_, i) => ({
      jsonrpc: "2.0",
      id: i + 1,
      method: "tools/call",
      params: { name: "list_occurrences", arguments: { calendarId: hostId, from: "2026-01-01", to: "2026-12-31" } },
    }));
    const before = rssMb();
    // Without a token: /mcp/public (/mcp answers a tokenless request 401 before reading it).
    const mcp = await fetch(`${origin}/mcp/public`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify(batch),
    });
    const answer = await mcp.text();
    const alive = await fetch(`${origin}/openapi.json`)
      .then((r) => r.status)
      .catch(() => "dead");
    console.log(
      `batch: HTTP ${mcp.status}, ${answer.length} bytes (${answer.slice(0, 120)}); RSS ${before} → ${rssMb()} MB; server then: ${alive}`,
    );
  } finally {
    child.kill("SIGTERM");
    await new Promise((done) => child.once("exit", done));
    if (process.env.KEEP_DATA) console.log(`data kept in ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
}
