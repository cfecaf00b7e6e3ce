/**
 * What began before a page's period and still runs in it (pages/lenses/schedule.ts, spans.ts):
 * Schedule lists it on each day of the period it covers, as going on ("continues · until Wed 2
 * Dec"), and so the later days of what begins in the period; Week and Month draw it as a bar
 * from the period's first day, marked as continued.
 */
import request from "supertest";
import { beforeEach, describe, expect, it } from "vitest";
import { renderPage } from "../../functions/src/pages/layout.js";
import { appPerTest } from "../helpers/app.js";
import { mintAgent, newCalendar, newEvent } from "../helpers/factories.js";
import { on, pageEvent, pageModel } from "./models.js";
import { createSiteTestApp } from "./site.js";

const t = appPerTest(createSiteTestApp); // today is Sunday 2026-11-22

beforeEach(async () => {
  const owner = await mintAgent(t, "Offsite planner");
  const calendar = await newCalendar(t, owner.auth, {
    name: "Offsites",
    slug: "offsites",
    timezone: "Europe/Berlin",
    visibility: "public",
  });
  const add = (fields: Record<string, unknown>) => newEvent(t, owner.auth, calendar.id, fields);
  await add({ name: "Offsite in Leipzig", date: "2026-11-30", days: 3, notes: "Bring the roadmap." });
  await add({ name: "Conference", date: "2026-11-30", days: 3, start_time: "09:00", end_time: "17:00" });
  await add({ name: "Database migration", date: "2026-11-30", start_time: "22:00", end_time: "02:00" });
  await add({ name: "Trip to Lisbon", date: "2026-11-27", days: 5 });
});

async function page(path: string): Promise<string> {
  const res = await request(t.app).get(path);
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return res.text;
}

/** The agenda day of `date`, as HTML ("" when the page lists nothing that day). */
function agendaDay(text: string, date: string): string {
  const at = text.indexOf(`<section class="agenda-day`, text.indexOf(`aria-labelledby="day-${date}"`) - 60);
  if (!text.includes(`aria-labelledby="day-${date}"`)) return "";
  return text.slice(at, text.indexOf("</section>", at));
}

/** An agenda item's text, tags left out. */
const item = (day: string, name: string): string => {
  const at = day.indexOf(`>${name}<`);
  if (at === -1) return "";
  const li = day.slice(day.lastIndexOf("<li", at), day.indexOf("</li>", at));
  return li.replace(/<[^>]+>/g, "").trim();
};

describe("what began before the period", () => {
  it("is listed by Schedule on each day of the period it covers, as going on", async () => {
    const text = await page("/c/offsites?view=schedule&date=2026-12-01");
    const tuesday = agendaDay(text, "2026-12-01");
    expect(item(tuesday, "Offsite in Leipzig")).toBe(
      "continues · until Wed 2 Dec since Mon 30 NovOffsite in LeipzigBring the roadmap.",
    );
    expect(item(tuesday, "Conference")).toContain("continues · until Wed 2 Dec 17:00 since Mon 30 Nov");
    // An overnight one is listed once, on the day it starts, as Month does.
    expect(item(tuesday, "Database migration")).toBe("");
    expect(item(tuesday, "Trip to Lisbon")).toContain("continues · until Tue 1 Dec");
    expect(tuesday).toContain('<li class="ev is-one-off continued">');
    expect(tuesday).toContain('until <time datetime="2026-12-02T17:00">Wed 2 Dec 17:00</time>');
    // Its link is to the occurrence, by the date it began; its notes are where the page first lists it.
    expect(tuesday).toMatch(/href="\/c\/offsites\/e\/evt_\w+\/2026-11-30"/);
    const wednesday = agendaDay(text, "2026-12-02");
    expect(item(wednesday, "Offsite in Leipzig")).toBe(
      "continues · until Wed 2 Dec since Mon 30 NovOffsite in Leipzig",
    );
    expect(item(wednesday, "Conference")).not.toBe("");
    expect(item(wednesday, "Trip to Lisbon")).toBe("");
    expect(agendaDay(text, "2026-12-03")).toBe("");
  });

  it("is one bar in Week and Month from the period's first day, marked as continued", async () => {
    const week = await page("/c/offsites?view=week&date=2026-11-30");
    expect(week).toMatch(
      /<li class="ev is-one-off span span-2 continued from-1" title="Trip to Lisbon · Fri 27 Nov – Tue 1 Dec">/,
    );
    const month = await page("/c/offsites?view=month&date=2026-12-01");
    expect(month).toMatch(
      /<li class="ev is-one-off span span-2 continued" title="Trip to Lisbon · Fri 27 Nov – Tue 1 Dec">/,
    );
  });
});

describe("what begins in the period and runs over days", () => {
  it("is listed on its first day with where it ends, then on each later day as going on", async () => {
    const text = await page("/c/offsites?view=schedule&date=2026-11-30");
    const monday = agendaDay(text, "2026-11-30");
    expect(item(monday, "Offsite in Leipzig")).toBe("All day · until Wed 2 DecOffsite in LeipzigBring the roadmap.");
    expect(item(monday, "Conference")).toBe("09:00–17:00+2Conference");
    expect(item(monday, "Database migration")).toBe("22:00–02:00+1Database migration");
    expect(item(agendaDay(text, "2026-12-01"), "Database migration")).toBe("");
    expect(item(agendaDay(text, "2026-12-01"), "Offsite in Leipzig")).toContain("continues · until Wed 2 Dec");
    expect(item(agendaDay(text, "2026-12-02"), "Conference")).toContain("continues · until Wed 2 Dec 17:00");
  });

  it("lists what goes on first in a day, before the day's own occurrences", () => {
    const trip = on("2026-11-22", pageEvent({ name: "Trip", date: "2026-11-22" }), { end_date: "2026-11-25" });
    const lunch = on(
      "2026-11-24",
      pageEvent({ name: "Lunch", date: "2026-11-24", start_time: "12:00", end_time: "13:00" }),
    );
    const text = renderPage(pageModel({ lens: "schedule", continuing: [trip], occurrences: [lunch] }));
    const tuesday = agendaDay(text, "2026-11-24");
    expect(tuesday.indexOf(">Trip<")).toBeLessThan(tuesday.indexOf(">Lunch<"));
    expect(item(agendaDay(text, "2026-11-25"), "Trip")).toContain("continues · until Wed 25 Nov");
    expect(agendaDay(text, "2026-11-26")).toBe("");
  });
});
