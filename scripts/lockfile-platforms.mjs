#!/usr/bin/env node
/**
 * The npm registry this project is built from carries only the Linux builds of some native
 * packages (unrs-resolver's `@unrs/resolver-binding-*`, used by the lint tooling). `npm install`
 * then leaves the other platforms' optional dependencies out of package-lock.json, and
 * `npm ci` refuses the lockfile ("Missing: ... from lock file"). This adds an entry for each
 * missing optional dependency, with the os/cpu/libc its name spells, so that `npm ci` knows
 * it and skips it on any other platform. Run it after an `npm install` that changed the lockfile:
 *   node scripts/lockfile-platforms.mjs          (writes package-lock.json)
 *   node scripts/lockfile-platforms.mjs --check  (exit 1 when an entry is missing)
 */
import { readFileSync, writeFileSync } from "node:fs";

const FILE = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(FILE, "utf8"));
const packages = lock.packages;

const OS = ["android", "darwin", "freebsd", "linux", "openharmony", "win32"];
const CPU = ["arm64", "arm", "x64", "ia32", "loong64", "ppc64", "riscv64", "s390x", "wasm32"];

/** `@scope/pkg-linux-arm-musleabihf` -> {os: ["linux"], cpu: ["arm"], libc: ["musl"]}. */
function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.find((p) => CPU.includes(p));
  if (!cpu) return null;
  const libc = os === "linux" ? (parts.some((p) => p.startsWith("musl")) ? "musl" : "glibc") : null;
  return { ...(os ? { os: [os] } : {}), cpu: [cpu], ...(libc ? { libc: [libc] } : {}) };
}

const missing = [];
for (const [key, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const where = `node_modules/${name}`;
    if (packages[where] || packages[`${key}/${where}`]) continue;
    const platform = platformOf(name);
    if (platform) missing.push({ where, entry: { version, ...platform, dev: entry.dev, optional: true } });
  }
}

if (process.argv.includes("--check")) {
  for (const m of missing) console.error(`package-lock.json lacks ${m.where}: run node scripts/lockfile-platforms.mjs`);
  process.exit(missing.length > 0 ? 1 : 0);
}

// Each added entry goes beside the entries of its scope, in name order; npm's order elsewhere stays.
const scopeOf = (key) => key.slice(0, key.lastIndexOf("/") + 1);
const pending = [...missing].sort((a, b) => (a.where < b.where ? -1 : 1));
const out = {};
const flush = (scope, before) => {
  while (pending.length && scopeOf(pending[0].where) === scope && (before === null || pending[0].where < before)) {
    const { where, entry } = pending.shift();
    out[where] = entry;
  }
};
let previousScope = null;
for (const [key, entry] of Object.entries(packages)) {
  if (previousScope !== null && previousScope !== scopeOf(key)) flush(previousScope, null);
  flush(scopeOf(key), key);
  out[key] = entry;
  previousScope = scopeOf(key);
}
for (const { where, entry } of pending) out[where] = entry;
lock.packages = out;
writeFileSync(FILE, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${missing.length} optional platform entries`);
