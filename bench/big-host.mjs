// Issue 9's host over HTTP: 20 public layers × 1,000 daily series (plus the host), written
// straight into the local server's store, then the requests that used to run away: a year of
// occurrences (first and second page), a month page, a schedule page, and both feeds. Prints
// the time of each (first, uncached request) and the server's resident set after them.
// Before paging and budgets, the occurrences request ran 49 s, grew to 2.8 GB and ended in a
// 500; the month page drew 840,000 occurrences.
//   npm run build && node bench/big-host.mjs            (LAYERS=20 SERIES=1000)
import { fork } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const LAYERS = Number(process.env.LAYERS ?? 20);
const SERIES = Number(process.env.SERIES ?? 1000);

if (process.argv[2] === "server") {
  // Child: the local server on a fresh data dir, seeded through its own store.
  const lib = new URL("../functions/lib/", import.meta.url).href;
  const { startLocalServer } = await import(`${lib}server.js`);
  const { newId } = await import(`${lib}domain/ids.js`);
  const { paths } = await import(`${lib}domain/paths.js`);
  const { deps, server } = await startLocalServer({ port: 0, dataDir: process.env.DATA_DIR, log: () => {} });
  const origin = `http://127.0.0.1:${server.address().port}`;
  const post = async (path, body, token, key) => {
    const res = await fetch(`${origin}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "idempotency-key": key,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });
    const json = await res.json();
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const minted = await post("/v1/mint", { name: "Seeder" }, null, "big-mint");
  const host = await post(
    "/v1/calendars",
    { name: "Big host", slug: "big-host", visibility: "public" },
    minted.token,
    "big-host",
  );
  const view = await post(`/v1/calendars/${host.id}/views`, { name: "Everything" }, minted.token, "big-view");
  const pad = (n) => String(n).padStart(2, "0");
  const now = new Date().toISOString();
  for (let l = 0; l < LAYERS; l++) {
    const layer = await post(
      "/v1/calendars",
      { name: `Layer ${l}`, visibility: "public" },
      minted.token,
      `big-layer-${l}`,
    );
    await deps.store.runTransaction(async (tx) => {
      for (let i = 0; i < SERIES; i++) {
        const id = newId("evt");
        const timed = i % 7 !== 0;
        tx.set(paths.event(layer.id, id), {
          id,
          calendar_id: layer.id,
          kind: "recurring",
          name: `Series ${l}.${i}`,
          date: null,
          recur: { type: "daily", starts: "2026-01-01" },
          start_time: timed ? `${pad(i % 24)}:${pad((i * 7) % 60)}` : null,
          end_time: null,
          category: `c${i % 5}`,
          notes: null,
          art: null,
          created_by: { id: minted.agent.id, name: "Big host" },
          created_at: now,
          updated_at: now,
        });
      }
    });
    await post(
      `/v1/calendars/${host.id}/layers`,
      { calendar_id: layer.id, key: `l${l}` },
      minted.token,
      `big-attach-${l}`,
    );
  }
  process.send({ origin, hostId: host.id, viewSlug: view.slug });
} else {
  const dataDir = mkdtempSync(join(tmpdir(), "almanac-big-host-"));
  const child = fork(fileURLToPath(import.meta.url), ["server"], {
    env: { ...process.env, DATA_DIR: dataDir, RATE_LIMITS: "off" },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  try {
    const t0 = performance.now();
    const { origin, hostId, viewSlug } = await new Promise((done, fail) => {
      child.once("message", done);
      child.once("exit", (code) => fail(new Error(`server exited with ${code}`)));
    });
    console.log(
      `seeded ${LAYERS} layers × ${SERIES} daily series in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const results = [];
    const timed = async (name, path) => {
      const start = performance.now();
      const res = await fetch(`${origin}${path}`);
      const body = Buffer.from(await res.arrayBuffer());
      const ms = Math.round(performance.now() - start);
      if (res.status !== 200) throw new Error(`${name}: ${res.status} ${body.toString().slice(0, 200)}`);
      results.push({ name, ms, kb: Math.round(body.length / 1024) });
      return body;
    };
    const occurrences = `/v1/calendars/${hostId}/occurrences?from=2026-01-01&to=2026-12-31`;
    const first = JSON.parse(await timed("occurrences, a year, first page", occurrences));
    await timed("occurrences, second page", `${occurrences}&cursor=${encodeURIComponent(first.next_cursor)}`);
    await timed("month page", "/c/big-host?view=month&date=2026-03-15");
    await timed("schedule page", "/c/big-host?view=schedule&date=2026-03-01");
    await timed("view page", `/v/${viewSlug}?view=month&date=2026-03-15`);
    await timed("calendar feed", "/c/big-host.ics");
    await timed("view feed", `/v/${viewSlug}.ics`);
    const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
    const mb = (field) => Math.round(Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(status)[1]) / 1024);
    for (const r of results)
      console.log(`${r.name.padEnd(34)} ${String(r.ms).padStart(6)} ms ${String(r.kb).padStart(6)} KB`);
    console.log(`server RSS ${mb("VmRSS")} MB, peak ${mb("VmHWM")} MB`);
  } finally {
    child.kill("SIGTERM");
    await new Promise((done) => child.once("exit", done));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
