/**
 * `npm start`'s sign-in: the Firebase Auth emulator beside the local server, so that a person
 * can complete a claim link and use the account page with no cloud project and no network.
 * The emulator is firebase-tools (a devDependency), run on 127.0.0.1; its users are kept in
 * DATA_DIR/auth-emulator/ between runs, so an account keeps its agents. It sends no email:
 * sign-in links are printed here, and the page shows them too.
 *
 * Its port is 9099, or a free one when another program holds 9099 (or takes the chosen port
 * while the emulator starts); ALMANAC_AUTH_EMULATOR_PORT names a port to use and no other.
 * The server and the pages use the emulator (FIREBASE_AUTH_EMULATOR_HOST) only once this
 * emulator's own CLI says it is running: a program that merely answers on the port is never
 * taken for it.
 *
 * Not started when FIREBASE_AUTH_EMULATOR_HOST is already set (an emulator of your own), or with
 * ALMANAC_AUTH_EMULATOR=off (then the pages use the Firebase project the environment names, see
 * http/firebase-accounts.ts, or say that sign-in is not configured).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { underRepository } from "./disk-paths.js";

const FIREBASE_CLI = underRepository("node_modules/.bin/firebase");
const PROJECT = "demo-almanac";
const DEFAULT_PORT = 9099;
const PORT_VARIABLE = "ALMANAC_AUTH_EMULATOR_PORT";
/** Starts on a port taken while the CLI started, before giving up (each fails within seconds). */
const PORT_ATTEMPTS = 3;
const READY_WITHIN_MS = 120_000;
const STOPPED = "the server stopped before the Auth emulator was ready.";

/** What the CLI prints once every emulator it started listens, and only then. */
const READY_LINE = /All emulators ready/;
/** What the CLI prints when a port it was given is held by another program. */
const PORT_TAKEN_LINE = /is not open on|port taken|EADDRINUSE|To select a different host\/port/;
/** Worth passing on: the sign-in links it "sends", and its warnings; not its banner. */
const FORWARDED_LINE = /follow this link|error|⚠/i;

export interface LocalAuthEmulator {
  /**
   * Resolves with `127.0.0.1:port` once this emulator runs there (FIREBASE_AUTH_EMULATOR_HOST
   * says it from then on); rejects with a one-line reason when sign-in is off instead.
   */
  ready: Promise<string>;
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

const anyFreePort = async (): Promise<number> => (await listenable(0))!;

/** The port ALMANAC_AUTH_EMULATOR_PORT names, null when unset; throws the one-line reason when it is no port. */
function requestedPort(env: NodeJS.ProcessEnv): number | null {
  const value = env[PORT_VARIABLE];
  if (value === undefined || value === "") return null;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port < 1 || port > 65535)
    throw new Error(`${PORT_VARIABLE} must be a port number from 1 to 65535, not "${value}".`);
  return port;
}

/** The reason sign-in is off when the port ALMANAC_AUTH_EMULATOR_PORT names is taken. */
const requestedPortInUse = (port: number): string =>
  `port ${port} (${PORT_VARIABLE}) is in use by another program; ` +
  `set ${PORT_VARIABLE} to a free port, or unset it for npm start to choose one.`;

