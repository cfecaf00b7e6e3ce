/**
 * Alarms over HTTP (docs/api.md#alarms): on events (create, PATCH, clearing), on one occurrence
 * (an exception's own list, and null to follow the event again), in `/occurrences`, and what the
 * store holds after each step.
 */
import { describe, expect, it } from "vitest";
import { paths } from "../../functions/src/domain/paths.js";
import { appPerTest } from "../helpers/app.js";
import { expectError, get, patch, post } from "../helpers/http.js";
import { mintAgent, newCalendar, newEvent } from "../helpers/factories.js";

const t = appPerTest();

const eventsPath = (calendarId: string) => `/v1/calendars/${calendarId}/events`;

const storedEvent = async (calendarId: string, eventId: string) =>
  (await t.deps.store.get(paths.event(calendarId, eventId)))?.data;

const storedException = async (calendarId: string, eventId: string, date: string) =>
  (await t.deps.store.get(paths.exception(calendarId, eventId, date)))?.data;

/** Each is refused with 400 invalid_event naming `alarms`. */
const BAD_ALARMS: unknown[] = [
  [1, 2, 3, 4, 5, 6],
  [-1],
  [40_321],
  [1.5],
  ["15"],
  [15, 60, 15],
  "15",
  { at: 15 },
  [null],
];

async function expectAlarmsRefused(send: (alarms: unknown) => Promise<import("supertest").Response>) {
  for (const alarms of BAD_ALARMS) {
    const res = await send(alarms);
    expectError(res, 400, "invalid_event");
    expect(res.body.error.details.field, JSON.stringify(alarms)).toBe("alarms");
    expect(res.body.error.message).toMatch(/^`alarms` /);
  }
}

describe("alarms on events", () => {
  it("POST climbs 401 -> 400 -> 404 -> success, stored and answered distinct, largest first", async () => {
    const owner = await mintAgent(t, "Owner");
    const cal = await newCalendar(t, owner);
    const body = { name: "Launch", date: "2027-03-10", start_time: "09:00", alarms: [15, 1440, 0] };

    expectError(await post(t, eventsPath(cal.id)).send(body), 401, "unauthorized");
    await expectAlarmsRefused((alarms) => post(t, eventsPath(cal.id), owner.auth).send({ ...body, alarms }));
    const duplicate = await post(t, eventsPath(cal.id), owner.auth).send({ ...body, alarms: [15, 15] });
    expect(duplicate.body.error.message).toContain("lists 15 twice");
    const tooMany = await post(t, eventsPath(cal.id), owner.auth).send({ ...body, alarms: [1, 2, 3, 4, 5, 6] });
    expect(tooMany.body.error.message).toContain("at most 5");
    expectError(await post(t, eventsPath("cal_missing"), owner.auth).send(body), 404, "not_found");
    expect(await t.deps.store.query(paths.events(cal.id))).toEqual([]);

    const event = await newEvent(t, owner, cal.id, body);
    expect(event.alarms).toEqual([1440, 15, 0]);
    expect((await storedEvent(cal.id, event.id))?.alarms).toEqual([1440, 15, 0]);
    const got = await get(t, `${eventsPath(cal.id)}/${event.id}`, owner.auth).expect(200);
    expect(got.body.alarms).toEqual([1440, 15, 0]);

    // Every event answers with a list, [] without alarms; the edges of the range are accepted.
    const plain = await newEvent(t, owner, cal.id, { name: "Plain" });
    expect(plain.alarms).toEqual([]);
    const edges = await newEvent(t, owner, cal.id, { name: "Edges", date: "2027-03-11", alarms: [0, 40_320] });
    expect(edges.alarms).toEqual([40_320, 0]);
    const listed = await get(t, eventsPath(cal.id), owner.auth).expect(200);
    expect(
      Object.fromEntries(listed.body.events.map((e: { name: string; alarms: number[] }) => [e.name, e.alarms])),
    ).toEqual({ Launch: [1440, 15, 0], Plain: [], Edges: [40_320, 0] });
  });

  it("PATCH climbs 401 -> 400 -> 404, keeps alarms it is not sent, and clears them with null or []", async () => {
    const owner = await mintAgent(t, "Owner");
    const cal = await newCalendar(t, owner);
    const event = await newEvent(t, owner, cal.id, { name: "Review", date: "2027-03-10", alarms: [30] });
    const path = `${eventsPath(cal.id)}/${event.id}`;

    expectError(await patch(t, path).send({ alarms: [10] }), 401, "unauthorized");
    await expectAlarmsRefused((alarms) => patch(t, path, owner.auth).send({ alarms }));
    expectError(
      await patch(t, `${eventsPath(cal.id)}/evt_missing`, owner.auth).send({ alarms: [10] }),
      404,
      "not_found",
    );
    expect((await storedEvent(cal.id, event.id))?.alarms).toEqual([30]);

    const renamed = await patch(t, path, owner.auth).send({ name: "Design review" }).expect(200);
    expect(renamed.body.alarms).toEqual([30]);
    const set = await patch(t, path, owner.auth)
      .send({ alarms: [5, 120] })
      .expect(200);
    expect(set.body.alarms).toEqual([120, 5]);
    expect((await storedEvent(cal.id, event.id))?.alarms).toEqual([120, 5]);

    const cleared = await patch(t, path, owner.auth).send({ alarms: null }).expect(200);
    expect(cleared.body.alarms).toEqual([]);
    expect((await storedEvent(cal.id, event.id))?.alarms).toEqual([]);

    await patch(t, path, owner.auth)
      .send({ alarms: [60] })
      .expect(200);
    const emptied = await patch(t, path, owner.auth).send({ alarms: [] }).expect(200);
    expect(emptied.body.alarms).toEqual([]);
    expect((await storedEvent(cal.id, event.id))?.alarms).toEqual([]);
    // Alarms are not a time of the event: the feeds' SEQUENCE stays.
    expect((await storedEvent(cal.id, event.id))?.sequence).toBeUndefined();
  });

  it("the change feed's event carries its alarms", async () => {
    const owner = await mintAgent(t, "Owner");
    const cal = await newCalendar(t, owner);
    // Without a cursor the feed starts now: take it before the write.
    const start = await get(t, `/v1/calendars/${cal.id}/changes`, owner.auth).expect(200);
    await newEvent(t, owner, cal.id, { name: "Launch", date: "2027-03-10", alarms: [15] });
    const res = await get(t, `/v1/calendars/${cal.id}/changes?cursor=${start.body.cursor}`, owner.auth).expect(200);
    const created = res.body.changes.find((c: { type: string }) => c.type === "event.created");
    expect(created.event.alarms).toEqual([15]);
  });
});

