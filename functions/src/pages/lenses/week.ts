/**
 * Week lens: seven day columns. Untimed events sit at the top; timed ones are placed on a
 * grid of quarter-hour rows that all days and the hours share (classes from the stylesheet,
 * no inline styles, so the CSP needs no 'unsafe-inline'). A row grows to fit a wrapped name,
 * so a name is never cut. Overlapping events share the day's width in lanes. Times are the
 * page calendar's (the model places every occurrence by its instant); one that runs past
 * midnight is drawn on each day it covers (see Piece).
 */
import { addDays } from "../../domain/recurrence/index.js";
import { dayOfMonth, longDate, shortWeekday } from "../format.js";
import { html, type SafeHtml } from "../html.js";
import type { PageModel, PageOccurrence } from "../model.js";
import { isVacated, movedFromHtml, occurrenceHref, vacatedHtml } from "../occurrence-parts.js";
import { eventClasses, eventLabel, plainLabel, timesHtml } from "../parts.js";
import { lensHref } from "../links.js";
import type { Period } from "../period.js";
import { groupByDate } from "./month.js";
import { withVacated } from "../occurrence-parts.js";
import { segmentClasses, segmentHtml, segmentsOfWeek, segmentTitle, spansDays } from "./spans.js";

export const SLOTS_PER_HOUR = 4;
/**
 * Side by side, at most this many: each keeps a readable width (the stylesheet's lane minimum,
 * which widens a crowded day's column); the rest are "+N more".
 */
export const MAX_LANES = 3;
const DAY_START_HOUR = 8;
const DAY_END_HOUR = 18;
/** An event without an end lasts an hour on the grid; none is drawn shorter than half an hour. */
const DEFAULT_SLOTS = 4;
const MIN_SLOTS = 2;
/** Up to this long, the name follows the start on the same line (the end is in the title). */
const SHORT_SLOTS = 3;

const slotOf = (time: string): number => (+time.slice(0, 2) * 60 + +time.slice(3, 5)) / 15;
const DAY_SLOTS = 24 * SLOTS_PER_HOUR;

/**
 * The part of an occurrence drawn on one day. An occurrence that runs past midnight (overnight,
 * or moved there by the page's zone) is drawn to the end of its first day, marked as going on,
 * and again from 00:00 on each later day of the week it runs into, marked as continued; the
 * grid then cuts both to its visible hours (inWindow).
 */
export interface Piece {
  o: PageOccurrence;
  start: number;
  end: number;
  /** It started on an earlier day. */
  continued: boolean;
  /** It goes on after this day's midnight. */
  continues: boolean;
}

/** Whether `o` still runs after 00:00 of `date` (a later day than its start). */
const runsInto = (o: PageOccurrence, date: string): boolean =>
  o.end_date !== null && (o.end_date > date || (o.end_date === date && o.end_time !== "00:00"));

/** The piece of a timed occurrence on `date` (its start date or a later day it runs into). */
export function pieceOn(o: PageOccurrence, date: string): Piece {
  const continued = date > o.date;
  const start = continued ? 0 : Math.floor(slotOf(o.start_time!));
  const continues = runsInto(o, addDays(date, 1));
  let end: number;
  if (o.end_date !== null && o.end_date > date) end = DAY_SLOTS;
  else if (o.end_time) end = Math.ceil(slotOf(o.end_time));
  else end = start + DEFAULT_SLOTS;
  return { o, start, end: Math.min(DAY_SLOTS, Math.max(end, start + MIN_SLOTS)), continued, continues };
}

interface Placed extends Piece {
  lane: number;
  /** Whether it overlaps nothing, so it can take the whole width. */
  alone: boolean;
}

/**
 * Greedy lane assignment over pieces sorted by start; `alone` marks clusters of one. A piece
 * that finds none of the MAX_LANES free is `crowded`: the grid leaves it out (the day says
 * "+N more"), the narrow layout's list shows it.
 */
