#!/usr/bin/env node
// npm run emulators: the deployed shape on this machine, without Java. Builds functions/, starts
// the Firestore stand-in (@firestore-emulator/server, a Node implementation of Firestore's
// API; its data lives in memory until you stop), then the Functions, Hosting and Auth emulators
// with FIRESTORE_EMULATOR_HOST pointing the functions at it. Open the Hosting port (5000 in
// firebase.json). Ctrl-C stops everything.
//
//   npm run emulators                          stand-in on firebase.json's firestore port (8080)
//   npm run emulators -- --firestore=emulator  Firebase's own Firestore emulator instead (Java 21)
//   npm run emulators -- <firebase options>    anything else goes to `firebase emulators:start`
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const PROJECT = "demo-almanac";
const args = process.argv.slice(2);
const realFirestore = args.includes("--firestore=emulator");
const passOn = args.filter((a) => a !== "--firestore=emulator");

const emulators = JSON.parse(readFileSync(join(ROOT, "firebase.json"), "utf8")).emulators ?? {};
const hostingPort = emulators.hosting?.port ?? 5000;
const firestorePort = emulators.firestore?.port ?? 8080;

execFileSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });

const env = {
  ...process.env,
  NO_UPDATE_NOTIFIER: "1",
  PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${hostingPort}`,
};
let standIn;
if (realFirestore) {
  // The functions emulator points the functions at the Firestore emulator it starts.
  delete env.FIRESTORE_EMULATOR_HOST;
} else {
  const { FirestoreServer } = await import("@firestore-emulator/server");
  standIn = new FirestoreServer();
  try {
    await standIn.start(firestorePort);
  } catch (err) {
    console.error(
      `Could not start the Firestore stand-in on port ${firestorePort} (${err.message}); ` +
        "free the port or change emulators.firestore.port in firebase.json.",
    );
    process.exit(1);
  }
  env.FIRESTORE_EMULATOR_HOST = `127.0.0.1:${firestorePort}`;
  console.log(`Firestore stand-in (@firestore-emulator/server, in memory) on ${env.FIRESTORE_EMULATOR_HOST}`);
}

const only = realFirestore ? "functions,hosting,auth,firestore" : "functions,hosting,auth";
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

// Ctrl-C reaches the CLI through the terminal's process group; a plain kill is passed on.
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => firebase.kill(signal));
firebase.on("exit", async (code, signal) => {
  await standIn?.stop();
  process.exit(code ?? (signal ? 1 : 0));
});
