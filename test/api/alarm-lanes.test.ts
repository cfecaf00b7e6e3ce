/**
 * The index a tick walks (domain/alarms/lanes.ts, docs/decisions/alarms.md "Fair per agent and
 * per calendar"): event writes keep their lane's head and their tenant at or before their entry,
 * a tick's turns move them on (to a turn mark while work is left due, to the next instant, or
 * away), and a round gives each due head a few entries, so a pass cut to one round leaves marks.
 */
import { describe, expect, it } from "vitest";
import { dueBound, instantOf, laneOf, turnMark } from "../../functions/src/domain/alarms/lanes.js";
import { paths } from "../../functions/src/domain/paths.js";
import { ENTRIES_PER_TURN, runAlarmTick } from "../../functions/src/jobs/alarms.js";
import { budgetOf } from "../../functions/src/jobs/pass.js";
import { appPerTest } from "../helpers/app.js";
import { del, get } from "../helpers/http.js";
import { mintAgent, newEvent } from "../helpers/factories.js";

const t = appPerTest();

const heads = async () => (await t.deps.store.query(paths.alarmHeads())).map((h) => h.data);
const tenant = async (id: string) => (await t.deps.store.get(paths.alarmTenant(id)))?.data.due_at ?? null;

/** Every head is at or before its lane's earliest entry, and the tenant at or before its earliest head. */
async function expectIndexAhead(agentId: string) {
  const entries = (await t.deps.store.query(paths.alarmQueue())).map((e) => e.data);
  const all = await heads();
  for (const entry of entries) {
    const head = all.find((h) => h.calendar_id === entry.calendar_id && h.lane === entry.lane);
    expect(head, `head of ${entry.event_id}`).toBeDefined();
    expect(head!.due_at <= entry.due_at || instantOf(head!.due_at) <= Date.parse(entry.due_at)).toBe(true);
  }
  const first = all.map((h) => h.due_at).sort()[0];
  if (first !== undefined) expect((await tenant(agentId))! <= first).toBe(true);
}

describe("turn marks", () => {
  it("sort after every head due at their instant and before the next millisecond, and stand for it", () => {
    const at = "2026-11-22T12:00:00.000Z";
    const mark = turnMark(at, 7);
    expect(at < mark && mark < turnMark(at, 8) && turnMark(at, 8) < "2026-11-22T12:00:00.001Z").toBe(true);
    expect(mark <= dueBound(at) && "2026-11-22T12:00:00.001Z" > dueBound(at)).toBe(true);
    expect(instantOf(mark)).toBe(Date.parse(at));
  });
});

describe("the index of the alarm queue", () => {
  it("follows writes: a sooner alarm brings its head and tenant forward, a tick moves them on, an empty lane loses its head", async () => {
    const owner = await mintAgent(t, "Owner");
    const cal = owner.calendarId;
    const later = await newEvent(t, owner, cal, { date: "2026-11-22", start_time: "12:30", alarms: [30] });
    expect(await tenant(owner.agentId)).toBe("2026-11-22T12:00:00.000Z");
    const sooner = await newEvent(t, owner, cal, { date: "2026-11-22", start_time: "11:30", alarms: [30] });
    expect(await tenant(owner.agentId)).toBe("2026-11-22T11:00:00.000Z");
    expect((await heads()).map((h) => h.tenant)).toEqual(expect.arrayContaining([owner.agentId]));
    await expectIndexAhead(owner.agentId);

    // Deleting the sooner event leaves the index early: the tick's turn finds nothing and moves on.
    await del(t, `/v1/calendars/${cal}/events/${sooner.id}`, owner.auth).expect(200);
    t.clock.set("2026-11-22T11:00:00.000Z");
    expect(await runAlarmTick(t.deps)).toMatchObject({
      fired: 0,
      more: false,
      nextDueAt: Date.parse("2026-11-22T12:00:00.000Z"),
    });
    expect(await tenant(owner.agentId)).toBe("2026-11-22T12:00:00.000Z");
    expect(await heads()).toEqual([
      {
        calendar_id: cal,
        lane: laneOf(later.id),
        tenant: owner.agentId,
        due_at: "2026-11-22T12:00:00.000Z",
        event_id: later.id,
      },
    ]);

    t.clock.set("2026-11-22T12:00:00.000Z");
    expect(await runAlarmTick(t.deps)).toMatchObject({ fired: 1, nextDueAt: null });
    expect(await heads()).toEqual([]);
    expect(await tenant(owner.agentId)).toBeNull();
  });

  it("a round gives a head a few entries and marks it behind those waiting; a write meanwhile keeps its place", async () => {
    const owner = await mintAgent(t, "Owner");
    const cal = owner.calendarId;
    const { cursor } = (await get(t, `/v1/calendars/${cal}/changes`, owner.auth).expect(200)).body;
    // Events until one lane holds more than a turn's entries, all due at 11:00.
    const byLane = new Map<number, string[]>();
    while (![...byLane.values()].some((ids) => ids.length > ENTRIES_PER_TURN)) {
      const e = await newEvent(t, owner, cal, { date: "2026-11-22", start_time: "11:30", alarms: [30] });
      byLane.set(laneOf(e.id), [...(byLane.get(laneOf(e.id)) ?? []), e.id]);
    }
    const total = [...byLane.values()].flat().length;
    const [busy] = [...byLane.entries()].find(([, ids]) => ids.length > ENTRIES_PER_TURN)!;

    t.clock.set("2026-11-22T11:00:00.000Z");
    // No time left after the first round: one round, and more to do.
    const first = await runAlarmTick(t.deps, { budget: budgetOf(0) });
    expect(first).toMatchObject({ rounds: 1, more: true, turns: byLane.size });
    const busyHead = (await heads()).find((h) => h.lane === busy)!;
    expect(busyHead.due_at).toMatch(/^2026-11-22T11:00:00\.000Z#\d{12}$/);
    expect((await tenant(owner.agentId))!).toMatch(/#/);

    // A write to the busy lane meanwhile, due later: the head keeps its mark, and its entries still come first.
    let written: string;
    do written = (await newEvent(t, owner, cal, { date: "2026-11-22", start_time: "13:00", alarms: [0] })).id;
    while (laneOf(written) !== busy);
    expect((await heads()).find((h) => h.lane === busy)!.due_at).toBe(busyHead.due_at);
    await expectIndexAhead(owner.agentId);
    const rest = await runAlarmTick(t.deps);
    expect(first.fired + rest.fired).toBe(total);
    const res = await get(t, `/v1/calendars/${cal}/changes?cursor=${cursor}&limit=200`, owner.auth).expect(200);
    const alarms = res.body.changes.filter((c: { type: string }) => c.type === "alarm");
    expect(new Set(alarms.map((a: { id: string }) => a.id)).size).toBe(total);
    expect(await tenant(owner.agentId)).toBe("2026-11-22T13:00:00.000Z");
  });
});
