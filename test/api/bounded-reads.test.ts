/**
 * Reads bounded by what they show: an occurrences, free/busy or page request reads the events
 * that can occur in its range (not the calendar), without their notes, and past the read budget
 * it answers `422 too_expensive` instead of working on. Anonymous expensive reads share a few
 * places per instance.
 */
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DomainError } from "../../functions/src/domain/errors.js";
import { expensiveReadGate } from "../../functions/src/http/expensive-reads.js";
import { CountingStore } from "../helpers/counting-store.js";
import type { Store } from "../../functions/src/storage/port.js";
import { seedEvents } from "../helpers/big-calendar.js";
import { expectError } from "../helpers/http.js";
import { mintAgent, newCalendar, newEvent, type MintedAgent } from "../helpers/factories.js";
import type { TestApp } from "../helpers/app.js";
import { createSiteTestApp } from "../pages/site.js";

const LONG_NOTES = "A long note that no occurrence shows. ".repeat(300);

let t: TestApp;
let owner: MintedAgent;
let year: { id: string; slug: string };
let counting: CountingStore;
let plain: Store;

/** 2026, one one-off a day with long notes, and one weekly series. */
beforeAll(async () => {
  t = createSiteTestApp();
  owner = await mintAgent(t, "Owner");
  year = await newCalendar(t, owner.auth, { name: "A year", visibility: "public" });
  await seedEvents(
    t.deps,
    year.id,
    Array.from({ length: 365 }, (_, i) => ({
      name: `Day ${i}`,
      date: new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10),
      start_time: "09:00",
      end_time: "10:00",
      notes: LONG_NOTES,
    })),
  );
  await newEvent(t, owner, year.id, { name: "Weekly", recur: { type: "weekly", day: 1, starts: "2026-01-05" } });
  plain = t.deps.store;
  counting = new CountingStore(plain);
  t.deps.store = counting;
}, 60_000);
afterAll(() => {
  t.deps.store = plain;
  return t.close();
});

const occurrences = (calendarId: string, from: string, to: string) =>
  request(t.app).get(`/v1/calendars/${calendarId}/occurrences?from=${from}&to=${to}`);

describe("a range read", () => {
  it("reads the events that can occur in its range, not the calendar's", async () => {
    counting.take();
    const res = await occurrences(year.id, "2026-03-01", "2026-03-07").expect(200);
    expect(res.body.occurrences).toHaveLength(8); // seven days and one weekly occurrence
    const { documentsRead } = counting.take();
    // The calendar, its shards and layers, the week's seven one-offs and the series: not 366 events.
    expect(documentsRead).toBeLessThan(40);
  });

  it("shows the notes a schedule page draws, read for what it draws only", async () => {
    counting.take();
    const res = await request(t.app).get(`/c/${year.slug}?view=schedule&date=2026-06-01`).expect(200);
    expect(res.text).toContain("A long note that no occurrence shows.");
    expect(counting.take().documentsRead).toBeLessThan(120);
  });

  it("reads what pages show besides notes: an event's art", async () => {
    await newEvent(t, owner, year.id, {
      name: "Launch",
      date: "2026-04-10",
      art: "https://images.example.com/rocket.png",
    });
    const page = await request(t.app).get(`/c/${year.slug}?view=month&date=2026-04-10`).expect(200);
    expect(page.text).toContain("https://images.example.com/rocket.png");
  });

  it("finds an occurrence moved from far outside its series' dates", async () => {
    const series = await newEvent(t, owner, year.id, {
      name: "Short series",
      recur: { type: "daily", starts: "2026-01-10", count: 3 },
    });
    await request(t.app)
      .patch(`/v1/calendars/${year.id}/events/${series.id}/occurrences/2026-01-11`)
      .set(owner.auth)
      .send({ date: "2026-10-20" })
      .expect(200);
    const res = await occurrences(year.id, "2026-10-20", "2026-10-20").expect(200);
    const moved = res.body.occurrences.filter((o: { event_id: string }) => o.event_id === series.id);
    expect(moved).toEqual([expect.objectContaining({ date: "2026-10-20", original_date: "2026-01-11" })]);
    const page = await request(t.app).get(`/c/${year.slug}?view=week&date=2026-10-20`).expect(200);
    expect(page.text).toContain("Short series");
  });

  it("finds an event begun long before its range by its last day, without reading the days between", async () => {
    const long = await newEvent(t, owner, year.id, { name: "Long project", date: "2026-02-10", days: 120 });
    counting.take();
    const res = await occurrences(year.id, "2026-06-01", "2026-06-01").expect(200);
    expect(res.body.occurrences.map((o: { name: string }) => o.name)).toEqual(["Long project", "Weekly", "Day 151"]);
    expect(res.body.occurrences[0]).toMatchObject({ event_id: long.id, date: "2026-02-10", end_date: "2026-06-09" });
    // A read widened by the 119 days the event reaches back would read 119 one-day events more.
    expect(counting.take().documentsRead).toBeLessThan(40);
  });
});

describe("past the read budget", () => {
  it("answers 422 too_expensive, says how to narrow it, and a narrower read still answers", async () => {
    t.deps.readBudget = 50;
    try {
      const res = await occurrences(year.id, "2026-01-01", "2026-12-31");
      expectError(res, 422, "too_expensive");
      expect(res.body.error.details.budget).toEqual({ records: 50 });
      expect(res.body.error.message).toMatch(/shorter range/);
      const busy = await request(t.app).get(`/v1/freebusy?calendars=${year.id}&from=2026-01-01&to=2026-03-01`);
      expectError(busy, 422, "too_expensive");
      const page = await request(t.app).get(`/c/${year.slug}?view=timeline&date=2026-03-01`);
      expect(page.status).toBe(422);
      await occurrences(year.id, "2026-03-01", "2026-03-07").expect(200);
    } finally {
      delete t.deps.readBudget;
    }
  });
});

describe("the places of anonymous expensive reads", () => {
  const later = () => new Promise<void>((done) => setTimeout(done, 20));

  it("refuses an anonymous read past its places at once with 429 and Retry-After, never an agent's", async () => {
    const gate = expensiveReadGate(2);
    const held = [gate(true, later), gate(true, later)];
    const refused = await gate(true, later).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: "rate_limited", details: { retry_after: 1 } });
    await expect(gate(false, async () => "agent")).resolves.toBe("agent");
    await Promise.all(held);
    await expect(gate(true, async () => "again")).resolves.toBe("again");
  });

  it("frees a place when the read fails", async () => {
    const gate = expensiveReadGate(1);
    await expect(gate(true, () => Promise.reject(new Error("broken")))).rejects.toThrow("broken");
    await expect(gate(true, async () => "free")).resolves.toBe("free");
  });
});
