/**
 * Feeds are rendered once per revision of what they show (issue 15), like pages: repeated and
 * conditional requests reuse the rendered body, and anything the feed is made of (an event,
 * the calendar's settings, a view's filter, the date that decides the budget's cut) renders it
 * again. The renders are counted through the cache the app is given.
 */
import type { Express } from "express";
import request from "supertest";
import { beforeEach, describe, expect, it } from "vitest";
import type { RenderedCache } from "../../functions/src/http/deps.js";
import { createPagesApp } from "../../functions/src/pages/app.js";
import { FEED_EVENT_BUDGET } from "../../functions/src/pages/budgets.js";
import { appPerTest } from "../helpers/app.js";
import { seedEvents, seedLayeredHost } from "../helpers/big-calendar.js";
import { mintAgent, newCalendar, newEvent, newView, type MintedAgent } from "../helpers/factories.js";
import { patch } from "../helpers/http.js";

const t = appPerTest(); // the clock starts at 2026-11-22T10:00Z
let feeds: Express;
let renders: string[];
let owner: MintedAgent;

/** The app's cache, recording the key of every feed it had to render. */
function recordingCache(inner: RenderedCache): RenderedCache {
  return {
    body: (key, compute) =>
      inner.body(key, () => {
        if (key.startsWith("feed|")) renders.push(key);
        return compute();
      }),
    json: (key, compute) => inner.json(key, compute),
    stats: () => inner.stats(),
  };
}

beforeEach(async () => {
  renders = [];
  feeds = createPagesApp({ ...t.deps, cache: recordingCache(t.deps.cache) });
  owner = await mintAgent(t, "Planner", { calendar: { name: "Plan", timezone: "Europe/Berlin" } });
});

const get = (path: string, etag?: string) => {
  const req = request(feeds).get(path);
  return etag ? req.set("If-None-Match", etag) : req;
};

describe("a calendar's feed", () => {
  it("is rendered once, then answered from the cache: the same body and ETag, 304 when it matches", async () => {
    await newEvent(t, owner, owner.calendarId, { name: "Launch", date: "2026-12-01" });
    const path = `/c/${owner.calendarSlug}.ics`;
    const first = await get(path).expect(200);
    const second = await get(path).expect(200);
    expect(second.text).toBe(first.text);
    expect(second.headers.etag).toBe(first.headers.etag);
    await get(path, first.headers.etag).expect(304);
    await request(feeds).head(path).set("If-None-Match", first.headers.etag).expect(304);
    expect(renders).toHaveLength(1);
  });

  it("is rendered again after an event is written, after a settings change and on the next day", async () => {
    const path = `/c/${owner.calendarSlug}.ics`;
    const empty = await get(path).expect(200);

    await newEvent(t, owner, owner.calendarId, { name: "Review", date: "2026-12-02" });
    const withEvent = await get(path, empty.headers.etag).expect(200);
    expect(withEvent.text).toContain("SUMMARY:Review");

    await patch(t, `/v1/calendars/${owner.calendarId}`, owner.auth).send({ name: "Plan B" }).expect(200);
    const renamed = await get(path, withEvent.headers.etag).expect(200);
    expect(renamed.text).toContain("X-WR-CALNAME:Plan B");

    // Midnight in Berlin: the budget's cut depends on today, so the date is part of the key. A
    // feed within its budget is cut the same on any day: its ETag stays, and a reader holding it
    // is answered without a render (test/pages/conditional-cold.test.ts).
    t.clock.set("2026-11-22T23:30:00.000Z");
    await get(path, renamed.headers.etag).expect(304);
    expect(renders).toHaveLength(3);
    const nextDay = await get(path).expect(200);
    expect(nextDay.headers.etag).toBe(renamed.headers.etag);
    expect(renders).toHaveLength(4);
  });

  it("stops at once when the calendar turns private, although its feed is cached", async () => {
    const path = `/c/${owner.calendarSlug}.ics`;
    await get(path).expect(200);
    await patch(t, `/v1/calendars/${owner.calendarId}`, owner.auth).send({ visibility: "private" }).expect(200);
    await get(path).expect(404);
  });

  it("is cached with many layers too, whose revisions alone would make a key too long to keep", async () => {
    const host = await newCalendar(t, owner, { name: "Host", visibility: "public" });
    const create = (name: string) => newCalendar(t, owner, { name, visibility: "public" });
    await seedLayeredHost(t.deps, create, host.id, 12, 1);
    const path = `/c/${host.slug}.ics`;
    const first = await get(path).expect(200);
    expect(first.text.split("BEGIN:VEVENT").length - 1).toBe(12);
    await get(path, first.headers.etag).expect(304);
    expect(renders).toHaveLength(1);
  });

  it("keeps saying how many events it left out when answered from the cache", async () => {
    await seedEvents(
      t.deps,
      owner.calendarId,
      Array.from({ length: FEED_EVENT_BUDGET + 3 }, (_, i) => ({ name: `E${i}`, date: "2027-01-05" })),
    );
    const path = `/c/${owner.calendarSlug}.ics`;
    for (let i = 0; i < 2; i++) {
      const res = await get(path).expect(200);
      expect(res.headers["x-almanac-events-omitted"]).toBe("3");
    }
    expect(renders).toHaveLength(1);
  });
});

describe("a share view's feed", () => {
  it("is rendered once per revision of the view and of its calendar, and stops when the view is revoked", async () => {
    await newEvent(t, owner, owner.calendarId, { name: "Ops sync", date: "2027-01-05", category: "ops" });
    await newEvent(t, owner, owner.calendarId, { name: "Board", date: "2027-01-06", category: "board" });
    const view = await newView(t, owner, owner.calendarId, { filter: { categories: ["ops"] } });
    const path = `/v/${view.slug}.ics`;

    const first = await get(path).expect(200);
    await get(path, first.headers.etag).expect(304);
    expect(first.text).not.toContain("SUMMARY:Board");
    expect(renders).toHaveLength(1);

    const viewPath = `/v1/calendars/${owner.calendarId}/views/${view.id}`;
    await patch(t, viewPath, owner.auth)
      .send({ filter: { categories: ["ops", "board"] } })
      .expect(200);
    const widened = await get(path, first.headers.etag).expect(200);
    expect(widened.text).toContain("SUMMARY:Board");
    expect(renders).toHaveLength(2);

    await request(t.app).delete(viewPath).set(owner.auth).expect(200);
    await get(path).expect(404);
  });
});
