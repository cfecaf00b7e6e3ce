/**
 * Every time on a page is in the page calendar's timezone (docs/api.md#time-zones-on-pages): a New York
 * host with a Berlin layer draws Berlin's 09:30 standup at 03:30 in every lens, moves an
 * occurrence whose instant falls on another New York date to that date, sorts by instant,
 * and draws an overnight event on both days it covers.
 */
import request from "supertest";
import { beforeEach, describe, expect, it } from "vitest";
import { appPerTest } from "../helpers/app.js";
import { patch } from "../helpers/http.js";
import { createSiteTestApp, seedZones, type ZonesDemo } from "./site.js";

const t = appPerTest(createSiteTestApp); // today is Sunday 2026-11-22
let zones: ZonesDemo;
beforeEach(async () => {
  zones = await seedZones(t);
});

async function page(query: string): Promise<string> {
  const res = await request(t.app).get(`/c/new-york-team?${query}`);
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return res.text;
}

/** The markup of one day: a month cell, or a week or schedule day section ("" for a day the schedule leaves out). */
function day(text: string, date: string): string {
  const section = text.indexOf(`aria-labelledby="day-${date}"`);
  if (section >= 0) return text.slice(section, text.indexOf("</section>", section));
  const label = text.indexOf(`<time datetime="${date}">`);
  if (label < 0 && text.includes('<div class="agenda">')) return "";
  expect(label, date).toBeGreaterThan(0);
  return text.slice(text.lastIndexOf("<td", label), text.indexOf("</td>", label));
}

const names = (markup: string): string[] =>
  [...markup.matchAll(/<span class="name">([^<]*)<\/span>/g)].map((m) => m[1]);

/** The times of an occurrence as a lens draws them: the week grid sets a short one's end apart (to hide it). */
function times(lens: string, date: string, start: string, end: string): string {
  const from = `<time datetime="${date}T${start}">${start}</time>`;
  const to = `–<time datetime="${date}T${end}">${end}</time>`;
  return lens === "week" ? `${from}<span class="until">${to}</span>` : `${from}${to}`;
}

