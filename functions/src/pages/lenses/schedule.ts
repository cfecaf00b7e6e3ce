/** Schedule lens: an agenda of the period's occurrences grouped by day, then "Someday". */
import { dateRange, describeRecur, longDate } from "../format.js";
import { html, type SafeHtml } from "../html.js";
import { renderMarkdown } from "../markdown.js";
import type { PageEvent, PageModel, PageOccurrence } from "../model.js";
import { ALL_DAY, eventClasses, eventLabel, timesHtml } from "../parts.js";
import type { Period } from "../period.js";
import { PAGE_NOTES_MARKDOWN_BUDGET } from "../budgets.js";
import { groupByDate } from "./month.js";
import { isVacated, movedFromHtml, occurrenceHref, vacatedHtml, withVacated } from "../occurrence-parts.js";

/** Notes longer than this fold behind a "Notes" toggle, so one long note does not flood the list. */
const INLINE_NOTES = 280;

function notesHtml(notes: string, rendered: SafeHtml): SafeHtml {
  if (notes.length <= INLINE_NOTES) return html`<div class="notes">${rendered}</div>`;
  return html`<details class="notes"><summary>Notes</summary>${rendered}</details>`;
}

type NotesRenderer = (notes: string | null) => SafeHtml | string;

/**
 * Notes for one page: Markdown while the page's budget lasts (PAGE_NOTES_MARKDOWN_BUDGET; a
 * text shown again costs nothing more, renderMarkdown keeps it), then plain text cut to
 * INLINE_NOTES characters, which costs next to nothing however long the notes are.
 */
export function pageNotes(): NotesRenderer {
  let left = PAGE_NOTES_MARKDOWN_BUDGET;
  const rendered = new Set<string>();
  return (notes) => {
    if (!notes) return "";
    if (!rendered.has(notes)) {
      if (notes.length > left) return html`<div class="notes notes-cut"><p>${cutNotes(notes)}</p></div>`;
      left -= notes.length;
      rendered.add(notes);
    }
    return notesHtml(notes, renderMarkdown(notes));
  };
}

const cutNotes = (notes: string): string =>
  notes.length <= INLINE_NOTES
    ? notes
    : `${notes.slice(0, INLINE_NOTES).trimEnd()}… (cut on this page: the API has the whole text)`;

/**
 * Category and repetition, as a quiet line under the name. A moved occurrence says where it
 * came from, and its series' rule as what usually happens.
 */
export function metaHtml(event: PageEvent, o?: PageOccurrence): SafeHtml | string {
  const moved = o ? movedFromHtml(o) : "";
  if (!event.category && !event.recur && !moved) return "";
  const category = event.category ? html`<span class="category ${event.colour}">${event.category}</span>` : "";
  const rule = event.recur ? describeRecur(event.recur) : null;
  const repeats = rule ? html`<span class="repeats">${moved ? "Usually" : "Repeats"} ${rule}</span>` : "";
  return html`<p class="meta">${category}${moved}${repeats}</p>`;
}

function agendaItem(model: PageModel, o: PageOccurrence, notes: NotesRenderer): SafeHtml {
  if (isVacated(o))
    return html`<li class="${eventClasses(o.event)} vacated"><div class="agenda-time">${timesHtml(o) || ALL_DAY}</div>\
<div class="agenda-body"><p class="title">${vacatedHtml(model, o, false)}</p></div></li>`;
  const href = occurrenceHref(model, o.event.id, o.date);
  return html`<li class="${eventClasses(o.event)}"><div class="agenda-time">${timesHtml(o) || ALL_DAY}</div>\
<div class="agenda-body"><p class="title">${eventLabel(o.event, href)}</p>${metaHtml(o.event, o)}\
${notes(o.event.notes)}</div></li>`;
}

export function renderSomeday(someday: readonly PageEvent[], notes: NotesRenderer): SafeHtml {
  const items = someday.map(
    (e) =>
      html`<li class="${eventClasses(e)}"><p class="title">${eventLabel(e)}</p>${metaHtml(e)}${notes(e.notes)}</li>`,
  );
  return html`<section class="someday" aria-labelledby="someday-heading"><h2 id="someday-heading">Someday</h2>${
    items.length ? html`<ul class="someday-items">${items}</ul>` : html`<p class="empty-state">No someday plans.</p>`
  }</section>`;
}

export function renderSchedule(model: PageModel, period: Period): SafeHtml {
  const notes = pageNotes();
  const days: SafeHtml[] = [];
  for (const [date, list] of groupByDate(withVacated(model.occurrences, model.vacated))) {
    const isToday = date === model.today;
    const current = isToday ? html` aria-current="date"` : "";
    const badge = isToday ? html` <span class="badge">Today</span>` : "";
    days.push(
      html`<section class="agenda-day${isToday ? " today" : ""}" aria-labelledby="day-${date}">\
<h3 id="day-${date}"${current}><time datetime="${date}">${longDate(date)}</time>${badge}</h3>\
<ul class="agenda-items">${list.map((o) => agendaItem(model, o, notes))}</ul></section>`,
    );
  }
  const agenda = days.length
    ? html`<div class="agenda">${days}</div>`
    : html`<p class="empty-state">Nothing scheduled from ${dateRange(period.from, period.to)}.</p>`;
  return html`${agenda}${renderSomeday(model.someday, notes)}`;
}
