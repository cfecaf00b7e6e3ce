/**
 * The recurrence shapes of issue 12 through the API: weekday sets, monthly positions, count and
 * overnight times. Each climbs 401 -> 400 -> success, then reads back what GET and
 * /occurrences answer (every response is also checked against its OpenAPI schema).
 */
import request from "supertest";
import { describe, expect, it } from "vitest";
import { appPerTest } from "../helpers/app.js";
import { mintAgent, newCalendar } from "../helpers/factories.js";
import { expectError, get, patch, post, type Auth } from "../helpers/http.js";

const t = appPerTest();

type Body = Record<string, unknown>;

async function calendarOf(name: string, timezone = "UTC") {
  const owner = await mintAgent(t);
  const calendar = await newCalendar(t, owner, { name, timezone });
  return { auth: owner.auth, events: `/v1/calendars/${calendar.id}/events`, calendarId: calendar.id };
}

/** 401 without a token, then 400 for each broken body, then 200 for the good one: its answer. */
async function climb(auth: Auth, events: string, good: Body, bad: Array<[Body, string]>): Promise<Body> {
  expectError(await post(t, events).send(good), 401, "unauthorized");
  for (const [body, field] of bad) {
    const res = await post(t, events, auth).send(body);
    expectError(res, 400, "invalid_event");
    expect(res.body.error.details.field, JSON.stringify(body)).toBe(field);
  }
  return (await post(t, events, auth).send(good).expect(200)).body;
}

async function datesOf(calendarId: string, eventId: string, from: string, to: string): Promise<string[]> {
  const res = await request(t.app).get(`/v1/calendars/${calendarId}/occurrences?from=${from}&to=${to}`).expect(200);
  return (res.body.occurrences as Array<{ event_id: string; date: string }>)
    .filter((o) => o.event_id === eventId)
    .map((o) => o.date);
}

