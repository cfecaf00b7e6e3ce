/**
 * Alarms firing (docs/api.md#alarms, docs/decisions/alarms.md): a tick appends one `alarm`
 * change per (event, occurrence, offset) to the calendar's change feed, read here through
 * GET .../changes, with the clock moved by hand and ticks run by the test.
 */
import { describe, expect, it } from "vitest";
import { runAlarmTick } from "../../functions/src/jobs/alarms.js";
import { alarmChangeId } from "../../functions/src/domain/alarms/queue.js";
import { paths } from "../../functions/src/domain/paths.js";
import { appPerTest } from "../helpers/app.js";
import { del, get, patch } from "../helpers/http.js";
import { mintAgent, newCalendar, newEvent, type MintedAgent } from "../helpers/factories.js";

const t = appPerTest();

type Change = Record<string, unknown> & { type: string; id: string };

/** A calendar in `timezone` and a reader's cursor at its start. */
async function world(timezone = "UTC") {
  const owner = await mintAgent(t, "Owner");
  const cal = await newCalendar(t, owner, { timezone });
  const first = await get(t, `/v1/calendars/${cal.id}/changes`, owner.auth).expect(200);
  return { owner, cal, cursor: first.body.cursor as string };
}

/** The alarm changes after `cursor`, and the cursor after them. */
async function alarmsAfter(owner: MintedAgent, calendarId: string, cursor: string) {
  const res = await get(t, `/v1/calendars/${calendarId}/changes?cursor=${cursor}&limit=200`, owner.auth).expect(200);
  const changes = (res.body.changes as Change[]).filter((c) => c.type === "alarm");
  return { alarms: changes, cursor: res.body.cursor as string };
}

const brief = (c: Change) => `${String(c.original_date)} ${String(c.minutes_before)}`;

const queueEntry = async (calendarId: string, eventId: string) =>
  (await t.deps.store.get(paths.alarmQueueEntry(calendarId, eventId)))?.data ?? null;

const tick = () => runAlarmTick(t.deps);

