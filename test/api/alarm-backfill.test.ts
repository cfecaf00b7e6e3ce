/**
 * Entries queued before lanes existed (no `lane`, no head: docs/decisions/alarms.md, "From the
 * queue before lanes"): the alarms job's backfill gives each its lane, its lane's head and its
 * tenant, and counts it in its calendar's events with alarms, so they fire as any other, once.
 * The old entries are made here from ones the API wrote, by taking away what lanes added.
 */
import { describe, expect, it } from "vitest";
import { BACKFILL_BATCH } from "../../functions/src/domain/alarms/backfill.js";
import { newId } from "../../functions/src/domain/ids.js";
import { paths } from "../../functions/src/domain/paths.js";
import { readShards } from "../../functions/src/domain/revision.js";
import { runAlarmTick } from "../../functions/src/jobs/alarms.js";
import { appPerTest } from "../helpers/app.js";
import { seedEvents } from "../helpers/big-calendar.js";
import { mintAgent, newEvent } from "../helpers/factories.js";
import { get } from "../helpers/http.js";

const t = appPerTest();

/** Makes the store look as it did before lanes: entries without one, no heads, no tenants, nothing counted. */
async function asBeforeLanes(calendarId: string) {
  const [entries, heads, tenants, shards] = await Promise.all([
    t.deps.store.query(paths.alarmQueue()),
    t.deps.store.query(paths.alarmHeads()),
    t.deps.store.query(paths.alarmTenants()),
    t.deps.store.query(paths.shards(calendarId)),
  ]);
  await t.deps.store.runTransaction(async (tx) => {
    for (const entry of entries) {
      const { lane: _lane, ...old } = entry.data;
      tx.set(entry.path, old);
    }
    for (const doc of [...heads, ...tenants]) tx.delete(doc.path);
    for (const shard of shards) {
      const { alarm_event_count: _count, ...old } = shard.data;
      tx.set(shard.path, old);
    }
  });
}

const counted = async (calendarId: string) =>
  ((await readShards(t.deps.store, calendarId)) ?? []).reduce((sum, s) => sum + (s.alarm_event_count ?? 0), 0);

describe("entries from before lanes", () => {
  it("get their lane, head and tenant from the next tick, and fire once, counted in the quota", async () => {
    const owner = await mintAgent(t, "Owner");
    const cal = owner.calendarId;
    const { cursor } = (await get(t, `/v1/calendars/${cal}/changes`, owner.auth).expect(200)).body;
    const one = await newEvent(t, owner, cal, { date: "2026-11-22", start_time: "11:00", alarms: [30] });
    const daily = await newEvent(t, owner, cal, {
      recur: { type: "daily", starts: "2026-11-22" },
      start_time: "12:00",
      alarms: [15],
    });
    await asBeforeLanes(cal);
    expect(await t.deps.store.query(paths.alarmHeads())).toEqual([]);
    expect(await counted(cal)).toBe(0);

    t.clock.set("2026-11-22T12:00:00.000Z");
    expect(await runAlarmTick(t.deps)).toMatchObject({ fired: 2 });
    expect(await runAlarmTick(t.deps)).toMatchObject({ fired: 0 });
    const changes = (await get(t, `/v1/calendars/${cal}/changes?cursor=${cursor}&limit=200`, owner.auth)).body.changes;
    const alarms = changes.filter((c: { type: string }) => c.type === "alarm");
    // Settled in turns of their own lanes, at once: in either order.
    const fired = alarms.map((a: { event_id: string; due_at: string }) => [a.event_id, a.due_at]);
    expect(fired.sort((x: string[], y: string[]) => (x[1] < y[1] ? -1 : 1))).toEqual([
      [one.id, "2026-11-22T10:30:00.000Z"],
      [daily.id, "2026-11-22T11:45:00.000Z"],
    ]);
    // The one-off has nothing ahead; the series waits for tomorrow, in its lane, counted once.
    const [entry] = await t.deps.store.query(paths.alarmQueue());
    expect(entry.data).toMatchObject({ event_id: daily.id, due_at: "2026-11-23T11:45:00.000Z" });
    expect(entry.data.lane).toEqual(expect.any(Number));
    expect((await t.deps.store.get(paths.alarmHead(cal, entry.data.lane!)))?.data).toMatchObject({
      tenant: owner.agentId,
      due_at: "2026-11-23T11:45:00.000Z",
    });
    expect((await t.deps.store.get(paths.alarmTenant(owner.agentId)))?.data.due_at).toBe("2026-11-23T11:45:00.000Z");
    expect(await counted(cal)).toBe(1);
    expect((await t.deps.store.get(paths.alarmBackfill()))?.data.done_at).toBe("2026-11-22T12:00:00.000Z");
  });

  it("are taken a batch a transaction, across batches, each once", async () => {
    const owner = await mintAgent(t, "Owner");
    const cal = owner.calendarId;
    const count = BACKFILL_BATCH * 2 + 30;
    const events = await seedEvents(
      t.deps,
      cal,
      Array.from({ length: count }, (_, i) => ({
        id: newId("evt"),
        name: `Old ${i}`,
        date: "2026-11-22",
        start_time: "11:00",
        alarms: [0],
      })),
    );
    await t.deps.store.runTransaction(async (tx) => {
      for (const event of events)
        tx.set(paths.alarmQueueEntry(cal, event.id), {
          calendar_id: cal,
          event_id: event.id,
          due_at: "2026-11-22T11:00:00.000Z",
          fired_through: "2026-11-22T10:00:00.000Z",
        });
    });
    t.clock.set("2026-11-22T11:00:00.000Z");
    expect(await runAlarmTick(t.deps)).toMatchObject({ fired: count });
    expect(await t.deps.store.query(paths.alarmQueue())).toEqual([]);
    expect(await counted(cal)).toBe(0);
  });
});
