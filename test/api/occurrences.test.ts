import request from "supertest";
import { describe, expect, it } from "vitest";
import { appPerTest } from "../helpers/app.js";
import { expectError } from "../helpers/http.js";
import { expandOccurrences } from "../helpers/occurrences.js";
import { mintAgent, newCalendar, newEvent, sharingWorld } from "../helpers/factories.js";
import { seedLayer } from "../helpers/store.js";
import { paths } from "../../functions/src/domain/paths.js";
import { eventSources } from "../../functions/src/domain/queries/sources.js";
import type { CalendarRecord } from "../../functions/src/domain/records.js";
import { presentOccurrence } from "../../functions/src/presenters/events.js";
import { dailySeries, seedEvents, seedLayeredHost, type EventSeed } from "../helpers/big-calendar.js";

const t = appPerTest();

interface Occ {
  event_id: string;
  layer: string;
  date: string;
  start_time: string | null;
  end_time: string | null;
  start: string | null;
  end: string | null;
  name: string;
  category: string | null;
}

async function occurrences(
  calendarId: string,
  from: string,
  to: string,
  auth?: { Authorization: string },
): Promise<Occ[]> {
  const req = request(t.app).get(`/v1/calendars/${calendarId}/occurrences?from=${from}&to=${to}`);
  const res = await (auth ? req.set(auth) : req).expect(200);
  return res.body.occurrences;
}

const byDate = (list: Occ[]) => new Map(list.map((o) => [o.date, o]));