describe("a New York calendar with a Berlin layer", () => {
  it("says its timezone and draws the Berlin 09:30 standup at 03:30 in every lens", async () => {
    for (const lens of ["month", "week", "schedule"]) {
      const text = await page(`view=${lens}&date=2026-11-24`);
      expect(text, lens).toContain("<li>Times in New York, UTC\u2212" + "5</li>");
      expect(day(text, "2026-11-24"), lens).toContain(times(lens, "2026-11-24", "03:30", "03:45"));
      expect(text, lens).not.toContain(">09:30<");
    }
    // The week grid opens at 03:00 to show it: 03:30 is the third quarter-hour row, in the week
    // with the overnight shift too (what runs past midnight does not open the grid at 00:00).
    for (const date of ["2026-11-17", "2026-11-24"]) {
      const week = await page(`view=week&date=${date}`);
      expect(week).toContain('<li class="at-1"><span>03:00</span></li>');
      expect(day(week, date)).toMatch(/<li class="ev is-recurring cat-\d at-3 len-2 lane-all short"/);
    }
    // The timeline's bar for the series gives its time of day.
    const timeline = await page("view=timeline&date=2026-11-24");
    const bar = timeline.slice(timeline.indexOf('id="lane-l-berlin-office"'));
    expect(bar).toMatch(
      /<time datetime="2026-11-16T03:30">03:30<\/time>–<time datetime="2026-11-16T03:45">03:45<\/time>/,
    );
    expect(timeline).not.toContain(">09:30<");
  });

  it("moves an occurrence whose instant falls on the day before in New York to that day", async () => {
    // Berlin's Thursday 05:00 is Wednesday 23:00 in New York.
    for (const lens of ["month", "week", "schedule"]) {
      const text = await page(`view=${lens}&date=2026-11-24`);
      expect(day(text, "2026-11-25"), lens).toContain(times(lens, "2026-11-25", "23:00", "23:30"));
      expect(names(day(text, "2026-11-26")), lens).not.toContain("Late call");
    }
    // Berlin's Monday 05:00 is the Sunday before: drawn in the week of Nov 23, not in the next.
    expect(names(day(await page("view=week&date=2026-11-24"), "2026-11-29"))).toContain("Week start call");
    const next = await page("view=week&date=2026-11-30");
    expect(names(next)).not.toContain("Week start call");
    // An all-day occurrence keeps its date.
    expect(names(day(await page("view=month&date=2026-11-24"), "2026-11-27"))).toContain("Office closed");
  });

  it("sorts a day's occurrences by instant, not by each calendar's wall-clock time", async () => {
    const schedule = await page("view=schedule&date=2026-11-23");
    // 03:30 (09:30 in Berlin), 07:00 in New York, 23:00 (05:00 in Berlin).
    expect(names(day(schedule, "2026-11-25"))).toEqual(["Standup", "Morning review", "Late call"]);
    const month = await page("view=month&date=2026-11-23");
    expect(names(day(month, "2026-11-25"))).toEqual(["Standup", "Morning review", "Late call"]);
  });

  it("shows the layer's full name and gives every month and week chip its whole label as a title", async () => {
    const month = await page("view=month&date=2026-11-24");
    expect(day(month, "2026-11-24")).toContain(
      'title="03:30–03:45 Standup · layer berlin-office"><span class="when">' +
        times("month", "2026-11-24", "03:30", "03:45"),
    );
    expect(day(month, "2026-11-24")).toContain(
      '<span class="layer"><span class="visually-hidden">layer </span>berlin-office</span>',
    );
    const week = await page("view=week&date=2026-11-24");
    expect(day(week, "2026-11-27")).toContain('title="Office closed · layer berlin-office"');
    expect(day(week, "2026-11-27")).toContain('title="03:30–03:45 Standup · layer berlin-office"');
  });

  it("draws an overnight event to the grid's end on its day, saying when it ends, and notes its end the next morning", async () => {
    const week = await page("view=week&date=2026-11-24");
    // Tuesday 22:00 to Wednesday 02:00: the grid keeps to the week's hours (from 03:00), not all 24.
    expect(week).not.toContain('<li class="at-1"><span>00:00</span></li>');
    expect(day(week, "2026-11-24")).toMatch(
      /<li class="ev is-one-off cat-\d at-77 len-8 lane-all continues" title="22:00–02:00 \(\+1\) Night shift">/,
    );
    expect(day(week, "2026-11-24")).toContain('<span class="goes-on">continues to 02:00 →</span>');
    expect(day(week, "2026-11-24")).toContain(
      '<time datetime="2026-11-24T22:00">22:00</time>–<time datetime="2026-11-25T02:00">02:00</time>' +
        '<abbr class="next-day" title="the next day">+1</abbr>',
    );
    // Its end, before the grid's first hour, is above Wednesday's grid.
    expect(day(week, "2026-11-25")).toMatch(
      new RegExp(
        '<ul class="untimed"><li class="ev is-one-off cat-\\d continued" title="[^"]*">' +
          '.*Continued from Tuesday, November 24, 2026.*until <time datetime="2026-11-25T02:00">02:00</time>.*Night shift',
      ),
    );
    // Month and schedule list it once, on the day it starts.
    for (const lens of ["month", "schedule"]) {
      const text = await page(`view=${lens}&date=2026-11-24`);
      expect(names(day(text, "2026-11-24")), lens).toContain("Night shift");
      expect(names(day(text, "2026-11-25")), lens).not.toContain("Night shift");
    }
  });

  it("honours a layer's exceptions: a cancelled occurrence vanishes, a moved one shows its new name and time", async () => {
    const occurrence = (date: string) =>
      patch(t, `/v1/calendars/${zones.berlin.id}/events/${zones.standup.id}/occurrences/${date}`, zones.owner.auth);
    expect((await occurrence("2026-11-24").send({ cancelled: true })).status).toBe(200);
    // Thursday's moves to Friday 16:00 in Berlin: 10:00 in New York.
    const moved = await occurrence("2026-11-26").send({
      date: "2026-11-27",
      start_time: "16:00",
      end_time: "16:30",
      name: "Retro",
    });
    expect(moved.status, moved.text).toBe(200);
    for (const lens of ["month", "week", "schedule"]) {
      const text = await page(`view=${lens}&date=2026-11-24`);
      expect(names(day(text, "2026-11-24")), lens).not.toContain("Standup");
      expect(names(day(text, "2026-11-26")), lens).not.toContain("Standup");
      expect(names(day(text, "2026-11-26")), lens).not.toContain("Retro");
      expect(day(text, "2026-11-27"), lens).toMatch(/<time datetime="2026-11-27T10:00">10:00<\/time>.*Retro/);
    }
  });
});
