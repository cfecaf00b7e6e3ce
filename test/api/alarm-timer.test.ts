/**
 * The alarms job on the local driver (jobs/alarms.ts, jobs/local-driver.ts), in real time on
 * SQLite (docs/decisions/alarms.md): 100 alarms due at
 * once are in the change feed within 2 s of their instant. Alarm instants are whole minutes
 * (start times are HH:MM, offsets whole minutes), so the clock is the real one shifted to put
 * the next minute a few seconds ahead: time runs at its real pace, the test does not wait for a
 * minute to come round. All 100 fall on one minute, the hardest case: one full batch at once.
 */
import { describe, expect, it } from "vitest";
import { alarmsJob } from "../../functions/src/jobs/alarms.js";
import { startJob } from "../../functions/src/jobs/local-driver.js";
import { createTestApp, onFirestore, type TestApp } from "../helpers/app.js";
import { get } from "../helpers/http.js";
import { mintAgent, newCalendar, newEvent } from "../helpers/factories.js";

const MINUTE = 60_000;
/** On the Firestore emulator 100 event writes take longer than on a SQLite file, the more so beside other tests. */
const LEAD_MS = onFirestore ? 15_000 : 6_000;

/** The real clock, shifted so that a whole minute comes `LEAD_MS` from now. */
function shiftedClock() {
  const real = Date.now();
  const boundary = Math.ceil(real / MINUTE) * MINUTE + MINUTE;
  const shift = boundary - LEAD_MS - real;
  const clock = () => new Date(Date.now() + shift);
  return Object.assign(clock, { advance: () => {}, set: () => {}, boundary });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];

describe("the alarms job on the local driver", () => {
  it("records 100 alarms due at once within 2 s of their instant", { timeout: 30_000 }, async () => {
    const clock = shiftedClock();
    const t: TestApp = createTestApp({ clock });
    const timer = startJob(alarmsJob, { ...t.deps, log: (line) => t.logs.push(line) });
    try {
      const owner = await mintAgent(t, "Owner");
      const calendars = [];
      for (let i = 0; i < 4; i++) calendars.push(await newCalendar(t, owner, { timezone: "UTC" }));
      const cursors = await Promise.all(
        calendars.map(async (c) => (await get(t, `/v1/calendars/${c.id}/changes`, owner.auth)).body.cursor as string),
      );
      const due = new Date(clock.boundary);
      // One writer per calendar at once: on Firestore, 100 writes one after another outlast the lead.
      await Promise.all(
        calendars.map(async (calendar, c) => {
          for (let i = c; i < 100; i += calendars.length) {
            // Starts from the boundary to four minutes after it, each alarm as many minutes before.
            const k = i % 5;
            const start = new Date(clock.boundary + k * MINUTE).toISOString();
            await newEvent(t, owner, calendar.id, {
              date: start.slice(0, 10),
              start_time: start.slice(11, 16),
              alarms: [k],
            });
          }
        }),
      );
      expect(clock().getTime()).toBeLessThan(clock.boundary - 1_000);

      // One reader waits on a calendar's feed from after its events, noting when the alarms reach it.
      const now = (await get(t, `/v1/calendars/${calendars[0].id}/changes?cursor=${cursors[0]}&limit=200`, owner.auth))
        .body.cursor as string;
      const waited = get(t, `/v1/calendars/${calendars[0].id}/changes?cursor=${now}&wait=30&limit=200`, owner.auth);
      const seenAt = waited.then((res) => {
        expect(res.body.changes.length).toBeGreaterThan(0);
        expect(res.body.changes.every((c: { type: string }) => c.type === "alarm")).toBe(true);
        return clock().getTime();
      });
      await new Promise((done) => setTimeout(done, clock.boundary - clock().getTime() + 2_500));

      const alarms: Array<{ at: string; due_at: string }> = [];
      for (const [i, c] of calendars.entries()) {
        const res = await get(t, `/v1/calendars/${c.id}/changes?cursor=${cursors[i]}&limit=200`, owner.auth);
        alarms.push(...res.body.changes.filter((x: { type: string }) => x.type === "alarm"));
      }
      expect(alarms).toHaveLength(100);
      expect(alarms.every((a) => a.due_at === due.toISOString())).toBe(true);
      const late = alarms.map((a) => Date.parse(a.at) - clock.boundary).sort((a, b) => a - b);
      const seen = (await seenAt) - clock.boundary;
      console.log(
        `alarm lateness over 100 alarms due at once (recorded at - due): p50 ${percentile(late, 0.5)} ms, ` +
          `p99 ${percentile(late, 0.99)} ms, max ${late[late.length - 1]} ms, min ${late[0]} ms; ` +
          `a waiting reader had them ${seen} ms after the instant`,
      );
      expect(late[0]).toBeGreaterThanOrEqual(0);
      expect(late[late.length - 1]).toBeLessThan(2_000);
      expect(seen).toBeLessThan(2_000);
      expect(t.logs.filter((l) => l.includes("alarms pass failed"))).toEqual([]);
    } finally {
      await timer.stop();
      await t.close();
    }
  });
});
