/**
 * Month lens: a table of whole weeks (Monday first), each day with its occurrences. One that
 * spans days is a bar from its first day's cell across the row (lenses/spans.ts).
 */
import { addDays } from "../../domain/recurrence/index.js";
import { dayOfMonth, monthYear, shortWeekday, weekdayHeaders } from "../format.js";
import { html, type SafeHtml } from "../html.js";
import { dayLens, lensHref } from "../links.js";
import type { PageModel, PageOccurrence } from "../model.js";
import { isVacated, movedFromHtml, occurrenceHref, vacatedHtml, withVacated } from "../occurrence-parts.js";
import { eventClasses, eventLabel, plainLabel, timesHtml } from "../parts.js";
import type { Period } from "../period.js";
import {
  laneCount,
  segmentClasses,
  segmentHtml,
  segmentsOfWeek,
  segmentTitle,
  spansDays,
  type Segment,
} from "./spans.js";

/** Beyond this many occurrences a day shows the first few and folds the rest. */
export const MONTH_CELL_LIMIT = 4;

export function groupByDate(occurrences: readonly PageOccurrence[]): Map<string, PageOccurrence[]> {
  const byDate = new Map<string, PageOccurrence[]>();
  for (const o of occurrences) {
    const list = byDate.get(o.date);
    if (list) list.push(o);
    else byDate.set(o.date, [o]);
  }
  return byDate;
}

// The title carries the whole label where a narrow cell cuts the chip.
const itemOf =
  (model: PageModel) =>
  (o: PageOccurrence): SafeHtml =>
    isVacated(o)
      ? html`<li class="${eventClasses(o.event)} vacated">${vacatedHtml(model, o)}</li>`
      : html`<li class="${eventClasses(o.event)}" title="${plainLabel(o, o.event)}">${timesHtml(o)}\
${eventLabel(o.event, occurrenceHref(model, o.event.id, o.date))}${movedFromHtml(o)}</li>`;

/**
 * A day's lanes of bars: the bar starting here (or at the row's start), else a slot the bar
 * from an earlier day crosses, so that every day of the row keeps its chips below. The slot
 * holds a hidden copy of that bar, as wide, so that it is as high as the bar's wrapped name.
 */
function barLanes(model: PageModel, segments: Segment[], lanes: number, column: number): SafeHtml[] {
  const items: SafeHtml[] = [];
  for (let lane = 0; lane < lanes; lane++) {
    const s = segments.find((seg) => seg.lane === lane && seg.from === column);
    const over = s ? null : segments.find((seg) => seg.lane === lane && seg.from < column && seg.to >= column);
    items.push(
      s
        ? html`<li class="${segmentClasses(s)}" title="${segmentTitle(s)}">${segmentHtml(model, s)}</li>`
        : over
          ? html`<li class="span-gap" aria-hidden="true"><span class="${segmentClasses(over)}">\
${segmentHtml(model, over, false)}</span></li>`
          : html`<li class="span-gap" aria-hidden="true"></li>`,
    );
  }
  return items;
}

function dayEvents(
  list: PageOccurrence[] | undefined,
  item: (o: PageOccurrence) => SafeHtml,
  bars: SafeHtml[],
): SafeHtml | string {
  if (!list && bars.length === 0) return "";
  if (!list || list.length <= MONTH_CELL_LIMIT) return html`<ul class="events">${bars}${(list ?? []).map(item)}</ul>`;
  const shown = list.slice(0, MONTH_CELL_LIMIT - 1);
  const folded = list.slice(MONTH_CELL_LIMIT - 1);
  return html`<ul class="events">${bars}${shown.map(item)}</ul>\
<details class="more"><summary>${folded.length} more</summary><ul class="events">${folded.map(item)}</ul></details>`;
}

export function renderMonth(model: PageModel, period: Period): SafeHtml {
  // Occurrences over several days are bars across them; the rest are chips in their day.
  const byDate = groupByDate(
    withVacated(model.occurrences, model.vacated).filter((o) => isVacated(o) || !spansDays(o)),
  );
  const spanning = [...model.continuing, ...model.occurrences].filter(spansDays);
  const item = itemOf(model);
  const month = model.date.slice(0, 7);
  const detail = dayLens(model.lenses);
  const rows: SafeHtml[] = [];
  for (let week = period.from; week <= period.to; week = addDays(week, 7)) {
    const cells: SafeHtml[] = [];
    const segments = segmentsOfWeek(spanning, week);
    const lanes = laneCount(segments);
    for (let i = 0; i < 7; i++) {
      const date = addDays(week, i);
      const list = byDate.get(date);
      const bars = barLanes(model, segments, lanes, i + 1);
      const barStarts = segments.some((s) => s.from === i + 1);
      const isToday = date === model.today;
      const empty = !list && !barStarts;
      const classes = `day${date.slice(0, 7) === month ? "" : " other-month"}${isToday ? " today" : ""}${empty ? " empty" : ""}`;
      // The month and year are for screen readers (the visible label is the day number).
      const label = html`<time datetime="${date}"><span class="dow">${shortWeekday(date)} </span>\
<span class="dnum">${dayOfMonth(date)}</span><span class="visually-hidden"> ${monthYear(date)}</span></time>`;
      const head = detail
        ? html`<a class="day-link" href="${lensHref(detail, date, model.reader)}">${label}</a>`
        : label;
      cells.push(
        html`<td class="${classes}"${isToday ? html` aria-current="date"` : ""}>${head}${dayEvents(list, item, bars)}</td>`,
      );
    }
    rows.push(html`<tr>${cells}</tr>`);
  }
  const headers = weekdayHeaders().map(
    ({ long, short }) => html`<th scope="col"><abbr title="${long}">${short}</abbr></th>`,
  );
  return html`<table class="month"><caption class="visually-hidden">${period.label}</caption>\
<thead><tr>${headers}</tr></thead><tbody>${rows}</tbody></table>`;
}
