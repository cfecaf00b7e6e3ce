/**
 * Pages and feeds of a huge calendar draw a fixed budget (issue 9): the host of 20 layers ×
 * 1,000 daily series holds 840,000 occurrences in one month grid. A page draws at most
 * PAGE_OCCURRENCE_BUDGET of them, each day its earliest events, and says how many more there
 * are; a feed carries at most FEED_EVENT_BUDGET events, upcoming ones first.
 */
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FEED_EVENT_BUDGET, PAGE_OCCURRENCE_BUDGET, PAGE_SOMEDAY_BUDGET } from "../../functions/src/pages/budgets.js";
import type { TestApp } from "../helpers/app.js";
import { mintAgent, newCalendar, newView } from "../helpers/factories.js";
import { seedEvents, seedLayeredHost } from "../helpers/big-calendar.js";
import { createSiteTestApp } from "./site.js";

const LAYERS = 20;
const SERIES = 1000;

let t: TestApp;
let host: { id: string; slug: string };
let view: { slug: string };

beforeAll(async () => {
  t = createSiteTestApp(); // today is 2026-11-22
  const owner = await mintAgent(t, "Owner");
  host = await newCalendar(t, owner.auth, { name: "Busy host", slug: "busy-host", visibility: "public" });
  await seedLayeredHost(
    t.deps,
    (name) => newCalendar(t, owner.auth, { name, visibility: "public" }),
    host.id,
    LAYERS,
    SERIES,
  );
  await seedEvents(
    t.deps,
    host.id,
    Array.from({ length: PAGE_SOMEDAY_BUDGET + 50 }, (_, i) => ({
      name: `Someday ${i}`,
      created_at: `2025-11-01T00:00:00.${String(i).padStart(3, "0")}Z`,
    })),
  );
  view = await newView(t, owner.auth, host.id, { name: "Everything" });
}, 60_000);
afterAll(() => t.close());

const drawn = (html: string): number => html.split('<li class="ev ').length - 1;
const names = (html: string): string[] => [...html.matchAll(/<span class="name">([^<]*)<\/span>/g)].map((m) => m[1]);
const grouped = (n: number): string => n.toLocaleString("en-US");

describe("a page of a calendar with 840,000 occurrences in its month grid", () => {
  it("draws at most the budget, every day its earliest events, and says how many more there are", async () => {
    const res = await request(t.app).get(`/c/${host.slug}?view=month&date=2026-03-15`);
    expect(res.status).toBe(200);
    const days = 42; // Monday 2026-02-23 to Sunday 2026-04-05
    const perDay = Math.floor(PAGE_OCCURRENCE_BUDGET / days);
    expect(drawn(res.text)).toBe(perDay * days);
    // The same events every day: the series that come first in a day's order.
    const shown = names(res.text);
    expect(new Set(shown).size).toBe(perDay);
    const total = LAYERS * SERIES * days;
    expect(res.text).toContain(`${grouped(total - perDay * days)} more occurrences`);
    expect(res.text).toContain(`href="/v1/calendars/${host.id}/occurrences?from=2026-02-23&amp;to=2026-04-05"`);
  });

  it("keeps the budget in every lens, and lists at most the budget of someday events", async () => {
    // Week and schedule draw each occurrence; the timeline one bar per event (7 × 92 days fit).
    for (const [lens, days, somedayStart] of [
      ["week", 7, null],
      ["schedule", 28, '<section class="someday"'],
      ["timeline", 92, '<section class="lane someday-lane"'],
    ] as const) {
      const res = await request(t.app).get(`/c/${host.slug}?view=${lens}&date=2026-03-01`);
      expect(res.status, lens).toBe(200);
      const occurrences = drawn(somedayStart ? res.text.split(somedayStart)[0] : res.text);
      const events = Math.floor(PAGE_OCCURRENCE_BUDGET / days);
      expect(occurrences, lens).toBe(lens === "timeline" ? events : events * days);
      expect(res.text, lens).toContain(`${grouped(LAYERS * SERIES * days - events * days)} more occurrences`);
    }
    const schedule = await request(t.app).get(`/c/${host.slug}?view=schedule&date=2026-03-02`);
    expect(drawn(schedule.text.split('<section class="someday"')[1])).toBe(PAGE_SOMEDAY_BUDGET);
    expect(schedule.text).toContain("Someday 0<");
    expect(schedule.text).toContain(`Someday ${PAGE_SOMEDAY_BUDGET - 1}<`);
    expect(schedule.text).not.toContain(`Someday ${PAGE_SOMEDAY_BUDGET}<`);
    expect(schedule.text).toContain("50 more someday plans");
  });

  it("draws a share view within the same budget, without naming the calendar behind it", async () => {
    const res = await request(t.app).get(`/v/${view.slug}?view=month&date=2026-03-15`);
    expect(res.status).toBe(200);
    expect(drawn(res.text)).toBeLessThanOrEqual(PAGE_OCCURRENCE_BUDGET);
    expect(res.text).toContain("more occurrences");
    expect(res.text).not.toContain(host.id);
    expect(res.text).not.toContain("/v1/");
  });

  it("shows small calendars whole, with no note", async () => {
    const res = await request(t.app).get(`/c/${host.slug}?view=month&date=2025-11-15`);
    expect(res.status).toBe(200);
    expect(res.text).not.toContain("more occurrences");
  });
});

describe("a feed of that calendar", () => {
  it("carries at most the budget of events, upcoming first, and says how many it left out", async () => {
    for (const path of [`/c/${host.slug}.ics`, `/v/${view.slug}.ics`]) {
      const res = await request(t.app).get(path).buffer(true);
      expect(res.status, path).toBe(200);
      const text = res.text ?? res.body.toString();
      expect(text.split("BEGIN:VEVENT").length - 1, path).toBe(FEED_EVENT_BUDGET);
      expect(res.headers["x-almanac-events-omitted"], path).toBe(String(LAYERS * SERIES - FEED_EVENT_BUDGET));
    }
  });
});
