// Where a start of `npm start`'s server goes, stage by stage: medians of RUNS starts of
// functions/dist/server.cjs with npm start's flags and the bench/start-marks.cjs preload, each on
// a fresh data directory and asked every 2 ms, as bench/cold-start.mjs asks. After npm run build.
//   node bench/start-stages.mjs   (RUNS=7)
import { startOnce } from "./cold-start.mjs";
import { SERVER_NODE_FLAGS } from "./node-flags.mjs";

const RUNS = Number(process.env.RUNS ?? 7);

async function stages() {
  const args = ["--require", "./bench/start-marks.cjs", ...SERVER_NODE_FLAGS, "functions/dist/server.cjs"];
  const { ms: total, stderr } = await startOnce(process.execPath, args);
  const m = JSON.parse(stderr.split("\n").find((line) => line.startsWith("{")));
  return {
    "in all (spawn to answer)": total,
    "Node's start, to the preload": m.entry,
    "reading the bundle": m.compileStart - m.entry,
    "compiling it, its top level": m.evaluated - m.compileStart,
    "opening the store, listening": m.listening - m.evaluated,
    "waiting for the client": m.request - m.listening,
    "the first request": m.answered - m.request,
  };
}

const samples = [];
for (let i = 0; i < RUNS; i++) samples.push(await stages());
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
for (const stage of Object.keys(samples.at(-1))) {
  const values = samples.map((s) => s[stage]).filter((v) => v !== undefined);
  console.log(`${stage.padEnd(36)} ${String(Math.round(median(values))).padStart(4)} ms`);
}
