// The Cloud Firestore emulator for the tests (test/helpers/firestore-emulator.ts), the benches
// and `npm run emulators`: which one this machine can start, starting it on a port, and clearing
// a project's data. In order of preference:
//   1. the Google Cloud CLI's (`gcloud components install cloud-firestore-emulator`, or Debian's
//      google-cloud-cli-firestore-emulator): runs on Java 17 and up;
//   2. firebase-tools' own jar (`npx firebase setup:emulators:firestore` downloads it to
//      ~/.cache/firebase/emulators), where Java 21 is installed (its launcher refuses older ones).
// A running emulator given in FIRESTORE_EMULATOR_HOST is used by the callers before any of these.
// The emulator keeps each project's data (in memory) until it is deleted: clearProject.
import { execFileSync, spawn } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { homedir, tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";

/** What to install when no emulator is found. */
export const INSTALL_HINT =
  "install the Google Cloud CLI's Firestore emulator (`gcloud components install cloud-firestore-emulator`, " +
  "or the google-cloud-cli-firestore-emulator package), or Java 21 and `npx firebase setup:emulators:firestore`, " +
  "or set FIRESTORE_EMULATOR_HOST to a running Firestore emulator";

/** The Google Cloud SDK's root, from the `gcloud` on PATH (its bin/ holds gcloud), or undefined. */
function gcloudRoot() {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const gcloud = join(dir, "gcloud");
    if (!dir || !existsSync(gcloud)) continue;
    const root = dirname(dirname(realpathSync(gcloud)));
    if (existsSync(join(root, "platform/cloud-firestore-emulator"))) return root;
    try {
      return execFileSync(gcloud, ["info", "--format=value(installation.sdk_root)"], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      }).trim();
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The installed Java's major version (17, 21, ...), or 0 when there is none. */
function javaMajor() {
  try {
    const out = execFileSync("java", ["-version"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    return versionOf(out);
  } catch (err) {
    // java -version writes to stderr; execFileSync puts it on the error only when it fails.
    return versionOf(String(err?.stderr ?? ""));
  }
}
const versionOf = (text) => Number(/version "(?:1\.)?(\d+)/.exec(text)?.[1] ?? 0);

/**
 * How this machine can start a Firestore emulator: `{ kind, command, args }`, or `{ reason }` saying
 * why none can start. Cached: it looks at the disk and runs `java -version` at most once.
 */
export function findFirestoreEmulator() {
  return (findFirestoreEmulator.cached ??= find());
}
function find() {
  const root = gcloudRoot();
  const script = root && join(root, "platform/cloud-firestore-emulator/cloud_firestore_emulator");
  if (script && existsSync(script)) {
    return { kind: "the Google Cloud CLI's Firestore emulator", command: script, args: ["start"] };
  }
  const cache = join(homedir(), ".cache/firebase/emulators");
  const jar = existsSync(cache)
    ? readdirSync(cache)
        .filter((f) => /^cloud-firestore-emulator-v[\d.]+\.jar$/.test(f))
        .sort((a, b) => a.localeCompare(b, "en", { numeric: true }))
        .pop()
    : undefined;
  const java = javaMajor();
  if (jar && java >= 21) {
    return { kind: "firebase-tools' Firestore emulator", command: "java", args: ["-jar", join(cache, jar)] };
  }
  const found = jar ? `firebase-tools' emulator is downloaded but Java is ${java || "missing"} (it needs 21)` : "";
  return { reason: `no Firestore emulator found${found ? ` (${found})` : ""}: ${INSTALL_HINT}` };
}

/** A port free on 127.0.0.1 right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Whether an emulator answers on host:port (its root answers `Ok`). */
export async function answers(host) {
  try {
    const res = await fetch(`http://${host}/`, { signal: AbortSignal.timeout(1000) });
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * Starts the emulator `findFirestoreEmulator` found on 127.0.0.1:`port` (a free one when not
 * given), in a process group of its own with its output in `logFile`, and waits until it answers.
 * `onSpawn(pid)` hears of the process before the wait, so that a caller can stop it whatever
 * happens. Answers `{ host, kind, pid, logFile, stop }`; `stop()` ends the process group.
 */
export async function startFirestoreEmulator({ port, logFile, onSpawn, timeoutMs = 60_000 } = {}) {
  const found = findFirestoreEmulator();
  if (!found.command) throw new Error(found.reason);
  port ??= await freePort();
  // A log of its own, removed with its directory when the emulator is stopped.
  const own = logFile ? undefined : mkdtempSync(join(tmpdir(), "almanac-firestore-"));
  logFile ??= join(own, "emulator.log");
  const out = openSync(logFile, "a");
  const child = spawn(found.command, [...found.args, "--host=127.0.0.1", `--port=${port}`], {
    detached: true,
    stdio: ["ignore", out, out],
  });
  closeSync(out);
  child.unref();
  let exited = null;
  const exit = new Promise((resolve) => child.on("exit", (code, signal) => resolve((exited = code ?? signal))));
  child.on("error", (err) => (exited = err.message));
  onSpawn?.(child.pid);
  const stop = async () => {
    if (own) rmSync(own, { recursive: true, force: true });
    if (exited !== null) return;
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // gone already
      }
    }, 5000);
    await exit;
    clearTimeout(timer);
  };
  const host = `127.0.0.1:${port}`;
  const started = Date.now();
  while (!(await answers(host))) {
    const log = () => readFileSync(logFile, "utf8").split("\n").slice(-20).join("\n");
    if (exited !== null) throw new Error(`${found.kind} exited (${exited}) before answering on ${host}:\n${log()}`);
    if (Date.now() - started > timeoutMs) {
      const text = log();
      await stop();
      throw new Error(`${found.kind} did not answer on ${host} within ${timeoutMs} ms:\n${text}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { host, kind: found.kind, pid: child.pid, logFile, stop };
}

/**
 * Deletes every document of `projectId`'s default database on the emulator at `host`. A
 * transaction still holding locks there (a client that went away mid-transaction) makes the
 * DELETE wait, then answer 409 ABORTED: it is tried again until the locks expire.
 */
export async function clearProject(host, projectId) {
  const url = `http://${host}/emulator/v1/projects/${projectId}/databases/(default)/documents`;
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(url, { method: "DELETE" });
    if (res.ok) return;
    const text = await res.text();
    if (res.status !== 409 || attempt >= 10) throw new Error(`DELETE ${url}: ${res.status} ${text}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
