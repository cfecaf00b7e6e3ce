/**
 * Events that span days (docs/api.md#days) over HTTP: what is refused and why, what is stored,
 * and the same three days in the event, the list, the occurrences (also from a range that
 * begins in the middle), free/busy, free slots and the feed, read by ical.js.
 */
import ICAL from "ical.js";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { loadFeedEvents } from "../../functions/src/domain/queries/feed-events.js";
import { paths } from "../../functions/src/domain/paths.js";
import type { CalendarRecord } from "../../functions/src/domain/records.js";
import { withinFeedBudget } from "../../functions/src/pages/feed-budget.js";
import type { EventRecord, ExceptionRecord } from "../../functions/src/domain/records.js";
import { appPerTest, type TestApp } from "../helpers/app.js";
import { expectError, get, patch, post, type Auth } from "../helpers/http.js";
import { mintAgent, newCalendar } from "../helpers/factories.js";
import { createSiteTestApp } from "../pages/site.js";

const t = appPerTest(createSiteTestApp);

const eventsPath = (calendarId: string) => `/v1/calendars/${calendarId}/events`;

async function berlinCalendar(app: TestApp) {
  const owner = await mintAgent(app, "Planner");
  const calendar = await newCalendar(app, owner.auth, {
    name: "Team",
    slug: "team-days",
    timezone: "Europe/Berlin",
    visibility: "public",
  });
  return { auth: owner.auth, calendarId: calendar.id };
}

const createEvent = (calendarId: string, auth: Auth, body: object) => post(t, eventsPath(calendarId), auth).send(body);

async function occurrences(calendarId: string, from: string, to: string) {
  const res = await get(t, `/v1/calendars/${calendarId}/occurrences?from=${from}&to=${to}`).expect(200);
  return res.body.occurrences as Array<Record<string, unknown>>;
}

const storedEvent = async (calendarId: string, id: string) =>
  (await t.deps.store.get<EventRecord>(paths.event(calendarId, id)))?.data;

