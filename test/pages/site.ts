/**
 * Test helpers for the public pages: the API and the pages app on one store (dispatched by
 * path, as Hosting rewrites and the local server do), and a demo calendar seeded through
 * the API with one-off, recurring, someday and layer events and a share view.
 */
import express, { type Express } from "express";
import request from "supertest";
import { createPagesApp } from "../../functions/src/pages/app.js";
import { createTestApp, type TestApp } from "../helpers/app.js";
import {
  mintAgent,
  newCalendar,
  newEvent,
  newView,
  attachLayer,
  type Calendar,
  type MintedAgent,
} from "../helpers/factories.js";

/** The whole site of a test: `/v1` and `/c`, `/v` pages on one SQLite store and clock (2026-11-22T10:00Z). */
export function createSiteTestApp(options: Parameters<typeof createTestApp>[0] = {}): TestApp {
  const t = createTestApp(options);
  const pages = createPagesApp(t.deps);
  const api = t.app;
  const root: Express = express();
  root.use((req, res) => (req.path.startsWith("/c/") || req.path.startsWith("/v/") ? pages(req, res) : api(req, res)));
  return { ...t, app: root, http: () => request.agent(root) };
}

type Body = Record<string, unknown>;

export const DEMO_PURPOSE = `Everything that has to happen for the **Q4 launch**, in one place.

## How we use it
- Agents add milestones as soon as they are agreed.
- Design work comes from the [design team's calendar](https://example.com/design).
`;

export interface Demo {
  owner: MintedAgent;
  calendar: Calendar;
  design: Calendar;
  view: { id: string; slug: string; url: string };
}

/** A launch calendar in Europe/Paris around 2026-11-22, with a `design` layer and a share view. */
export async function seedDemo(t: Pick<TestApp, "app">): Promise<Demo> {
  const owner = await mintAgent(t, "Planner");
  const calendar = await newCalendar(t, owner.auth, {
    name: "Launch Plan Q4",
    slug: "launch-plan",
    timezone: "Europe/Paris",
    visibility: "public",
    purpose: DEMO_PURPOSE,
  });
  const design = await newCalendar(t, owner.auth, {
    name: "Design Team",
    slug: "design-team",
    visibility: "public",
  });
  const add = (body: Body) => newEvent(t, owner.auth, calendar.id, body);
  await add({
    name: "Kickoff",
    date: "2026-11-23",
    start_time: "09:30",
    end_time: "10:30",
    category: "planning",
    art: "🚀",
    notes: "Agree on **scope** and owners.",
  });
  await add({
    name: "Standup",
    recur: { type: "weekly", day: 1, starts: "2026-11-02" },
    start_time: "09:00",
    end_time: "09:15",
    category: "team",
  });
  await add({
    name: "Retro",
    recur: { type: "weekly", day: 5, starts: "2026-11-06" },
    start_time: "16:00",
    end_time: "17:00",
    category: "team",
    art: "🔁",
  });
  await add({
    name: "Budget review",
    recur: { type: "monthly", day: 15, starts: "2026-10-15" },
    category: "finance",
    art: "https://images.example.com/coin.png",
  });
  await add({
    name: "Press briefing",
    date: "2026-11-26",
    start_time: "11:00",
    end_time: "12:00",
    category: "marketing",
    notes: "Bring the deck. [Agenda](https://example.com/agenda)",
  });
  await add({ name: "Pricing sync", date: "2026-11-26", start_time: "11:30", end_time: "12:30", category: "planning" });
  await add({
    name: "Launch day",
    date: "2026-12-03",
    category: "launch",
    art: "🎉",
    notes: "Ship it. Everyone on call.",
  });
  await add({ name: "Code freeze", date: "2026-11-30", category: "engineering", art: "🧊" });
  await add({ name: "Write the postmortem", category: "team", art: "📝" });
  await add({ name: "Localize the docs", category: "marketing", notes: "French and German first." });
  await newEvent(t, owner.auth, design.id, {
    name: "Design review",
    recur: { type: "weekly", day: 3, starts: "2026-11-04" },
    start_time: "14:00",
    end_time: "15:00",
    category: "design",
    art: "🎨",
  });
  await newEvent(t, owner.auth, design.id, { name: "Icon refresh", category: "design" });
  await attachLayer(t, owner.auth, calendar.id, design.id, "design");
  const view = await newView(t, owner.auth, calendar.id, {
    name: "Launch for partners",
    filter: { categories: ["launch", "marketing", "design"] },
    display: { views: ["month", "schedule"], default_view: "schedule" },
  });
  return { owner, calendar, design, view };
}

export interface ZonesDemo {
  owner: MintedAgent;
  host: Calendar;
  berlin: Calendar;
  /** Berlin's daily 09:30 standup. */
  standup: { id: string };
}

/**
 * A New York team calendar with the Berlin office as its `berlin-office` layer, around the week
 * of Monday 2026-11-23 (both zones on standard time: Berlin is six hours ahead). Berlin's
 * 09:30 standup is 03:30 in New York; its 05:00 calls are 23:00 the day before there.
 */
export async function seedZones(t: Pick<TestApp, "app">): Promise<ZonesDemo> {
  const owner = await mintAgent(t, "Coordinator");
  const host = await newCalendar(t, owner.auth, {
    name: "New York team",
    slug: "new-york-team",
    timezone: "America/New_York",
    visibility: "public",
  });
  const berlin = await newCalendar(t, owner.auth, {
    name: "Berlin office",
    slug: "berlin-office",
    timezone: "Europe/Berlin",
    visibility: "public",
  });
  const inBerlin = (body: Body) => newEvent(t, owner.auth, berlin.id, body);
  const standup = await inBerlin({
    name: "Standup",
    recur: { type: "daily", starts: "2026-11-16" },
    start_time: "09:30",
    end_time: "09:45",
    category: "team",
  });
  await inBerlin({ name: "Late call", date: "2026-11-26", start_time: "05:00", end_time: "05:30", category: "sales" });
  await inBerlin({ name: "Week start call", date: "2026-11-30", start_time: "05:00", end_time: "05:30" });
  await inBerlin({ name: "Office closed", date: "2026-11-27", category: "holiday" });
  const inNewYork = (body: Body) => newEvent(t, owner.auth, host.id, body);
  await inNewYork({ name: "Morning review", date: "2026-11-25", start_time: "07:00", end_time: "08:00" });
  await inNewYork({ name: "Night shift", date: "2026-11-24", start_time: "22:00", end_time: "02:00", category: "ops" });
  await attachLayer(t, owner.auth, host.id, berlin.id, "berlin-office");
  return { owner, host, berlin, standup };
}
