import request from "supertest";
import { beforeEach, describe, expect, it } from "vitest";
import { createPagesApp } from "../../functions/src/pages/app.js";
import { appPerTest } from "../helpers/app.js";
import { post } from "../helpers/http.js";
import { mintAgent, type MintedAgent, newCalendar } from "../helpers/factories.js";

/** Cached responses are keyed by calendar revisions: every write must show at once. */
const t = appPerTest();
let owner: MintedAgent;
let calendarId: string;
let pages: ReturnType<typeof createPagesApp>;

const names = async (path: string) =>
  (await request(t.app).get(path).expect(200)).body.events.map((e: { name: string }) => e.name);
const page = async () => (await request(pages).get("/c/team?view=month&date=2026-12-01").expect(200)).text;

beforeEach(async () => {
  pages = createPagesApp(t.deps);
  owner = await mintAgent(t, "Owner");
  calendarId = (await newCalendar(t, owner, { name: "Team", slug: "team", visibility: "public" })).id;
});

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
    await request(t.app)
      .patch(`/v1/calendars/${calendarId}`)
      .set(owner.auth)
      .send({ name: "Team Renamed" })
      .expect(200);
    expect(await page()).toContain("Team Renamed");

    // Another agent's calendar: a private layer shows on the host's page only while a host owner owns it.
    const designer = await mintAgent(t, "Designer");
    const design = await newCalendar(t, designer, { name: "Design", slug: "design", visibility: "public" });
    await post(t, `/v1/calendars/${design.id}/events`, designer.auth)
      .send({ name: "Review", date: "2026-12-03" })
      .expect(200);
    const all = `/v1/calendars/${calendarId}/events?layers=all`;
    expect(await names(all)).toEqual([]);
    const layer = await post(t, `/v1/calendars/${calendarId}/layers`, owner.auth)
      .send({ calendar_id: design.id, key: "design" })
      .expect(200);
    expect(await names(all)).toEqual(["Review"]);
    expect(await page()).toContain("Review");

    await post(t, `/v1/calendars/${design.id}/events`, designer.auth)
      .send({ name: "Critique", date: "2026-12-04" })
      .expect(200);
    expect(await names(all)).toEqual(["Review", "Critique"]);
    expect(await page()).toContain("Critique");

    await request(t.app)
      .patch(`/v1/calendars/${design.id}`)
      .set(designer.auth)
      .send({ visibility: "private" })
      .expect(200);
    expect(await names(`/v1/calendars/${calendarId}/events?layers=all`)).toEqual([]);
    expect(await page()).not.toContain("Critique");

    await request(t.app)
      .patch(`/v1/calendars/${design.id}`)
      .set(designer.auth)
      .send({ visibility: "public" })
      .expect(200);
    await request(t.app).delete(`/v1/calendars/${calendarId}/layers/${layer.body.id}`).set(owner.auth).expect(200);
    expect(await names(all)).toEqual([]);
    expect(await page()).not.toContain("Critique");
  });
});

/**
 * docs/api.md#caching-and-cors: no `/v1` answer may be stored by Hosting's CDN or a browser (Hosting
 * caches a function's 404 for 10 minutes by default, so a private calendar's 404 could outlive
 * a new grant); pages and feeds are revalidated on every use, through their ETag.
 */
describe("Cache-Control", () => {
  const expectNoStore = (res: request.Response) =>
    expect(res.headers["cache-control"], `${res.status} ${res.text.slice(0, 200)}`).toBe("no-store");

  it("is no-store on every /v1 and /openapi.json answer, errors included", async () => {
    expectNoStore(await request(t.app).get("/v1/me").set(owner.auth).expect(200));
    expectNoStore(await request(t.app).get(`/v1/calendars/${calendarId}/events`).set(owner.auth).expect(200));
    expectNoStore(await post(t, "/v1/mint").send({ name: "Second" }).expect(200));
    expectNoStore(await request(t.app).get("/openapi.json").expect(200));
    expectNoStore(await request(t.app).get("/v1/no-such-route").expect(404));
    expectNoStore(await request(t.app).get("/v1/calendars/cal_unknown").set(owner.auth).expect(404));
    expectNoStore(await request(t.app).get("/v1/me").expect(401));
    expectNoStore(await request(t.app).put("/v1/me").set(owner.auth).expect(405));
    expectNoStore(await request(t.app).post("/v1/mint").set("Content-Type", "text/plain").send("hi").expect(415));
    expectNoStore(
      await request(t.app)
        .post("/v1/mint")
        .set("Idempotency-Key", "k")
        .set("Content-Type", "application/json")
        .send('{"name":')
        .expect(400),
    );
    expectNoStore(await request(t.app).options("/v1/me").expect(204));
  });

  it("is no-cache with an ETag on pages, and 304 answers a matching If-None-Match", async () => {
    const view = await post(t, `/v1/calendars/${calendarId}/views`, owner.auth).send({ name: "Shared" }).expect(200);
    for (const path of ["/c/team?view=month&date=2026-12-01", "/c/team/purpose.md", `/v/${view.body.slug}`]) {
      const first = await request(pages).get(path).expect(200);
      expect(first.headers["cache-control"], path).toBe("no-cache");
      const etag = first.headers.etag;
      expect(etag, path).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const again = await request(pages).get(path).set("If-None-Match", etag).expect(304);
      expect(again.headers.etag).toBe(etag);
      expect(again.headers["cache-control"]).toBe("no-cache");
      expect(again.text ?? "").toBe("");
      // As Firebase Hosting forwards a revalidation: with `Cache-Control: no-cache` of its own.
      await request(pages)
        .get(path)
        .set("If-None-Match", `"other", W/${etag}`)
        .set("Cache-Control", "no-cache")
        .expect(304);
    }
    const before = (await request(pages).get("/c/team/purpose.md").expect(200)).headers.etag;
    await request(t.app).patch(`/v1/calendars/${calendarId}`).set(owner.auth).send({ purpose: "Ship it" }).expect(200);
    const after = await request(pages).get("/c/team/purpose.md").set("If-None-Match", before).expect(200);
    expect(after.text).toBe("Ship it");
    expect(after.headers.etag).not.toBe(before);
  });

  it("is no-store on page errors, which carry no ETag", async () => {
    const missing = await request(pages).get("/c/no-such-calendar").expect(404);
    expect(missing.headers["cache-control"]).toBe("no-store");
    expect(missing.headers.etag).toBeUndefined();
  });
});
