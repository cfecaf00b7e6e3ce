// Every list pages with one cursor codec (domain/paging.ts): a cursor a list did not give out
// is the same 400 on each of them, whether it is garbage or another list's cursor.
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.js";
import { post } from "../helpers/http.js";
import { mintAgent, type MintedAgent } from "../helpers/factories.js";

let t: TestApp;
let owner: MintedAgent;

beforeAll(async () => {
  t = createTestApp();
  owner = await mintAgent(t, "Owner");
  for (const name of ["One", "Two"]) {
    await post(t, `/v1/calendars/${owner.calendarId}/events`, owner.auth)
      .send({ name, date: "2026-12-01" })
      .expect(200);
  }
});
afterAll(() => t.close());

const calendar = () => `/v1/calendars/${owner.calendarId}`;
const lists = () => [
  `${calendar()}/events?limit=1`,
  `${calendar()}/occurrences?from=2026-12-01&to=2026-12-31&limit=1`,
  `${calendar()}/grants?limit=1`,
  `${calendar()}/views?limit=1`,
  `${calendar()}/layers?limit=1`,
  `${calendar()}/access-requests?limit=1`,
];
const list = (path: string, cursor: string) =>
  request(t.app)
    .get(`${path}&cursor=${encodeURIComponent(cursor)}`)
    .set(owner.auth);

const BAD_CURSOR = {
  error: {
    code: "invalid_request",
    message:
      "query: `cursor` is not one this endpoint gave out; send the `next_cursor` of the previous page, " +
      "or omit it to start over (see /docs/errors.md#invalid_request)",
    details: { field: "cursor", issues: [{ field: "cursor", message: "is not a valid cursor" }] },
    request_id: expect.any(String),
  },
};

describe("cursors", () => {
  it("a cursor that is not one is the same 400 on every list", async () => {
    const notJson = Buffer.from("nope").toString("base64url");
    const wrongShape = Buffer.from(JSON.stringify({ after: 1 })).toString("base64url");
    for (const path of lists()) {
      for (const cursor of ["garbage", notJson, wrongShape]) {
        const res = await list(path, cursor);
        expect({ path, cursor, status: res.status, body: res.body }).toEqual({
          path,
          cursor,
          status: 400,
          body: BAD_CURSOR,
        });
      }
    }
  });

  it("another list's cursor is refused the same way", async () => {
    const events = await request(t.app).get(lists()[0]).set(owner.auth).expect(200);
    const occurrences = await request(t.app).get(lists()[1]).set(owner.auth).expect(200);
    expect(events.body.next_cursor).toEqual(expect.any(String));
    expect(occurrences.body.next_cursor).toEqual(expect.any(String));
    const foreign: Array<[string, string]> = [
      [lists()[1], events.body.next_cursor],
      [lists()[0], occurrences.body.next_cursor],
      [lists()[2], events.body.next_cursor],
    ];
    for (const [path, cursor] of foreign) {
      const res = await list(path, cursor);
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 400, body: BAD_CURSOR });
    }
  });
});
