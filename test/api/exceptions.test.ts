import { describe, expect, it } from "vitest";
import { appPerTest } from "../helpers/app.js";
import { del, expectError, get, patch, type Auth } from "../helpers/http.js";
import { attachLayer, mintAgent, newCalendar, newEvent, sharingWorld } from "../helpers/factories.js";
import { paths } from "../../functions/src/domain/paths.js";

const t = appPerTest();

interface Occ {
  event_id: string;
  date: string;
  original_date: string;
  start_time: string | null;
  end_time: string | null;
  start: string | null;
  end: string | null;
  name: string;
  layer: string;
}

async function occurrences(calendarId: string, from: string, to: string, auth?: Auth): Promise<Occ[]> {
  const res = await get(t, `/v1/calendars/${calendarId}/occurrences?from=${from}&to=${to}`, auth).expect(200);
  return res.body.occurrences;
}

const storedExceptions = async (calendarId: string) =>
  (await t.deps.store.query(paths.exceptions(calendarId))).map((d) => d.data);

const weekly = { name: "Standup", recur: { type: "weekly", day: 1, starts: "2027-01-04" }, start_time: "09:30" };

describe("PATCH/DELETE .../events/{eventId}/occurrences/{date}", () => {
  it("climbs 401, 400, 403/404, then cancels one occurrence, which then appears nowhere", async () => {
    const { owner, writer, reader, stranger, calendars } = await sharingWorld(t);
    const cal = calendars.private.id;
    const event = await newEvent(t, owner, cal, { ...weekly, end_time: "09:45" });
    const path = `/v1/calendars/${cal}/events/${event.id}/occurrences/2027-01-11`;

    expectError(await patch(t, path).send({ cancelled: true }), 401, "unauthorized");
    expectError(await patch(t, path, writer.auth).send({}), 400, "invalid_event");
    expectError(await patch(t, path, writer.auth).send({ cancelled: true, name: "x" }), 400, "invalid_event");
    expectError(await patch(t, path, writer.auth).send({ cancelled: "yes" }), 400, "invalid_event");
    expectError(await patch(t, path, writer.auth).send({ start_time: "25:00" }), 400, "invalid_event");
    expectError(
      await patch(t, path, writer.auth).send({ start_time: "10:00", end_time: "10:00" }),
      400,
      "invalid_event",
    );
    expectError(
      await patch(t, path.replace("2027-01-11", "2027-01-12"), writer.auth).send({ cancelled: true }),
      404,
      "not_found",
    );
    expectError(
      await patch(t, path.replace("2027-01-11", "2027-02-30"), writer.auth).send({ cancelled: true }),
      404,
      "not_found",
    );
    expectError(await patch(t, path, reader.auth).send({ cancelled: true }), 403, "forbidden");
    expectError(await patch(t, path, stranger.auth).send({ cancelled: true }), 404, "not_found");
    expect(await storedExceptions(cal)).toEqual([]);

    const res = await patch(t, path, writer.auth).send({ cancelled: true }).expect(200);
    expect(res.body.exception).toEqual({
      event_id: event.id,
      original_date: "2027-01-11",
      cancelled: true,
      date: "2027-01-11",
      start_time: "09:30",
      end_time: "09:45",
      days: 1,
      name: "Standup",
      category: null,
      notes: null,
      alarms: null,
    });
    const dates = (await occurrences(cal, "2027-01-01", "2027-01-31", owner.auth)).map((o) => o.date);
    expect(dates).toEqual(["2027-01-04", "2027-01-18", "2027-01-25"]);
    expect(await storedExceptions(cal)).toMatchObject([
      { event_id: event.id, original_date: "2027-01-11", cancelled: true },
    ]);

    // DELETE restores it.
    expectError(await del(t, path), 401, "unauthorized");
    expectError(await del(t, path, reader.auth), 403, "forbidden");
    expect((await del(t, path, writer.auth).expect(200)).body).toEqual({ deleted: `${event.id}/2027-01-11` });
    expectError(await del(t, path, writer.auth), 404, "not_found");
    expect(await occurrences(cal, "2027-01-01", "2027-01-31", owner.auth)).toHaveLength(4);
    expect(await storedExceptions(cal)).toEqual([]);
  });

  it("moves or changes one occurrence: it appears at its new place with original_date; PATCH again changes it", async () => {
    const owner = await mintAgent(t);
    const cal = (await newCalendar(t, owner, { name: "Berlin", timezone: "Europe/Berlin" })).id;
    const event = await newEvent(t, owner, cal, { ...weekly, end_time: "10:00" });
    const path = `/v1/calendars/${cal}/events/${event.id}/occurrences/2027-01-11`;
    await patch(t, path, owner.auth)
      .send({ date: "2027-01-13", start_time: "14:00", end_time: "15:30", name: "Moved" })
      .expect(200);

    const list = await occurrences(cal, "2027-01-01", "2027-01-20");
    expect(list.map((o) => [o.date, o.original_date, o.name, o.start, o.end])).toEqual([
      ["2027-01-04", "2027-01-04", "Standup", "2027-01-04T09:30:00+01:00", "2027-01-04T10:00:00+01:00"],
      ["2027-01-13", "2027-01-11", "Moved", "2027-01-13T14:00:00+01:00", "2027-01-13T15:30:00+01:00"],
      ["2027-01-18", "2027-01-18", "Standup", "2027-01-18T09:30:00+01:00", "2027-01-18T10:00:00+01:00"],
    ]);
    // A second PATCH changes the same exception; unsent fields keep the exception's values.
    const again = await patch(t, path, owner.auth).send({ notes: "room 2" }).expect(200);
    expect(again.body.exception).toMatchObject({
      date: "2027-01-13",
      start_time: "14:00",
      name: "Moved",
      notes: "room 2",
    });
    expect(await storedExceptions(cal)).toHaveLength(1);
    // An occurrence moved out of the range leaves it; moved into it, it appears.
    expect((await occurrences(cal, "2027-01-11", "2027-01-12")).map((o) => o.date)).toEqual([]);
  });

  it("changing a series' rule drops exceptions whose date it no longer has; deleting the event drops all", async () => {
    const owner = await mintAgent(t);
    const cal = (await newCalendar(t, owner, { name: "Team" })).id;
    const event = await newEvent(t, owner, cal, weekly);
    const at = (date: string) => `/v1/calendars/${cal}/events/${event.id}/occurrences/${date}`;
    await patch(t, at("2027-01-11"), owner.auth).send({ cancelled: true }).expect(200);
    await patch(t, at("2027-01-18"), owner.auth).send({ name: "Retro" }).expect(200);
    // Every other Monday from Jan 4: Jan 18 stays an occurrence, Jan 11 does not.
    await patch(t, `/v1/calendars/${cal}/events/${event.id}`, owner.auth)
      .send({ recur: { ...weekly.recur, interval: 2 } })
      .expect(200);
    expect((await storedExceptions(cal)).map((e) => e.original_date)).toEqual(["2027-01-18"]);
    await del(t, `/v1/calendars/${cal}/events/${event.id}`, owner.auth).expect(200);
    expect(await storedExceptions(cal)).toEqual([]);
  });

  it("a one-off event has no occurrences to except, and each series holds at most its quota of exceptions", async () => {
    const owner = await mintAgent(t);
    const cal = (await newCalendar(t, owner, { name: "Team" })).id;
    const once = await newEvent(t, owner, cal, { name: "Once", date: "2027-01-11" });
    expectError(
      await patch(t, `/v1/calendars/${cal}/events/${once.id}/occurrences/2027-01-11`, owner.auth).send({
        cancelled: true,
      }),
      404,
      "not_found",
    );
    const daily = await newEvent(t, owner, cal, { name: "Daily", recur: { type: "daily", starts: "2027-01-01" } });
    const limit = 100;
    for (let day = 0; day < limit; day++) {
      const date = new Date(Date.UTC(2027, 0, 1 + day)).toISOString().slice(0, 10);
      await patch(t, `/v1/calendars/${cal}/events/${daily.id}/occurrences/${date}`, owner.auth)
        .send({ cancelled: true })
        .expect(200);
    }
    const over = await patch(t, `/v1/calendars/${cal}/events/${daily.id}/occurrences/2027-12-01`, owner.auth).send({
      cancelled: true,
    });
    expectError(over, 403, "quota_exceeded");
    expect(over.body.error.details).toMatchObject({ quota: "exceptions_per_event", limit });
    // Changing one it already holds is no new exception.
    await patch(t, `/v1/calendars/${cal}/events/${daily.id}/occurrences/2027-01-01`, owner.auth)
      .send({ name: "x" })
      .expect(200);
  });
});

