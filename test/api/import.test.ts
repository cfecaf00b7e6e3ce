import request from "supertest";
import { describe, expect, it } from "vitest";
import { paths } from "../../functions/src/domain/paths.js";
import { appPerTest } from "../helpers/app.js";
import { expectError, freshKey, get, post } from "../helpers/http.js";
import { grantRole, newCalendar, sharingWorld } from "../helpers/factories.js";
import { seedScopedToken } from "../helpers/store.js";

const t = appPerTest();

const importPath = (calendarId: string, query = "") => `/v1/calendars/${calendarId}/import${query}`;

const ics = (...events: string[]) =>
  ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Import//EN", ...events, "END:VCALENDAR", ""].join("\r\n");

const STANDUP = [
  "BEGIN:VEVENT",
  "UID:standup@example.com",
  "DTSTAMP:20261101T000000Z",
  "DTSTART;TZID=Europe/Berlin:20261201T093000",
  "DTEND;TZID=Europe/Berlin:20261201T094500",
  "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
  "EXDATE;TZID=Europe/Berlin:20261203T093000",
  "SUMMARY:Standup",
  "CATEGORIES:team",
  "BEGIN:VALARM",
  "ACTION:DISPLAY",
  "DESCRIPTION:Standup",
  "TRIGGER:-PT10M",
  "END:VALARM",
  "END:VEVENT",
].join("\r\n");

const MOVED = [
  "BEGIN:VEVENT",
  "UID:standup@example.com",
  "DTSTAMP:20261101T000000Z",
  "RECURRENCE-ID;TZID=Europe/Berlin:20261204T093000",
  "DTSTART;TZID=Europe/Berlin:20261204T110000",
  "DTEND;TZID=Europe/Berlin:20261204T111500",
  "SUMMARY:Standup (late)",
  "END:VEVENT",
].join("\r\n");

const OFFSITE = [
  "BEGIN:VEVENT",
  "UID:offsite@example.com",
  "DTSTAMP:20261101T000000Z",
  "DTSTART;VALUE=DATE:20261207",
  "DTEND;VALUE=DATE:20261210",
  "SUMMARY:Offsite",
  "LOCATION:Lisbon",
  "END:VEVENT",
].join("\r\n");

const TASK = ["BEGIN:VTODO", "UID:task@example.com", "DTSTAMP:20261101T000000Z", "SUMMARY:Buy milk", "END:VTODO"].join(
  "\r\n",
);

const sendIcs = (calendarId: string, text: string, auth: { Authorization: string }, query = "") =>
  post(t, importPath(calendarId, query), auth).set("Content-Type", "text/calendar").send(text);

const events = async (calendarId: string, auth: { Authorization: string }) =>
  (await get(t, `/v1/calendars/${calendarId}/events?limit=100`, auth).expect(200)).body.events as Array<
    Record<string, unknown>
  >;

