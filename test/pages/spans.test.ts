/** Month and Week draw an occurrence over several days as one bar (pages/lenses/spans.ts). */
import { describe, expect, it } from "vitest";
import { renderPage } from "../../functions/src/pages/layout.js";
import { segmentsOfWeek, spansDays } from "../../functions/src/pages/lenses/spans.js";
import { on, pageEvent, pageModel } from "./models.js";

const offsite = on("2026-11-25", pageEvent({ name: "Offsite", date: "2026-11-25" }), { end_date: "2026-11-27" });
const conference = on(
  "2026-11-23",
  pageEvent({ name: "Conference", date: "2026-11-23", start_time: "09:00", end_time: "17:00" }),
  { end_date: "2026-11-25" },
);
const migration = on(
  "2026-11-24",
  pageEvent({ name: "Migration", date: "2026-11-24", start_time: "22:00", end_time: "02:00" }),
);
const longTrip = on("2026-11-27", pageEvent({ name: "Trip", date: "2026-11-27" }), { end_date: "2026-12-02" });

const count = (text: string, part: string) => text.split(part).length - 1;

describe("occurrences over several days", () => {
  it("are bars when all-day over days or timed for a day or longer; an overnight one stays a chip", () => {
    expect(spansDays(offsite)).toBe(true);
    expect(spansDays(conference)).toBe(true);
    expect(spansDays(migration)).toBe(false);
    const untilMidnight = on("2026-11-24", pageEvent({ name: "Late", start_time: "09:00", end_time: "00:00" }));
    expect(spansDays(untilMidnight)).toBe(false);
  });

  it("are cut into one segment a week row, in lanes, marked where they go on", () => {
    const week = segmentsOfWeek([offsite, conference, longTrip], "2026-11-23");
    expect(week.map((s) => [s.o.event.name, s.from, s.to, s.lane, s.continues])).toEqual([
      ["Conference", 1, 3, 0, false],
      ["Offsite", 3, 5, 1, false],
      ["Trip", 5, 7, 0, true],
    ]);
    const next = segmentsOfWeek([longTrip], "2026-11-30");
    expect(next.map((s) => [s.from, s.to, s.continued, s.continues])).toEqual([[1, 3, true, false]]);
  });

  it("draw one bar in Month, from the first day's cell, and keep gaps in the other days' lanes", () => {
    const page = renderPage(pageModel({ lens: "month", occurrences: [conference, migration, offsite] }));
    expect(count(page, 'title="Offsite · Wed 25 Nov – Fri 27 Nov"')).toBe(1);
    const wednesday = page.slice(
      page.indexOf('<time datetime="2026-11-25">'),
      page.indexOf('<time datetime="2026-11-26">'),
    );
    // The conference's slot holds a hidden copy of its bar (as high as the bar), without its link.
    expect(wednesday).toContain(
      '<ul class="events"><li class="span-gap" aria-hidden="true"><span class="ev is-one-off span span-3">',
    );
    expect(wednesday).toContain(
      '<span class="name">Conference</span><span class="visually-hidden">, Mon 23 Nov 09:00 – Wed 25 Nov 17:00</span>' +
        '<span class="when until">until 17:00</span></span></li>' +
        '<li class="ev is-one-off span span-3" title="Offsite · Wed 25 Nov – Fri 27 Nov">',
    );
    const friday = page.slice(
      page.indexOf('<time datetime="2026-11-27">'),
      page.indexOf('<time datetime="2026-11-28">'),
    );
    expect(friday).toContain('<ul class="events"><li class="span-gap" aria-hidden="true"></li>');
    expect(page).toContain("Conference · Mon 23 Nov 09:00 – Wed 25 Nov 17:00");
    expect(page).toContain('<span class="when">09:00</span>');
    expect(page).toContain('<span class="when until">until 17:00</span>');
    // The overnight migration is still a chip on its first day.
    expect(page).toMatch(/<li class="ev is-one-off" title="22:00–02:00 \(\+1\) Migration">/);
  });

  it("continue across Month's week rows, marked at the row's edges", () => {
    const page = renderPage(pageModel({ lens: "month", occurrences: [longTrip] }));
    expect(page).toMatch(/<li class="ev is-one-off span span-3 continues" title="Trip · Fri 27 Nov – Wed 2 Dec">/);
    expect(page).toMatch(/<li class="ev is-one-off span span-3 continued" title="Trip · Fri 27 Nov – Wed 2 Dec">/);
    // Each bar, and the hidden copies in the four slots they cross, marks where it goes on.
    expect(count(page, '<li class="span-gap" aria-hidden="true"><span class="ev is-one-off span span-3')).toBe(4);
    expect(count(page, '<span class="goes-on" aria-hidden="true">')).toBe(6);
  });

  it("draw one bar in Week above the days, and leave the grid and the all-day rows to the rest", () => {
    const page = renderPage(
      pageModel({ lens: "week", date: "2026-11-25", occurrences: [conference, migration, offsite] }),
    );
    expect(page).toContain('<ul class="week-spans" aria-label="Over several days">');
    expect(page).toMatch(
      /<li class="ev is-one-off span span-3 from-1" title="Conference · Mon 23 Nov 09:00 – Wed 25 Nov 17:00">/,
    );
    expect(page).toMatch(/<li class="ev is-one-off span span-3 from-3" title="Offsite · Wed 25 Nov – Fri 27 Nov">/);
    expect(count(page, ">Conference<")).toBe(1);
    expect(count(page, ">Migration<")).toBe(2);
  });

  it("start in Week before the period and still run in it", () => {
    const page = renderPage(pageModel({ lens: "week", date: "2026-12-01", continuing: [longTrip] }));
    expect(page).toMatch(
      /<li class="ev is-one-off span span-3 continued from-1" title="Trip · Fri 27 Nov – Wed 2 Dec">/,
    );
  });
});