describe("occurrence times (docs/api.md#times)", () => {
  it("an occurrence lasts end_time - start_time from its start, also when the start falls in a DST gap", async () => {
    const owner = await mintAgent(t);
    const cal = (await newCalendar(t, owner, { name: "Berlin", timezone: "Europe/Berlin" })).id;
    await newEvent(t, owner, cal, {
      name: "Early",
      recur: { type: "daily", starts: "2027-03-25", until: "2027-03-31" },
      start_time: "02:30",
      end_time: "03:00",
    });
    const list = await occurrences(cal, "2027-03-27", "2027-03-29");
    expect(list.map((o) => [o.start, o.end])).toEqual([
      ["2027-03-27T02:30:00+01:00", "2027-03-27T03:00:00+01:00"],
      // 02:30 does not exist on 2027-03-28: it is 03:30+02:00, and the 30 minutes follow it.
      ["2027-03-28T03:30:00+02:00", "2027-03-28T04:00:00+02:00"],
      ["2027-03-29T02:30:00+02:00", "2027-03-29T03:00:00+02:00"],
    ]);
    for (const o of list) expect(Date.parse(o.end!) - Date.parse(o.start!)).toBe(30 * 60_000);
  });

  it("an end_time before start_time ends the next day (overnight), also across a DST change", async () => {
    const owner = await mintAgent(t);
    const cal = (await newCalendar(t, owner, { name: "Night", timezone: "America/New_York" })).id;
    await newEvent(t, owner, cal, {
      name: "Night shift",
      recur: { type: "daily", starts: "2027-11-06", until: "2027-11-07" },
      start_time: "22:00",
      end_time: "02:00",
    });
    const list = await occurrences(cal, "2027-11-06", "2027-11-07");
    expect(list.map((o) => [o.date, o.start, o.end])).toEqual([
      // Four hours of elapsed time; New York falls back at 02:00 on 2027-11-07.
      ["2027-11-06", "2027-11-06T22:00:00-04:00", "2027-11-07T01:00:00-05:00"],
      ["2027-11-07", "2027-11-07T22:00:00-05:00", "2027-11-08T02:00:00-05:00"],
    ]);
  });

  it("sorts a host's and its layers' occurrences by start instant across timezones", async () => {
    const owner = await mintAgent(t);
    const host = (await newCalendar(t, owner, { name: "Project", timezone: "America/New_York" })).id;
    const berlin = (await newCalendar(t, owner, { name: "Berlin team", timezone: "Europe/Berlin" })).id;
    await attachLayer(t, owner, host, berlin, "berlin");
    await newEvent(t, owner, host, { name: "NY 08:00", date: "2027-06-07", start_time: "08:00" });
    await newEvent(t, owner, berlin, { name: "Berlin 09:30", date: "2027-06-07", start_time: "09:30" });
    await newEvent(t, owner, berlin, { name: "Berlin 15:00", date: "2027-06-07", start_time: "15:00" });
    const list = await occurrences(host, "2027-06-07", "2027-06-07", owner.auth);
    // 09:30 Berlin is 03:30 New York; 15:00 Berlin is 09:00 New York.
    expect(list.map((o) => o.name)).toEqual(["Berlin 09:30", "NY 08:00", "Berlin 15:00"]);
  });
});