/** A ready promise for a failure known at once; handled, so that no caller races an unhandled rejection. */
function failed(reason: string): LocalAuthEmulator {
  const ready = Promise.reject(new Error(reason));
  ready.catch(() => {});
  return { ready, stop: async () => {} };
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
  let requested: number | null;
  try {
    requested = requestedPort(env);
  } catch (err) {
    return failed((err as Error).message);
  }
  if (!existsSync(FIREBASE_CLI)) {
    options.log("Sign-in is off: firebase-tools is not installed (npm install), so the Auth emulator cannot start.");
    return null;
  }

  const dir = resolve(options.dataDir, "auth-emulator");
  mkdirSync(dir, { recursive: true });
  let current: EmulatorProcess | null = null;
  let stopping = false;

  const ready = (async () => {
    const deadline = Date.now() + READY_WITHIN_MS;
    let port = requested ?? DEFAULT_PORT;
    if ((await listenable(port)) === null) {
      if (requested !== null) throw new Error(requestedPortInUse(port));
      const free = await anyFreePort();
      options.log(
        `Sign-in: port ${port} is in use, so the Auth emulator starts on 127.0.0.1:${free} (${PORT_VARIABLE} sets it)`,
      );
      port = free;
    }
    for (let attempt = 1; ; attempt++) {
      if (stopping) throw new Error(STOPPED);
      const emulator = await spawnEmulator(dir, port, env, options.log);
      current = emulator;
      if (stopping) {
        await emulator.stop();
        throw new Error(STOPPED);
      }
      const outcome = await emulator.started(deadline);
      if (stopping) throw new Error(STOPPED);
      if (outcome === "late") {
        await emulator.stop();
        throw new Error(`the Auth emulator was not ready after ${READY_WITHIN_MS / 1000} s.`);
      }
      if (outcome === "exited") throw new Error("the Auth emulator exited before it was ready (its output is above).");
      if (outcome === "running") {
        const host = `127.0.0.1:${port}`;
        env.FIREBASE_AUTH_EMULATOR_HOST = host;
        // Once it has ended, whatever answers on its port is not it: sign-in stops.
        void emulator.exited.then(() => {
          if (env.FIREBASE_AUTH_EMULATOR_HOST !== host) return;
          delete env.FIREBASE_AUTH_EMULATOR_HOST;
          if (!stopping) options.log("Sign-in is off: the Auth emulator stopped.");
        });
        return host;
      }
      if (requested !== null) throw new Error(requestedPortInUse(port));
      if (attempt === PORT_ATTEMPTS)
        throw new Error(`other programs took each port tried for the Auth emulator (${PORT_VARIABLE} sets one).`);
      const free = await anyFreePort();
      options.log(`Sign-in: port ${port} was taken while the Auth emulator started, so it starts on 127.0.0.1:${free}`);
      port = free;
    }
  })();
  ready.catch(() => {});

  const stop = async () => {
    stopping = true;
    await current?.stop();
  };
  return { ready, stop };
}

/**
 * running: its CLI says it listens, so the port is its own; port taken: it exited because
 * another program held one of its ports; exited: it ended otherwise; late: none of these by the deadline.
 */
type Outcome = "running" | "port taken" | "exited" | "late";

interface EmulatorProcess {
  started: (deadline: number) => Promise<Outcome>;
  exited: Promise<void>;
  stop: () => Promise<void>;
}

/** `firebase emulators:start --only auth` with the Auth emulator on `port`, in its own process group. */
async function spawnEmulator(
  dir: string,
  port: number,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<EmulatorProcess> {
  const users = join(dir, "users");
  const config = join(dir, "firebase.json");
  // The hub and logging emulators start with it, on ports free now.
  const [hub, logging] = [await anyFreePort(), await anyFreePort()];
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
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  // Should this process end without stop(), the emulator goes with it.
  const killOnExit = () => child.pid && child.exitCode === null && process.kill(-child.pid, "SIGKILL");
  process.once("exit", killOnExit);
  void exited.then(() => process.removeListener("exit", killOnExit));

  let portTaken = false;
  let sayRunning = () => {};
  const saidRunning = new Promise<"running">((done) => (sayRunning = () => done("running")));
  for (const stream of [child.stdout!, child.stderr!]) {
    createInterface({ input: stream }).on("line", (line) => {
      if (READY_LINE.test(line)) sayRunning();
      // The caller says this in its own words, rather than the CLI's advice to edit firebase.json.
      else if (PORT_TAKEN_LINE.test(line)) portTaken = true;
      else if (FORWARDED_LINE.test(line)) log(`auth emulator: ${line.trim()}`);
    });
  }

  const started = async (deadline: number): Promise<Outcome> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((done) => (timer = setTimeout(() => done("late"), deadline - Date.now())));
    const first = await Promise.race([saidRunning, exited.then(() => "exited" as const), late]);
    clearTimeout(timer);
    if (first !== "exited") return first;
    // Its last lines may still be on their way when the exit is seen.
    await new Promise((done) => setImmediate(done));
    return portTaken ? "port taken" : "exited";
  };
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
    process.kill(-child.pid, "SIGINT");
    await exited;
  };
  return { started, exited, stop };
}
