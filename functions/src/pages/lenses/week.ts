/**
 * Week lens: seven day columns. Untimed events sit at the top; timed ones are placed on a
 * grid of quarter-hour rows (classes from the stylesheet, no inline styles, so the CSP needs
 * no 'unsafe-inline'). Overlapping events share the day's width in lanes.
 */
import { addDays } from "../../domain/recurrence/index.js";
import { dayOfMonth, shortWeekday } from "../format.js";
import { html, type SafeHtml } from "../html.js";
import type { PageModel, PageOccurrence } from "../model.js";
import { eventClasses, eventLabel, timesHtml } from "../parts.js";
import type { Period } from "../period.js";
import { groupByDate } from "./month.js";

export const SLOTS_PER_HOUR = 4;
export const MAX_LANES = 4;
const DAY_START_HOUR = 8;
const DAY_END_HOUR = 18;
/** An event without an end lasts an hour on the grid; none is drawn shorter than half an hour. */
const DEFAULT_SLOTS = 4;
const MIN_SLOTS = 2;
/** Up to this long, time and name share one line. */
const SHORT_SLOTS = 3;

const slotOf = (time: string): number => (+time.slice(0, 2) * 60 + +time.slice(3, 5)) / 15;

interface Placed {
  o: PageOccurrence;
  start: number;
  end: number;
  lane: number;
  /** Whether it overlaps nothing, so it can take the whole width. */
  alone: boolean;
}

function span(o: PageOccurrence): { start: number; end: number } {
  const start = Math.floor(slotOf(o.event.start_time!));
  const natural = o.event.end_time ? Math.ceil(slotOf(o.event.end_time)) : start + DEFAULT_SLOTS;
  return { start, end: Math.min(24 * SLOTS_PER_HOUR, Math.max(natural, start + MIN_SLOTS)) };
}

/** Greedy lane assignment over events sorted by start; `alone` marks clusters of one. */
export function placeTimed(timed: readonly PageOccurrence[]): { placed: Placed[]; lanes: number } {
  const placed: Placed[] = [];
  const laneEnds: number[] = [];
  let cluster: Placed[] = [];
  let clusterEnd = -1;
  const closeCluster = () => {
    if (cluster.length === 1) cluster[0].alone = true;
    cluster = [];
  };
  for (const o of timed) {
    const { start, end } = span(o);
    if (start >= clusterEnd) {
      closeCluster();
      laneEnds.fill(0);
    }
    let lane = laneEnds.findIndex((laneEnd) => laneEnd <= start);
    if (lane === -1) lane = laneEnds.length < MAX_LANES ? laneEnds.length : laneEnds.indexOf(Math.min(...laneEnds));
    laneEnds[lane] = end;
    const p: Placed = { o, start, end, lane, alone: false };
    placed.push(p);
    cluster.push(p);
    clusterEnd = Math.max(clusterEnd, end);
  }
  closeCluster();
  return { placed, lanes: Math.max(1, laneEnds.length) };
}

/** Visible hours: 08:00 to 18:00, widened to fit the week's earliest and latest events. */
export function visibleHours(timed: readonly PageOccurrence[]): { first: number; last: number } {
  let first = DAY_START_HOUR;
  let last = DAY_END_HOUR;
  for (const o of timed) {
    const { start, end } = span(o);
    first = Math.min(first, Math.floor(start / SLOTS_PER_HOUR));
    last = Math.max(last, Math.ceil(end / SLOTS_PER_HOUR));
  }
  return { first, last };
}

export function renderWeek(model: PageModel, period: Period): SafeHtml {
  const byDate = groupByDate(model.occurrences);
  const allTimed = model.occurrences.filter((o) => o.event.start_time);
  const { first, last } = visibleHours(allTimed);
  const rows = (last - first) * SLOTS_PER_HOUR;
  const firstSlot = first * SLOTS_PER_HOUR;

  const hours: SafeHtml[] = [];
  for (let h = first; h < last; h++) {
    const label = `${h < 10 ? "0" : ""}${h}:00`;
    hours.push(html`<li class="at-${(h - first) * SLOTS_PER_HOUR + 1}">${label}</li>`);
  }

  const days: SafeHtml[] = [];
  for (let i = 0; i < 7; i++) {
    const date = addDays(period.from, i);
    const list = byDate.get(date) ?? [];
    const untimed = list.filter((o) => !o.event.start_time);
    const { placed, lanes } = placeTimed(list.filter((o) => o.event.start_time));
    const isToday = date === model.today;
    const id = `day-${date}`;
    const timedItems = placed.map((p) => {
      const short = p.end - p.start <= SHORT_SLOTS ? " short" : "";
      const where = `at-${p.start - firstSlot + 1} len-${p.end - p.start} ${p.alone ? "lane-all" : `lane-${p.lane + 1}`}${short}`;
      return html`<li class="${eventClasses(p.o.event)} ${where}">${timesHtml(date, p.o.event)}${eventLabel(p.o.event)}</li>`;
    });
    const current = isToday ? html` aria-current="date"` : "";
    const untimedItems = untimed.map((o) => html`<li class="${eventClasses(o.event)}">${eventLabel(o.event)}</li>`);
    days.push(html`<section class="wday${isToday ? " today" : ""}${list.length ? "" : " empty"}" aria-labelledby="${id}">
<h3 class="wday-head" id="${id}"${current}>\
<time datetime="${date}"><span class="dow">${shortWeekday(date)}</span> <span class="dnum">${dayOfMonth(date)}</span></time></h3>
${untimed.length ? html`<ul class="untimed">${untimedItems}</ul>` : html`<div class="untimed"></div>`}
${timedItems.length ? html`<ol class="timed rows-${rows} lanes-${lanes}">${timedItems}</ol>` : html`<div class="timed rows-${rows}"></div>`}
${list.length ? "" : html`<p class="none">Nothing planned</p>`}
</section>`);
  }
  return html`<div class="week"><ol class="hours rows-${rows}" aria-hidden="true">${hours}</ol>${days}</div>`;
}
