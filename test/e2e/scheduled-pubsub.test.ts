/**
 * Whether the Functions emulator runs the scheduled functions (`alarms`, `webhooks`, `purges`:
 * v2 `onSchedule`) when their Cloud Scheduler topic gets a message, with the Pub/Sub emulator this
 * machine has (test/helpers/pubsub-emulator.ts): `firebase emulators:exec --only functions,pubsub`
 * on a fresh bundle in a directory of its own. It does not: firebase-tools subscribes each one to
 * `firebase-schedule-<name>` as an http trigger (`getSignatureType` in
 * lib/emulator/functionsEmulatorShared.js), and its Pub/Sub emulator acknowledges the message
 * after failing to deliver it (`PubsubEmulator.onMessage` in lib/emulator/pubsubEmulator.js hands
 * messages only to event and cloudevent triggers). So test/e2e/firebase.test.ts runs them from
 * the bundle; should this fail because the function ran, it could publish instead. See
 * docs/e2e.md#the-scheduled-functions.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../helpers/ports.js";
import { findPubsubEmulator } from "../helpers/pubsub-emulator.js";

const ROOT = join(import.meta.dirname, "../..");
const FIREBASE = join(ROOT, "node_modules/.bin/firebase");
const HAS_FIREBASE = existsSync(FIREBASE);
const pubsub = findPubsubEmulator();
const PROJECT = "demo-almanac-pubsub";
const SCHEDULED = ["alarms", "feeds", "purges", "webhooks"];
const STEP = { timeout: 60_000 };
const run = promisify(execFile);

let dir = "";
let pubsubOrigin = "";
let emulators: ChildProcess | undefined;
let exited: Promise<number | null> | undefined;
let output = "";

/** Distinct ports free right now. */
async function freePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