describe("recurrence shapes", () => {
  it("weekly on several days: the list is returned as sent; repeats and 0 with 7 are refused", async () => {
    const { auth, events, calendarId } = await calendarOf("Weekdays");
    const recur = { type: "weekly", day: [5, 1, 3], starts: "2027-01-01" };
    const created = await climb(auth, events, { name: "Gym", recur }, [
      [{ name: "Gym", recur: { ...recur, day: [1, 1] } }, "recur.day"],
      [{ name: "Gym", recur: { ...recur, day: [0, 7] } }, "recur.day"],
      [{ name: "Gym", recur: { ...recur, day: [] } }, "recur.day"],
      [{ name: "Gym", recur: { ...recur, day: [1, 8] } }, "recur.day"],
      [{ name: "Gym", recur: { ...recur, day: ["1"] } }, "recur.day"],
      [{ name: "Gym", recur: { type: "monthly", day: [1, 15] } }, "recur.day"],
    ]);
    const expected = { type: "weekly", day: [5, 1, 3], week: null, month: null, interval: 1 };
    expect(created.recur).toEqual({ ...expected, starts: "2027-01-01", until: null, count: null });
    const read = (await get(t, `${events}/${created.id as string}`).expect(200)).body;
    expect(read.recur).toEqual(created.recur);
    // 2027-01-01 is a Friday.
    expect(await datesOf(calendarId, created.id as string, "2027-01-01", "2027-01-10")).toEqual([
      "2027-01-01",
      "2027-01-04",
      "2027-01-06",
      "2027-01-08",
    ]);
  });

  it("monthly by position: the second Tuesday and the last Friday; week elsewhere is refused", async () => {
    const { auth, events, calendarId } = await calendarOf("Positions");
    const second = await climb(
      auth,
      events,
      { name: "Patch Tuesday", recur: { type: "monthly", week: 2, day: 2, starts: "2027-01-01" } },
      [
        [{ name: "P", recur: { type: "monthly", week: 6, day: 2 } }, "recur.week"],
        [{ name: "P", recur: { type: "monthly", week: 0, day: 2 } }, "recur.week"],
        [{ name: "P", recur: { type: "monthly", week: 2, day: 15 } }, "recur.day"],
        [{ name: "P", recur: { type: "weekly", week: 2, day: 2 } }, "recur.week"],
        [{ name: "P", recur: { type: "yearly", week: 2, month: 1, day: 2 } }, "recur.week"],
        [{ name: "P", recur: { type: "monthly", week: "2", day: 2 } }, "recur.week"],
      ],
    );
    expect(second.recur).toEqual({
      type: "monthly",
      day: 2,
      week: 2,
      month: null,
      interval: 1,
      starts: "2027-01-01",
      until: null,
      count: null,
    });
    expect(await datesOf(calendarId, second.id as string, "2027-01-01", "2027-03-31")).toEqual([
      "2027-01-12",
      "2027-02-09",
      "2027-03-09",
    ]);
    const last = (
      await post(t, events, auth)
        .send({ name: "Retro", recur: { type: "monthly", week: -1, day: 5, starts: "2027-01-01" } })
        .expect(200)
    ).body;
    expect(await datesOf(calendarId, last.id as string, "2027-01-01", "2027-03-31")).toEqual([
      "2027-01-29",
      "2027-02-26",
      "2027-03-26",
    ]);
  });

  it("count: the series ends after that many occurrences; with until, or out of 1..10000, it is refused", async () => {
    const { auth, events, calendarId } = await calendarOf("Counted");
    const recur = { type: "weekly", day: [2, 4], starts: "2027-01-01", count: 3 };
    const created = await climb(auth, events, { name: "Course", recur }, [
      [{ name: "Course", recur: { ...recur, until: "2027-06-30" } }, "recur.count"],
      [{ name: "Course", recur: { ...recur, count: 0 } }, "recur.count"],
      [{ name: "Course", recur: { ...recur, count: 10_001 } }, "recur.count"],
      [{ name: "Course", recur: { ...recur, count: 2.5 } }, "recur.count"],
    ]);
    expect(created.recur).toMatchObject({ day: [2, 4], count: 3, until: null, week: null });
    expect(await datesOf(calendarId, created.id as string, "2027-01-01", "2027-12-31")).toEqual([
      "2027-01-05",
      "2027-01-07",
      "2027-01-12",
    ]);
    // PATCH replaces the rule as a whole: count gone, until back.
    const changed = await patch(t, `${events}/${created.id as string}`, auth)
      .send({ recur: { type: "daily", starts: "2027-01-01", until: "2027-01-02" } })
      .expect(200);
    expect(changed.body.recur).toMatchObject({
      type: "daily",
      day: null,
      week: null,
      count: null,
      until: "2027-01-02",
    });
  });

  it("overnight: an end_time before start_time ends the next day; equal times are refused", async () => {
    const { auth, events, calendarId } = await calendarOf("Nights", "Europe/Berlin");
    const good = { name: "Night shift", date: "2027-01-15", start_time: "22:00", end_time: "02:00" };
    const created = await climb(auth, events, good, [[{ ...good, end_time: "22:00" }, "end_time"]]);
    expect(created).toMatchObject({ start_time: "22:00", end_time: "02:00" });
    const res = await request(t.app)
      .get(`/v1/calendars/${calendarId}/occurrences?from=2027-01-15&to=2027-01-15`)
      .expect(200);
    expect(res.body.occurrences).toMatchObject([
      { date: "2027-01-15", start: "2027-01-15T22:00:00+01:00", end: "2027-01-16T02:00:00+01:00" },
    ]);
  });

  it("a recur that is not an object is shown the shape to send", async () => {
    const { auth, events } = await calendarOf("Shapes");
    for (const recur of ["weekly", 1, ["weekly"], true]) {
      const res = await post(t, events, auth).send({ name: "Standup", recur });
      expectError(res, 400, "invalid_event");
      expect(res.body.error.details.field).toBe("recur");
      expect(res.body.error.message).toContain(
        '`recur` must be an object such as {"type":"weekly","day":[1,2,3,4,5]} (Monday to Friday), ' +
          "with `type` daily, weekly, monthly or yearly",
      );
    }
  });
});
