import { describe, expect, it } from "vitest";
import { appPerTest } from "../helpers/app.js";
import { expectError, get, type Auth } from "../helpers/http.js";
import { attachLayer, mintAgent, newCalendar, newEvent, sharingWorld } from "../helpers/factories.js";
import { seedScopedToken } from "../helpers/store.js";
import { dailySeries, seedEvents } from "../helpers/big-calendar.js";

const t = appPerTest();

const freebusy = (query: string, auth?: Auth) => get(t, `/v1/freebusy?${query}`, auth);
const slots = (query: string, auth?: Auth) => get(t, `/v1/freebusy/slots?${query}`, auth);

/** The answer's intervals as `start/end` strings, short to compare. */
const spans = (list: Array<{ start: string; end: string }>) => list.map((i) => `${i.start}/${i.end}`);

/** The body of a 200 answer (fails the test with the body otherwise). */
function okBody(res: Awaited<ReturnType<typeof freebusy>>) {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function expectInvalid(res: Awaited<ReturnType<typeof freebusy>>, field: string) {
  expectError(res, 400, "invalid_request");
  expect(res.body.error.details.field, JSON.stringify(res.body)).toBe(field);
}

describe("GET /v1/freebusy", () => {
  it("climbs 401 -> 400 -> 403 -> not_found entries -> success", async () => {
    const { owner, reader, stranger, calendars } = await sharingWorld(t);
    const hidden = calendars.private.id;
    const open = calendars.public.id;
    const range = "from=2026-07-06&to=2026-07-07";
    await newEvent(t, owner, hidden, { name: "Secret", date: "2026-07-06", start_time: "10:00", end_time: "11:00" });

    expectError(await freebusy(`calendars=${open}&${range}`, { Authorization: "Bearer nope" }), 401, "unauthorized");

    const many = Array.from({ length: 21 }, (_, i) => `cal_x${i}`).join(",");
    for (const [query, field] of [
      [range, "calendars"],
      [`calendars=${open}`, "from"],
      [`calendars=${open}&from=2026-07-06`, "to"],
      [`calendars=evt_x&${range}`, "calendars"],
      [`calendars=${open},&${range}`, "calendars"],
      [`calendars=${many}&${range}`, "calendars"],
      [`calendars=${open}&from=2026-02-30&to=2026-03-01`, "from"],
      [`calendars=${open}&from=2026-07-06T09:00&to=2026-07-07`, "from"],
      [`calendars=${open}&from=2026-07-06T25:00Z&to=2026-07-07`, "from"],
      [`calendars=${open}&from=2026-07-07&to=2026-07-06`, "to"],
      [`calendars=${open}&from=2026-07-06T10:00Z&to=2026-07-06T10:00Z`, "to"],
      [`calendars=${open}&from=2026-07-06T10:00Z&to=2026-07-06T11:00:00%2B02:00`, "to"],
      [`calendars=${open}&from=2026-01-01&to=2026-03-04`, "to"],
      [`calendars=${open}&from=2026-01-01T00:00Z&to=2026-03-04T00:01Z`, "to"],
      [`calendars=${open}&${range}&timezone=Mars/Base`, "timezone"],
      [`calendars=${open}&${range}&minutes=30`, "minutes"],
    ]) {
      await expectInvalid(await freebusy(query, owner.auth), field);
    }
    // The ids as a JSON list read as the comma-separated form does; a list that is not of ids is refused.
    const asList = encodeURIComponent(JSON.stringify([open, hidden]));
    const listed = await freebusy(`calendars=${asList}&${range}`, owner.auth).expect(200);
    const commas = await freebusy(`calendars=${open},${hidden}&${range}`, owner.auth).expect(200);
    expect(listed.body).toEqual(commas.body);
    await expectInvalid(await freebusy(`calendars=${encodeURIComponent("[1,2]")}&${range}`, owner.auth), "calendars");
    // 62 days is the most: dates counting both ends, instants by their clocks.
    expect((await freebusy(`calendars=${open}&from=2026-01-01&to=2026-03-03`)).status).toBe(200);
    expect(
      (await freebusy(`calendars=${open}&from=2026-03-01T00:00:00%2B01:00&to=2026-05-02T00:00:00%2B02:00`)).status,
    ).toBe(200);

    // A token without calendar:read cannot read the private calendar it holds a grant on.
    const noRead = await seedScopedToken(t.deps, reader, ["agent:read"]);
    expectError(await freebusy(`calendars=${hidden}&${range}`, noRead), 403, "insufficient_scope");
    // Public calendars need no scope, as GET .../occurrences.
    expect((await freebusy(`calendars=${open}&${range}`, noRead).expect(200)).body.calendars[open]).toEqual({
      busy: [],
    });

    // Calendars the caller may not see answer not_found in their entry; the request succeeds.
    for (const auth of [stranger.auth, undefined]) {
      const res = await freebusy(`calendars=${hidden},cal_unknown1,${open}&${range}`, auth).expect(200);
      expect(res.body).toEqual({
        calendars: { [hidden]: { error: "not_found" }, cal_unknown1: { error: "not_found" }, [open]: { busy: [] } },
        busy: [],
      });
    }
    const res = await freebusy(`calendars=${hidden}&${range}`, reader.auth).expect(200);
    const busy = ["2026-07-06T10:00:00+00:00/2026-07-06T11:00:00+00:00"];
    expect(spans(res.body.calendars[hidden].busy)).toEqual(busy);
    expect(spans(res.body.busy)).toEqual(busy);
  });

  it("counts timed occurrences of the calendar and its readable layers, merged; not all-day, someday or start-only ones", async () => {
    const owner = await mintAgent(t);
    const stranger = await mintAgent(t, "Stranger");
    const berlin = (await newCalendar(t, owner, { name: "Berlin", timezone: "Europe/Berlin", visibility: "public" }))
      .id;
    const york = (await newCalendar(t, owner, { name: "New York", timezone: "America/New_York" })).id;
    const layer = (await newCalendar(t, owner, { name: "Layer", timezone: "America/New_York", visibility: "public" }))
      .id;
    const hidden = (await newCalendar(t, owner, { name: "Hidden layer", visibility: "private" })).id;
    await attachLayer(t, owner, berlin, layer, "ny");
    await attachLayer(t, owner, berlin, hidden, "hidden");

    const on = (date: string, start_time?: string, end_time?: string) => ({ date, start_time, end_time });
    for (const [calendar, body] of [
      [berlin, on("2026-07-06", "10:00", "11:00")],
      [berlin, on("2026-07-06", "10:30", "12:00")],
      [berlin, on("2026-07-06", "12:00", "12:30")], // touches the one before: one interval
      [berlin, on("2026-07-06", "16:00")], // no end: an instant, not busy
      [berlin, on("2026-07-07")], // all-day: not busy
      [berlin, {}], // someday: never busy
      [berlin, { recur: { type: "weekly", day: 2, starts: "2026-07-01" }, start_time: "09:00", end_time: "09:30" }],
      [berlin, on("2026-07-07", "23:00", "01:00")], // overnight: into the day after the range, clipped
      [layer, on("2026-07-06", "08:00", "09:00")], // 14:00-15:00 in Berlin
      [hidden, on("2026-07-06", "18:00", "19:00")], // UTC: 20:00-21:00 in Berlin; only the owner sees it
      [york, on("2026-07-06", "04:30", "06:30")], // 10:30-12:30 in Berlin
    ] as const) {
      await newEvent(t, owner, calendar, { name: "Busy", ...body });
    }

    const res = await freebusy(`calendars=${berlin},${york}&from=2026-07-06&to=2026-07-07`, owner.auth).expect(200);
    expect(Object.keys(res.body.calendars)).toEqual([berlin, york]);
    expect(spans(res.body.calendars[berlin].busy)).toEqual([
      "2026-07-06T10:00:00+02:00/2026-07-06T12:30:00+02:00",
      "2026-07-06T14:00:00+02:00/2026-07-06T15:00:00+02:00",
      "2026-07-06T20:00:00+02:00/2026-07-06T21:00:00+02:00",
      "2026-07-07T09:00:00+02:00/2026-07-07T09:30:00+02:00",
      "2026-07-07T23:00:00+02:00/2026-07-08T00:00:00+02:00",
    ]);
    // Each calendar in its own zone's offset; the merged list in the first calendar's.
    expect(spans(res.body.calendars[york].busy)).toEqual(["2026-07-06T04:30:00-04:00/2026-07-06T06:30:00-04:00"]);
    expect(spans(res.body.busy)).toEqual([
      "2026-07-06T10:00:00+02:00/2026-07-06T12:30:00+02:00",
      "2026-07-06T14:00:00+02:00/2026-07-06T15:00:00+02:00",
      "2026-07-06T20:00:00+02:00/2026-07-06T21:00:00+02:00",
      "2026-07-07T09:00:00+02:00/2026-07-07T09:30:00+02:00",
      "2026-07-07T23:00:00+02:00/2026-07-08T00:00:00+02:00",
    ]);

    // The stranger reads the public calendar and its public layer, not the private layer.
    const seen = await freebusy(`calendars=${berlin}&from=2026-07-06&to=2026-07-06`, stranger.auth).expect(200);
    expect(spans(seen.body.busy)).toEqual([
      "2026-07-06T10:00:00+02:00/2026-07-06T12:30:00+02:00",
      "2026-07-06T14:00:00+02:00/2026-07-06T15:00:00+02:00",
    ]);

    // `timezone` reads the dates in New York and writes the merged list there; instants are clipped.
    const ny = await freebusy(
      `calendars=${berlin}&from=2026-07-06&to=2026-07-06&timezone=America/New_York`,
      owner.auth,
    );
    expect(spans(ny.body.busy)).toEqual([
      "2026-07-06T04:00:00-04:00/2026-07-06T06:30:00-04:00",
      "2026-07-06T08:00:00-04:00/2026-07-06T09:00:00-04:00",
      "2026-07-06T14:00:00-04:00/2026-07-06T15:00:00-04:00",
    ]);
    const clipped = await freebusy(
      `calendars=${berlin}&from=2026-07-06T10:15:00%2B02:00&to=2026-07-06T12:00:00Z`,
      owner.auth,
    ).expect(200);
    expect(spans(clipped.body.busy)).toEqual(["2026-07-06T10:15:00+02:00/2026-07-06T12:30:00+02:00"]);
  });

  it("keeps exact instants across DST: Europe/Berlin and America/New_York", async () => {
    const owner = await mintAgent(t);
    const berlin = (await newCalendar(t, owner, { name: "Berlin", timezone: "Europe/Berlin" })).id;
    const york = (await newCalendar(t, owner, { name: "New York", timezone: "America/New_York" })).id;
    const weekly = { type: "weekly", day: 1, starts: "2026-03-01" };
    await newEvent(t, owner, berlin, { name: "Standup", recur: weekly, start_time: "09:30", end_time: "10:15" });
    // 90 minutes from 01:30: over the gap on 8 March, and from the first 01:30 on 1 November.
    await newEvent(t, owner, york, { name: "Night", date: "2026-03-08", start_time: "01:30", end_time: "03:00" });
    await newEvent(t, owner, york, { name: "Repeat", date: "2026-11-01", start_time: "01:30", end_time: "02:00" });
    await newEvent(t, owner, york, { name: "Gap", date: "2026-03-08", start_time: "02:30", end_time: "04:00" });

    const spring = await freebusy(`calendars=${berlin}&from=2026-03-23&to=2026-03-30`, owner.auth).expect(200);
    expect(spans(spring.body.busy)).toEqual([
      "2026-03-23T09:30:00+01:00/2026-03-23T10:15:00+01:00",
      "2026-03-30T09:30:00+02:00/2026-03-30T10:15:00+02:00",
    ]);
    const autumn = await freebusy(`calendars=${berlin}&from=2026-10-19&to=2026-10-26`, owner.auth).expect(200);
    expect(spans(autumn.body.busy)).toEqual([
      "2026-10-19T09:30:00+02:00/2026-10-19T10:15:00+02:00",
      "2026-10-26T09:30:00+01:00/2026-10-26T10:15:00+01:00",
    ]);

    const march = await freebusy(`calendars=${york}&from=2026-03-08&to=2026-03-08`, owner.auth).expect(200);
    // 01:30 EST + 90 min is 04:00 EDT; 02:30 does not exist and moves to 03:30 EDT, lasting 90 min.
    expect(spans(march.body.busy)).toEqual(["2026-03-08T01:30:00-05:00/2026-03-08T05:00:00-04:00"]);
    expect(spans(march.body.calendars[york].busy)).toEqual(spans(march.body.busy));
    const november = await freebusy(`calendars=${york}&from=2026-11-01&to=2026-11-01`, owner.auth).expect(200);
    expect(spans(november.body.busy)).toEqual(["2026-11-01T01:30:00-04:00/2026-11-01T01:00:00-05:00"]);
    // The range of a date is its whole local day: 23 hours on 8 March, 25 on 1 November.
    const own = await slots(
      `calendars=${york}&from=2026-11-01&to=2026-11-01&minutes=60&hours=00:00-24:00&days=7`,
      owner.auth,
    );
    expect(spans(okBody(own).slots)).toEqual([
      "2026-11-01T00:00:00-04:00/2026-11-01T01:30:00-04:00",
      "2026-11-01T01:00:00-05:00/2026-11-02T00:00:00-05:00",
    ]);
  });

  it("refuses to expand more than 50,000 occurrences in one request, naming what to narrow", async () => {
    const owner = await mintAgent(t);
    const calendar = (await newCalendar(t, owner, { name: "Crowded", timezone: "UTC" })).id;
    await seedEvents(t.deps, calendar, dailySeries(800, "Daily"));
    // About 66 days are expanded for 62 (the days around the range hold overnight occurrences).
    const crowded = await freebusy(`calendars=${calendar}&from=2026-03-01&to=2026-05-01`, owner.auth);
    await expectInvalid(crowded, "to");
    expect(crowded.body.error.message).toContain("shorter range or fewer calendars");
    const fortnight = okBody(await freebusy(`calendars=${calendar}&from=2026-03-01&to=2026-03-14`, owner.auth));
    expect(fortnight.busy.length).toBeGreaterThan(0);
  });

  it("answers from the cache only while nothing changed", async () => {
    const owner = await mintAgent(t);
    const calendar = (await newCalendar(t, owner, { name: "Cached", timezone: "UTC" })).id;
    const query = `calendars=${calendar}&from=2026-07-06&to=2026-07-06`;
    expect((await freebusy(query, owner.auth).expect(200)).body.busy).toEqual([]);
    await newEvent(t, owner, calendar, { name: "New", date: "2026-07-06", start_time: "10:00", end_time: "11:00" });
    expect(spans((await freebusy(query, owner.auth).expect(200)).body.busy)).toEqual([
      "2026-07-06T10:00:00+00:00/2026-07-06T11:00:00+00:00",
    ]);
  });
});

describe("GET /v1/freebusy/slots", () => {
  it("climbs 401 -> 400 -> 403 -> 404 -> success", async () => {
    const { owner, reader, stranger, calendars } = await sharingWorld(t);
    const hidden = calendars.private.id;
    const open = calendars.public.id;
    const base = `calendars=${open}&from=2026-07-06&to=2026-07-07`;

    expectError(await slots(`${base}&minutes=30`, { Authorization: "Bearer nope" }), 401, "unauthorized");
    for (const [query, field] of [
      [base, "minutes"],
      [`${base}&minutes=0`, "minutes"],
      [`${base}&minutes=1441`, "minutes"],
      [`${base}&minutes=1.5`, "minutes"],
      [`${base}&minutes=x`, "minutes"],
      [`${base}&minutes=30&hours=9-17`, "hours"],
      [`${base}&minutes=30&hours=09:00-09:00`, "hours"],
      [`${base}&minutes=30&hours=24:00-09:00`, "hours"],
      [`${base}&minutes=30&days=8`, "days"],
      [`${base}&minutes=30&days=5-1`, "days"],
      [`${base}&minutes=30&days=1,,2`, "days"],
      [`${base}&minutes=30&limit=101`, "limit"],
      [`calendars=${open}&from=2026-07-06&to=2026-09-06&minutes=30`, "to"],
    ]) {
      await expectInvalid(await slots(query, owner.auth), field);
    }
    const noRead = await seedScopedToken(t.deps, reader, ["agent:read"]);
    expectError(
      await slots(`calendars=${hidden}&from=2026-07-06&to=2026-07-07&minutes=30`, noRead),
      403,
      "insufficient_scope",
    );
    // A calendar left out would look free: every named calendar must be readable.
    const missing = await slots(`calendars=${open},${hidden}&from=2026-07-06&to=2026-07-07&minutes=30`, stranger.auth);
    expectError(missing, 404, "not_found");
    expect(missing.body.error.message).toContain(hidden);
    expectError(await slots(`calendars=cal_unknown1&from=2026-07-06&to=2026-07-07&minutes=30`), 404, "not_found");

    const res = await slots(`calendars=${open},${hidden}&from=2026-07-06&to=2026-07-07&minutes=30`, reader.auth);
    expect(spans(okBody(res).slots)).toEqual([
      "2026-07-06T09:00:00+00:00/2026-07-06T17:00:00+00:00",
      "2026-07-07T09:00:00+00:00/2026-07-07T17:00:00+00:00",
    ]);
  });

  it("finds the earliest free stretches inside working hours, in local time across DST", async () => {
    const owner = await mintAgent(t);
    const berlin = (await newCalendar(t, owner, { name: "Berlin", timezone: "Europe/Berlin" })).id;
    const york = (await newCalendar(t, owner, { name: "New York", timezone: "America/New_York" })).id;
    await newEvent(t, owner, berlin, { name: "Review", date: "2026-03-30", start_time: "10:00", end_time: "11:00" });
    await newEvent(t, owner, york, { name: "Call", date: "2026-03-30", start_time: "08:30", end_time: "09:30" });
    const week = `calendars=${berlin},${york}&from=2026-03-27&to=2026-03-31`;

    // Friday (+01:00), the weekend skipped, Monday and Tuesday (+02:00): 09:00-17:00 on the clock each day.
    const found = await slots(`${week}&minutes=30`, owner.auth).expect(200);
    expect(spans(found.body.slots)).toEqual([
      "2026-03-27T09:00:00+01:00/2026-03-27T17:00:00+01:00",
      "2026-03-30T09:00:00+02:00/2026-03-30T10:00:00+02:00",
      "2026-03-30T11:00:00+02:00/2026-03-30T14:30:00+02:00",
      "2026-03-30T15:30:00+02:00/2026-03-30T17:00:00+02:00",
      "2026-03-31T09:00:00+02:00/2026-03-31T17:00:00+02:00",
    ]);
    // At least 61 minutes drops the hour before the review; `limit` keeps the earliest.
    const longer = await slots(`${week}&minutes=61&limit=2`, owner.auth).expect(200);
    expect(spans(longer.body.slots)).toEqual([
      "2026-03-27T09:00:00+01:00/2026-03-27T17:00:00+01:00",
      "2026-03-30T11:00:00+02:00/2026-03-30T14:30:00+02:00",
    ]);
    // Working hours of New York (its DST began on 8 March): the Berlin review is 04:00-05:00 there.
    const ny = await slots(`${week}&minutes=30&hours=07:00-12:00&days=1&timezone=America/New_York`, owner.auth);
    expect(spans(okBody(ny).slots)).toEqual([
      "2026-03-30T07:00:00-04:00/2026-03-30T08:30:00-04:00",
      "2026-03-30T09:30:00-04:00/2026-03-30T12:00:00-04:00",
    ]);
    // Overnight hours belong to the day they start on; `0` is Sunday as `7` is.
    const night = await slots(`${week}&minutes=60&hours=22:00-06:00&days=0,5`, owner.auth).expect(200);
    expect(spans(night.body.slots)).toEqual([
      "2026-03-27T22:00:00+01:00/2026-03-28T06:00:00+01:00",
      "2026-03-29T22:00:00+02:00/2026-03-30T06:00:00+02:00",
    ]);
    // A whole day on the clock on the day of the change is 23 hours; days that touch make one stretch.
    const whole = await slots(
      `calendars=${berlin}&from=2026-03-28&to=2026-03-29&minutes=1440&hours=00:00-24:00&days=6-7`,
      owner.auth,
    );
    expect(spans(okBody(whole).slots)).toEqual(["2026-03-28T00:00:00+01:00/2026-03-30T00:00:00+02:00"]);
  });
});

describe("the OpenAPI document", () => {
  it("describes each query parameter of the slots search (MCP's find_free_time reads them)", async () => {
    const doc = (await get(t, "/openapi.json").expect(200)).body;
    const params = doc.paths["/v1/freebusy/slots"].get.parameters as Array<{ name: string; description?: string }>;
    expect(params.map((p) => p.name).sort()).toEqual(
      ["calendars", "days", "from", "hours", "limit", "minutes", "timezone", "to"].sort(),
    );
    for (const p of params) expect(p.description, p.name).toBeTruthy();
  });
});
