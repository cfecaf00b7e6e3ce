// Where a start of `npm start`'s server goes, stage by stage: medians of RUNS starts of
// functions/dist/start.cjs with npm start's flags and the bench/start-marks.cjs preload, each on
// a fresh data directory and asked every 2 ms, as bench/cold-start.mjs asks. After npm run build.
//   node bench/start-stages.mjs   (RUNS=7)
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "./cold-start.mjs";
import { SERVER_NODE_FLAGS } from "./node-flags.mjs";

const RUNS = Number(process.env.RUNS ?? 7);
const REPO = fileURLToPath(new URL("..", import.meta.url));

async function startOnce() {
  const [port, dataDir] = [await freePort(), mkdtempSync(join(tmpdir(), "almanac-stages-"))];
  const t0 = performance.now();
  const args = ["--require", "./bench/start-marks.cjs", ...SERVER_NODE_FLAGS, "functions/dist/start.cjs"];
  const env = { ...process.env, PORT: String(port), DATA_DIR: dataDir, ALMANAC_AUTH_EMULATOR: "off" };
  const child = spawn(process.execPath, args, { cwd: REPO, env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  for (;;) {
    try {
      await (await fetch(`http://127.0.0.1:${port}/v1/me`)).arrayBuffer();
      break;
    } catch {
      await new Promise((done) => setTimeout(done, 2));
    }
  }
  const total = performance.now() - t0;
  // The marks are written as the response finishes; give the pipe a moment.
  await new Promise((done) => setTimeout(done, 30));
  child.kill("SIGTERM");
  await new Promise((done) => child.once("exit", done));
  rmSync(dataDir, { recursive: true, force: true });
  const m = JSON.parse(stderr.split("\n").find((line) => line.startsWith("{")));
  return {
    "in all (spawn to answer)": total,
    "Node's start, to start.cjs": m.entry,
    "reading the bundle and its cache": m.compileStart - m.entry,
    [`compiling (${m.cacheUsed ? "from the cache" : "no cache"})`]: m.compiled - m.compileStart,
    "the bundle's top level": m.evaluated - m.compiled,
    "opening the store, listening": m.listening - m.evaluated,
    "waiting for the client": m.request - m.listening,
    "the first request": m.answered - m.request,
  };
}

const samples = [];
for (let i = 0; i < RUNS; i++) samples.push(await startOnce());
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
for (const stage of Object.keys(samples.at(-1))) {
  const values = samples.map((s) => s[stage]).filter((v) => v !== undefined);
  console.log(`${stage.padEnd(36)} ${String(Math.round(median(values))).padStart(4)} ms`);
}
