// The Node and V8 flags `npm start` gives the local server, read from package.json's "start"
// script, where they are written once: the benchmarks (bench/node-flags.mjs) and the build's
// first start (scripts/bundle-server.mjs) run the server with them too.
import { readFileSync } from "node:fs";

const start = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).scripts.start;

export const START_NODE_FLAGS =
  /node ((?:--[\w-]+(?:=\S+)? )*)functions\/dist\/start\.cjs/.exec(start)?.[1].trim().split(/\s+/).filter(Boolean) ??
  [];
