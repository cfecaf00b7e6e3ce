/** The week lens with more events at once than fit side by side (docs/decisions/pages-and-feeds.md, "Labels"). */
import { describe, expect, it } from "vitest";
import { renderPage } from "../../functions/src/pages/layout.js";
import { MAX_LANES, pieceOn, placeTimed } from "../../functions/src/pages/lenses/week.js";
import { on, pageEvent, pageModel } from "./models.js";

const interview = (start: string, end: string) =>
  on("2026-11-26", pageEvent({ name: `Interview ${start}`, date: "2026-11-26", start_time: start, end_time: end }));

describe("a crowded week day", () => {
  it("keeps MAX_LANES events side by side and leaves the rest off the grid", () => {
    const pieces = [
      interview("10:00", "11:00"),
      interview("10:00", "11:00"),
      interview("10:15", "11:00"),
      interview("10:30", "11:00"),
    ].map((o) => pieceOn(o, o.date));
    const { placed, lanes, crowded } = placeTimed(pieces);
    expect(MAX_LANES).toBe(3);
    expect(lanes).toBe(3);
    expect(placed.map((p) => p.lane)).toEqual([0, 1, 2]);
    expect(crowded.map((p) => p.o.event.name)).toEqual(["Interview 10:30"]);
  });

  it('says "+N more", linking to the day in the schedule, and keeps the crowded events for the narrow list', () => {
    const occurrences = [
      interview("10:00", "11:00"),
      interview("10:00", "11:00"),
      interview("10:15", "11:00"),
      interview("10:30", "11:00"),
    ];
    const page = renderPage(pageModel({ lens: "week", occurrences }));
    expect(page).toContain(
      '<li class="crowded-note"><a href="?view=schedule&amp;date=2026-11-26">+1 more' +
        '<span class="visually-hidden"> events at the same time</span></a></li>',
    );
    expect(page).toMatch(/<li class="ev is-one-off at-11 len-2 crowded short" title="10:30–11:00 Interview 10:30">/);
    const noSchedule = renderPage(pageModel({ lens: "week", lenses: ["month", "week"], occurrences }));
    expect(noSchedule).toContain('<li class="crowded-note">+1 more<span class="visually-hidden">');
  });
});
