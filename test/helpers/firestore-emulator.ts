/**
 * The Cloud Firestore emulator under the Firestore tests (test/storage, test/rules, test/e2e,
 * test/api/alarm-two-processes.test.ts). `firestoreEmulator()` answers, in order:
 *   1. FIRESTORE_EMULATOR_HOST when it is set (an emulator someone started, e.g. with
 *      `firebase emulators:exec --only firestore`);
 *   2. the emulator this run started: the first test file that asks starts the one that
 *      scripts/firestore-emulator.mjs finds (the Google Cloud CLI's, or firebase-tools' on
 *      Java 21), the others wait for it, and test/helpers/firestore-global-setup.ts stops it when
 *      the run ends (a run without Firestore tests starts none);
 *   3. otherwise `{ skipped }`, saying what to install: the callers skip with that message.
 * Once found, FIRESTORE_EMULATOR_HOST is set in this process (and so in its child processes).
 * Each test file uses projects of its own (`uniqueProject`) and deletes their data when done
 * (`clearProject`): the emulator keeps every project's documents in memory until then.
 */
import { mkdirSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inject } from "vitest";
import { clearProject, findFirestoreEmulator, startFirestoreEmulator } from "../../scripts/firestore-emulator.mjs";

export { clearProject };

export type FirestoreEmulator =
  { host: string; where: string; skipped?: undefined } | { host?: undefined; where?: undefined; skipped: string };

/** FIRESTORE_EMULATOR_HOST as this process started (before a test set it). */
const given = process.env.FIRESTORE_EMULATOR_HOST;
let found: Promise<FirestoreEmulator> | undefined;

/** The emulator for this test file (see the top of this file); logs why when there is none. */
export function firestoreEmulator(): Promise<FirestoreEmulator> {
  return (found ??= locate().then((emulator) => {
    if (emulator.host) process.env.FIRESTORE_EMULATOR_HOST = emulator.host;
    else console.warn(`[firestore] skipped: ${emulator.skipped}`);
    return emulator;
  }));
}

async function locate(): Promise<FirestoreEmulator> {
  if (given) return { host: given, where: `emulator at ${given}` };
  const emulator = findFirestoreEmulator();
  if (emulator.reason !== undefined) return { skipped: emulator.reason };
  const where = (host: string) => `${emulator.kind} at ${host}`;
  const dir = inject("firestoreEmulatorDir");
  if (!dir) {
    // Outside the run's global setup: an emulator for this process alone.
    const started = await startFirestoreEmulator();
    process.once("exit", () => {
      try {
        process.kill(-started.pid, "SIGTERM");
      } catch {
        // gone already
      }
    });
    return { host: started.host, where: where(started.host) };
  }
  const host = join(dir, "host");
  let first = true;
  try {
    mkdirSync(join(dir, "lock"));
  } catch {
    first = false;
  }
  if (first) {
    try {
      const started = await startFirestoreEmulator({
        logFile: join(dir, "emulator.log"),
        onSpawn: (pid) => writeFileSync(join(dir, "pid"), String(pid)),
      });
      writeFileSync(`${host}.tmp`, started.host);
      renameSync(`${host}.tmp`, host);
      return { host: started.host, where: where(started.host) };
    } catch (err) {
      writeFileSync(join(dir, "failed"), String(err));
      throw err;
    }
  }
  // Another test file is starting it.
  const began = Date.now();
  while (!existsSync(host)) {
    if (existsSync(join(dir, "failed"))) throw new Error(readFileSync(join(dir, "failed"), "utf8"));
    if (Date.now() - began > 90_000) throw new Error(`no Firestore emulator after 90 s (see ${dir}/emulator.log)`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const address = readFileSync(host, "utf8");
  return { host: address, where: where(address) };
}

/** A project id no other test uses: `demo-` ids are offline projects for the emulators. */
export const uniqueProject = (label: string) =>
  `demo-almanac-${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
