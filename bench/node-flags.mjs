// The V8 flags `npm start` gives the local server (package.json "start"), so that the benchmarks
// measure the process people run: `--max-semi-space-size=2` keeps the young generation at 2 MB
// a half (V8's default grows it to 16 MB under load), which is 10 to 25 MB of RSS (issue 15,
// docs/ARCHITECTURE.md Performance).
import { readFileSync } from "node:fs";

const start = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).scripts.start;

/** BENCH_NODE_FLAGS="" (or other flags) measures a build from before these flags as it ran then. */
export const SERVER_NODE_FLAGS =
  process.env.BENCH_NODE_FLAGS !== undefined
    ? process.env.BENCH_NODE_FLAGS.split(/\s+/).filter(Boolean)
    : (/node ((?:--[\w-]+(?:=\S+)? )*)functions\/lib\/server\.js/
        .exec(start)?.[1]
        .trim()
        .split(/\s+/)
        .filter(Boolean) ?? []);
