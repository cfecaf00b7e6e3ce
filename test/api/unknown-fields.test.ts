/**
 * An unknown field names its likely fix in the message itself: the names agents bring from
 * other calendar APIs, and near misses of the operation's own fields.
 */
import { describe, expect, it } from "vitest";
import { appPerTest } from "../helpers/app.js";
import { mintAgent } from "../helpers/factories.js";
import { expectError, post } from "../helpers/http.js";

const t = appPerTest();

async function createEvent(body: Record<string, unknown>) {
  const agent = await mintAgent(t);
  return post(t, `/v1/calendars/${agent.calendarId}/events`, agent.auth).send(body);
}

describe("unknown fields", () => {
  it.each([
    [{ title: "Standup" }, "unknown field `title`; did you mean `name`?"],
    [{ name: "Standup", start: "09:00" }, "unknown field `start`; did you mean `start_time`?"],
    [{ name: "Standup", description: "daily" }, "unknown field `description`; did you mean `notes`?"],
    [{ name: "Standup", catgory: "team" }, "unknown field `catgory`; did you mean `category`?"],
    [
      { name: "Standup", timezone: "Europe/Berlin" },
      "unknown field `timezone`; events take their calendar's `timezone`; change it on the calendar",
    ],
  ])("%j is refused with the fix in the message", async (body, message) => {
    const res = await createEvent(body);
    expectError(res, 400, "invalid_event");
    expect(res.body.error.message).toContain(message);
  });

  it("names the field inside an object, and suggests nothing for a name far from any", async () => {
    const nested = await createEvent({ name: "Review", recur: { type: "weekly", days: [1] } });
    expect(nested.body.error.message).toMatch(/^unknown field `days` in `recur`; did you mean `day`\?/);
    const far = await createEvent({ name: "Review", zzzzzz: 1 });
    expect(far.body.error.message).toMatch(/^unknown field `zzzzzz`( \(see|$)/);
  });

  it("suggests on other operations too: a calendar's `title`", async () => {
    const agent = await mintAgent(t);
    const res = await post(t, "/v1/calendars", agent.auth).send({ title: "Work" });
    expectError(res, 400, "invalid_request");
    expect(res.body.error.message).toContain("unknown field `title`; did you mean `name`?");
  });
});
