#!/usr/bin/env node
// functions/package-lock.json: the lockfile Cloud Build installs the deployed functions from
// (firebase deploy uploads functions/ alone; with a lockfile the build runs `npm ci`).
//
// functions/ is an npm workspace of the root, so `npm install` writes only the root lockfile.
// This script derives functions' own lockfile from it: in a temporary directory it seeds
// npm with the root lockfile's resolutions and lets `npm install --package-lock-only` keep
// those that functions/package.json needs and drop the rest. The deployed functions thus
// get exactly the versions the tests ran with.
//
//   node scripts/functions-lockfile.mjs           write functions/package-lock.json
//   node scripts/functions-lockfile.mjs --check   exit 1 if it is out of date (no network)
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const FUNCTIONS = join(ROOT, "functions");
const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));

/** The root lockfile turned into a lockfile of functions/ alone, for npm to prune. */
function seedLock(rootLock, manifest) {
  const packages = { "": rootPackageEntry(manifest) };
  for (const [location, entry] of Object.entries(rootLock.packages)) {
    if (!location.startsWith("node_modules/") || entry.link) continue;
    packages[location] = entry;
  }
  // A package the workspace needs in another version than the root sits under functions/node_modules.
  for (const [location, entry] of Object.entries(rootLock.packages)) {
    if (location.startsWith("functions/node_modules/")) packages[location.slice("functions/".length)] = entry;
  }
  return { name: manifest.name, lockfileVersion: 3, requires: true, packages };
}

function rootPackageEntry(manifest) {
  const entry = { name: manifest.name };
  for (const field of ["version", "dependencies", "optionalDependencies", "peerDependencies", "engines"]) {
    if (manifest[field]) entry[field] = manifest[field];
  }
  return entry;
}

/** What npm makes of the seed: functions' dependencies, at the root lockfile's versions. */
function deriveLock() {
  const dir = mkdtempSync(join(tmpdir(), "almanac-functions-lock-"));
  try {
    const manifest = readJson(join(FUNCTIONS, "package.json"));
    writeFileSync(join(dir, "package.json"), JSON.stringify(manifest, null, 2));
    writeFileSync(
      join(dir, "package-lock.json"),
      JSON.stringify(seedLock(readJson(join(ROOT, "package-lock.json")), manifest), null, 2),
    );
    execFileSync(
      "npm",
      [
        "install",
        "--package-lock-only",
        "--ignore-scripts",
        "--no-audit",
        "--no-fund",
        "--prefer-offline",
        "--engine-strict=false",
      ],
      { cwd: dir, stdio: ["ignore", "ignore", "inherit"] },
    );
    return readFileSync(join(dir, "package-lock.json"), "utf8");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Offline: the lockfile names functions/package.json's dependencies, each at a version the root lockfile holds. */
export function lockProblems() {
  const problems = [];
  const manifest = readJson(join(FUNCTIONS, "package.json"));
  let lock;
  try {
    lock = readJson(join(FUNCTIONS, "package-lock.json"));
  } catch {
    return ["functions/package-lock.json is missing"];
  }
  const root = lock.packages?.[""] ?? {};
  for (const field of ["dependencies", "optionalDependencies", "peerDependencies"]) {
    if (JSON.stringify(root[field] ?? {}) !== JSON.stringify(manifest[field] ?? {})) {
      problems.push(`its ${field} differ from functions/package.json`);
    }
  }
  const tested = new Set();
  for (const [location, entry] of Object.entries(readJson(join(ROOT, "package-lock.json")).packages)) {
    if (entry.version) tested.add(`${packageName(location)}@${entry.version}`);
  }
  for (const [location, entry] of Object.entries(lock.packages ?? {})) {
    if (location === "" || entry.link) continue;
    const id = `${packageName(location)}@${entry.version}`;
    if (!tested.has(id)) problems.push(`${id} is not in the root package-lock.json (not what the tests ran with)`);
  }
  return problems;
}

const packageName = (location) => location.slice(location.lastIndexOf("node_modules/") + "node_modules/".length);

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes("--check")) {
    const problems = lockProblems();
    if (problems.length > 0) {
      console.error(
        `functions/package-lock.json is out of date:\n- ${problems.join("\n- ")}\nRun: npm run lock:functions`,
      );
      process.exit(1);
    }
    console.log("functions/package-lock.json matches functions/package.json and the root lockfile");
  } else {
    writeFileSync(join(FUNCTIONS, "package-lock.json"), deriveLock());
    const problems = lockProblems();
    if (problems.length > 0) {
      console.error(`wrote functions/package-lock.json, but:\n- ${problems.join("\n- ")}`);
      process.exit(1);
    }
    console.log("wrote functions/package-lock.json");
  }
}