describe("alarms fire into the change feed", () => {
  it("appends each alarm once its instant passes, with the occurrence's fields, once however often ticks run", async () => {
    const { owner, cal, cursor } = await world();
    const event = await newEvent(t, owner, cal.id, {
      name: "Launch",
      date: "2026-11-22",
      start_time: "12:00",
      end_time: "13:00",
      alarms: [15, 60],
    });
    expect(await queueEntry(cal.id, event.id)).toMatchObject({
      due_at: "2026-11-22T11:00:00.000Z",
      fired_through: "2026-11-22T10:00:00.000Z",
    });

    t.clock.set("2026-11-22T10:59:59.999Z");
    expect(await tick()).toMatchObject({ due: 0, fired: 0 });
    t.clock.set("2026-11-22T11:30:00.000Z");
    expect(await tick()).toMatchObject({ due: 1, fired: 1 });
    expect(await tick()).toMatchObject({ due: 0, fired: 0 });
    const first = await alarmsAfter(owner, cal.id, cursor);
    expect(first.alarms).toHaveLength(1);
    expect(first.alarms[0]).toMatchObject({
      type: "alarm",
      event_id: event.id,
      original_date: "2026-11-22",
      date: "2026-11-22",
      start: "2026-11-22T12:00:00+00:00",
      end: "2026-11-22T13:00:00+00:00",
      minutes_before: 60,
      name: "Launch",
      layer: "main",
      due_at: "2026-11-22T11:00:00.000Z",
      at: "2026-11-22T11:30:00.000Z",
    });
    expect(first.alarms[0].id).toMatch(/^alm_[0-9a-f]{24}$/);
    expect(first.alarms[0]).not.toHaveProperty("event");
    expect(await queueEntry(cal.id, event.id)).toMatchObject({ due_at: "2026-11-22T11:45:00.000Z" });

    t.clock.set("2026-11-22T12:00:00.000Z");
    await Promise.all([tick(), tick()]);
    await tick();
    const second = await alarmsAfter(owner, cal.id, first.cursor);
    expect(second.alarms.map(brief)).toEqual(["2026-11-22 15"]);
    expect(second.alarms[0].id).not.toBe(first.alarms[0].id);
    // Nothing lies ahead: the entry goes.
    expect(await queueEntry(cal.id, event.id)).toBeNull();
  });

  it("follows exceptions: a moved occurrence alarms from its new time, a cancelled one and one with [] never", async () => {
    const { owner, cal, cursor } = await world();
    const series = await newEvent(t, owner, cal.id, {
      name: "Standup",
      recur: { type: "daily", starts: "2026-11-23" },
      start_time: "09:00",
      end_time: "09:15",
      alarms: [30],
    });
    const occurrence = (date: string) => `/v1/calendars/${cal.id}/events/${series.id}/occurrences/${date}`;
    await patch(t, occurrence("2026-11-24"), owner.auth).send({ start_time: "14:00", end_time: "14:30" }).expect(200);
    await patch(t, occurrence("2026-11-25"), owner.auth).send({ cancelled: true }).expect(200);
    await patch(t, occurrence("2026-11-26"), owner.auth).send({ alarms: [] }).expect(200);
    await patch(t, occurrence("2026-11-27"), owner.auth)
      .send({ date: "2026-11-28", alarms: [120, 5] })
      .expect(200);

    t.clock.set("2026-11-28T10:00:00.000Z");
    expect((await tick()).fired).toBe(5);
    const { alarms } = await alarmsAfter(owner, cal.id, cursor);
    expect(alarms.map((a) => [a.original_date, a.date, a.start, a.minutes_before, a.due_at])).toEqual([
      ["2026-11-23", "2026-11-23", "2026-11-23T09:00:00+00:00", 30, "2026-11-23T08:30:00.000Z"],
      ["2026-11-24", "2026-11-24", "2026-11-24T14:00:00+00:00", 30, "2026-11-24T13:30:00.000Z"],
      ["2026-11-27", "2026-11-28", "2026-11-28T09:00:00+00:00", 120, "2026-11-28T07:00:00.000Z"],
      ["2026-11-28", "2026-11-28", "2026-11-28T09:00:00+00:00", 30, "2026-11-28T08:30:00.000Z"],
      ["2026-11-27", "2026-11-28", "2026-11-28T09:00:00+00:00", 5, "2026-11-28T08:55:00.000Z"],
    ]);
    expect(await queueEntry(cal.id, series.id)).toMatchObject({ due_at: "2026-11-29T08:30:00.000Z" });
  });

  it("a restored occurrence alarms again, and the queue follows each occurrence write", async () => {
    const { owner, cal, cursor } = await world();
    const series = await newEvent(t, owner, cal.id, {
      recur: { type: "daily", starts: "2026-11-23" },
      start_time: "09:00",
      alarms: [30],
    });
    const occurrence = `/v1/calendars/${cal.id}/events/${series.id}/occurrences/2026-11-23`;
    await patch(t, occurrence, owner.auth).send({ cancelled: true }).expect(200);
    expect(await queueEntry(cal.id, series.id)).toMatchObject({ due_at: "2026-11-24T08:30:00.000Z" });
    await del(t, occurrence, owner.auth).expect(200);
    expect(await queueEntry(cal.id, series.id)).toMatchObject({ due_at: "2026-11-23T08:30:00.000Z" });
    t.clock.set("2026-11-23T09:00:00.000Z");
    await tick();
    expect((await alarmsAfter(owner, cal.id, cursor)).alarms.map(brief)).toEqual(["2026-11-23 30"]);
  });

  it("an all-day occurrence alarms before the first instant of its date in the calendar's zone", async () => {
    const { owner, cal, cursor } = await world("Europe/Berlin");
    await newEvent(t, owner, cal.id, { name: "Holiday", date: "2026-11-25", alarms: [60] });
    t.clock.set("2026-11-24T22:00:00.000Z");
    await tick();
    const { alarms } = await alarmsAfter(owner, cal.id, cursor);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({ date: "2026-11-25", start: null, end: null, due_at: "2026-11-24T22:00:00.000Z" });
  });

  it("never fires an alarm past when it was written, nor one removed or moved before its instant", async () => {
    const { owner, cal, cursor } = await world();
    const eventPath = (id: string) => `/v1/calendars/${cal.id}/events/${id}`;
    // 09:30 is past at creation (10:00); 10:20 is ahead.
    const early = await newEvent(t, owner, cal.id, { date: "2026-11-22", start_time: "10:30", alarms: [60, 10] });
    const removed = await newEvent(t, owner, cal.id, { date: "2026-11-22", start_time: "12:00", alarms: [15] });
    const moved = await newEvent(t, owner, cal.id, { date: "2026-11-22", start_time: "12:00", alarms: [15] });
    const deleted = await newEvent(t, owner, cal.id, { date: "2026-11-22", start_time: "12:00", alarms: [15] });

    t.clock.set("2026-11-22T11:00:00.000Z");
    await patch(t, eventPath(removed.id), owner.auth).send({ alarms: null }).expect(200);
    expect(await queueEntry(cal.id, removed.id)).toBeNull();
    await patch(t, eventPath(moved.id), owner.auth).send({ start_time: "13:00" }).expect(200);
    await del(t, eventPath(deleted.id), owner.auth).expect(200);
    expect(await queueEntry(cal.id, deleted.id)).toBeNull();
    // An alarm added once its instant has passed (10:30 - 20 min) is not due: it never existed then.
    await patch(t, eventPath(early.id), owner.auth)
      .send({ alarms: [60, 20, 10] })
      .expect(200);

    t.clock.set("2026-11-22T13:00:00.000Z");
    await tick();
    const { alarms } = await alarmsAfter(owner, cal.id, cursor);
    expect(alarms.map((a) => [a.event_id, a.minutes_before, a.due_at])).toEqual([
      // Due at 10:20, recorded by the PATCH at 11:00 that found it not yet recorded.
      [early.id, 10, "2026-11-22T10:20:00.000Z"],
      [moved.id, 15, "2026-11-22T12:45:00.000Z"],
    ]);
    expect(alarms[0].at).toBe("2026-11-22T11:00:00.000Z");
  });

  it("an alarm that fell due before a write no tick has seen is recorded once, by that write", async () => {
    const { owner, cal, cursor } = await world();
    const event = await newEvent(t, owner, cal.id, { date: "2026-11-22", start_time: "11:00", alarms: [30] });
    t.clock.set("2026-11-22T10:45:00.000Z");
    await del(t, `/v1/calendars/${cal.id}/events/${event.id}`, owner.auth).expect(200);
    await tick();
    const { alarms } = await alarmsAfter(owner, cal.id, cursor);
    expect(alarms.map(brief)).toEqual(["2026-11-22 30"]);
    expect(await queueEntry(cal.id, event.id)).toBeNull();
  });

  it("two ticks at once over one store write each alarm once", async () => {
    const { owner, cal, cursor } = await world();
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const event = await newEvent(t, owner, cal.id, { date: "2026-11-22", start_time: "11:00", alarms: [30, 10] });
      ids.push(event.id);
    }
    t.clock.set("2026-11-22T11:00:00.000Z");
    const results = await Promise.all([tick(), tick(), tick()]);
    expect(results.reduce((sum, r) => sum + r.fired, 0)).toBe(60);
    const { alarms } = await alarmsAfter(owner, cal.id, cursor);
    expect(alarms).toHaveLength(60);
    expect(new Set(alarms.map((a) => a.id)).size).toBe(60);
    expect(new Set(alarms.map((a) => a.event_id))).toEqual(new Set(ids));
  });

  it("names each alarm by the instant it falls at: moved a minute later, it fires again under a new id", async () => {
    const { owner, cal, cursor } = await world();
    const event = await newEvent(t, owner, cal.id, { date: "2026-11-22", start_time: "11:00", alarms: [30] });
    t.clock.set("2026-11-22T10:30:00.000Z");
    await tick();
    const first = await alarmsAfter(owner, cal.id, cursor);
    expect(first.alarms.map((a) => [a.id, a.due_at])).toEqual([
      [expect.stringMatching(/^alm_[0-9a-f]{24}$/), "2026-11-22T10:30:00.000Z"],
    ]);

    await patch(t, `/v1/calendars/${cal.id}/events/${event.id}`, owner.auth).send({ start_time: "11:01" }).expect(200);
    t.clock.set("2026-11-22T10:31:00.000Z");
    await tick();
    const second = await alarmsAfter(owner, cal.id, first.cursor);
    expect(second.alarms.map((a) => [a.original_date, a.minutes_before, a.due_at])).toEqual([
      ["2026-11-22", 30, "2026-11-22T10:31:00.000Z"],
    ]);
    // Same event, occurrence and offset, another instant: another id, which a receiver keeping
    // the ids it has seen does not drop.
    expect(second.alarms[0].id).toMatch(/^alm_[0-9a-f]{24}$/);
    expect(second.alarms[0].id).not.toBe(first.alarms[0].id);
    // The id is a function of what it names: the same alarm at the same instant, whoever records it, has one id.
    for (const a of [...first.alarms, ...second.alarms]) {
      const named = { event_id: event.id, original_date: "2026-11-22", minutes_before: 30, due_at: a.due_at as string };
      expect(a.id).toBe(alarmChangeId(named));
    }
  });

  it("wakes a reader waiting on the feed", async () => {
    const { owner, cal, cursor } = await world();
    await newEvent(t, owner, cal.id, { date: "2026-11-22", start_time: "11:00", alarms: [30] });
    const waiting = get(t, `/v1/calendars/${cal.id}/changes?cursor=${cursor}&wait=20`, owner.auth);
    const answered = waiting.then((res) => ({ res, at: performance.now() }));
    // The event.created change answers at once; wait again from after it.
    const { res: created } = await answered;
    expect(created.body.changes.map((c: Change) => c.type)).toEqual(["event.created"]);
    const waitingAgain = get(
      t,
      `/v1/calendars/${cal.id}/changes?cursor=${created.body.cursor}&wait=20`,
      owner.auth,
    ).then((res) => ({ res, at: performance.now() }));
    await new Promise((done) => setTimeout(done, 200));
    t.clock.set("2026-11-22T10:30:00.000Z");
    const ticked = performance.now();
    await tick();
    const { res, at } = await waitingAgain;
    expect(res.body.changes.map((c: Change) => c.type)).toEqual(["alarm"]);
    expect(at - ticked).toBeLessThan(1_000);
  });
});
