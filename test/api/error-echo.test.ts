/**
 * An error quotes at most about 100 characters of what the client sent (docs/api.md#errors):
 * a huge field name, query parameter or tool argument is cut short in the message and in
 * `details`, however many places quote it, so the whole answer stays a few KB. Over REST and
 * over MCP alike.
 */
import request from "supertest";
import { describe, expect, it } from "vitest";
import { MAX_QUOTED } from "../../functions/src/domain/errors.js";
import { appPerTest } from "../helpers/app.js";
import { mintAgent } from "../helpers/factories.js";
import { expectError, get, post } from "../helpers/http.js";

const t = appPerTest();

/** The longest error answer any of these may give, in bytes of JSON. */
const MAX_ANSWER = 4_096;
const huge = (n = 60_000) => `f${"x".repeat(n - 1)}`;

/** No run of the attack's characters longer than a quote may hold. */
function expectQuotedShort(text: string) {
  const longest = Math.max(0, ...[...text.matchAll(/x+/g)].map((m) => m[0].length));
  expect(longest).toBeLessThanOrEqual(MAX_QUOTED);
}

describe("errors quote the client's input short", () => {
  it("a 60,000-character unknown field name in a body", async () => {
    const agent = await mintAgent(t);
    const res = await post(t, "/v1/calendars", agent.auth).send({ name: "Work", [huge()]: 1 });
    expectError(res, 400, "invalid_request");
    expect(res.text.length).toBeLessThan(MAX_ANSWER);
    expectQuotedShort(res.text);
    // Still says what went wrong, and where.
    expect(res.body.error.message).toMatch(/^unknown field `fxx+…`/);
    expect(res.body.error.details.field).toMatch(/^fxx+…$/);
  });

  it("many long unknown fields, and a long one nested in an event's recurrence", async () => {
    const agent = await mintAgent(t);
    const many = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`${i}${huge(300)}`, 1]));
    const res = await post(t, "/v1/calendars", agent.auth).send({ name: "Work", ...many });
    expectError(res, 400, "invalid_request");
    expect(res.text.length).toBeLessThan(MAX_ANSWER);
    expectQuotedShort(res.text);
    expect(res.body.error.message).toContain("and 195 more");

    const nested = await post(t, `/v1/calendars/${agent.calendarId}/events`, agent.auth).send({
      name: "Review",
      recur: { type: "weekly", [huge()]: 1 },
    });
    expectError(nested, 400, "invalid_event");
    expect(nested.text.length).toBeLessThan(MAX_ANSWER);
    expect(nested.body.error.details.field).toMatch(/^recur\.fxx+…$/);
  });

  it("a long query parameter name or value, known or unknown", async () => {
    const agent = await mintAgent(t);
    const events = `/v1/calendars/${agent.calendarId}/events`;
    // Node refuses a request line and headers over 16 KB (431) before the app: 15,000 fits.
    for (const query of [`${huge(15_000)}=1`, `cursor=${huge(15_000)}`, `${huge(999)}=1`, `limit=${huge(999)}`]) {
      const res = await get(t, `${events}?${query}`, agent.auth);
      expect(res.status, query.slice(0, 20)).toBe(400);
      expect(res.text.length).toBeLessThan(MAX_ANSWER);
      expectQuotedShort(res.text);
    }
  });

  it("a long unknown path is quoted short in the 404", async () => {
    const res = await request(t.app).get(`/v1/${huge(15_000)}`);
    expectError(res, 404, "not_found");
    expect(res.text.length).toBeLessThan(MAX_ANSWER);
    expectQuotedShort(res.text);
  });

  it("a tool call over MCP with a 60,000-character argument name", async () => {
    const agent = await mintAgent(t);
    let id = 1;
    const call = (name: string, args: Record<string, unknown>) =>
      request(t.app)
        .post("/mcp")
        .set("Accept", "application/json, text/event-stream")
        .set("Content-Type", "application/json")
        .set(agent.auth)
        .send(JSON.stringify({ jsonrpc: "2.0", id: id++, method: "tools/call", params: { name, arguments: args } }));
    // A write (the argument goes to the body) and a read (no body: the argument is refused by name).
    for (const [tool, args] of [
      ["create_event", { calendarId: agent.calendarId, name: "Standup", [huge()]: 1 }],
      ["list_events", { calendarId: agent.calendarId, [huge()]: 1 }],
      ["list_events", { calendarId: agent.calendarId, cursor: huge() }],
    ] as const) {
      const res = await call(tool, args);
      expect(res.status).toBe(200);
      expect(res.body.result.isError, tool).toBe(true);
      expect(res.text.length, tool).toBeLessThan(MAX_ANSWER);
      expectQuotedShort(res.text);
      expect(JSON.parse(res.body.result.content[0].text).error.code).toMatch(/^invalid_(request|event)$/);
    }
  });
});