describe("GET .../occurrences", () => {
  it("requires from and to, at most 366 days apart; private calendars are 404 without a grant", async () => {
    const { reader, stranger, calendars } = await sharingWorld(t);
    const open = calendars.unlisted.id;
    const hidden = calendars.private.id;
    const get = (cal: string, query: string) => request(t.app).get(`/v1/calendars/${cal}/occurrences${query}`);

    expectError(
      await get(open, "?from=2026-01-01&to=2026-01-31").set("Authorization", "Bearer nope"),
      401,
      "unauthorized",
    );
    for (const [query, field] of [
      ["", "from"],
      ["?from=2026-01-01", "to"],
      ["?to=2026-01-01", "from"],
      ["?from=2026-02-30&to=2026-03-01", "from"],
      ["?from=2026-03-02&to=2026-03-01", "to"],
      ["?from=2026-01-01&to=2027-01-02", "to"],
      ["?from=2026-01-01&to=2026-01-02&kind=x", "kind"],
    ]) {
      const res = await get(open, query);
      expectError(res, 400, "invalid_request");
      expect(res.body.error.details.field, query).toBe(field);
    }
    expectError(await get(hidden, "?from=2026-01-01&to=2026-01-31"), 404, "not_found");
    expectError(await get(hidden, "?from=2026-01-01&to=2026-01-31").set(stranger.auth), 404, "not_found");
    expect(await occurrences(hidden, "2026-01-01", "2026-01-31", reader.auth)).toEqual([]);
    // 366 days counting both ends is the most allowed (a leap year's worth).
    expect(await occurrences(open, "2026-01-01", "2027-01-01")).toEqual([]);
  });

  it("a weekly 09:30 Europe/Berlin event keeps 09:30 local across both DST changes", async () => {
    const owner = await mintAgent(t);
    const cal = (await newCalendar(t, owner, { name: "Berlin", timezone: "Europe/Berlin" })).id;
    const event = await newEvent(t, owner, cal, {
      name: "Standup",
      recur: { type: "weekly", day: 1, starts: "2026-01-01" },
      start_time: "09:30",
      end_time: "10:15",
      category: "team",
    });
    const all = await occurrences(cal, "2026-01-01", "2026-12-31");
    expect(all).toHaveLength(52); // 2026 has 52 Mondays
    for (const o of all) {
      expect(new Date(`${o.date}T00:00:00Z`).getUTCDay()).toBe(1);
      expect(o.start).toMatch(new RegExp(`^${o.date}T09:30:00\\+0[12]:00$`));
      expect(o.end).toMatch(new RegExp(`^${o.date}T10:15:00\\+0[12]:00$`));
    }
    const at = byDate(all);
    // Summer time runs from 2026-03-29 to 2026-10-25 in Berlin.
    expect(at.get("2026-03-23")).toEqual({
      event_id: event.id,
      layer: "main",
      date: "2026-03-23",
      end_date: "2026-03-23",
      days: 1,
      original_date: "2026-03-23",
      start_time: "09:30",
      end_time: "10:15",
      start: "2026-03-23T09:30:00+01:00",
      end: "2026-03-23T10:15:00+01:00",
      name: "Standup",
      category: "team",
      alarms: [],
    });
    expect(at.get("2026-03-30")?.start).toBe("2026-03-30T09:30:00+02:00");
    expect(at.get("2026-10-19")?.start).toBe("2026-10-19T09:30:00+02:00");
    expect(at.get("2026-10-26")?.start).toBe("2026-10-26T09:30:00+01:00");
    expect(Date.parse(at.get("2026-03-30")!.start!)).toBe(Date.parse("2026-03-30T07:30:00Z"));
    expect(Date.parse(at.get("2026-03-23")!.start!)).toBe(Date.parse("2026-03-23T08:30:00Z"));
    expect(all.filter((o) => o.start!.endsWith("+02:00"))).toHaveLength(30);
  });

  it("America/New_York: offsets around both changes, a repeated hour takes its first instant, a skipped one moves forward", async () => {
    const owner = await mintAgent(t);
    const cal = (await newCalendar(t, owner, { name: "NYC", timezone: "America/New_York" })).id;
    // Sundays 01:30: DST starts 2026-03-08 at 02:00 and ends 2026-11-01 at 02:00.
    await newEvent(t, owner, cal, {
      name: "Night shift",
      recur: { type: "weekly", day: 7, starts: "2026-03-01" },
      start_time: "01:30",
    });
    const sundays = byDate(await occurrences(cal, "2026-03-01", "2026-11-08"));
    expect(sundays.get("2026-03-01")?.start).toBe("2026-03-01T01:30:00-05:00");
    expect(sundays.get("2026-03-08")?.start).toBe("2026-03-08T01:30:00-05:00");
    expect(sundays.get("2026-03-15")?.start).toBe("2026-03-15T01:30:00-04:00");
    expect(sundays.get("2026-11-01")?.start).toBe("2026-11-01T01:30:00-04:00");
    expect(sundays.get("2026-11-08")?.start).toBe("2026-11-08T01:30:00-05:00");

    // 02:30 does not exist that day: the start moves forward by the gap, and the occurrence
    // still lasts its 90 minutes (docs/api.md#times).
    await newEvent(t, owner, cal, { name: "Gap", date: "2026-03-08", start_time: "02:30", end_time: "04:00" });
    const gap = (await occurrences(cal, "2026-03-08", "2026-03-08")).find((o) => o.name === "Gap");
    expect(gap).toMatchObject({
      start_time: "02:30",
      end_time: "04:00",
      start: "2026-03-08T03:30:00-04:00",
      end: "2026-03-08T05:00:00-04:00",
    });
  });

  it("sorts by date then time (untimed first), expands only in range, and never lists someday events", async () => {
    const owner = await mintAgent(t);
    const cal = (await newCalendar(t, owner, { name: "Mixed" })).id;
    await newEvent(t, owner, cal, { name: "someday" });
    await newEvent(t, owner, cal, {
      name: "daily 18:00",
      recur: { type: "daily", starts: "2026-12-01", until: "2026-12-03" },
      start_time: "18:00",
    });
    await newEvent(t, owner, cal, {
      name: "every 2nd day",
      recur: { type: "daily", interval: 2, starts: "2026-11-30" },
    });
    await newEvent(t, owner, cal, {
      name: "one-off 09:00",
      date: "2026-12-02",
      start_time: "09:00",
      end_time: "09:45",
    });
    await newEvent(t, owner, cal, { name: "outside", date: "2026-12-10" });
    await newEvent(t, owner, cal, { name: "last day", recur: { type: "monthly", day: -1, starts: "2026-01-01" } });

    const list = await occurrences(cal, "2026-12-01", "2026-12-04");
    expect(list.map((o) => `${o.date} ${o.name}`)).toEqual([
      "2026-12-01 daily 18:00",
      "2026-12-02 every 2nd day",
      "2026-12-02 one-off 09:00",
      "2026-12-02 daily 18:00",
      "2026-12-03 daily 18:00",
      "2026-12-04 every 2nd day",
    ]);
    const untimed = list.find((o) => o.name === "every 2nd day")!;
    expect(untimed).toMatchObject({ start_time: null, end_time: null, start: null, end: null, layer: "main" });
    expect(list.find((o) => o.name === "one-off 09:00")).toMatchObject({
      start: "2026-12-02T09:00:00+00:00",
      end: "2026-12-02T09:45:00+00:00",
    });
    expect(list.find((o) => o.name === "daily 18:00")!.end).toBeNull();
    expect((await occurrences(cal, "2026-12-31", "2026-12-31")).map((o) => o.name)).toEqual(["last day"]);
  });

  it("includes readable layers, each in its own calendar's timezone, marked by layer key", async () => {
    const owner = await mintAgent(t, "Owner");
    const host = (await newCalendar(t, owner, { name: "Host", timezone: "Europe/Berlin", visibility: "public" })).id;
    const tokyo = (await newCalendar(t, owner, { name: "Tokyo", timezone: "Asia/Tokyo" })).id;
    const secret = (await newCalendar(t, owner, { name: "Secret", visibility: "private" })).id;
    await seedLayer(t.deps, host, tokyo, "tokyo");
    await seedLayer(t.deps, host, secret, "secret");
    await newEvent(t, owner, host, { name: "host", date: "2026-12-01", start_time: "09:00" });
    await newEvent(t, owner, tokyo, {
      name: "tokyo",
      recur: { type: "daily", starts: "2026-12-01" },
      start_time: "08:00",
    });
    await newEvent(t, owner, secret, { name: "secret", date: "2026-12-01" });

    const anon = await occurrences(host, "2026-12-01", "2026-12-01");
    expect(anon.map((o) => [o.name, o.layer, o.start])).toEqual([
      ["tokyo", "tokyo", "2026-12-01T08:00:00+09:00"],
      ["host", "main", "2026-12-01T09:00:00+01:00"],
    ]);
    const asOwner = await occurrences(host, "2026-12-01", "2026-12-01", owner.auth);
    // By start instant: Tokyo's 08:00 is 23:00 UTC the day before; the all-day UTC event starts at midnight UTC.
    expect(asOwner.map((o) => o.layer)).toEqual(["tokyo", "secret", "main"]);
  });
});

