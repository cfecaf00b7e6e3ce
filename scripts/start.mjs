#!/usr/bin/env node
// `npm start`: bundles the local server when a source is newer than the bundle (a fresh clone,
// an edit, an `npm install`), then runs functions/dist/server.cjs with NODE_FLAGS. The bundles
// are all it runs from, so the type check (`npm run build`, `npm run typecheck`) is left out.
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const ROOT = join(import.meta.dirname, "..");

/**
 * The V8 flags of the local server, here once: `npm start` and the benchmarks
 * (bench/node-flags.mjs) run it with them. `--max-semi-space-size=2` keeps the young
 * generation at 2 MB a half (V8 grows it to 16 MB under load: 10 to 25 MB of RSS);
 * `--heap-growing-percent=20` lets the old generation grow to 1.2 times what the last full
 * collection kept (V8 picks 1.1 to 4 times, and under the bench kept 90 MB of heap for 30 MB
 * live), a bound on growth, not a ceiling; `--v8-pool-size=1` gives V8 one helper thread
 * instead of four, each of which keeps a glibc malloc arena of 2 to 3 MB.
 */
export const NODE_FLAGS = ["--max-semi-space-size=2", "--heap-growing-percent=20", "--v8-pool-size=1"];

/** What the bundles are made from; hosting/ is served from disk and needs no build. */
const SOURCES = ["functions/src", "web", "scripts/bundle.mjs", "scripts/bundle-web.mjs"];
/** `npm install` rewrites it when node_modules, whose code the bundles carry, changes. */
const INSTALLED = "node_modules/.package-lock.json";
const BUNDLES = ["functions/dist/server.cjs", "functions/lib/web/humans.js"];

/** The newest mtime under a path, directories included (a deleted file changes its directory's). */
function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

function oldestBundle() {
  try {
    return Math.min(...BUNDLES.map((path) => statSync(join(ROOT, path)).mtimeMs));
  } catch {
    return -Infinity; // not built yet
  }
}

export function bundlesAreStale() {
  const inputs = [...SOURCES, INSTALLED].map((path) => {
    try {
      return newest(join(ROOT, path));
    } catch {
      return -Infinity;
    }
  });
  return Math.max(...inputs) > oldestBundle();
}

function bundle() {
  console.log("Bundling the local server (its sources changed since the last bundle)...");
  for (const script of ["scripts/bundle-web.mjs", "scripts/bundle.mjs"]) {
    const { status } = spawnSync(process.execPath, [join(ROOT, script)], { stdio: "inherit" });
    if (status !== 0) process.exit(status ?? 1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  if (bundlesAreStale()) bundle();
  const server = spawn(process.execPath, [...NODE_FLAGS, join(ROOT, "functions/dist/server.cjs")], {
    stdio: "inherit",
  });
  // Ctrl-C reaches the server directly (one process group); a signal sent to this process alone
  // is passed on. The server stops once, however many it gets.
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
  server.on("exit", (code) => process.exit(code ?? 1));
}
