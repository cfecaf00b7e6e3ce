import request from "supertest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPagesApp } from "../../functions/src/pages/app.js";
import { createTestApp, mintAgent, post, type MintedAgent, type TestApp } from "../helpers/app.js";
import { newCalendar } from "../helpers/sharing.js";

/** Cached responses are keyed by calendar revisions: every write must show at once. */
let t: TestApp;
let owner: MintedAgent;
let calendarId: string;
let pages: ReturnType<typeof createPagesApp>;

const names = async (path: string) =>
  (await request(t.app).get(path).expect(200)).body.events.map((e: { name: string }) => e.name);
const page = async () => (await request(pages).get("/c/team?view=month&date=2026-12-01").expect(200)).text;

beforeEach(async () => {
  t = createTestApp();
  pages = createPagesApp(t.deps);
  owner = await mintAgent(t, "Owner");
  calendarId = (await newCalendar(t, owner, { name: "Team", slug: "team", visibility: "public" })).id;
});
afterEach(() => t.close());

describe("cached lists and pages follow every write", () => {
  it("event create, change and delete", async () => {
    const events = `/v1/calendars/${calendarId}/events`;
    expect(await names(events)).toEqual([]);
    const created = await post(t, events, owner.auth).send({ name: "Kickoff", date: "2026-12-02" }).expect(200);
    expect(await names(events)).toEqual(["Kickoff"]);
    expect(await page()).toContain("Kickoff");
    await request(t.app).patch(`${events}/${created.body.id}`).set(owner.auth).send({ name: "Launch" }).expect(200);
    expect(await names(events)).toEqual(["Launch"]);
    expect(await page()).toContain("Launch");
    await request(t.app).delete(`${events}/${created.body.id}`).set(owner.auth).expect(200);
    expect(await names(events)).toEqual([]);
    expect(await page()).not.toContain("Launch");
  });

  it("calendar settings, layers and the layer calendar's own events and visibility", async () => {
    await request(t.app).patch(`/v1/calendars/${calendarId}`).set(owner.auth).send({ name: "Team Renamed" }).expect(200);
    expect(await page()).toContain("Team Renamed");

    const design = await newCalendar(t, owner, { name: "Design", slug: "design", visibility: "public" });
    await post(t, `/v1/calendars/${design.id}/events`, owner.auth).send({ name: "Review", date: "2026-12-03" }).expect(200);
    const all = `/v1/calendars/${calendarId}/events?layers=all`;
    expect(await names(all)).toEqual([]);
    const layer = await post(t, `/v1/calendars/${calendarId}/layers`, owner.auth).send({ calendar_id: design.id, key: "design" }).expect(200);
    expect(await names(all)).toEqual(["Review"]);
    expect(await page()).toContain("Review");

    await post(t, `/v1/calendars/${design.id}/events`, owner.auth).send({ name: "Critique", date: "2026-12-04" }).expect(200);
    expect(await names(all)).toEqual(["Review", "Critique"]);
    expect(await page()).toContain("Critique");

    await request(t.app).patch(`/v1/calendars/${design.id}`).set(owner.auth).send({ visibility: "private" }).expect(200);
    expect(await names(`/v1/calendars/${calendarId}/events?layers=all`)).toEqual([]);
    expect(await page()).not.toContain("Critique");

    await request(t.app).patch(`/v1/calendars/${design.id}`).set(owner.auth).send({ visibility: "public" }).expect(200);
    await request(t.app).delete(`/v1/calendars/${calendarId}/layers/${layer.body.id}`).set(owner.auth).expect(200);
    expect(await names(all)).toEqual([]);
    expect(await page()).not.toContain("Critique");
  });
});