describe("GET .../occurrences pages like every list", () => {
  type Page = { occurrences: Occ[]; next_cursor: string | null };
  const getPage = async (calendarId: string, query: string, auth?: { Authorization: string }): Promise<Page> => {
    const req = request(t.app).get(`/v1/calendars/${calendarId}/occurrences?${query}`);
    const res = await (auth ? req.set(auth) : req);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    return res.body;
  };

  /** Every page from the first, following next_cursor. */
  async function allPages(calendarId: string, range: string, limit: number): Promise<Occ[][]> {
    const pages: Occ[][] = [];
    let cursor: string | null = null;
    do {
      const page: Page = await getPage(
        calendarId,
        `${range}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      expect(page.occurrences.length).toBeLessThanOrEqual(limit);
      pages.push(page.occurrences);
      cursor = page.next_cursor;
      if (cursor !== null) expect(page.occurrences).toHaveLength(limit);
    } while (cursor !== null);
    return pages;
  }

  /** The whole, unpaged expansion of what an anonymous caller reads, as the API presents it. */
  async function fullExpansion(calendarId: string, from: string, to: string): Promise<Occ[]> {
    const calendar = (await t.deps.store.get<CalendarRecord>(paths.calendar(calendarId)))!.data;
    // Every event and exception, read whole: the reference the range reads are checked against.
    const loaded = await Promise.all(
      (await eventSources(t.deps, calendar, null)).map(async (source) => ({
        ...source,
        events: (await t.deps.store.query(paths.events(source.calendar.id))).map((d) => d.data),
        exceptions: (await t.deps.store.query(paths.exceptions(source.calendar.id))).map((d) => d.data),
      })),
    );
    return expandOccurrences(loaded, from, to).map(presentOccurrence);
  }

  it("checks limit and cursor, and answers next_cursor null when one page holds everything", async () => {
    const owner = await mintAgent(t);
    const cal = (await newCalendar(t, owner, { name: "Small" })).id;
    await newEvent(t, owner, cal, { name: "daily", recur: { type: "daily", starts: "2026-01-01" } });
    for (const [query, field] of [
      ["limit=0", "limit"],
      ["limit=1001", "limit"],
      ["limit=ten", "limit"],
      ["cursor=not-a-cursor", "cursor"],
      [`cursor=${Buffer.from(JSON.stringify(["2026-13-01", "", "", "", ""])).toString("base64url")}`, "cursor"],
    ]) {
      const res = await request(t.app).get(`/v1/calendars/${cal}/occurrences?from=2026-01-01&to=2026-01-31&${query}`);
      expectError(res, 400, "invalid_request");
      expect(res.body.error.details.field, query).toBe(field);
    }
    const whole = await getPage(cal, "from=2026-01-01&to=2026-01-31");
    expect(whole.occurrences).toHaveLength(31);
    expect(whole.next_cursor).toBeNull();
    const exact = await getPage(cal, "from=2026-01-01&to=2026-01-31&limit=31");
    expect(exact.next_cursor).toBeNull();
    const first = await getPage(cal, "from=2026-01-01&to=2026-01-31&limit=30");
    expect(first.next_cursor).not.toBeNull();
    const rest = await getPage(cal, `from=2026-01-01&to=2026-01-31&limit=30&cursor=${first.next_cursor}`);
    expect(rest).toEqual({ occurrences: [whole.occurrences[30]], next_cursor: null });
  });

  it("pages through layers, zones, kinds and ties exactly as the full expansion orders them", async () => {
    const owner = await mintAgent(t, "Owner");
    const host = (await newCalendar(t, owner, { name: "Host", timezone: "Europe/Berlin", visibility: "public" })).id;
    const mixed = (prefix: string): EventSeed[] => [
      ...dailySeries(12, `${prefix} daily`, "2026-01-03"),
      {
        name: `${prefix} weekly`,
        recur: { type: "weekly", day: 3, interval: 2, starts: "2025-12-01" },
        start_time: "09:00",
        created_at: "2025-12-01T00:00:01.000Z",
      },
      {
        name: `${prefix} monthly`,
        recur: { type: "monthly", day: -1, starts: "2025-01-01" },
        created_at: "2025-12-01T00:00:01.000Z",
      },
      {
        name: `${prefix} yearly`,
        recur: { type: "yearly", month: 2, day: 29, starts: "2024-01-01" },
        start_time: "12:00",
      },
      {
        name: `${prefix} ended`,
        recur: { type: "daily", starts: "2026-01-01", until: "2026-01-10" },
        start_time: "09:00",
      },
      { name: `${prefix} one-off`, date: "2026-02-14", start_time: "09:00", created_at: "2025-12-01T00:00:01.000Z" },
      { name: `${prefix} untimed one-off`, date: "2026-01-01" },
      { name: `${prefix} someday` },
    ];
    await seedEvents(t.deps, host, mixed("main"));
    for (const [key, timezone] of [
      ["tokyo", "Asia/Tokyo"],
      ["york", "America/New_York"],
      ["plain", "UTC"],
    ]) {
      const layer = (await newCalendar(t, owner, { name: key, timezone, visibility: "unlisted" })).id;
      await seedEvents(t.deps, layer, mixed(key));
      await seedLayer(t.deps, host, layer, key);
    }
    const [from, to] = ["2026-01-01", "2026-03-31"];
    const expected = await fullExpansion(host, from, to);
    expect(expected.length).toBeGreaterThan(4000);
    expect(new Set(expected.map((o) => o.layer))).toEqual(new Set(["main", "tokyo", "york", "plain"]));

    for (const limit of [1000, 97, 8]) {
      const pages = await allPages(host, `from=${from}&to=${to}`, limit);
      expect(pages.flat(), `limit ${limit}`).toEqual(expected);
      expect(pages).toHaveLength(Math.ceil(expected.length / limit));
    }
    // A page that ends with a day's last occurrence: the next one starts with the next day.
    const firstDayCount = expected.filter((o) => o.date === from).length;
    const dayPage = await getPage(host, `from=${from}&to=${to}&limit=${firstDayCount}`);
    expect(dayPage.occurrences.every((o) => o.date === from)).toBe(true);
    const nextDay = await getPage(
      host,
      `from=${from}&to=${to}&limit=5&cursor=${encodeURIComponent(dayPage.next_cursor!)}`,
    );
    expect(nextDay.occurrences).toEqual(expected.slice(firstDayCount, firstDayCount + 5));
    expect(nextDay.occurrences[0].date).toBe("2026-01-02");
  });

  it("answers the first pages of 20 layers × 1,000 daily series over a year (issue 9) without expanding the year", async () => {
    const owner = await mintAgent(t, "Owner");
    const host = (await newCalendar(t, owner, { name: "Host", visibility: "public" })).id;
    await seedLayeredHost(t.deps, (name) => newCalendar(t, owner, { name, visibility: "public" }), host, 20, 1000);
    const range = "from=2026-01-01&to=2026-12-31";
    // The year holds 20,000 × 365 occurrences; the reference for the first two pages is the first day's.
    const firstDay = await fullExpansion(host, "2026-01-01", "2026-01-01");
    expect(firstDay).toHaveLength(20_000);

    // Page boundaries inside a day and across days are covered with smaller data above.
    const first = await getPage(host, range);
    expect(first.occurrences).toEqual(firstDay.slice(0, 1000));
    expect(first.next_cursor).not.toBeNull();
    const second = await getPage(host, `${range}&limit=500&cursor=${encodeURIComponent(first.next_cursor!)}`);
    expect(second.occurrences).toEqual(firstDay.slice(1000, 1500));
    expect(second.next_cursor).not.toBeNull();
  });
});