describe("POST .../import", () => {
  it("climbs 401 -> 400 -> 403 -> 404 -> success, then stores the events with their exceptions and alarms", async () => {
    const { owner, writer, reader, stranger } = await sharingWorld(t);
    const calendar = await newCalendar(t, owner, { timezone: "Europe/Berlin", visibility: "private" });
    await grantRole(t, owner, calendar.id, writer.agentId, "writer");
    await grantRole(t, owner, calendar.id, reader.agentId, "reader");
    const text = ics(STANDUP, MOVED, OFFSITE, TASK);

    expectError(await sendIcs(calendar.id, text, { Authorization: "" }), 401, "unauthorized");
    expectError(
      await request(t.app)
        .post(importPath(calendar.id))
        .set(writer.auth)
        .set("Content-Type", "text/calendar")
        .send(text),
      400,
      "missing_idempotency_key",
    );
    expectError(await sendIcs(calendar.id, "BEGIN:VCALENDAR\r\nthis is not", writer.auth), 400, "invalid_request");
    expectError(await sendIcs(calendar.id, text, writer.auth, "?prune=yes"), 400, "invalid_request");
    expectError(
      await post(t, importPath(calendar.id), writer.auth).set("Content-Type", "text/plain").send(text),
      415,
      "unsupported_media_type",
    );
    expectError(await sendIcs(calendar.id, text, reader.auth), 403, "forbidden");
    const readOnly = await seedScopedToken(t.deps, writer, ["calendar:read"]);
    expectError(await sendIcs(calendar.id, text, readOnly), 403, "insufficient_scope");
    expectError(await sendIcs(calendar.id, text, stranger.auth), 404, "not_found");
    expect(await events(calendar.id, owner.auth)).toEqual([]);

    const res = await sendIcs(calendar.id, text, writer.auth).expect(200);
    expect(res.body).toEqual({
      created: 2,
      updated: 0,
      unchanged: 0,
      deleted: 0,
      skipped: [{ uid: "task@example.com", reason: expect.stringContaining("VTODO") }],
    });

    const stored = await events(calendar.id, owner.auth);
    const standup = stored.find((e) => e.ical_uid === "standup@example.com")!;
    expect(standup).toMatchObject({
      kind: "recurring",
      name: "Standup",
      recur: { type: "weekly", day: [1, 2, 3, 4, 5], starts: "2026-12-01" },
      start_time: "09:30",
      end_time: "09:45",
      category: "team",
      alarms: [10],
      created_by: { id: writer.agentId },
    });
    const offsite = stored.find((e) => e.ical_uid === "offsite@example.com")!;
    expect(offsite).toMatchObject({ kind: "one-off", date: "2026-12-07", days: 3, start_time: null });
    expect(offsite.notes).toContain("Lisbon");

    const occurrences = (
      await get(t, `/v1/calendars/${calendar.id}/occurrences?from=2026-12-01&to=2026-12-04`, owner.auth).expect(200)
    ).body.occurrences as Array<Record<string, unknown>>;
    expect(occurrences.map((o) => [o.date, o.start_time, o.name])).toEqual([
      ["2026-12-01", "09:30", "Standup"],
      ["2026-12-02", "09:30", "Standup"],
      ["2026-12-04", "11:00", "Standup (late)"],
    ]);
    const exceptions = await t.deps.store.query(paths.exceptions(calendar.id));
    expect(exceptions.map((e) => [e.data.original_date, e.data.cancelled]).sort()).toEqual([
      ["2026-12-03", true],
      ["2026-12-04", false],
    ]);
  });

  it("a second import of the same text changes nothing; a changed text updates in place; prune deletes", async () => {
    const owner = (await sharingWorld(t)).owner;
    const calendar = await newCalendar(t, owner, { timezone: "Europe/Berlin" });
    const first = await sendIcs(calendar.id, ics(STANDUP, MOVED, OFFSITE), owner.auth).expect(200);
    expect(first.body).toMatchObject({ created: 2, updated: 0, unchanged: 0 });
    const before = await events(calendar.id, owner.auth);
    const feedBefore = await changeCount(calendar.id, owner.auth);

    const again = await sendIcs(calendar.id, ics(STANDUP, MOVED, OFFSITE), owner.auth).expect(200);
    expect(again.body).toEqual({ created: 0, updated: 0, unchanged: 2, deleted: 0, skipped: [] });
    expect(await events(calendar.id, owner.auth)).toEqual(before);
    expect(await changeCount(calendar.id, owner.auth)).toBe(feedBefore);

    const renamed = ics(STANDUP.replace("SUMMARY:Standup", "SUMMARY:Daily standup"), OFFSITE);
    const changed = await sendIcs(calendar.id, renamed, owner.auth).expect(200);
    expect(changed.body).toMatchObject({ created: 0, updated: 1, unchanged: 1, deleted: 0 });
    const after = await events(calendar.id, owner.auth);
    const standupBefore = before.find((e) => e.ical_uid === "standup@example.com")!;
    const standupAfter = after.find((e) => e.ical_uid === "standup@example.com")!;
    expect(standupAfter.id).toBe(standupBefore.id);
    expect(standupAfter.name).toBe("Daily standup");
    // The override went with the text: only the EXDATE's exception is left.
    const exceptions = await t.deps.store.query(paths.exceptions(calendar.id));
    expect(exceptions.map((e) => e.data.original_date)).toEqual(["2026-12-03"]);

    const pruned = await sendIcs(calendar.id, ics(OFFSITE), owner.auth, "?prune=true").expect(200);
    expect(pruned.body).toMatchObject({ created: 0, updated: 0, unchanged: 1, deleted: 1 });
    expect((await events(calendar.id, owner.auth)).map((e) => e.ical_uid)).toEqual(["offsite@example.com"]);
    expect(await t.deps.store.query(paths.exceptions(calendar.id))).toEqual([]);
  });

  it("events created by hand are never matched or pruned", async () => {
    const owner = (await sharingWorld(t)).owner;
    const calendar = await newCalendar(t, owner, { timezone: "Europe/Berlin" });
    await post(t, `/v1/calendars/${calendar.id}/events`, owner.auth).send({ name: "By hand" }).expect(200);
    await sendIcs(calendar.id, ics(OFFSITE), owner.auth, "?prune=true").expect(200);
    await sendIcs(calendar.id, ics(), owner.auth, "?prune=true").expect(200);
    expect((await events(calendar.id, owner.auth)).map((e) => [e.name, e.ical_uid])).toEqual([["By hand", null]]);
  });

  it("takes the text as JSON `{ics}` too, and replays an answer by its key", async () => {
    const owner = (await sharingWorld(t)).owner;
    const calendar = await newCalendar(t, owner, { timezone: "Europe/Berlin" });
    const key = freshKey();
    const send = () =>
      request(t.app)
        .post(importPath(calendar.id))
        .set(owner.auth)
        .set("Idempotency-Key", key)
        .send({ ics: ics(OFFSITE) });
    const first = await send().expect(200);
    expect(first.body).toMatchObject({ created: 1 });
    const replay = await send().expect(200);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.body).toEqual(first.body);
    expectError(await post(t, importPath(calendar.id), owner.auth).send({ text: "x" }), 400, "invalid_request");
  });

  it("refuses a text over the size limit, and one over the quota, storing nothing", async () => {
    const owner = (await sharingWorld(t)).owner;
    const calendar = await newCalendar(t, owner, { timezone: "Europe/Berlin" });
    const huge = ics(OFFSITE.replace("SUMMARY:Offsite", `SUMMARY:${"x".repeat(2 * 1024 * 1024)}`));
    expectError(await sendIcs(calendar.id, huge, owner.auth), 413, "payload_too_large");
    t.deps.config = { ...t.deps.config, quotas: { ...t.deps.config.quotas, events_per_calendar: 1 } };
    const over = await sendIcs(calendar.id, ics(STANDUP, OFFSITE), owner.auth);
    expectError(over, 403, "quota_exceeded");
    expect(await events(calendar.id, owner.auth)).toEqual([]);
  });
});

async function changeCount(calendarId: string, auth: { Authorization: string }): Promise<number> {
  const res = await get(t, `/v1/calendars/${calendarId}/changes?limit=100`, auth).expect(200);
  return (res.body.changes as unknown[]).length;
}
