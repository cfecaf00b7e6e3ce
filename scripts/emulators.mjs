#!/usr/bin/env node
// npm run emulators: the deployed shape on this machine. Builds functions/, starts the Cloud
// Firestore emulator on firebase.json's firestore port (8080) (scripts/firestore-emulator.mjs:
// the Google Cloud CLI's, or firebase-tools' on Java 21; its data lives in memory until you
// stop), then the Functions, Hosting and Auth emulators with FIRESTORE_EMULATOR_HOST pointing
// the functions at it. Open the Hosting port (5000 in firebase.json). Ctrl-C stops everything.
//
//   npm run emulators                          the Firestore emulator on firebase.json's port
//   FIRESTORE_EMULATOR_HOST=host:port npm run emulators   a Firestore emulator already running
//   npm run emulators -- <firebase options>    anything else goes to `firebase emulators:start`
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { findFirestoreEmulator, startFirestoreEmulator } from "./firestore-emulator.mjs";

const ROOT = join(import.meta.dirname, "..");
const PROJECT = "demo-almanac";
const passOn = process.argv.slice(2);

const emulators = JSON.parse(readFileSync(join(ROOT, "firebase.json"), "utf8")).emulators ?? {};
const hostingPort = emulators.hosting?.port ?? 5000;
const firestorePort = emulators.firestore?.port ?? 8080;

const found = findFirestoreEmulator();
if (!process.env.FIRESTORE_EMULATOR_HOST && found.reason) {
  console.error(`Cannot start Firestore: ${found.reason}.`);
  process.exit(1);
}

execFileSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });

const env = {
  ...process.env,
  NO_UPDATE_NOTIFIER: "1",
  PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${hostingPort}`,
};
let firestore;
if (!env.FIRESTORE_EMULATOR_HOST) {
  try {
    firestore = await startFirestoreEmulator({ port: firestorePort });
  } catch (err) {
    console.error(
      `Could not start ${found.kind} on port ${firestorePort}: ${err.message}\n` +
        "Free the port or change emulators.firestore.port in firebase.json.",
    );
    process.exit(1);
  }
  env.FIRESTORE_EMULATOR_HOST = firestore.host;
  console.log(`${found.kind} on ${firestore.host} (its log: ${firestore.logFile})`);
} else {
  console.log(`Firestore: the emulator at ${env.FIRESTORE_EMULATOR_HOST}`);
}

const only = "functions,hosting,auth";
console.log(`Starting the ${only} emulators; open http://127.0.0.1:${hostingPort} (API under /v1)`);
const firebase = spawn(
  join(ROOT, "node_modules/.bin/firebase"),
  ["emulators:start", "--only", only, "--project", PROJECT, ...passOn],
  {
    cwd: ROOT,
    env,
    stdio: "inherit",
  },
);

// Ctrl-C reaches the CLI through the terminal's process group; a plain kill is passed on. The
// Firestore emulator runs in a process group of its own: stopped when the CLI is done.
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => firebase.kill(signal));
firebase.on("exit", async (code, signal) => {
  await firestore?.stop();
  process.exit(code ?? (signal ? 1 : 0));
});
