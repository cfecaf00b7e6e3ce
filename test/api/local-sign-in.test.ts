/**
 * `npm start`'s sign-in uses the Auth emulator it starts itself (functions/src/local-auth.ts),
 * never another program that happens to hold the port: not one there before it starts, and not
 * one that takes the port while the emulator is still starting (the CLI then fails, and a
 * server that only asked the port whether it answers would sign people in through the other
 * program). The other programs here answer as the Auth emulator does and count what they get.
 * The server runs as `npm start` runs it: the bundle (scripts/bundle.mjs), in a process
 * of its own, whose output the tests read.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { onFirestore, sqliteOnly } from "../helpers/app.js";
import { startLocalAuthEmulator } from "../../functions/src/local-auth.js";
import { freePort } from "../helpers/ports.js";

const ROOT = join(import.meta.dirname, "../..");
const FIREBASE = join(ROOT, "node_modules/.bin/firebase");
// One level under functions/, as functions/dist is (disk-paths.ts finds the repository from there).
const OUT = join(ROOT, `functions/dist-sign-in-${process.pid}`);
const DEFAULT_EMULATOR_PORT = 9099;
/** The Auth emulator takes some 12 s to start here; CI's two cores are slower. */
const EMULATOR_START_MS = 120_000;

/** Something else on a port, answering as the Auth emulator does, with every request it got. */
interface Impostor {
  port: number;
  requests: string[];
  close: () => Promise<void>;
}

/** An impostor on `port`, or null when the port is held already. */
async function impostorOn(port: number): Promise<Impostor | null> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.setHeader("Content-Type", "application/json");
    res.end(req.url === "/" ? JSON.stringify({ authEmulator: { ready: true, docs: "", apiSpec: "" } }) : "{}");
  });
  const listening = await new Promise<boolean>((done) => {
    server.once("error", () => done(false));
    server.listen(port, "127.0.0.1", () => done(true));
  });
  if (!listening) return null;
  return { port, requests, close: () => new Promise((done) => server.close(() => done())) };
}

interface RunningServer {
  origin: string;
  /** The first line of output matching `pattern`, from the start (waits for it). */
  line: (pattern: RegExp, withinMs?: number) => Promise<RegExpMatchArray>;
  output: string[];
  /** SIGTERM, as Ctrl-C is: the server stops its emulator, then exits. */
  stop: () => Promise<void>;
}

const cleanups: Array<() => Promise<void>> = [];

/** `npm start`'s server (the bundle, functions/dist/server.cjs) on a fresh data directory and a free port. */
async function startServer(env: Record<string, string>): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "almanac-sign-in-"));
  const port = await freePort();
  const environment: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir, ...env };
  delete environment.FIREBASE_AUTH_EMULATOR_HOST;
  delete environment.ALMANAC_AUTH_EMULATOR;
  const child: ChildProcess = spawn(process.execPath, [join(OUT, "server.cjs")], {
    env: environment,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const output: string[] = [];
  const waiting = new Set<() => void>();
  for (const stream of [child.stdout!, child.stderr!])
    createInterface({ input: stream }).on("line", (text) => {
      output.push(text);
      for (const check of waiting) check();
    });
  const line = (pattern: RegExp, withinMs = 20_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const found = output.map((text) => pattern.exec(text)).find(Boolean);
        if (found) {
          waiting.delete(check);
          clearTimeout(timer);
          resolve(found);
        }
      };
      const timer = setTimeout(() => {
        waiting.delete(check);
        reject(new Error(`no line matching ${pattern} within ${withinMs} ms; the output:\n${output.join("\n")}`));
      }, withinMs);
      waiting.add(check);
      check();
    });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  cleanups.push(stop);
  await line(/^Almanac listening/);
  return { origin: `http://127.0.0.1:${port}`, line, output, stop };
}

/** The Content-Security-Policy of the account page: it names the Auth emulator the page signs in with. */
async function accountPagePolicy(origin: string): Promise<string> {
  const res = await fetch(`${origin}/account`);
  return res.headers.get("content-security-policy") ?? "";
}