export function placeTimed(pieces: readonly Piece[]): { placed: Placed[]; lanes: number; crowded: Piece[] } {
  const placed: Placed[] = [];
  const crowded: Piece[] = [];
  const laneEnds: number[] = [];
  let cluster: Placed[] = [];
  let clusterEnd = -1;
  const closeCluster = () => {
    if (cluster.length === 1) cluster[0].alone = true;
    cluster = [];
  };
  // By start on the grid: on a day when clocks go back, a later instant can have an earlier time.
  for (const piece of [...pieces].sort((a, b) => a.start - b.start)) {
    const { start, end } = piece;
    if (start >= clusterEnd) {
      closeCluster();
      laneEnds.fill(0);
    }
    let lane = laneEnds.findIndex((laneEnd) => laneEnd <= start);
    if (lane === -1 && laneEnds.length >= MAX_LANES) {
      crowded.push(piece);
      continue;
    }
    if (lane === -1) lane = laneEnds.length;
    laneEnds[lane] = end;
    const p: Placed = { ...piece, lane, alone: false };
    placed.push(p);
    cluster.push(p);
    clusterEnd = Math.max(clusterEnd, end);
  }
  closeCluster();
  return { placed, lanes: Math.max(1, laneEnds.length), crowded };
}

/**
 * Visible hours: 08:00 to 18:00, widened to fit the week's earliest start and latest end. What
 * runs past midnight widens neither way: the day it starts shows its start, and says when it
 * ends; the days it runs into draw it from the first visible hour (see inWindow).
 */
export function visibleHours(pieces: readonly Piece[]): { first: number; last: number } {
  let first = DAY_START_HOUR;
  let last = DAY_END_HOUR;
  for (const { start, end, continued, continues } of pieces) {
    if (continued) continue;
    first = Math.min(first, Math.floor(start / SLOTS_PER_HOUR));
    last = Math.max(last, Math.ceil((continues ? start + MIN_SLOTS : end) / SLOTS_PER_HOUR));
  }
  return { first, last };
}

/**
 * A day's pieces cut to the visible slots [from, to): those that ended before `from` (the rest of
 * a night) are `ended`, for the day's list above the grid; the others are kept at least MIN_SLOTS long.
 */
export function inWindow(pieces: readonly Piece[], from: number, to: number): { drawn: Piece[]; ended: Piece[] } {
  const drawn: Piece[] = [];
  const ended: Piece[] = [];
  for (const p of pieces) {
    if (p.continued && p.end <= from) {
      ended.push(p);
      continue;
    }
    const start = Math.max(p.start, from);
    const end = Math.min(Math.max(p.end, start + MIN_SLOTS), to);
    drawn.push({ ...p, start, end });
  }
  return { drawn, ended };
}

/** Each day's timed pieces: its own occurrences' first pieces, and what runs into it from earlier days. */
export function piecesByDay(
  model: Pick<PageModel, "occurrences" | "continuing">,
  days: string[],
): Map<string, Piece[]> {
  const byDay = new Map<string, Piece[]>(days.map((d) => [d, []]));
  for (const o of [...model.continuing, ...model.occurrences]) {
    if (!o.start_time) continue;
    byDay.get(o.date)?.push(pieceOn(o, o.date));
    if (o.end_date === null) continue;
    for (const day of days) if (day > o.date && runsInto(o, day)) byDay.get(day)!.push(pieceOn(o, day));
  }
  return byDay;
}

/**
 * The times of a piece: the occurrence's own on its first day, "until 02:00" on a later one.
 * On the grid a short piece shows its start before the name: the stylesheet shows its end only
 * to screen readers (it is in the chip's title too), so that the name keeps the room.
 */
function pieceTimes(p: Piece, date: string, short: boolean): SafeHtml | string {
  const o = p.o;
  if (!p.continued && p.continues && o.end_time)
    return html`${timesHtml(o, short)}<span class="goes-on">continues to ${o.end_time} →</span>`;
  if (!p.continued) return timesHtml(o, short);
  const end =
    p.continues || !p.o.end_time ? "" : html` <time datetime="${date}T${p.o.end_time}">${p.o.end_time}</time>`;
  return html`<span class="when"><span class="visually-hidden">Continued from ${longDate(p.o.date)}, </span>\
<span aria-hidden="true">↳ </span>${end ? html`until${end}` : "all day"}</span>`;
}

