/**
 * The change feed on the Firestore adapter: the API app over FirestoreStore, against the
 * Cloud Firestore emulator (test/helpers/firestore-emulator.ts). The same port operations as on
 * SQLite (a shard query, per-shard `orderBy seq` + `startAfter`, `purge_at` as a Timestamp read
 * back as a Date); the concurrency figures are SQLite's (test/api/changes.test.ts).
 */
import { performance } from "node:perf_hooks";
import { deleteApp, initializeApp } from "firebase-admin/app";
import { getFirestore } from "firebase-admin/firestore";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiApp } from "../../functions/src/app.js";
import type { HttpDeps } from "../../functions/src/http/deps.js";
import { LAYOUT, paths } from "../../functions/src/domain/paths.js";
import { ResponseCache } from "../../functions/src/http/response-cache.js";
import { FirestoreStore } from "../../functions/src/storage/firestore/index.js";
import { testClock } from "../helpers/app.js";
import { attachLayer, mintAgent, newCalendar, newEvent } from "../helpers/factories.js";
import { del, expectError, get, patch } from "../helpers/http.js";
import { clearProject, firestoreEmulator, uniqueProject } from "../helpers/firestore-emulator.js";
import { checkResponses } from "../helpers/check-responses.js";
import { configDeps } from "../helpers/config.js";

const DAY = 24 * 60 * 60 * 1000;
const emulator = await firestoreEmulator();
let store: FirestoreStore;
let close: (() => Promise<void>) | undefined;
const clock = testClock();
const t = { app: undefined as unknown as ReturnType<typeof createApiApp> };

beforeAll(async () => {
  if (!emulator.host) return;
  const projectId = uniqueProject("changes");
  const app = initializeApp({ projectId }, projectId);
  const db = getFirestore(app);
  db.settings({ ignoreUndefinedProperties: true });
  store = new FirestoreStore(db, LAYOUT);
  const ticking = () => {
    clock.advance(1);
    return clock();
  };
  const deps: HttpDeps = {
    ...configDeps(),
    store,
    clock: ticking,
    baseUrl: "https://almanac.test",
    log: () => {},
    memory: {},
    cache: new ResponseCache(),
  };
  t.app = createApiApp(deps, undefined, { checkOutcome: checkResponses() });
  close = async () => {
    await store.close();
    await deleteApp(app);
    await clearProject(emulator.host, projectId);
  };
});
afterAll(() => close?.());

const feed = (cal: string, auth: { Authorization: string }, query = "") =>
  get(t, `/v1/calendars/${cal}/changes${query ? `?${query}` : ""}`, auth);

describe.skipIf(!emulator.host)(
  `the change feed on Firestore (${emulator.where ?? `skipped: ${emulator.skipped}`})`,
  () => {
    it("records every kind of write and reads them back in pages, a waiting read woken by a write", async () => {
      const owner = await mintAgent(t, "Owner");
      const cal = (await newCalendar(t, owner, { visibility: "private" })).id;
      const start = (await feed(cal, owner.auth).expect(200)).body.cursor as string;

      const one = await newEvent(t, owner, cal, { name: "Dentist", date: "2026-12-01" });
      const series = await newEvent(t, owner, cal, { name: "Standup", recur: { type: "daily" } });
      await patch(t, `/v1/calendars/${cal}/events/${one.id}`, owner.auth).send({ name: "Moved" }).expect(200);
      await patch(t, `/v1/calendars/${cal}/events/${series.id}/occurrences/2026-11-25`, owner.auth)
        .send({ cancelled: true })
        .expect(200);
      await del(t, `/v1/calendars/${cal}/events/${one.id}`, owner.auth).expect(200);
      await patch(t, `/v1/calendars/${cal}`, owner.auth).send({ name: "Renamed" }).expect(200);
      const layer = await attachLayer(t, owner, cal, owner.calendarId, "mine");

      const seen: Array<{ seq: number; type: string; id: string }> = [];
      let cursor = start;
      for (;;) {
        const body = (await feed(cal, owner.auth, `cursor=${cursor}&limit=3`).expect(200)).body;
        seen.push(...body.changes);
        cursor = body.cursor;
        if (body.changes.length === 0) break;
      }
      expect(seen.map((c) => [c.type, c.id])).toEqual([
        ["event.created", one.id],
        ["event.created", series.id],
        ["event.updated", one.id],
        ["exception.changed", series.id],
        ["event.deleted", one.id],
        ["calendar.updated", cal],
        ["layer.attached", layer.id],
      ]);
      expect(seen.map((c) => c.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      // purge_at went in as a Timestamp (for the TTL policy) and comes back a Date.
      const stored = (
        await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map((n) => store.query(paths.changes(cal, n))))
      ).flat();
      expect(stored).toHaveLength(7);
      for (const doc of stored) expect(doc.data.purge_at).toBeInstanceOf(Date);

      const waiting = feed(cal, owner.auth, `cursor=${cursor}&wait=10`);
      const began = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 50));
      const late = await newEvent(t, owner, cal, { name: "Late" });
      const woken = await waiting;
      expect(woken.status).toBe(200);
      expect(woken.body.changes.map((c: { id: string }) => c.id)).toEqual([late.id]);
      expect(performance.now() - began).toBeLessThan(10_000);

      clock.advance(7 * DAY + 1000);
      expectError(await feed(cal, owner.auth, `cursor=${woken.body.cursor}`), 410, "cursor_expired");
    });
  },
);
