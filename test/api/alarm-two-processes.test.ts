/**
 * Two server processes tick alarms on one Firestore (the Cloud Firestore emulator:
 * test/helpers/firestore-emulator.ts) with many alarms due at once, and each alarm reaches the
 * change feed exactly once
 * (docs/decisions/alarms.md, "Exactly once"). Events are written through the API in this
 * process; the ticks run in two child processes (test/helpers/alarm-tick-process.ts), started
 * together at one instant after every alarm.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { build } from "esbuild";
import { deleteApp, initializeApp, type App } from "firebase-admin/app";
import { getFirestore } from "firebase-admin/firestore";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiApp } from "../../functions/src/app.js";
import { LAYOUT, paths } from "../../functions/src/domain/paths.js";
import { ResponseCache } from "../../functions/src/http/response-cache.js";
import { FirestoreStore } from "../../functions/src/storage/firestore/index.js";
import { testClock } from "../helpers/app.js";
import { configDeps } from "../helpers/config.js";
import { mintAgent, newCalendar, newEvent, type MintedAgent } from "../helpers/factories.js";
import { get } from "../helpers/http.js";
import { clearProject, firestoreEmulator, uniqueProject } from "../helpers/firestore-emulator.js";

const ROOT = join(import.meta.dirname, "../..");
const CHILD = join(ROOT, `test/.artifacts/alarm-tick-process-${process.pid}.mjs`);
const CALENDARS = 6;
const EVENTS_PER_CALENDAR = 40;
const OFFSETS = [30, 20, 10];
/** Every alarm falls before this: the start times run from 11:00 to 11:59 on the day below. */
const TICK_AT = "2026-11-22T12:00:00.000Z";

const emulator = await firestoreEmulator();
let app: App;
let store: FirestoreStore;
const projectId = uniqueProject("alarm-processes");
const clock = testClock("2026-11-22T09:00:00.000Z");
const t = { app: undefined as unknown as ReturnType<typeof createApiApp> };

beforeAll(async () => {
  if (!emulator.host) return;
  mkdirSync(join(ROOT, "test/.artifacts"), { recursive: true });
  const bundled = build({
    entryPoints: [join(ROOT, "test/helpers/alarm-tick-process.ts")],
    outfile: CHILD,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "warning",
  });
  app = initializeApp({ projectId }, projectId);
  const db = getFirestore(app);
  db.settings({ ignoreUndefinedProperties: true });
  store = new FirestoreStore(db, LAYOUT);
  t.app = createApiApp({
    ...configDeps(),
    store,
    clock: () => clock(),
    baseUrl: "https://almanac.test",
    log: () => {},
    memory: {},
    cache: new ResponseCache(),
  });
  await bundled;
}, 60_000);
afterAll(async () => {
  await store?.close();
  if (app) await deleteApp(app);
  if (emulator.host) await clearProject(emulator.host, projectId);
  rmSync(CHILD, { force: true });
});

interface Totals {
  ticks: number;
  due: number;
  fired: number;
  /** Ticks that threw and were run again (test/helpers/alarm-tick-process.ts). */
  failed: number;
}

