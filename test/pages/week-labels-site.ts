/**
 * A UTC calendar whose week of Monday 7 December 2026 tests Week's labels: a 15-minute vendor
 * call beside a 15-minute event with a long name, three overlapping hour-long events with long
 * names on Tuesday, and five at once on Wednesday, more than fit side by side; and for Month,
 * a two-day event with a long name above a chip.
 */
import type { TestApp } from "../helpers/app.js";
import { mintAgent, newCalendar, newEvent } from "../helpers/factories.js";

export const LABELS_SLUG = "hiring-week";
export const LABELS_WEEK = "2026-12-07";

/** Wednesday's panel: more events at once than the grid lays side by side. */
/** An all-day event over Thursday and Friday whose name takes more than one line in Month. */
export const LONG_BAR = "Hiring committee: read every packet, compare the scores and write the offers for the week";

export const PANEL = ["Panel A: systems design", "Panel B: coding", "Panel C: values", "Panel D: product", "Panel E"];

export async function seedWeekLabels(t: Pick<TestApp, "app">): Promise<void> {
  const owner = await mintAgent(t, "Recruiter");
  const calendar = await newCalendar(t, owner.auth, {
    name: "Hiring week",
    slug: LABELS_SLUG,
    timezone: "UTC",
    visibility: "public",
  });
  const add = (name: string, date: string, start_time: string, end_time: string) =>
    newEvent(t, owner.auth, calendar.id, { name, date, start_time, end_time });
  await add("Vendor call", "2026-12-07", "10:15", "10:30");
  await add("Quick check-in with the facilities team about badge readers", "2026-12-07", "10:30", "10:45");
  await add("Interview: senior platform engineer", "2026-12-08", "10:00", "11:00");
  await add("Incident review of the November storage outage", "2026-12-08", "10:00", "11:00");
  await add("Budget planning with finance and operations", "2026-12-08", "10:00", "11:00");
  for (const name of PANEL) await add(name, "2026-12-09", "14:00", "15:00");
  // Month: a bar whose name wraps over its two days, and a chip below it on the second.
  await newEvent(t, owner.auth, calendar.id, { name: LONG_BAR, date: "2026-12-10", days: 2 });
  await add("Debrief", "2026-12-11", "16:00", "16:30");
}