describe("alarms of one occurrence", () => {
  const weekly = {
    name: "Standup",
    recur: { type: "weekly", day: 1, starts: "2027-01-04" },
    start_time: "09:30",
    alarms: [30],
  };

  const occurrences = async (calendarId: string, auth: { Authorization: string }) => {
    const res = await get(t, `/v1/calendars/${calendarId}/occurrences?from=2027-01-01&to=2027-01-31`, auth).expect(200);
    return Object.fromEntries(
      res.body.occurrences.map((o: { original_date: string; alarms: number[] }) => [o.original_date, o.alarms]),
    );
  };

  it("an exception sets its own alarms ([] = none) and null makes it follow the event again", async () => {
    const owner = await mintAgent(t, "Owner");
    const cal = await newCalendar(t, owner);
    const event = await newEvent(t, owner, cal.id, weekly);
    const path = `${eventsPath(cal.id)}/${event.id}/occurrences/2027-01-11`;

    expectError(await patch(t, path).send({ alarms: [5] }), 401, "unauthorized");
    await expectAlarmsRefused((alarms) => patch(t, path, owner.auth).send({ alarms }));
    const cancelling = await patch(t, path, owner.auth).send({ cancelled: true, alarms: [5] });
    expectError(cancelling, 400, "invalid_event");
    expect(cancelling.body.error.message).toContain("`alarms`");
    expectError(
      await patch(t, path.replace("2027-01-11", "2027-01-12"), owner.auth).send({ alarms: [5] }),
      404,
      "not_found",
    );
    expect(await storedException(cal.id, event.id, "2027-01-11")).toBeUndefined();

    const own = await patch(t, path, owner.auth)
      .send({ alarms: [5, 45] })
      .expect(200);
    expect(own.body.exception).toMatchObject({ original_date: "2027-01-11", cancelled: false, alarms: [45, 5] });
    expect((await storedException(cal.id, event.id, "2027-01-11"))?.alarms).toEqual([45, 5]);
    expect(await occurrences(cal.id, owner.auth)).toEqual({
      "2027-01-04": [30],
      "2027-01-11": [45, 5],
      "2027-01-18": [30],
      "2027-01-25": [30],
    });

    // Another change of the occurrence keeps its alarms; [] silences it alone.
    const moved = await patch(t, path, owner.auth).send({ start_time: "10:00" }).expect(200);
    expect(moved.body.exception.alarms).toEqual([45, 5]);
    await patch(t, path, owner.auth).send({ alarms: [] }).expect(200);
    expect((await occurrences(cal.id, owner.auth))["2027-01-11"]).toEqual([]);

    // The event's alarms change everywhere the occurrences follow them, not where one has its own.
    await patch(t, `${eventsPath(cal.id)}/${event.id}`, owner.auth)
      .send({ alarms: [60, 10] })
      .expect(200);
    expect(await occurrences(cal.id, owner.auth)).toMatchObject({ "2027-01-04": [60, 10], "2027-01-11": [] });

    const following = await patch(t, path, owner.auth).send({ alarms: null }).expect(200);
    expect(following.body.exception.alarms).toBeNull();
    const stored = await storedException(cal.id, event.id, "2027-01-11");
    expect(stored).toMatchObject({ start_time: "10:00" });
    expect(stored && "alarms" in stored).toBe(false);
    expect((await occurrences(cal.id, owner.auth))["2027-01-11"]).toEqual([60, 10]);
  });

  it("a cancelled occurrence has no alarms anywhere, and an exception without alarms follows the event", async () => {
    const owner = await mintAgent(t, "Owner");
    const cal = await newCalendar(t, owner);
    const event = await newEvent(t, owner, cal.id, weekly);
    const occurrence = (date: string) => `${eventsPath(cal.id)}/${event.id}/occurrences/${date}`;
    await patch(t, occurrence("2027-01-11"), owner.auth).send({ cancelled: true }).expect(200);
    const renamed = await patch(t, occurrence("2027-01-18"), owner.auth).send({ name: "Retro" }).expect(200);
    expect(renamed.body.exception.alarms).toBeNull();
    expect(await occurrences(cal.id, owner.auth)).toEqual({
      "2027-01-04": [30],
      "2027-01-18": [30],
      "2027-01-25": [30],
    });
  });
});