/** A tick process, started and connected; `go` lets it tick and answers its totals. */
async function tickProcess(): Promise<{ go: () => void; totals: Promise<Totals> }> {
  const child = spawn(process.execPath, [CHILD], {
    env: { ...process.env, GCLOUD_PROJECT: projectId, ALARM_TICK_AT: TICK_AT },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const exited = once(child, "exit");
  expect((await lines.next()).value).toBe("ready");
  const totals = (async () => {
    const last = await lines.next();
    const [code] = await exited;
    expect(code).toBe(0);
    return JSON.parse(String(last.value)) as Totals;
  })();
  return { go: () => child.stdin.end("go\n"), totals };
}

/** Every change of the calendar's feed after `cursor`, page after page. */
async function changesAfter(owner: MintedAgent, calendarId: string, cursor: string) {
  const changes: Array<{ type: string; id: string; event_id?: string }> = [];
  for (;;) {
    const res = await get(t, `/v1/calendars/${calendarId}/changes?cursor=${cursor}&limit=200`, owner.auth).expect(200);
    changes.push(...res.body.changes);
    cursor = res.body.cursor;
    if (res.body.changes.length === 0) return changes;
  }
}

/**
 * On the Cloud Firestore emulator the two processes' settlings meet on the same entries: one
 * waits for the other's locks, and a transaction the emulator closed under it (INVALID_ARGUMENT
 * "Transaction is invalid or closed") is run again by the Firestore adapter, as ABORTED is.
 */

describe.skipIf(Boolean(emulator.skipped))(
  `alarms on ${emulator.where ?? `no Firestore emulator [skipped: ${emulator.skipped}]`}`,
  () => {
    it("records each of 720 alarms due at once exactly once, with two processes ticking together", async () => {
      const seeding = performance.now();
      const owner = await mintAgent(t, "Owner");
      // One writer per calendar, the calendars at once.
      const calendars = await Promise.all(
        Array.from({ length: CALENDARS }, async (_, c) => {
          const { id } = await newCalendar(t, owner, { name: `Alarms ${c}`, timezone: "UTC" });
          const start = await get(t, `/v1/calendars/${id}/changes`, owner.auth).expect(200);
          for (let i = 0; i < EVENTS_PER_CALENDAR; i++) {
            // Half one-off events, half daily series (whose entries go on to the next day).
            const when = i % 2 === 0 ? { date: "2026-11-22" } : { recur: { type: "daily", starts: "2026-11-22" } };
            const time = `11:${String(i % 60).padStart(2, "0")}`;
            await newEvent(t, owner, id, { name: `Event ${i}`, ...when, start_time: time, alarms: OFFSETS });
          }
          return { id, cursor: start.body.cursor as string };
        }),
      );
      const queued = await store.query(paths.alarmQueue(), { where: [["due_at", "<=", TICK_AT]] });
      expect(queued).toHaveLength(CALENDARS * EVENTS_PER_CALENDAR);

      const seeded = performance.now() - seeding;

      const processes = await Promise.all([tickProcess(), tickProcess()]);
      const ticking = performance.now();
      for (const p of processes) p.go();
      const totals = await Promise.all(processes.map((p) => p.totals));
      const ticked = performance.now() - ticking;
      console.log(`seeded in ${Math.round(seeded)} ms; ticked in ${Math.round(ticked)} ms:`, JSON.stringify(totals));

      const alarmIds: string[] = [];
      for (const { id, cursor } of calendars) {
        const alarms = (await changesAfter(owner, id, cursor)).filter((c) => c.type === "alarm");
        alarmIds.push(...alarms.map((a) => a.id));
      }
      const expected = CALENDARS * EVENTS_PER_CALENDAR * OFFSETS.length;
      const distinct = new Set(alarmIds).size;
      console.log(`alarm changes: ${alarmIds.length} for ${distinct} alarms (${expected} due)`);
      expect(distinct).toBe(expected);
      expect(alarmIds).toHaveLength(expected);
      expect(totals[0].fired + totals[1].fired).toBe(expected);
      // Both took part: the test shows two processes meeting, not one doing all the work.
      for (const p of totals) expect(p.fired).toBeGreaterThan(0);
      // No tick failed: a transaction closed under its function was run again by the adapter.
      expect(totals.map((p) => p.failed)).toEqual([0, 0]);
      // Nothing is left due, and the daily series wait for the next day's alarms.
      expect(await store.query(paths.alarmQueue(), { where: [["due_at", "<=", TICK_AT]] })).toEqual([]);
      expect(await store.query(paths.alarmQueue())).toHaveLength((CALENDARS * EVENTS_PER_CALENDAR) / 2);
    }, 120_000);
  },
);
