import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { expectError, post } from "../helpers/http.js";
import { mintAgent, type MintedAgent } from "../helpers/factories.js";

/**
 * docs/api.md#ids-and-text: names, labels and categories need at least one visible character; NUL,
 * other C0/C1 controls (tab and newline only in free text) and lone surrogates are 400.
 * Section 5 and issue 9: years 0001-9999 on input, a bounded `recur.interval`, time zones
 * stored in their canonical IANA spelling.
 */

let t: TestApp;
let owner: MintedAgent;
let calendarId: string;

beforeAll(async () => {
  t = createTestApp();
  owner = await mintAgent(t, "Hygiene");
  calendarId = owner.calendarId;
});
afterAll(() => t.close());

/** Nothing a reader could see, or characters no name should carry. */
const BAD_NAMES: Array<[string, string]> = [
  ["zero-width space", "\u200B"],
  ["zero-width joiners", "\u200B\u200D\u2060"],
  ["hangul filler", "\u3164"],
  ["braille blank", "\u2800"],
  ["soft hyphens and spaces", " \u00AD \u00A0 "],
  ["a lone combining accent", "\u0301"],
  ["byte order mark", "\uFEFF"],
  ["NUL inside", "Plan\u0000B"],
  ["escape inside", "Plan\u001B[31m"],
  ["C1 next line", "Plan\u0085B"],
  ["C1 control", "Plan\u009FB"],
  ["newline in a name", "Plan\nB"],
  ["tab in a name", "Plan\tB"],
  ["lone high surrogate", "Plan \uD800"],
  ["lone low surrogate", "\uDC00 Plan"],
];

const GOOD_NAMES = ["Plan B", "Zoë's 🎉 party", "👨‍👩‍👧", "e\u0301", "  trimmed  "];

/** Every place a name, label or category comes in: [what, send(value) -> response, expected code]. */
const NAME_FIELDS: Array<[string, (value: string) => Promise<request.Response>, string, string]> = [
  ["mint name", (v) => post(t, "/v1/mint").send({ name: v }), "invalid_request", "name"],
  [
    "mint calendar name",
    (v) => post(t, "/v1/mint").send({ name: "Ok", calendar: { name: v } }),
    "invalid_request",
    "calendar.name",
  ],
  ["calendar name", (v) => post(t, "/v1/calendars", owner.auth).send({ name: v }), "invalid_request", "name"],
  [
    "calendar rename",
    (v) => request(t.app).patch(`/v1/calendars/${calendarId}`).set(owner.auth).send({ name: v }),
    "invalid_request",
    "name",
  ],
  [
    "event name",
    (v) => post(t, `/v1/calendars/${calendarId}/events`, owner.auth).send({ name: v }),
    "invalid_event",
    "name",
  ],
  [
    "event category",
    (v) => post(t, `/v1/calendars/${calendarId}/events`, owner.auth).send({ name: "Ok", category: v }),
    "invalid_event",
    "category",
  ],
  [
    "event art",
    (v) => post(t, `/v1/calendars/${calendarId}/events`, owner.auth).send({ name: "Ok", art: v }),
    "invalid_event",
    "art",
  ],
  [
    "view name",
    (v) => post(t, `/v1/calendars/${calendarId}/views`, owner.auth).send({ name: v }),
    "invalid_request",
    "name",
  ],
  [
    "view filter category",
    (v) => post(t, `/v1/calendars/${calendarId}/views`, owner.auth).send({ name: "Ok", filter: { categories: [v] } }),
    "invalid_request",
    "filter.categories.0",
  ],
  [
    "credential label",
    (v) => post(t, "/v1/agent-credentials", owner.auth).send({ label: v }),
    "invalid_request",
    "label",
  ],
];