const answers = (port: number): Promise<boolean> =>
  fetch(`http://127.0.0.1:${port}/`).then(
    () => true,
    () => false,
  );

beforeAll(() => {
  execFileSync(process.execPath, [join(ROOT, "scripts/bundle.mjs"), OUT]);
}, 60_000);

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(() => {
  rmSync(OUT, { recursive: true, force: true });
});

describe.skipIf(!existsSync(FIREBASE) || onFirestore)(
  sqliteOnly(
    "npm start's sign-in with its emulator's port held by another program",
    "npm start keeps its data in a SQLite file",
  ),
  () => {
    it(
      "moves to a free port when 9099 is held, and again when the port it chose is taken while it starts",
      async () => {
        // Null when an emulator of another run holds 9099 already: that one is the other program then.
        const on9099 = await impostorOn(DEFAULT_EMULATOR_PORT);
        if (on9099) cleanups.push(on9099.close);
        const server = await startServer({});
        const moved = await server.line(/port 9099 is in use.* on 127\.0\.0\.1:(\d+)/);
        const chosen = Number(moved[1]);
        // The CLI takes seconds to reach the port: it is still free now, and then it is not.
        const onChosen = await impostorOn(chosen);
        expect(onChosen, `port ${chosen} was taken before the impostor could take it`).not.toBeNull();
        cleanups.push(onChosen!.close);

        const ready = await server.line(
          /^Sign-in ready .*Firebase Auth emulator on 127\.0\.0\.1:(\d+)/,
          EMULATOR_START_MS,
        );
        const port = Number(ready[1]);
        expect([DEFAULT_EMULATOR_PORT, chosen]).not.toContain(port);
        expect(server.output.join("\n")).toMatch(
          new RegExp(`port ${chosen} was taken.* on 127\\.0\\.0\\.1:${port}\\b`),
        );
        const policy = await accountPagePolicy(server.origin);
        expect(policy).toContain(`connect-src 'self' http://127.0.0.1:${port}`);
        expect(policy).not.toMatch(new RegExp(`:(${DEFAULT_EMULATOR_PORT}|${chosen})\\b`));
        expect(onChosen!.requests).toEqual([]);
        expect(on9099?.requests ?? []).toEqual([]);

        // It was the server's own: it stops with the server, while the impostors go on answering.
        await server.stop();
        expect(await answers(port)).toBe(false);
        expect(await answers(chosen)).toBe(true);
      },
      EMULATOR_START_MS + 60_000,
    );

    it("says in one line that ALMANAC_AUTH_EMULATOR_PORT is in use, and offers no sign-in", async () => {
      const port = await freePort();
      const impostor = (await impostorOn(port))!;
      cleanups.push(impostor.close);
      const server = await startServer({ ALMANAC_AUTH_EMULATOR_PORT: String(port) });
      const [off] = await server.line(/^Sign-in is off: .*/);
      expect(off).toBe(
        `Sign-in is off: port ${port} (ALMANAC_AUTH_EMULATOR_PORT) is in use by another program; ` +
          "set ALMANAC_AUTH_EMULATOR_PORT to a free port, or unset it for npm start to choose one.",
      );
      expect(server.output.join("\n")).not.toMatch(/Sign-in ready/);
      expect(await accountPagePolicy(server.origin)).toContain("connect-src 'self';");
      expect(impostor.requests).toEqual([]);
    });
  },
);

describe.skipIf(onFirestore)(
  sqliteOnly("ALMANAC_AUTH_EMULATOR_PORT", "npm start keeps its data in a SQLite file"),
  () => {
    it("must be a port number", async () => {
      for (const value of ["0", "65536", "9099x", "-1", "1.5"]) {
        const env: NodeJS.ProcessEnv = { ALMANAC_AUTH_EMULATOR_PORT: value };
        const emulator = await startLocalAuthEmulator({ dataDir: tmpdir(), log: () => {}, env });
        await expect(emulator?.ready).rejects.toThrow(
          `ALMANAC_AUTH_EMULATOR_PORT must be a port number from 1 to 65535, not "${value}".`,
        );
        expect(env.FIREBASE_AUTH_EMULATOR_HOST).toBeUndefined();
      }
    });
  },
);
