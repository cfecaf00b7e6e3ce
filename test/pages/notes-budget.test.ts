/**
 * A schedule page renders at most PAGE_NOTES_MARKDOWN_BUDGET characters of notes as Markdown:
 * markdown-it takes about 4 ms for 10,000 characters with links and lists, so 1,000 such notes
 * would hold the process for seconds on one anonymous read. Past the budget, notes show as
 * plain text cut short (docs/decisions/pages-and-feeds.md, "Notes on a page").
 */
import { describe, expect, it } from "vitest";
import { PAGE_NOTES_MARKDOWN_BUDGET } from "../../functions/src/pages/budgets.js";
import { renderSchedule } from "../../functions/src/pages/lenses/schedule.js";
import { periodFor } from "../../functions/src/pages/period.js";
import { on, pageEvent, pageModel } from "./models.js";

const LONG = 10_000;
const richNotes = (n: number) =>
  `**Agenda ${n}** with [a link](https://example.com/${n}):\n\n- one\n- two\n\n`.repeat(200).slice(0, LONG);

function schedule(notes: (n: number) => string, events: number): string {
  const occurrences = Array.from({ length: events }, (_, n) =>
    on("2026-11-24", pageEvent({ name: `Event ${n}`, start_time: "09:00", end_time: "10:00", notes: notes(n) })),
  );
  const model = pageModel({ lens: "schedule", occurrences });
  return String(renderSchedule(model, periodFor("schedule", "2026-11-24")));
}

describe("notes on a schedule page", () => {
  it("renders Markdown for as many notes as the budget holds, and plain cut text for the rest", () => {
    const events = 40;
    const page = schedule(richNotes, events);
    const asMarkdown = Math.floor(PAGE_NOTES_MARKDOWN_BUDGET / LONG);
    const markdownOf = new Set([...page.matchAll(/<strong>Agenda (\d+)<\/strong>/g)].map((m) => Number(m[1])));
    expect([...markdownOf].sort((a, b) => a - b)).toEqual(Array.from({ length: asMarkdown }, (_, n) => n));
    const cut = page.match(/<div class="notes notes-cut"><p>/g) ?? [];
    expect(cut).toHaveLength(events - asMarkdown);
    // The cut text is escaped, not Markdown: the asterisks stay as written.
    expect(page).toContain(`**Agenda ${events - 1}** with [a link](https://example.com/${events - 1})`);
    expect(page).toContain("(cut on this page: the API has the whole text)");
  });

  it("counts a text shown again once: a series' notes stay Markdown on every occurrence", () => {
    const page = schedule(() => richNotes(7), 40);
    expect(page).not.toContain("notes-cut");
  });

  it("leaves short notes whole, as Markdown, however many there are", () => {
    const page = schedule((n) => `See **item ${n}**`, 500);
    expect(page.match(/<strong>item \d+<\/strong>/g)).toHaveLength(500);
  });
});
