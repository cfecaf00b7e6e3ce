/**
 * `npm start`'s sign-in: the Firebase Auth emulator beside the local server, so that a person
 * can complete a claim link and use the account page with no cloud project and no network.
 * The emulator is firebase-tools (a devDependency), run on 127.0.0.1 (port 9099, or a free one);
 * its users are kept in DATA_DIR/auth-emulator/ between runs, so an account keeps its agents.
 * It sends no email: sign-in links are printed here, and the page shows them too.
 *
 * Not started when FIREBASE_AUTH_EMULATOR_HOST is already set (an emulator of your own), or with
 * ALMANAC_AUTH_EMULATOR=off (then the pages use the Firebase project the environment names, see
 * http/firebase-accounts.ts, or say that sign-in is not configured).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { underRepository } from "./disk-paths.js";

const FIREBASE_CLI = underRepository("node_modules/.bin/firebase");
const PROJECT = "demo-almanac";
const DEFAULT_PORT = 9099;
const READY_WITHIN_MS = 120_000;

export interface LocalAuthEmulator {
  /** `127.0.0.1:port`, as FIREBASE_AUTH_EMULATOR_HOST says it. */
  host: string;
  /** Resolves once the emulator answers (or rejects when it exits first or takes too long). */
  ready: Promise<void>;
  /** Stops it; it writes its users to DATA_DIR/auth-emulator/users first. */
  stop: () => Promise<void>;
}

/** Whether a TCP port is free on 127.0.0.1, and a free one when asked for 0. */
function listenable(port: number): Promise<number | null> {
  return new Promise((done) => {
    const probe = createServer();
    probe.once("error", () => done(null));
    probe.listen(port, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => done(typeof address === "object" && address ? address.port : null));
    });
  });
}

async function freePort(preferred: number): Promise<number> {
  return (await listenable(preferred)) ?? (await listenable(0))!;
}

export async function startLocalAuthEmulator(options: {
  dataDir: string;
  log: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}): Promise<LocalAuthEmulator | null> {
  const env = options.env ?? process.env;
  if (env.FIREBASE_AUTH_EMULATOR_HOST) {
    options.log(`Sign-in: the Auth emulator at ${env.FIREBASE_AUTH_EMULATOR_HOST} (FIREBASE_AUTH_EMULATOR_HOST)`);
    return null;
  }
  if (env.ALMANAC_AUTH_EMULATOR === "off") return null;
  if (!existsSync(FIREBASE_CLI)) {
    options.log("Sign-in is off: firebase-tools is not installed (npm install), so the Auth emulator cannot start.");
    return null;
  }

  const dir = resolve(options.dataDir, "auth-emulator");
  const users = join(dir, "users");
  mkdirSync(dir, { recursive: true });
  const port = await freePort(DEFAULT_PORT);
  const [hub, logging] = [await freePort(0), await freePort(0)];
  const config = join(dir, "firebase.json");
  writeFileSync(
    config,
    JSON.stringify({
      emulators: {
        auth: { host: "127.0.0.1", port },
        hub: { host: "127.0.0.1", port: hub },
        logging: { host: "127.0.0.1", port: logging },
        ui: { enabled: false },
      },
    }),
  );
  const imported = existsSync(join(users, "firebase-export-metadata.json")) ? ["--import", users] : [];
  const args = ["emulators:start", "--only", "auth", "--project", PROJECT, "--config", config];
  const child: ChildProcess = spawn(FIREBASE_CLI, [...args, ...imported, "--export-on-exit", users], {
    cwd: dir,
    env: { ...env, NO_UPDATE_NOTIFIER: "1" },
    // Its own process group: Ctrl-C reaches it once, from stop(), so it exports before it exits.
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const forward = (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n")) {
      // The sign-in links it "sends", and its warnings; not its banner.
      if (/follow this link|error|⚠/i.test(line)) options.log(`auth emulator: ${line.trim()}`);
    }
  };
  child.stdout!.on("data", forward);
  child.stderr!.on("data", forward);
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  // Should this process end without stop(), the emulator goes with it.
  const killOnExit = () => child.pid && child.exitCode === null && process.kill(-child.pid, "SIGKILL");
  process.once("exit", killOnExit);

  const host = `127.0.0.1:${port}`;
  env.FIREBASE_AUTH_EMULATOR_HOST = host;
  const ready = (async () => {
    const started = Date.now();
    let gone = false;
    void exited.then(() => (gone = true));
    while (Date.now() - started < READY_WITHIN_MS) {
      if (gone) throw new Error("the Auth emulator exited before it was ready");
      try {
        if ((await fetch(`http://${host}/`)).ok) return;
      } catch {
        // Not listening yet.
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error(`the Auth emulator was not ready after ${READY_WITHIN_MS / 1000} s`);
  })();
  const stop = async () => {
    process.removeListener("exit", killOnExit);
    if (child.exitCode !== null || !child.pid) return;
    process.kill(-child.pid, "SIGINT");
    await exited;
  };
  return { host, ready, stop };
}