describe("days on an event", () => {
  it("climbs 400 (days 0, 367, 2.5, text; a someday event; a timed one without its end) to success, and stores it", async () => {
    const { auth, calendarId } = await berlinCalendar(t);
    const refusals: Array<[object, string]> = [
      [{ date: "2026-12-07", days: 0 }, "days"],
      [{ date: "2026-12-07", days: 367 }, "days"],
      [{ date: "2026-12-07", days: 2.5 }, "days"],
      [{ date: "2026-12-07", days: "3" }, "days"],
      [{ days: 3 }, "days"],
      [{ date: "2026-12-07", days: 3, start_time: "09:00" }, "end_time"],
      [{ date: "9999-12-30", days: 3 }, "days"],
    ];
    for (const [body, field] of refusals) {
      const res = await createEvent(calendarId, auth, { name: "Offsite", ...body });
      expectError(res, 400, "invalid_event");
      expect(res.body.error.details.field).toBe(field);
    }
    expect(await get(t, `${eventsPath(calendarId)}`, auth).then((r) => r.body.events)).toEqual([]);

    const created = await createEvent(calendarId, auth, { name: "Offsite", date: "2026-12-07", days: 3 }).expect(200);
    expect(created.body).toMatchObject({ kind: "one-off", date: "2026-12-07", days: 3, start_time: null });
    expect(await storedEvent(calendarId, created.body.id)).toMatchObject({ days: 3, span_end: "2026-12-09" });
    const read = await get(t, `${eventsPath(calendarId)}/${created.body.id}`).expect(200);
    expect(read.body.days).toBe(3);

    // Any end time is after the start once the end is on a later day, the start time itself too.
    const conference = await createEvent(calendarId, auth, {
      name: "Conference",
      date: "2026-12-14",
      days: 3,
      start_time: "09:00",
      end_time: "09:00",
    }).expect(200);
    expect(conference.body).toMatchObject({ days: 3, start_time: "09:00", end_time: "09:00" });
    // One day with the same times is still no length at all.
    const same = await createEvent(calendarId, auth, {
      name: "Zero",
      date: "2026-12-14",
      start_time: "09:00",
      end_time: "09:00",
    });
    expectError(same, 400, "invalid_event");
  });

  it("changes with PATCH, returns to one day with null, and a someday event cannot span", async () => {
    const { auth, calendarId } = await berlinCalendar(t);
    const event = (await createEvent(calendarId, auth, { name: "Offsite", date: "2026-12-07" }).expect(200)).body;
    expect(event.days).toBe(1);
    expect(await storedEvent(calendarId, event.id)).not.toHaveProperty("span_end");
    const path = `${eventsPath(calendarId)}/${event.id}`;

    expectError(await patch(t, path, auth).send({ days: 0 }), 400, "invalid_event");
    const longer = await patch(t, path, auth).send({ days: 4 }).expect(200);
    expect(longer.body.days).toBe(4);
    expect(await storedEvent(calendarId, event.id)).toMatchObject({ days: 4, span_end: "2026-12-10", sequence: 1 });
    // The date moves, the days stay.
    const moved = await patch(t, path, auth).send({ date: "2026-12-21" }).expect(200);
    expect(moved.body).toMatchObject({ date: "2026-12-21", days: 4 });
    expect(await storedEvent(calendarId, event.id)).toMatchObject({ span_end: "2026-12-24" });

    const someday = await patch(t, path, auth).send({ date: null, days: 2 });
    expectError(someday, 400, "invalid_event");
    expect(someday.body.error.details.field).toBe("days");
    // Made a someday event without naming days: it keeps one.
    const undated = await patch(t, path, auth).send({ date: null }).expect(200);
    expect(undated.body).toMatchObject({ kind: "someday", days: 1 });
    expect(await storedEvent(calendarId, event.id)).not.toHaveProperty("span_end");

    await patch(t, path, auth).send({ date: "2026-12-07", days: 3 }).expect(200);
    const reset = await patch(t, path, auth).send({ days: null }).expect(200);
    expect(reset.body.days).toBe(1);
  });

  it("round-trips a 3-day event through list, occurrences, free/busy, slots and the feed", async () => {
    const { auth, calendarId } = await berlinCalendar(t);
    const offsite = (await createEvent(calendarId, auth, { name: "Offsite", date: "2026-12-07", days: 3 }).expect(200))
      .body;
    const conference = (
      await createEvent(calendarId, auth, {
        name: "Conference",
        date: "2026-12-14",
        days: 3,
        start_time: "09:00",
        end_time: "17:00",
      }).expect(200)
    ).body;

    const listed = (await get(t, `${eventsPath(calendarId)}?from=2026-12-01&to=2026-12-31`).expect(200)).body.events;
    expect(listed.map((e: EventRecord) => [e.name, e.days])).toEqual([
      ["Offsite", 3],
      ["Conference", 3],
    ]);

    expect(await occurrences(calendarId, "2026-12-01", "2026-12-31")).toEqual([
      expect.objectContaining({
        event_id: offsite.id,
        date: "2026-12-07",
        end_date: "2026-12-09",
        days: 3,
        start: null,
        end: null,
      }),
      expect.objectContaining({
        event_id: conference.id,
        date: "2026-12-14",
        end_date: "2026-12-16",
        days: 3,
        start: "2026-12-14T09:00:00+01:00",
        end: "2026-12-16T17:00:00+01:00",
      }),
    ]);
    // A range that begins on the middle day still holds both; one after their last days, neither.
    const middle = await occurrences(calendarId, "2026-12-15", "2026-12-15");
    expect(middle.map((o) => o.event_id)).toEqual([conference.id]);
    expect((await occurrences(calendarId, "2026-12-08", "2026-12-08")).map((o) => o.event_id)).toEqual([offsite.id]);
    expect(await occurrences(calendarId, "2026-12-17", "2026-12-20")).toEqual([]);

    // Busy from Monday 09:00 to Wednesday 17:00, nights included; the all-day offsite blocks nothing.
    const busy = await get(t, `/v1/freebusy?calendars=${calendarId}&from=2026-12-07&to=2026-12-20`, auth).expect(200);
    expect(busy.body.busy).toEqual([{ start: "2026-12-14T09:00:00+01:00", end: "2026-12-16T17:00:00+01:00" }]);
    const inside = await get(t, `/v1/freebusy?calendars=${calendarId}&from=2026-12-15&to=2026-12-15`, auth);
    expect(inside.body.busy).toEqual([{ start: "2026-12-15T00:00:00+01:00", end: "2026-12-16T00:00:00+01:00" }]);
    const slots = await get(
      t,
      `/v1/freebusy/slots?calendars=${calendarId}&from=2026-12-14&to=2026-12-17&minutes=60` +
        "&hours=08:00-18:00&days=1-5&timezone=Europe/Berlin",
      auth,
    ).expect(200);
    expect(slots.body.slots).toEqual([
      { start: "2026-12-14T08:00:00+01:00", end: "2026-12-14T09:00:00+01:00" },
      { start: "2026-12-16T17:00:00+01:00", end: "2026-12-16T18:00:00+01:00" },
      { start: "2026-12-17T08:00:00+01:00", end: "2026-12-17T18:00:00+01:00" },
    ]);

    const feed = await request(t.app).get("/c/team-days.ics").expect(200);
    const vcalendar = new ICAL.Component(ICAL.parse(feed.text));
    vcalendar.getAllSubcomponents("vtimezone").forEach((tz) => ICAL.TimezoneService.register(new ICAL.Timezone(tz)));
    const events = vcalendar.getAllSubcomponents("vevent").map((v) => new ICAL.Event(v));
    const byName = new Map(events.map((e) => [e.summary, e]));
    const allDay = byName.get("Offsite")!;
    // All-day: DTEND is exclusive, the day after the last.
    expect(allDay.startDate.toString()).toBe("2026-12-07");
    expect(allDay.endDate.toString()).toBe("2026-12-10");
    expect(allDay.startDate.isDate && allDay.endDate.isDate).toBe(true);
    const timed = byName.get("Conference")!;
    expect(timed.startDate.toJSDate().toISOString()).toBe("2026-12-14T08:00:00.000Z");
    expect(timed.endDate.toJSDate().toISOString()).toBe("2026-12-16T16:00:00.000Z");
  });

  it("a weekly 2-day series, its occurrence begun before the range, and an occurrence given its own days", async () => {
    const { auth, calendarId } = await berlinCalendar(t);
    const series = (
      await createEvent(calendarId, auth, {
        name: "Retreat",
        recur: { type: "weekly", day: 5, starts: "2026-12-04", count: 4 },
        days: 2,
        start_time: "18:00",
        end_time: "12:00",
      }).expect(200)
    ).body;
    expect(await storedEvent(calendarId, series.id)).toMatchObject({ series_end: "2026-12-26" });
    // Saturday 12 December: the Friday's occurrence is still running.
    const saturday = await occurrences(calendarId, "2026-12-12", "2026-12-12");
    expect(saturday).toEqual([
      expect.objectContaining({
        date: "2026-12-11",
        end_date: "2026-12-12",
        start: "2026-12-11T18:00:00+01:00",
        end: "2026-12-12T12:00:00+01:00",
      }),
    ]);

    const path = `${eventsPath(calendarId)}/${series.id}/occurrences/2026-12-18`;
    expectError(await patch(t, path, auth).send({ days: 367 }), 400, "invalid_event");
    const longer = await patch(t, path, auth).send({ days: 3 }).expect(200);
    expect(longer.body.exception).toMatchObject({ original_date: "2026-12-18", days: 3 });
    const stored = await t.deps.store.get<ExceptionRecord>(paths.exception(calendarId, series.id, "2026-12-18"));
    expect(stored?.data).toMatchObject({ days: 3, span_end: "2026-12-20" });
    // Sunday 20 December only the longer occurrence still runs; a cancelled one runs nowhere.
    const sunday = await occurrences(calendarId, "2026-12-20", "2026-12-20");
    expect(sunday).toEqual([
      expect.objectContaining({ original_date: "2026-12-18", days: 3, end: "2026-12-20T12:00:00+01:00" }),
    ]);
    await patch(t, `${eventsPath(calendarId)}/${series.id}/occurrences/2026-12-11`, auth)
      .send({ cancelled: true })
      .expect(200);
    expect(await occurrences(calendarId, "2026-12-12", "2026-12-12")).toEqual([]);
  });

  it("keeps in a cut feed the event that began before today and still runs, once", async () => {
    const { auth, calendarId } = await berlinCalendar(t);
    // Today is 2026-11-22 (the test clock): the offsite runs from the 20th to the 23rd.
    for (const [name, date, days] of [
      ["Offsite", "2026-11-20", 4],
      ["Over", "2026-11-10", 2],
      ["Soon", "2026-11-24", 1],
      ["Later", "2026-12-24", 1],
    ] as const) {
      await createEvent(calendarId, auth, { name, date, days }).expect(200);
    }
    const calendar = (await t.deps.store.get<CalendarRecord>(paths.calendar(calendarId)))!.data;
    // Four dated events over a budget of two: the feed reads by rank, not everything.
    const { sources, omitted } = await loadFeedEvents(
      t.deps,
      [{ layer: "main", calendar }],
      "2026-11-22",
      2,
      withinFeedBudget,
    );
    expect(sources[0].events.map((e) => e.name).sort()).toEqual(["Offsite", "Soon"]);
    expect(omitted).toBe(2);
  });

  it("cuts a series' span at 9999-12-31, where a one-off's is refused", async () => {
    const { auth, calendarId } = await berlinCalendar(t);
    await createEvent(calendarId, auth, {
      name: "Last week",
      recur: { type: "daily", starts: "9999-12-30" },
      days: 5,
      start_time: "09:00",
      end_time: "17:00",
    }).expect(200);
    const last = await occurrences(calendarId, "9999-12-31", "9999-12-31");
    expect(last.map((o) => [o.date, o.end_date, o.start, o.end])).toEqual([
      ["9999-12-30", "9999-12-31", "9999-12-30T09:00:00+01:00", "9999-12-31T17:00:00+01:00"],
      ["9999-12-31", "9999-12-31", "9999-12-31T09:00:00+01:00", "9999-12-31T17:00:00+01:00"],
    ]);
  });
});
