/** Week keeps to the hours that have events, and marks where an overnight one ends (pages/lenses/week.ts). */
import { describe, expect, it } from "vitest";
import { renderPage } from "../../functions/src/pages/layout.js";
import { inWindow, pieceOn, SLOTS_PER_HOUR, visibleHours } from "../../functions/src/pages/lenses/week.js";
import { on, pageEvent, pageModel } from "./models.js";

const migration = pageEvent({ name: "Migration", date: "2026-11-24", start_time: "22:00", end_time: "02:00" });
const review = pageEvent({ name: "Review", date: "2026-11-26", start_time: "10:00", end_time: "11:00" });

describe("the week's hours", () => {
  it("open at the working day, whatever runs past midnight", () => {
    const night = on("2026-11-24", migration);
    const pieces = [pieceOn(night, "2026-11-24"), pieceOn(night, "2026-11-25")];
    expect(visibleHours(pieces)).toEqual({ first: 8, last: 23 });
    const { drawn, ended } = inWindow(pieces, 8 * SLOTS_PER_HOUR, 23 * SLOTS_PER_HOUR);
    expect(drawn.map((p) => [p.start, p.end])).toEqual([[88, 92]]);
    expect(ended.map((p) => p.o.event.name)).toEqual(["Migration"]);
  });

  it("are 08:00 to 18:00 for a week of daytime events, the night's end noted above the next day", () => {
    const page = renderPage(
      pageModel({ lens: "week", occurrences: [on("2026-11-24", migration), on("2026-11-26", review)] }),
    );
    expect(page).toContain('<li class="at-1"><span>08:00</span></li>');
    expect(page).not.toContain(">07:00<");
    expect(page).toContain('<span class="goes-on">continues to 02:00 →</span>');
    const wednesday = page.slice(page.indexOf('id="day-2026-11-25"'), page.indexOf('id="day-2026-11-26"'));
    expect(wednesday).toContain('<ul class="untimed"><li class="ev is-one-off continued"');
    expect(wednesday).toContain('until <time datetime="2026-11-25T02:00">02:00</time>');
  });
});
