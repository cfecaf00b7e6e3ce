/**
 * The Pub/Sub emulator that firebase-tools can start beside the Functions emulator
 * (`firebase emulators:exec --only functions,pubsub`), and the line the end-to-end test prints
 * about how its scheduled functions run (docs/e2e.md#the-scheduled-functions).
 * firebase-tools starts its own download (`npx firebase setup:emulators:pubsub`) when it is there,
 * or the binary named by PUBSUB_EMULATOR_BINARY_PATH (its override, read by `getDownloadDetails`
 * in lib/emulator/downloadableEmulators.js): the Google Cloud CLI's emulator, which runs on Java 17.
 * The CLI's Java 21 check covers only the emulators it starts with `java -jar`, not this one.
 */
import { execFileSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { delimiter, dirname, join } from "node:path";

export type PubsubEmulator =
  | { where: string; binaryPath?: string; skipped?: undefined }
  | { where?: undefined; binaryPath?: undefined; skipped: string };

const requireTool = createRequire(import.meta.url);

export const PUBSUB_INSTALL_HINT =
  "install the Google Cloud CLI's Pub/Sub emulator (`gcloud components install pubsub-emulator`, or the " +
  "google-cloud-cli-pubsub-emulator package), or run `npx firebase setup:emulators:pubsub`";

const GCLOUD_EMULATOR = "platform/pubsub-emulator/bin/cloud-pubsub-emulator";

/** The Google Cloud CLI's Pub/Sub emulator, from the `gcloud` on PATH, or undefined. */
function gcloudPubsubEmulator(): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const gcloud = join(dir, "gcloud");
    if (!dir || !existsSync(gcloud)) continue;
    let root = dirname(dirname(realpathSync(gcloud)));
    if (!existsSync(join(root, GCLOUD_EMULATOR))) {
      try {
        root = execFileSync(gcloud, ["info", "--format=value(installation.sdk_root)"], {
          encoding: "utf8",
          stdio: ["ignore", "pipe", "ignore"],
        }).trim();
      } catch {
        return undefined;
      }
    }
    return existsSync(join(root, GCLOUD_EMULATOR)) ? join(root, GCLOUD_EMULATOR) : undefined;
  }
  return undefined;
}

/** Where firebase-tools keeps its own Pub/Sub emulator once downloaded. */
function firebaseToolsPubsubEmulator(): string {
  const info = requireTool("firebase-tools/lib/emulator/downloadableEmulatorInfo.json") as {
    pubsub: { binaryPathRelativeToCacheDir: string };
  };
  const cache = process.env.FIREBASE_EMULATORS_PATH ?? join(homedir(), ".cache/firebase/emulators");
  return join(cache, info.pubsub.binaryPathRelativeToCacheDir);
}

/** A Pub/Sub emulator for firebase-tools: the one PUBSUB_EMULATOR_BINARY_PATH names, its own, or the Google Cloud CLI's. */
export function findPubsubEmulator(): PubsubEmulator {
  const given = process.env.PUBSUB_EMULATOR_BINARY_PATH;
  if (given) return { where: `the Pub/Sub emulator at ${given} (PUBSUB_EMULATOR_BINARY_PATH)`, binaryPath: given };
  if (existsSync(firebaseToolsPubsubEmulator())) return { where: "firebase-tools' Pub/Sub emulator" };
  const gcloud = gcloudPubsubEmulator();
  if (gcloud) return { where: "the Google Cloud CLI's Pub/Sub emulator", binaryPath: gcloud };
  return { skipped: `no Pub/Sub emulator: ${PUBSUB_INSTALL_HINT}` };
}

/**
 * How the end-to-end test runs the scheduled functions, and why, in one line: from the bundle,
 * since the Functions emulator does not run them through Pub/Sub (test/e2e/scheduled-pubsub.test.ts
 * shows it where a Pub/Sub emulator is installed).
 */
export function scheduledFunctionsPath(): string {
  const { version } = requireTool("firebase-tools/package.json") as { version: string };
  const pubsub = findPubsubEmulator();
  const checked = pubsub.skipped
    ? "not checked here: this machine has no Pub/Sub emulator"
    : `checked by test/e2e/scheduled-pubsub.test.ts with ${pubsub.where}`;
  return (
    "scheduled functions: run from the bundle (test/e2e/run-scheduled.mjs), not by the Functions emulator " +
    `through Pub/Sub: firebase-tools ${version} subscribes onSchedule (v2) functions to their ` +
    "firebase-schedule-<name> topic as http triggers, and its Pub/Sub emulator hands messages only to event " +
    `and cloudevent triggers (${checked}; docs/e2e.md#the-scheduled-functions)`
  );
}
