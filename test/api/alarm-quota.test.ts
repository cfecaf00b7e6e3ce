/**
 * The quota of events with an alarm ahead per calendar (docs/api.md#quotas,
 * `events_with_alarms_per_calendar`; domain/alarms/quota.ts), with a limit of 3 injected through
 * the configuration: a write that would queue one more event's alarms is refused with
 * 403 quota_exceeded and writes nothing; events without an alarm ahead, and writes of an event
 * already queued, take no place; a deleted event, or one whose last alarm fired, gives its place
 * back; parallel creates never overshoot. What the store holds is checked after each step: the
 * queue's entries and the count on the calendar's shards.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { paths } from "../../functions/src/domain/paths.js";
import { readShards } from "../../functions/src/domain/revision.js";
import { runAlarmTick } from "../../functions/src/jobs/alarms.js";
import { appPerTest } from "../helpers/app.js";
import { del, expectError, patch, post } from "../helpers/http.js";
import { mintAgent, newCalendar, newEvent, type MintedAgent } from "../helpers/factories.js";

const LIMIT = 3;
const t = appPerTest();
let a: MintedAgent;

beforeEach(async () => {
  t.deps.config = { ...t.deps.config, quotas: { ...t.deps.config.quotas, events_with_alarms_per_calendar: LIMIT } };
  a = await mintAgent(t, "Alpha");
});

const eventsPath = (calendarId: string) => `/v1/calendars/${calendarId}/events`;
/** Now is 2026-11-22T10:00Z (test/helpers/app.ts): these alarms lie ahead. */
const alarmed = (name: string) => ({ name, date: "2026-11-23", start_time: "09:00", alarms: [15] });

function expectAlarmQuota(res: { status: number; body: { error?: { details?: unknown; message?: string } } }) {
  expectError(res as never, 403, "quota_exceeded");
  expect(res.body.error?.details).toEqual({ quota: "events_with_alarms_per_calendar", limit: LIMIT });
  expect(res.body.error?.message).toContain("3 events with an alarm ahead");
}

/** What the store holds for a calendar: its queue entries and its shards' count of events with alarms. */
async function stored(calendarId: string) {
  const entries = await t.deps.store.query(paths.alarmQueue(), { where: [["calendar_id", "==", calendarId]] });
  const shards = (await readShards(t.deps.store, calendarId)) ?? [];
  return {
    entries: entries.length,
    counted: shards.reduce((sum, s) => sum + (s.alarm_event_count ?? 0), 0),
    events: (await t.deps.store.query(paths.events(calendarId))).length,
  };
}

describe("events with an alarm ahead per calendar", () => {
  it("climbs 401 -> 400 -> 403 -> success, and stores nothing for a refused write", async () => {
    const cal = a.calendarId;
    expectError(await post(t, eventsPath(cal)).send(alarmed("No token")), 401, "unauthorized");
    expectError(await post(t, eventsPath(cal), a.auth).send({ ...alarmed("Bad"), alarms: [-1] }), 400, "invalid_event");
    for (let i = 0; i < LIMIT; i++) await newEvent(t, a, cal, alarmed(`E${i}`));
    expect(await stored(cal)).toEqual({ entries: 3, counted: 3, events: 3 });

    const refused = await post(t, eventsPath(cal), a.auth).send(alarmed("Fourth"));
    expectAlarmQuota(refused);
    expect(await stored(cal)).toEqual({ entries: 3, counted: 3, events: 3 });

    // No alarm ahead, no place: without alarms, or with alarms all past already.
    const plain = await newEvent(t, a, cal, { name: "Plain", date: "2026-11-23" });
    await newEvent(t, a, cal, { name: "Past", date: "2026-11-21", start_time: "09:00", alarms: [15] });
    expect(await stored(cal)).toEqual({ entries: 3, counted: 3, events: 5 });
    // Giving the plain event an alarm ahead would take a place: refused, and it keeps none.
    expectAlarmQuota(await patch(t, `${eventsPath(cal)}/${plain.id}`, a.auth).send({ alarms: [10] }));
    expect((await t.deps.store.get(paths.event(cal, plain.id)))?.data.alarms).toEqual([]);

    // Another calendar of the agent has its own places.
    const other = await newCalendar(t, a, { name: "Other" });
    await newEvent(t, a, other.id, alarmed("Elsewhere"));
    expect(await stored(other.id)).toEqual({ entries: 1, counted: 1, events: 1 });
  });

  it("a write of an event already queued takes no place; a deletion gives one back", async () => {
    const cal = a.calendarId;
    const events = [];
    for (let i = 0; i < LIMIT; i++) events.push(await newEvent(t, a, cal, alarmed(`E${i}`)));
    // Full, yet moving a queued event, or changing its alarms, is a write of what it holds.
    await patch(t, `${eventsPath(cal)}/${events[0].id}`, a.auth)
      .send({ start_time: "10:00", alarms: [30, 5] })
      .expect(200);
    expect(await stored(cal)).toEqual({ entries: 3, counted: 3, events: 3 });
    // Clearing one's alarms gives its place back, and so does deleting one.
    await patch(t, `${eventsPath(cal)}/${events[0].id}`, a.auth)
      .send({ alarms: null })
      .expect(200);
    expect(await stored(cal)).toEqual({ entries: 2, counted: 2, events: 3 });
    await del(t, `${eventsPath(cal)}/${events[1].id}`, a.auth).expect(200);
    expect(await stored(cal)).toEqual({ entries: 1, counted: 1, events: 2 });
    await newEvent(t, a, cal, alarmed("Back"));
    await newEvent(t, a, cal, alarmed("Again"));
    expect(await stored(cal)).toEqual({ entries: 3, counted: 3, events: 4 });
    expectAlarmQuota(await post(t, eventsPath(cal), a.auth).send(alarmed("Over")));
  });

  it("a one-off whose last alarm fired gives its place back; a series keeps its own", async () => {
    const cal = a.calendarId;
    await newEvent(t, a, cal, alarmed("One-off"));
    await newEvent(t, a, cal, {
      name: "Daily",
      recur: { type: "daily", starts: "2026-11-23" },
      start_time: "09:00",
      alarms: [15],
    });
    await newEvent(t, a, cal, alarmed("Another"));
    expectAlarmQuota(await post(t, eventsPath(cal), a.auth).send(alarmed("Over")));

    t.clock.set("2026-11-23T09:00:00.000Z");
    expect(await runAlarmTick(t.deps)).toMatchObject({ fired: 3 });
    // The one-offs have no alarm ahead now; the series waits for the next day's.
    expect(await stored(cal)).toEqual({ entries: 1, counted: 1, events: 3 });
    await newEvent(t, a, cal, { ...alarmed("Tomorrow"), date: "2026-11-24" });
    expect(await stored(cal)).toEqual({ entries: 2, counted: 2, events: 4 });
  });

  it("10 parallel creates on an empty calendar queue exactly 3", async () => {
    const cal = (await newCalendar(t, a, { name: "Race" })).id;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(t, eventsPath(cal), a.auth).send(alarmed(`R${i}`))),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(LIMIT);
    for (const refused of answers.filter((r) => r.status !== 200)) expectAlarmQuota(refused);
    expect(await stored(cal)).toEqual({ entries: 3, counted: 3, events: 3 });
  });
});
