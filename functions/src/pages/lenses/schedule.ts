/** Schedule lens: an agenda of the period's occurrences grouped by day, then "Someday". */
import { dateRange, describeRecur, longDate } from "../format.js";
import { html, type SafeHtml } from "../html.js";
import { renderMarkdown } from "../markdown.js";
import type { PageEvent, PageModel, PageOccurrence } from "../model.js";
import { ALL_DAY, eventClasses, eventLabel, timesHtml } from "../parts.js";
import type { Period } from "../period.js";
import { groupByDate } from "./month.js";

/** Notes longer than this fold behind a "Notes" toggle, so one long note does not flood the list. */
const INLINE_NOTES = 280;

export function notesHtml(notes: string | null): SafeHtml | string {
  if (!notes) return "";
  const rendered = renderMarkdown(notes);
  if (notes.length <= INLINE_NOTES) return html`<div class="notes">${rendered}</div>`;
  return html`<details class="notes"><summary>Notes</summary>${rendered}</details>`;
}

/** Category and repetition, as a quiet line under the name. */
export function metaHtml(event: PageEvent): SafeHtml | string {
  if (!event.category && !event.recur) return "";
  const category = event.category ? html`<span class="category">${event.category}</span>` : "";
  const repeats = event.recur ? html`<span class="repeats">Repeats ${describeRecur(event.recur)}</span>` : "";
  return html`<p class="meta">${category}${repeats}</p>`;
}

function agendaItem(o: PageOccurrence): SafeHtml {
  return html`<li class="${eventClasses(o.event)}"><div class="agenda-time">${timesHtml(o) || ALL_DAY}</div>\
<div class="agenda-body"><p class="title">${eventLabel(o.event)}</p>${metaHtml(o.event)}${notesHtml(o.event.notes)}</div>\
</li>`;
}

export function renderSomeday(someday: readonly PageEvent[]): SafeHtml {
  const items = someday.map(
    (e) =>
      html`<li class="${eventClasses(e)}"><p class="title">${eventLabel(e)}</p>${metaHtml(e)}${notesHtml(e.notes)}</li>`,
  );
  return html`<section class="someday" aria-labelledby="someday-heading"><h2 id="someday-heading">Someday</h2>${
    items.length ? html`<ul class="someday-items">${items}</ul>` : html`<p class="empty-state">No someday plans.</p>`
  }</section>`;
}

export function renderSchedule(model: PageModel, period: Period): SafeHtml {
  const days: SafeHtml[] = [];
  for (const [date, list] of groupByDate(model.occurrences)) {
    const isToday = date === model.today;
    const current = isToday ? html` aria-current="date"` : "";
    const badge = isToday ? html` <span class="badge">Today</span>` : "";
    days.push(
      html`<section class="agenda-day${isToday ? " today" : ""}" aria-labelledby="day-${date}">\
<h3 id="day-${date}"${current}><time datetime="${date}">${longDate(date)}</time>${badge}</h3>\
<ul class="agenda-items">${list.map(agendaItem)}</ul></section>`,
    );
  }
  const agenda = days.length
    ? html`<div class="agenda">${days}</div>`
    : html`<p class="empty-state">Nothing scheduled from ${dateRange(period.from, period.to)}.</p>`;
  return html`${agenda}${renderSomeday(model.someday)}`;
}
