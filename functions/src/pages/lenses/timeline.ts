/**
 * Timeline lens: a roadmap of the period with one column per week and one lane per layer.
 * One-off events are milestones at their week; a recurring event is one bar from its first
 * to its last occurrence in the period, with its time of day. Someday events have their own
 * lane at the bottom. On narrow screens the lanes become lists in date order (the markup is already sorted).
 */
import { addDays, dayNumber } from "../../domain/recurrence/index.js";
import { dateRange, describeRecur, shortDate } from "../format.js";
import { html, type SafeHtml } from "../html.js";
import type { PageEvent, PageModel, PageOccurrence } from "../model.js";
import { occurrenceHref } from "../occurrence-parts.js";
import { eventClasses, eventLabel, timesHtml } from "../parts.js";
import { startOfWeek, type Period } from "../period.js";

/** A milestone is drawn this many weeks wide, so its name has room. */
const MILESTONE_WEEKS = 3;

interface Item {
  event: PageEvent;
  first: PageOccurrence;
  last: PageOccurrence;
  count: number;
  /** One occurrence per distinct time of day in the page's zone (a layer from a zone with other DST dates has two). */
  times: PageOccurrence[];
}

const timeOfDay = (o: PageOccurrence): string => `${o.start_time}|${o.end_time}|${o.end_date === null}`;

/** One item per event, in order of first occurrence, grouped by layer (`main` first). */
function lanesOf(occurrences: readonly PageOccurrence[]): Map<string, Item[]> {
  const byEvent = new Map<PageEvent, Item>();
  for (const o of occurrences) {
    const item = byEvent.get(o.event);
    if (item) {
      item.last = o;
      item.count++;
      if (!item.times.some((t) => timeOfDay(t) === timeOfDay(o))) item.times.push(o);
    } else byEvent.set(o.event, { event: o.event, first: o, last: o, count: 1, times: [o] });
  }
  const lanes = new Map<string, Item[]>([["main", []]]);
  for (const item of byEvent.values()) {
    const lane = lanes.get(item.event.layer);
    if (lane) lane.push(item);
    else lanes.set(item.event.layer, [item]);
  }
  if (lanes.get("main")!.length === 0) lanes.delete("main");
  return new Map([...lanes].sort(([a], [b]) => (a === "main" ? -1 : b === "main" ? 1 : a < b ? -1 : 1)));
}

const joinOr = (parts: Array<SafeHtml | string>): SafeHtml =>
  html`${parts.map((part, i) => (i === 0 ? part : html` or ${part}`))}`;

export function renderTimeline(model: PageModel, period: Period): SafeHtml {
  const origin = dayNumber(startOfWeek(period.from));
  const weeks = Math.floor((dayNumber(period.to) - origin) / 7) + 1;
  const column = (date: string) => Math.floor((dayNumber(date) - origin) / 7) + 1;
  const todayColumn = model.today >= period.from && model.today <= period.to ? column(model.today) : 0;

  const scale: SafeHtml[] = [];
  let previousMonth = "";
  for (let c = 1; c <= weeks; c++) {
    const monday = addDays(startOfWeek(period.from), (c - 1) * 7);
    const month = monday.slice(0, 7);
    const label = month === previousMonth ? String(+monday.slice(8)) : shortDate(monday);
    previousMonth = month;
    scale.push(html`<li class="c-${c}${c === todayColumn ? " now" : ""}">${label}</li>`);
  }

  const lanes: SafeHtml[] = [];
  for (const [layer, items] of lanesOf(model.occurrences)) {
    const chips = items.map((item) => {
      const start = column(item.first.date);
      const end = column(item.last.date);
      const width = Math.min(weeks - start + 1, Math.max(end - start + 1, MILESTONE_WEEKS));
      const first = html`<time datetime="${item.first.date}">${shortDate(item.first.date)}</time>`;
      const when =
        item.event.kind === "recurring"
          ? html`<span class="when">${first} – <time datetime="${item.last.date}">${shortDate(item.last.date)}</time>\
${item.first.start_time ? html`, ${joinOr(item.times.map((o) => timesHtml(o)))}` : ""}</span>`
          : html`<span class="when">${first} ${timesHtml(item.first)}</span>`;
      const repeats = item.event.recur
        ? html`<span class="repeats">${describeRecur(item.event.recur)} · ${item.count}×</span>`
        : "";
      const label = eventLabel(item.event, occurrenceHref(model, item.event.id, item.first.date));
      return html`<li class="${eventClasses(item.event)} c-${start} w-${width}">${when}${label}${repeats}</li>`;
    });
    const id = layer === "main" ? "lane-main" : `lane-l-${layer}`;
    const name = layer === "main" ? model.title : layer;
    const note = layer === "main" ? "" : html` <span class="layer-note">layer</span>`;
    lanes.push(
      html`<section class="lane" aria-labelledby="${id}"><h3 class="lane-name" id="${id}">${name}${note}</h3>\
<ol class="lane-items">${chips}</ol></section>`,
    );
  }

  const someday = model.someday.map((e) => html`<li class="${eventClasses(e)}">${eventLabel(e)}</li>`);
  const somedayLane = html`<section class="lane someday-lane" aria-labelledby="lane-someday">\
<h3 class="lane-name" id="lane-someday">Someday</h3>${
    someday.length ? html`<ul class="lane-items">${someday}</ul>` : html`<p class="empty-state">No someday plans.</p>`
  }</section>`;

  const empty = lanes.length
    ? ""
    : html`<p class="empty-state lane-empty">Nothing dated from ${dateRange(period.from, period.to)}.</p>`;
  return html`<div class="timeline weeks-${weeks}" role="region" aria-label="Timeline, ${period.label}" tabindex="0">\
<ol class="tl-scale" aria-hidden="true">${scale}</ol>${lanes}${empty}${somedayLane}</div>`;
}