export function renderWeek(model: PageModel, period: Period): SafeHtml {
  const dates = Array.from({ length: 7 }, (_, i) => addDays(period.from, i));
  // Occurrences over several days are bars above the days (lenses/spans.ts); the rest are chips.
  const shown = withVacated(model.occurrences, model.vacated).filter((o) => isVacated(o) || !spansDays(o));
  const byDate = groupByDate(shown);
  const continuing = model.continuing.filter((o) => !spansDays(o));
  const pieces = piecesByDay({ occurrences: shown, continuing }, dates);
  const item = (o: PageOccurrence, times: SafeHtml | string, classes = ""): SafeHtml =>
    isVacated(o)
      ? html`<li class="${eventClasses(o.event)} vacated${classes}">${times}${vacatedHtml(model, o, false)}</li>`
      : html`<li class="${eventClasses(o.event)}${classes}" title="${plainLabel(o, o.event)}">${times}\
${eventLabel(o.event, occurrenceHref(model, o.event.id, o.date))}${movedFromHtml(o)}</li>`;
  const { first, last } = visibleHours([...pieces.values()].flat());
  const rows = (last - first) * SLOTS_PER_HOUR;
  const firstSlot = first * SLOTS_PER_HOUR;
  const lastSlot = last * SLOTS_PER_HOUR;

  const hours: SafeHtml[] = [];
  for (let h = first; h < last; h++) {
    const label = `${h < 10 ? "0" : ""}${h}:00`;
    hours.push(html`<li class="at-${(h - first) * SLOTS_PER_HOUR + 1}"><span>${label}</span></li>`);
  }

  const days: SafeHtml[] = [];
  for (const date of dates) {
    const list = byDate.get(date) ?? [];
    const untimed = list.filter((o) => !o.start_time);
    const { drawn: visible, ended } = inWindow(pieces.get(date)!, firstSlot, lastSlot);
    const { placed, lanes, crowded } = placeTimed(visible);
    const isToday = date === model.today;
    const id = `day-${date}`;
    const drawn = [...placed, ...crowded.map((p) => ({ ...p, lane: -1, alone: false }))];
    drawn.sort((a, b) => a.start - b.start);
    const timedItems = drawn.map((p) => {
      const isShort = p.end - p.start <= SHORT_SLOTS;
      const short = isShort ? " short" : "";
      const joins = `${p.continued ? " continued" : ""}${p.continues ? " continues" : ""}`;
      const lane = p.lane === -1 ? "crowded" : p.alone ? "lane-all" : `lane-${p.lane + 1}`;
      const where = ` at-${p.start - firstSlot + 1} len-${p.end - p.start} ${lane}${short}${joins}`;
      return item(p.o, pieceTimes(p, date, isShort), where);
    });
    const more = crowdedNote(model, date, crowded.length);
    const current = isToday ? html` aria-current="date"` : "";
    const endedItems = ended.map((p) => item(p.o, pieceTimes(p, date, false), " continued"));
    const untimedItems = [...endedItems, ...untimed.map((o) => item(o, "")), more];
    const empty = list.length === 0 && placed.length === 0 && ended.length === 0;
    days.push(html`<section class="wday${isToday ? " today" : ""}${empty ? " empty" : ""}" aria-labelledby="${id}">
<h3 class="wday-head" id="${id}"${current}>\
<time datetime="${date}"><span class="dow">${shortWeekday(date)}</span> <span class="dnum">${dayOfMonth(date)}</span></time></h3>
${untimedItems.some(Boolean) ? html`<ul class="untimed">${untimedItems}</ul>` : html`<div class="untimed"></div>`}
${timedItems.length ? html`<ol class="timed lanes-${lanes}">${timedItems}</ol>` : html`<div class="timed"></div>`}
${empty ? html`<p class="none">Nothing planned</p>` : ""}
</section>`);
  }
  const bars = spanBars(model, period.from);
  return html`<div class="week slots-${rows}">${bars}<ol class="hours" aria-hidden="true">${hours}</ol>${days}</div>`;
}

/** The week's occurrences over several days: one bar each, across its columns. */
function spanBars(model: PageModel, from: string): SafeHtml | "" {
  const segments = segmentsOfWeek([...model.continuing, ...model.occurrences], from);
  if (segments.length === 0) return "";
  const items = segments.map(
    (s) =>
      html`<li class="${segmentClasses(s)} from-${s.from}" title="${segmentTitle(s)}">${segmentHtml(model, s)}</li>`,
  );
  return html`<ul class="week-spans" aria-label="Over several days">${items}</ul>`;
}

/**
 * "+N more" above a day whose grid left N crowded events out, linking to the day in the
 * schedule lens where the page has one (a narrow screen's list shows them all).
 */
function crowdedNote(model: PageModel, date: string, crowded: number): SafeHtml | "" {
  if (crowded === 0) return "";
  const words = `+${crowded} more`;
  const more = html`${words}<span class="visually-hidden"> events at the same time</span>`;
  return model.lenses.includes("schedule")
    ? html`<li class="crowded-note"><a href="${lensHref("schedule", date, model.reader)}">${more}</a></li>`
    : html`<li class="crowded-note">${more}</li>`;
}
