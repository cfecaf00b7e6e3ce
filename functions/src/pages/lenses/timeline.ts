/**
 * Timeline lens: a roadmap of the period, to scale, with one column per day (labelled by week)
 * and one lane per layer. Each event is a bar over the days it takes: a one-off from its first
 * to its last day (a 30-minute meeting one day, a 3-day offsite three), a recurring event from
 * its first to its last occurrence in the period, with its time of day. Its label sits under
 * the bar, in room of at least LABEL_DAYS. Someday events have their own lane at the bottom.
 * On narrow screens the lanes become lists in date order (the markup is already sorted).
 */
import { addDays, dayNumber } from "../../domain/recurrence/index.js";
import { dateRange, describeRecur, shortDate } from "../format.js";
import { html, type SafeHtml } from "../html.js";
import type { PageEvent, PageModel, PageOccurrence } from "../model.js";
import { occurrenceHref } from "../occurrence-parts.js";
import { eventClasses, eventLabel, timesHtml } from "../parts.js";
import { startOfWeek, type Period } from "../period.js";
import { lastDay } from "./spans.js";

/** An item's label has at least this many days of room beside later items in its lane. */
const LABEL_DAYS = 12;

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

/** "every day, 3 times", and how many the period holds when the rule does not already say it. */
function repeatsWords(recur: NonNullable<PageEvent["recur"]>, count: number): string {
  const rule = describeRecur(recur);
  return recur.count === count ? rule : `${rule} · ${count} in view`;
}

export function renderTimeline(model: PageModel, period: Period): SafeHtml {
  const monday = startOfWeek(period.from);
  const origin = dayNumber(monday);
  const days = dayNumber(period.to) - origin + 1;
  const column = (date: string) => Math.min(days, Math.max(1, dayNumber(date) - origin + 1));
  const todayColumn = model.today >= period.from && model.today <= period.to ? column(model.today) : 0;

  const scale: SafeHtml[] = [];
  let previousMonth = "";
  for (let d = 1; d <= days; d += 7) {
    const start = addDays(monday, d - 1);
    const month = start.slice(0, 7);
    const label = month === previousMonth ? String(+start.slice(8)) : shortDate(start);
    previousMonth = month;
    const now = todayColumn >= d && todayColumn < d + 7 ? " now" : "";
    scale.push(html`<li class="d-${d} l-${Math.min(7, days - d + 1)}${now}">${label}</li>`);
  }

  const lanes: SafeHtml[] = [];
  for (const [layer, items] of lanesOf(model.occurrences)) {
    const chips = items.map((item) => {
      const start = column(item.first.date);
      const length = column(lastDay(item.last)) - start + 1;
      const room = Math.min(days - start + 1, Math.max(length, LABEL_DAYS));
      const first = html`<time datetime="${item.first.date}">${shortDate(item.first.date)}</time>`;
      const ends = lastDay(item.last);
      const until = ends === item.first.date ? "" : html` – <time datetime="${ends}">${shortDate(ends)}</time>`;
      const when =
        item.event.kind === "recurring"
          ? html`<span class="when">${first}${until}\
${item.first.start_time ? html`, ${joinOr(item.times.map((o) => timesHtml(o)))}` : ""}</span>`
          : html`<span class="when">${first}${until} ${timesHtml(item.first)}</span>`;
      const repeats = item.event.recur
        ? html`<span class="repeats">${repeatsWords(item.event.recur, item.count)}</span>`
        : "";
      const label = eventLabel(item.event, occurrenceHref(model, item.event.id, item.first.date));
      return html`<li class="${eventClasses(item.event)} tl-item d-${start} l-${room}">\
<span class="tl-bar l-${length}" aria-hidden="true"></span><span class="tl-label">${when}${label}${repeats}</span></li>`;
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
  return html`<div class="timeline days-${days}" role="region" aria-label="Timeline, ${period.label}" tabindex="0">\
<ol class="tl-scale" aria-hidden="true">${scale}</ol>${lanes}${empty}${somedayLane}</div>`;
}