describe("names, labels and categories", () => {
  it.each(NAME_FIELDS)("%s: invisible text, controls and lone surrogates are 400", async (_what, send, code, field) => {
    const failures: string[] = [];
    for (const [label, value] of BAD_NAMES) {
      const res = await send(value);
      if (res.status !== 400 || res.body.error?.code !== code || res.body.error?.details?.field !== field) {
        failures.push(`${label}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it.each(NAME_FIELDS.filter(([what]) => what !== "event art"))(
    "%s: visible text of any script passes",
    async (_what, send) => {
      for (const value of GOOD_NAMES) {
        const res = await send(value);
        expect([value, res.status, JSON.stringify(res.body).slice(0, 200)]).toEqual([value, 200, expect.any(String)]);
      }
    },
  );
});

describe("free text: notes, purpose, access request message", () => {
  it("keeps tab and newline (CRLF becomes LF), refuses other controls and lone surrogates", async () => {
    const created = await post(t, `/v1/calendars/${calendarId}/events`, owner.auth).send({
      name: "Notes",
      notes: "line 1\r\n\tline 2\nline 3",
    });
    expect(created.status).toBe(200);
    expect(created.body.notes).toBe("line 1\n\tline 2\nline 3");
    const purpose = await request(t.app)
      .patch(`/v1/calendars/${calendarId}`)
      .set(owner.auth)
      .send({ purpose: "# Why\n\n\tBecause." });
    expect([purpose.status, purpose.body.purpose]).toEqual([200, "# Why\n\n\tBecause."]);

    for (const bad of ["NUL \u0000", "bell \u0007", "C1 \u0085", "escape \u001B[0m", "lone \uD83D"]) {
      expectError(
        await post(t, `/v1/calendars/${calendarId}/events`, owner.auth).send({ name: "Notes", notes: bad }),
        400,
        "invalid_event",
      );
      expectError(
        await request(t.app).patch(`/v1/calendars/${calendarId}`).set(owner.auth).send({ purpose: bad }),
        400,
        "invalid_request",
      );
    }
  });

  it("an access request message follows the same rule", async () => {
    const visible = (
      await post(t, "/v1/calendars", owner.auth).send({ name: "Open", visibility: "public" }).expect(200)
    ).body.id;
    const asker = await mintAgent(t, "Asker");
    const bad = await post(t, `/v1/calendars/${visible}/access-requests`, asker.auth).send({ message: "hi\u0000" });
    expectError(bad, 400, "invalid_request");
    const ok = await post(t, `/v1/calendars/${visible}/access-requests`, asker.auth).send({
      message: "Hello,\nplease.",
    });
    expect([ok.status, ok.body.message]).toEqual([200, "Hello,\nplease."]);
  });
});

describe("dates: years 0001 to 9999", () => {
  const events = () => `/v1/calendars/${calendarId}/events`;

  it("refuses year 0000 anywhere a date comes in, and accepts 0001-01-01 and 9999-12-31", async () => {
    expectError(await post(t, events(), owner.auth).send({ name: "Zero", date: "0000-06-01" }), 400, "invalid_event");
    expectError(
      await post(t, events(), owner.auth).send({ name: "Zero", recur: { type: "daily", starts: "0000-12-31" } }),
      400,
      "invalid_event",
    );
    expectError(
      await post(t, events(), owner.auth).send({ name: "Zero", recur: { type: "daily", until: "0000-12-31" } }),
      400,
      "invalid_event",
    );
    expectError(await request(t.app).get(`${events()}?from=0000-01-01`).set(owner.auth), 400, "invalid_request");
    expectError(
      await request(t.app).get(`/v1/calendars/${calendarId}/occurrences?from=0000-01-01&to=0000-02-01`).set(owner.auth),
      400,
      "invalid_request",
    );
    expectError(
      await post(t, `/v1/calendars/${calendarId}/views`, owner.auth).send({
        name: "Old",
        filter: { from: "0000-01-01" },
      }),
      400,
      "invalid_request",
    );
    for (const date of ["0001-01-01", "9999-12-31"]) {
      expect((await post(t, events(), owner.auth).send({ name: date, date })).status).toBe(200);
    }
    for (const date of ["10000-01-01", "+09999-01-01", "-0001-01-01", "999-01-01"]) {
      expectError(await post(t, events(), owner.auth).send({ name: "Far", date }), 400, "invalid_event");
    }
  });

  it("answers occurrences up to 9999-12-31, the last day there is", async () => {
    const cal = (await post(t, "/v1/calendars", owner.auth).send({ name: "Ends" }).expect(200)).body.id;
    await post(t, `/v1/calendars/${cal}/events`, owner.auth)
      .send({ name: "Daily", recur: { type: "daily", starts: "0001-01-01" } })
      .expect(200);
    const last = await request(t.app)
      .get(`/v1/calendars/${cal}/occurrences?from=9999-12-30&to=9999-12-31`)
      .set(owner.auth);
    expect([last.status, last.body.occurrences?.map((o: { date: string }) => o.date)]).toEqual([
      200,
      ["9999-12-30", "9999-12-31"],
    ]);
    const first = await request(t.app)
      .get(`/v1/calendars/${cal}/occurrences?from=0001-01-01&to=0001-01-02`)
      .set(owner.auth);
    expect([first.status, first.body.occurrences?.map((o: { date: string }) => o.date)]).toEqual([
      200,
      ["0001-01-01", "0001-01-02"],
    ]);
  });

  it("refuses a series whose first occurrence would fall after 9999-12-31", async () => {
    const res = await post(t, events(), owner.auth).send({
      name: "Leap",
      recur: { type: "yearly", month: 2, day: 29, starts: "9999-03-01" },
    });
    expectError(res, 400, "invalid_event");
  });
});

describe("recur.interval", () => {
  it("is an integer from 1 to 1000", async () => {
    const send = (interval: unknown) =>
      post(t, `/v1/calendars/${calendarId}/events`, owner.auth).send({
        name: "Every",
        recur: { type: "daily", interval },
      });
    for (const interval of [1e308, 1001, 0, -1, 1.5, 2 ** 53]) {
      const res = await send(interval);
      expectError(res, 400, "invalid_event");
      expect(res.body.error.details.field).toBe("recur.interval");
    }
    for (const interval of [1, 1000]) expect((await send(interval)).body.recur.interval).toBe(interval);
  });
});

describe("time zones", () => {
  it("are stored in their canonical IANA spelling, on mint, create and PATCH", async () => {
    const cases: Array<[string, string]> = [
      ["europe/BERLIN", "Europe/Berlin"],
      ["utc", "UTC"],
      ["Etc/UTC", "Etc/UTC"],
      ["asia/kolkata", "Asia/Kolkata"],
      ["Asia/Kolkata", "Asia/Kolkata"],
      ["us/pacific", "US/Pacific"],
      ["AMERICA/ARGENTINA/BUENOS_AIRES", "America/Argentina/Buenos_Aires"],
      ["america/port-au-prince", "America/Port-au-Prince"],
      ["antarctica/dumontdurville", "Antarctica/DumontDUrville"],
    ];
    for (const [sent, stored] of cases) {
      const created = await post(t, "/v1/calendars", owner.auth).send({ name: "Zone", timezone: sent });
      expect([sent, created.status, created.body.timezone]).toEqual([sent, 200, stored]);
      const patched = await request(t.app)
        .patch(`/v1/calendars/${created.body.id}`)
        .set(owner.auth)
        .send({ timezone: sent.toUpperCase() });
      expect([sent, patched.body.timezone]).toEqual([sent, stored]);
    }
    const minted = await post(t, "/v1/mint").send({ name: "Zoned", calendar: { timezone: "europe/paris" } });
    expect(minted.body.calendar.timezone).toBe("Europe/Paris");
    expectError(
      await post(t, "/v1/calendars", owner.auth).send({ name: "Zone", timezone: "Mars/Olympus" }),
      400,
      "invalid_request",
    );
  });
});
