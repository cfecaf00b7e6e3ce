// The V8 flags the benchmarks give the local server: npm start's (scripts/start.mjs says why),
// so that they measure the process people run.
import { NODE_FLAGS } from "../scripts/start.mjs";

/** BENCH_NODE_FLAGS="" (or other flags) measures a build from before these flags as it ran then. */
export const SERVER_NODE_FLAGS =
  process.env.BENCH_NODE_FLAGS !== undefined ? process.env.BENCH_NODE_FLAGS.split(/\s+/).filter(Boolean) : NODE_FLAGS;
