/**
 * A Berlin calendar with events over several days: an all-day 3-day offsite, a conference from
 * Monday 09:00 to Wednesday 17:00, a 4-day trip across two week rows, a 30-minute 1:1, an
 * overnight migration and a daily standup. What the bars of Month and Week are tested on.
 */
import type { TestApp } from "../helpers/app.js";
import { mintAgent, newCalendar, newEvent } from "../helpers/factories.js";

export async function seedSpans(t: Pick<TestApp, "app">): Promise<void> {
  const owner = await mintAgent(t, "Offsite planner");
  const calendar = await newCalendar(t, owner.auth, {
    name: "Team offsite",
    slug: "team-offsite",
    timezone: "Europe/Berlin",
    visibility: "public",
    purpose: "Where the platform team meets in December: the **Leipzig offsite**, a conference and a trip.",
  });
  const add = (fields: Record<string, unknown>) => newEvent(t, owner.auth, calendar.id, fields);
  await add({ name: "Offsite in Leipzig", date: "2026-12-02", days: 3, category: "offsite" });
  await add({ name: "Conference", date: "2026-12-07", days: 3, start_time: "09:00", end_time: "17:00" });
  await add({ name: "Trip to Lisbon", date: "2026-12-11", days: 4, category: "travel" });
  await add({ name: "1:1 with Sam", date: "2026-12-03", start_time: "10:00", end_time: "10:30" });
  await add({ name: "Database migration", date: "2026-12-01", start_time: "22:00", end_time: "02:00" });
  await add({
    name: "Standup",
    recur: { type: "daily", starts: "2026-11-30", until: "2026-12-18" },
    start_time: "09:30",
    end_time: "09:45",
    category: "meetings",
  });
}
