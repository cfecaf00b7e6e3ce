// The V8 flags `npm start` gives the local server (package.json "start"), so that the benchmarks
// measure the process people run: `--max-semi-space-size=2` keeps the young generation at 2 MB
// a half (V8's default grows it to 16 MB under load), which is 10 to 25 MB of RSS, and
// `--heap-growing-percent=20` lets the old generation grow to 1.2 times what the last full
// collection kept before the next one (V8 picks 1.1 to 4 times by itself, and under the bench
// kept 90 MB of heap for 30 MB live); a bound on growth, not a ceiling, so a large calendar
// still fits. `--v8-pool-size=1` gives V8 one helper thread (GC, optimizing compiler) instead
// of four: glibc keeps a malloc arena per thread that allocated, 2 to 3 MB each after the
// bench's seeding (issue 15, docs/ARCHITECTURE.md Performance).
import { START_NODE_FLAGS } from "../scripts/start-flags.mjs";

/** BENCH_NODE_FLAGS="" (or other flags) measures a build from before these flags as it ran then. */
export const SERVER_NODE_FLAGS =
  process.env.BENCH_NODE_FLAGS !== undefined
    ? process.env.BENCH_NODE_FLAGS.split(/\s+/).filter(Boolean)
    : START_NODE_FLAGS;
