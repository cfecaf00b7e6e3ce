/**
 * A Berlin team calendar with a weekly Tuesday sync (one occurrence moved, one cancelled),
 * interviews with long names, three at once, a private calendar and a share view: what the event page and
 * the lenses' moved and cancelled entries are tested on.
 */
import request from "supertest";
import type { TestApp } from "../helpers/app.js";
import { mintAgent, newCalendar, newEvent, newView, type Calendar } from "../helpers/factories.js";

export interface TeamDemo {
  calendar: Calendar;
  sync: { id: string };
  interview: { id: string };
  secret: { id: string };
  view: { slug: string };
}

/** The sync's 8 Dec occurrence moves to Wed 9 Dec, 14:00; its 15 Dec one is cancelled. */
export async function seedTeam(t: Pick<TestApp, "app">): Promise<TeamDemo> {
  const owner = await mintAgent(t, "Team assistant");
  const calendar = await newCalendar(t, owner.auth, {
    name: "Platform team",
    slug: "platform-team",
    timezone: "Europe/Berlin",
    visibility: "public",
  });
  const sync = await newEvent(t, owner.auth, calendar.id, {
    name: "Weekly sync",
    recur: { type: "weekly", day: 2, starts: "2026-11-03" },
    start_time: "10:00",
    end_time: "11:00",
    category: "meetings",
    notes: "Agenda in the **team doc**: [link](https://example.com/doc)",
  });
  const interview = await newEvent(t, owner.auth, calendar.id, {
    name: "Interview: backend engineer, second round with the platform team",
    date: "2026-12-09",
    start_time: "10:00",
    end_time: "11:00",
    category: "hiring",
  });
  // Four interviews at once on Thursday 10 Dec: the week grid draws three side by side, then "+1 more".
  for (const [start, end] of [
    ["10:00", "10:45"],
    ["10:00", "11:00"],
    ["10:15", "11:00"],
    ["10:30", "11:00"],
  ])
    await newEvent(t, owner.auth, calendar.id, {
      name: `Interview: backend ${start}`,
      date: "2026-12-10",
      start_time: start,
      end_time: end,
      category: "hiring",
    });
  const occurrence = (date: string) => `/v1/calendars/${calendar.id}/events/${sync.id}/occurrences/${date}`;
  const auth = owner.auth;
  const moved = await request(t.app)
    .patch(occurrence("2026-12-08"))
    .set(auth)
    .send({ date: "2026-12-09", start_time: "14:00", end_time: "15:00" });
  const cancelled = await request(t.app).patch(occurrence("2026-12-15")).set(auth).send({ cancelled: true });
  if (moved.status !== 200 || cancelled.status !== 200) throw new Error(`exceptions: ${moved.text} ${cancelled.text}`);
  const hidden = await newCalendar(t, owner.auth, { name: "Hidden", slug: "hidden-team", visibility: "private" });
  const secret = await newEvent(t, owner.auth, hidden.id, { name: "Secret", date: "2026-12-09", start_time: "09:00" });
  const view = await newView(t, owner.auth, calendar.id, {
    name: "Team meetings",
    filter: { categories: ["meetings"] },
  });
  return { calendar, sync, interview, secret, view };
}
