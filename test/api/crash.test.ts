/**
 * Exactly once across a crash (docs/api.md#exactly-once-and-retention): a child server process takes writes
 * with Idempotency-Keys from 8 writers and is killed with SIGKILL at a random moment, then
 * restarted on the same data. Every acknowledged write must be there and replay identically;
 * every key that was in flight, retried until it answers, must leave exactly one event.
 *
 * The server runs from its own build (functions/.crash-build), so that other tests building
 * functions/lib at the same time cannot hand it half-written files.
 */
import { spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onFirestore, sqliteOnly } from "../helpers/app.js";
import { freePort } from "../helpers/ports.js";
import { sleep, startServerProcess } from "../helpers/server-process.js";

const ROOT = resolve(import.meta.dirname, "../..");
const BUILD_DIR = join(ROOT, "functions/.crash-build");
const SERVER = join(BUILD_DIR, "server.js");
const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 4);
const WRITERS = 8;

const dataDir = mkdtempSync(join(tmpdir(), "almanac-crash-"));
let child: ChildProcess | null = null;
beforeAll(() => {
  const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
  // Type errors are the typecheck's to report; tsc still emits, and that is all this needs.
  spawnSync(process.execPath, [tsc, "-p", join(ROOT, "functions/tsconfig.json"), "--outDir", BUILD_DIR]);
  if (!existsSync(SERVER)) throw new Error(`the build did not produce ${SERVER}`);
}, 120_000);
afterAll(() => {
  child?.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

const startServer = (port: number): Promise<ChildProcess> =>
  startServerProcess(SERVER, port, { DATA_DIR: dataDir, RATE_LIMITS: "off" });

interface Write {
  key: string;
  body: string;
}

/** Sends until the server answers (a refused connection or 409 in use is retried). */
async function settle(origin: string, path: string, token: string, write: Write): Promise<Response> {
  for (let attempt = 0; attempt < 300; attempt++) {
    const res = await send(origin, path, token, write).catch(() => null);
    if (res && res.status !== 409) return res;
    await sleep(100);
  }
  throw new Error(`key ${write.key} never settled`);
}

const send = (origin: string, path: string, token: string, write: Write) =>
  fetch(`${origin}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Idempotency-Key": write.key },
    body: write.body,
  });

async function eventNames(origin: string, calendarId: string, token: string): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `?cursor=${encodeURIComponent(cursor)}` : "";
    const res = await fetch(`${origin}/v1/calendars/${calendarId}/events${query}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    const page = (await res.json()) as { events: Array<{ name: string }>; next_cursor: string | null };
    names.push(...page.events.map((e) => e.name));
    cursor = page.next_cursor;
  } while (cursor);
  return names;
}

describe.skipIf(onFirestore)(
  sqliteOnly("exactly once across SIGKILL", "the killed server is npm start's, on its SQLite file"),
  () => {
    it(`loses no acknowledged write and duplicates none, in ${ROUNDS} rounds`, { timeout: 180_000 }, async () => {
      const port = await freePort();
      const origin = `http://127.0.0.1:${port}`;
      child = await startServer(port);
      const minted = await fetch(`${origin}/v1/mint`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() },
        body: JSON.stringify({ name: "Crash" }),
      }).then((r) => r.json() as Promise<{ token: string; calendar: { id: string } }>);
      const { token } = minted;
      const path = `/v1/calendars/${minted.calendar.id}/events`;

      const acknowledged = new Map<string, { write: Write; body: string }>();
      const inFlight: Write[] = [];
      let sent = 0;
      for (let round = 0; round < ROUNDS; round++) {
        let killed = false;
        const writer = async (w: number) => {
          for (let n = 0; !killed; n++) {
            const key = `r${round}-w${w}-n${n}`;
            const write = { key, body: JSON.stringify({ name: key, date: "2027-01-01" }) };
            sent++;
            const res = await send(origin, path, token, write).catch(() => null);
            if (res?.status === 200) acknowledged.set(key, { write, body: await res.text() });
            else inFlight.push(write); // no answer: the kill came first
          }
        };
        const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
        await sleep(150 + Math.floor(Math.random() * 400));
        child.kill("SIGKILL");
        killed = true;
        await Promise.all(writers);
        child = await startServer(port);
      }

      // Every acknowledged write is present and replays byte for byte.
      const names = await eventNames(origin, minted.calendar.id, token);
      const counts = new Map<string, number>();
      for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
      for (const [key, { write, body }] of acknowledged) {
        expect(counts.get(key), key).toBe(1);
        const replay = await send(origin, path, token, write);
        expect(replay.headers.get("idempotent-replayed"), key).toBe("true");
        expect(await replay.text(), key).toBe(body);
      }
      // Every key that was in flight, retried until it answers, leaves exactly one event.
      for (const write of inFlight) expect((await settle(origin, path, token, write)).status, write.key).toBe(200);
      const after = await eventNames(origin, minted.calendar.id, token);
      const duplicates = after.length - new Set(after).size;
      const missing = inFlight.filter((w) => !after.includes(w.key)).length;
      console.log(
        `crash test: ${ROUNDS} rounds, ${sent} writes sent, ${acknowledged.size} acknowledged, ` +
          `${inFlight.length} in flight at a kill, ${duplicates} duplicates`,
      );
      expect(duplicates).toBe(0);
      expect(missing).toBe(0);
      expect(acknowledged.size).toBeGreaterThan(0);
      expect(inFlight.length).toBeGreaterThan(0);
    });
  },
);