/** Resolves once `pattern` shows in the CLI's output; rejects after `limitMs` or when the CLI exits. */
async function waitForOutput(pattern: RegExp, limitMs: number): Promise<RegExpExecArray> {
  const started = Date.now();
  for (;;) {
    const match = pattern.exec(output);
    if (match) return match;
    if (emulators?.exitCode !== null) throw new Error(`firebase emulators:exec exited:\n${output.slice(-4000)}`);
    if (Date.now() - started > limitMs) throw new Error(`no ${pattern} after ${limitMs} ms:\n${output.slice(-4000)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  if (!HAS_FIREBASE || pubsub.skipped) return;
  // A project of its own: functions/ as `firebase deploy` reads it (package.json, .env and a
  // fresh bundle), so that no other build is disturbed, and the CLI's logs stay in it.
  dir = mkdtempSync(join(tmpdir(), "almanac-pubsub-"));
  const functions = join(dir, "functions");
  mkdirSync(functions);
  await run(process.execPath, [join(ROOT, "scripts/bundle.mjs"), join(functions, "dist")]);
  for (const file of ["package.json", ".env"]) copyFileSync(join(ROOT, "functions", file), join(functions, file));
  symlinkSync(join(ROOT, "node_modules"), join(functions, "node_modules"));

  const [functionsPort, pubsubPort, hub, logging, eventarc, tasks] = await freePorts(6);
  const at = (port: number) => ({ host: "127.0.0.1", port });
  const config = {
    functions: [{ source: "functions", codebase: "default", runtime: "nodejs22" }],
    emulators: {
      singleProjectMode: true,
      functions: at(functionsPort),
      pubsub: at(pubsubPort),
      hub: at(hub),
      logging: at(logging),
      eventarc: at(eventarc),
      tasks: at(tasks),
      ui: { enabled: false },
    },
  };
  writeFileSync(join(dir, "firebase.json"), JSON.stringify(config, null, 2));
  pubsubOrigin = `http://127.0.0.1:${pubsubPort}`;

  const env: NodeJS.ProcessEnv = { ...process.env, NO_UPDATE_NOTIFIER: "1" };
  if (pubsub.binaryPath) {
    // The CLI makes the binary it is given executable (chmod): a script of this run's own, which
    // starts the installed one, spares a file it may not own.
    const launcher = join(dir, "pubsub-emulator");
    writeFileSync(launcher, `#!/bin/sh\nexec '${pubsub.binaryPath}' "$@"\n`);
    chmodSync(launcher, 0o755);
    env.PUBSUB_EMULATOR_BINARY_PATH = launcher;
  }
  const hold = `node ${join(ROOT, "test/e2e/hold-emulators.mjs")} ${dir} 300000`;
  // --debug: the Pub/Sub emulator's deliveries are logged at that level only.
  const args = ["emulators:exec", "--debug", "--only", "functions,pubsub", "--project", PROJECT, hold];
  emulators = spawn(FIREBASE, args, {
    cwd: dir,
    env,
    detached: true, // its own process group, so that a stuck run can be stopped with its children
    stdio: ["ignore", "pipe", "pipe"],
  });
  emulators.stdout!.on("data", (chunk) => (output += chunk));
  emulators.stderr!.on("data", (chunk) => (output += chunk));
  const child = emulators;
  exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  await waitForOutput(/Running script: /, 120_000);
}, 180_000);

afterAll(async () => {
  if (emulators && emulators.exitCode === null) {
    writeFileSync(join(dir, "done"), "");
    const stopped = await Promise.race([
      exited!.then(() => true),
      new Promise((resolve) => setTimeout(() => resolve(false), 30_000)),
    ]);
    if (!stopped && emulators.pid) process.kill(-emulators.pid, "SIGTERM");
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe.skipIf(!HAS_FIREBASE || pubsub.skipped)(
  !HAS_FIREBASE
    ? "Scheduled functions through Pub/Sub: skipped, firebase-tools is not installed (node_modules/.bin/firebase)"
    : pubsub.skipped
      ? `Scheduled functions through Pub/Sub: skipped, ${pubsub.skipped}`
      : `Scheduled functions through Pub/Sub: the Functions emulator beside ${pubsub.where}`,
  () => {
    it("subscribes alarms, webhooks and purges to their Cloud Scheduler topics, as http triggers", STEP, async () => {
      for (const name of SCHEDULED) {
        const [, signature] = await waitForOutput(
          new RegExp(`addTrigger\\(firebase-schedule-${name}, [^,]+, (\\w+)\\)`),
          30_000,
        );
        expect(signature, name).toBe("http");
      }
      await waitForOutput(/functions\[[^\]]*webhooks\]: pubsub function initialized/, 30_000);
      const res = await fetch(`${pubsubOrigin}/v1/projects/${PROJECT}/subscriptions`);
      const { subscriptions } = (await res.json()) as { subscriptions: Array<{ name: string; topic: string }> };
      expect(subscriptions.map((s) => s.topic).sort()).toEqual(
        SCHEDULED.map((name) => `projects/${PROJECT}/topics/firebase-schedule-${name}`),
      );
    });

    it("acknowledges a message to firebase-schedule-alarms without running alarms", STEP, async () => {
      // What Cloud Scheduler publishes for a scheduled function that listens on Pub/Sub.
      const published = await fetch(`${pubsubOrigin}/v1/projects/${PROJECT}/topics/firebase-schedule-alarms:publish`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ messages: [{ data: Buffer.from("{}").toString("base64") }] }),
      });
      const { messageIds } = (await published.json()) as { messageIds: string[] };
      expect(messageIds).toHaveLength(1);
      // A delivered message is acknowledged once the function has answered: by then it has run.
      const id = messageIds[0];
      await waitForOutput(new RegExp(`Acking message ${id}\\b`), 30_000);
      const received = output.indexOf(`onMessage(firebase-schedule-alarms, ${id})`);
      expect(received, "the Pub/Sub emulator's subscription received the message").toBeGreaterThanOrEqual(0);
      const delivery = output.slice(output.lastIndexOf("\n", received) + 1);
      const evidence = delivery
        .split("\n")
        .filter((line) => /\[pubsub\] (onMessage|Executing|Acking|FirebaseError)/.test(line));
      console.log(`Pub/Sub delivery of a Cloud Scheduler message to alarms:\n${evidence.join("\n")}`);
      expect(delivery).toContain("Unsupported trigger signature: http");
      expect(output).not.toMatch(/Beginning execution of "[^"]*alarms"/);
    });

    it("shuts the emulators down cleanly", STEP, async () => {
      writeFileSync(join(dir, "done"), "");
      expect(await exited!, output.slice(-4000)).toBe(0);
    });
  },
);
