/**
 * Schedule lens: an agenda of the period's occurrences grouped by day, then "Someday". One over
 * several days (a bar in Month and Week, lenses/spans.ts) is listed on each day of the period
 * it covers, on the later ones (and the first, when it began before the period) as going on:
 * "continues · until Wed 2 Dec". An overnight one is listed once, on the day it starts.
 */
import { addDays } from "../../domain/recurrence/index.js";
import { dateRange, describeRecur, longDate, weekdayDayMonth } from "../format.js";
import { html, type SafeHtml } from "../html.js";
import { renderMarkdown } from "../markdown.js";
import type { PageEvent, PageModel, PageOccurrence } from "../model.js";
import { ALL_DAY, eventClasses, eventLabel, timesHtml } from "../parts.js";
import type { Period } from "../period.js";
import { PAGE_NOTES_MARKDOWN_BUDGET } from "../budgets.js";
import { clockTime } from "../locale.js";
import { groupByDate } from "./month.js";
import { isVacated, movedFromHtml, occurrenceHref, vacatedHtml, withVacated } from "../occurrence-parts.js";
import { lastDay, spansDays } from "./spans.js";

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

/** Where an occurrence over several days ends: "Wed 2 Dec", with its end time when timed. */
function untilHtml(o: PageOccurrence): SafeHtml {
  if (o.start_time === null || o.end_time === null)
    return html`until <time datetime="${lastDay(o)}">${weekdayDayMonth(lastDay(o))}</time>`;
  const date = o.end_date ?? o.date;
  return html`until <time datetime="${date}T${o.end_time}">${weekdayDayMonth(date)} ${clockTime(o.end_time)}</time>`;
}

/** The time column: the occurrence's times on its first day, "continues · until …" on a later one. */
function agendaTime(o: PageOccurrence, date: string): SafeHtml | string {
  if (date > o.date) {
    const since = html`<span class="since">since <time datetime="${o.date}">${weekdayDayMonth(o.date)}</time></span>`;
    return html`<span class="when goes-on">continues · ${untilHtml(o)} ${since}</span>`;
  }
  if (o.start_time === null && lastDay(o) > o.date)
    return html`<span class="when all-day">All day · ${untilHtml(o)}</span>`;
  return timesHtml(o) || ALL_DAY;
}

/** One occurrence on `date` (its own, or a later day it covers); its notes where the page first lists it. */
function agendaItem(model: PageModel, o: PageOccurrence, date: string, notes: NotesRenderer | null): SafeHtml {
  if (isVacated(o))
    return html`<li class="${eventClasses(o.event)} vacated"><div class="agenda-time">${timesHtml(o) || ALL_DAY}</div>\
<div class="agenda-body"><p class="title">${vacatedHtml(model, o, false)}</p></div></li>`;
  const href = occurrenceHref(model, o.event.id, o.date);
  const continued = date > o.date ? " continued" : "";
  return html`<li class="${eventClasses(o.event)}${continued}"><div class="agenda-time">${agendaTime(o, date)}</div>\
<div class="agenda-body"><p class="title">${eventLabel(o.event, href)}</p>${metaHtml(o.event, o)}\
${notes ? notes(o.event.notes) : ""}</div></li>`;
}

interface Listed {
  o: PageOccurrence;
  /** Whether this is where the page first lists it, which shows its notes. */
  first: boolean;
}

/**
 * The period's days and what each lists: what goes on from an earlier day first (from before
 * the period, then from earlier in it), then the day's own occurrences in their order.
 */
export function agendaDays(
  model: Pick<PageModel, "occurrences" | "continuing" | "vacated">,
  period: Pick<Period, "from" | "to">,
): Map<string, Listed[]> {
  const own = groupByDate(withVacated(model.occurrences, model.vacated));
  const goingOn: PageOccurrence[] = model.continuing.filter(spansDays);
  const days = new Map<string, Listed[]>();
  for (let date = period.from; date <= period.to; date = addDays(date, 1)) {
    const listed: Listed[] = goingOn.filter((o) => lastDay(o) >= date).map((o) => ({ o, first: date === period.from }));
    for (const o of own.get(date) ?? []) {
      listed.push({ o, first: true });
      if (!isVacated(o) && spansDays(o)) goingOn.push(o);
    }
    if (listed.length > 0) days.set(date, listed);
  }
  return days;
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
  for (const [date, list] of agendaDays(model, period)) {
    const isToday = date === model.today;
    const current = isToday ? html` aria-current="date"` : "";
    const badge = isToday ? html` <span class="badge">Today</span>` : "";
    days.push(
      html`<section class="agenda-day${isToday ? " today" : ""}" aria-labelledby="day-${date}">\
<h3 id="day-${date}"${current}><time datetime="${date}">${longDate(date)}</time>${badge}</h3>\
<ul class="agenda-items">${list.map(({ o, first }) => agendaItem(model, o, date, first ? notes : null))}</ul></section>`,
    );
  }
  const agenda = days.length
    ? html`<div class="agenda">${days}</div>`
    : html`<p class="empty-state">Nothing scheduled from ${dateRange(period.from, period.to)}.</p>`;
  return html`${agenda}${renderSomeday(model.someday, notes)}`;
}
