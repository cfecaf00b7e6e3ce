/**
 * A calendar's timezone change moves its events' alarm instants (docs/decisions/alarms.md,
 * "A timezone change"): the queued instants are recomputed by the next tick, so an alarm
 * moved earlier fires at its new instant, not its old one.
 */
import { describe, expect, it } from "vitest";
import { REQUEUE_BATCH } from "../../functions/src/domain/alarms/requeue.js";
import { runAlarmTick } from "../../functions/src/jobs/alarms.js";
import { paths } from "../../functions/src/domain/paths.js";
import { appPerTest } from "../helpers/app.js";
import { mintAgent, newCalendar, newEvent, patchCalendar } from "../helpers/factories.js";
import { get } from "../helpers/http.js";

const t = appPerTest();

async function world() {
  const owner = await mintAgent(t, "Owner");
  const cal = await newCalendar(t, owner, { timezone: "UTC" });
  const { cursor } = (await get(t, `/v1/calendars/${cal.id}/changes`, owner.auth).expect(200)).body;
  const alarms = async () => {
    const res = await get(t, `/v1/calendars/${cal.id}/changes?cursor=${cursor}&limit=200`, owner.auth).expect(200);
    return (res.body.changes as Array<Record<string, unknown>>).filter((c) => c.type === "alarm");
  };
  return { owner, cal, alarms };
}

const entry = async (calendarId: string, eventId: string) =>
  (await t.deps.store.get(paths.alarmQueueEntry(calendarId, eventId)))?.data ?? null;

describe("a timezone change", () => {
  it("moves the queued alarms to their new instants, earlier and later", async () => {
    const { owner, cal, alarms } = await world();
    // 12:00 in UTC; in Berlin (UTC+1 in November) 12:00 is 11:00Z, in New York (UTC-5) 17:00Z.
    const noon = await newEvent(t, owner, cal.id, {
      name: "Noon",
      date: "2026-11-22",
      start_time: "12:00",
      alarms: [0],
    });
    expect(await entry(cal.id, noon.id)).toMatchObject({ due_at: "2026-11-22T12:00:00.000Z" });

    await patchCalendar(t, owner, cal.id, { timezone: "Europe/Berlin" });
    t.clock.set("2026-11-22T11:00:01.000Z");
    expect(await runAlarmTick(t.deps)).toMatchObject({ fired: 1 });
    expect(await alarms()).toEqual([
      expect.objectContaining({
        event_id: noon.id,
        start: "2026-11-22T12:00:00+01:00",
        due_at: "2026-11-22T11:00:00.000Z",
      }),
    ]);
    expect(await t.deps.store.get(paths.alarmRequeue(cal.id))).toBeNull();

    const later = await newEvent(t, owner, cal.id, {
      name: "Later",
      date: "2026-11-23",
      start_time: "09:00",
      alarms: [0],
    });
    expect(await entry(cal.id, later.id)).toMatchObject({ due_at: "2026-11-23T08:00:00.000Z" });
    await patchCalendar(t, owner, cal.id, { timezone: "America/New_York" });
    t.clock.set("2026-11-23T08:00:01.000Z");
    expect(await runAlarmTick(t.deps)).toMatchObject({ fired: 0 });
    expect(await entry(cal.id, later.id)).toMatchObject({ due_at: "2026-11-23T14:00:00.000Z" });
  });

  it("requeues a calendar of more entries than one batch, across batches", async () => {
    const { owner, cal } = await world();
    const count = REQUEUE_BATCH + 20;
    for (let i = 0; i < count; i++) {
      await newEvent(t, owner, cal.id, { name: `E${i}`, date: "2026-11-22", start_time: "12:00", alarms: [0] });
    }
    await patchCalendar(t, owner, cal.id, { timezone: "Europe/Berlin" });
    t.clock.set("2026-11-22T11:00:01.000Z");
    const { fired } = await runAlarmTick(t.deps);
    expect(fired).toBe(count);
    expect(await t.deps.store.get(paths.alarmRequeue(cal.id))).toBeNull();
  });
});
