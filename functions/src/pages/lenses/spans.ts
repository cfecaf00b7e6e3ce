/**
 * Occurrences Month and Week draw as one bar across their days: an all-day one of several
 * days, and a timed one that runs a day or longer (Monday 09:00 to Wednesday 17:00). An
 * overnight one (Monday 22:00 to Tuesday 02:00) stays a chip on its first day, as before.
 * A bar is cut into one segment per week row, marked where it goes on before or after the row.
 */
import { addDays, daysBetween } from "../../domain/recurrence/index.js";
import { weekdayDayMonth } from "../format.js";
import { html, type SafeHtml } from "../html.js";
import type { PageModel, PageOccurrence } from "../model.js";
import { occurrenceHref } from "../occurrence-parts.js";
import { eventClasses, eventLabel } from "../parts.js";

/** The last date an occurrence covers: an end at 00:00 leaves the day it falls on untouched. */
export function lastDay(o: PageOccurrence): string {
  if (o.end_date === null) return o.date;
  return o.start_time !== null && o.end_time === "00:00" ? addDays(o.end_date, -1) : o.end_date;
}

/** Whether an occurrence is drawn as a bar: all-day over days, or timed for a day or longer. */
export function spansDays(o: PageOccurrence): boolean {
  const last = lastDay(o);
  if (last <= o.date) return false;
  if (o.start_time === null || o.end_time === null) return true;
  return daysBetween(o.date, last) > 1 || o.end_time >= o.start_time;
}

/** One week row's part of a bar: columns 1..7, its lane (row of bars), and whether it goes on. */
export interface Segment {
  o: PageOccurrence;
  from: number;
  to: number;
  lane: number;
  continued: boolean;
  continues: boolean;
}

/**
 * The segments of the row of seven days from `weekStart`, in lanes: longest first among those
 * starting on the same day, each in the first lane free over its columns.
 */
export function segmentsOfWeek(occurrences: readonly PageOccurrence[], weekStart: string): Segment[] {
  const weekEnd = addDays(weekStart, 6);
  const segments: Segment[] = [];
  for (const o of occurrences) {
    if (!spansDays(o)) continue;
    const last = lastDay(o);
    if (o.date > weekEnd || last < weekStart) continue;
    const from = o.date < weekStart ? 1 : daysBetween(weekStart, o.date) + 1;
    const to = last > weekEnd ? 7 : daysBetween(weekStart, last) + 1;
    segments.push({ o, from, to, lane: 0, continued: o.date < weekStart, continues: last > weekEnd });
  }
  segments.sort((a, b) => a.from - b.from || b.to - a.to);
  const laneEnds: number[] = [];
  for (const s of segments) {
    let lane = laneEnds.findIndex((end) => end < s.from);
    if (lane === -1) lane = laneEnds.length;
    laneEnds[lane] = s.to;
    s.lane = lane;
  }
  return segments;
}

/** How many lanes the segments take. */
export const laneCount = (segments: readonly Segment[]): number =>
  segments.reduce((most, s) => Math.max(most, s.lane + 1), 0);

/** "Mon 7 Dec 09:00", or "Mon 7 Dec" when untimed. */
const at = (date: string, time: string | null): string => `${weekdayDayMonth(date)}${time ? ` ${time}` : ""}`;

/** The bar's whole span in words: "Mon 7 Dec 09:00 – Wed 9 Dec 17:00". */
export function spanWords(o: PageOccurrence): string {
  const end =
    o.start_time !== null && o.end_time !== null ? at(o.end_date ?? o.date, o.end_time) : at(lastDay(o), null);
  return `${at(o.date, o.start_time)} – ${end}`;
}

/**
 * A bar segment's content: a "continued" mark at a row's start, the start time on the first
 * day, the name (linked to the occurrence's page, unless `linked` is false), the end time on
 * the last day, and a "continues" mark at a row's end. The whole span is in words for screen
 * readers and the title.
 */
export function segmentHtml(model: Pick<PageModel, "links" | "reader">, s: Segment, linked = true): SafeHtml {
  const { o } = s;
  const words = spanWords(o);
  const before = s.continued ? html`<span class="goes-on" aria-hidden="true">←</span>` : "";
  const after = s.continues ? html`<span class="goes-on" aria-hidden="true">→</span>` : "";
  const start = !s.continued && o.start_time ? html`<span class="when">${o.start_time}</span>` : "";
  const end = !s.continues && o.end_time ? html`<span class="when until">until ${o.end_time}</span>` : "";
  const label = linked ? eventLabel(o.event, occurrenceHref(model, o.event.id, o.date)) : eventLabel(o.event);
  return html`${before}${start}${label}\
<span class="visually-hidden">, ${words}</span>${end}${after}`;
}

/** The classes of a bar segment: the event's, its width in days, and which ends go on. */
export function segmentClasses(s: Segment): string {
  const joins = `${s.continued ? " continued" : ""}${s.continues ? " continues" : ""}`;
  return `${eventClasses(s.o.event)} span span-${s.to - s.from + 1}${joins}`;
}

/** A bar's title: its name and whole span. */
export const segmentTitle = (s: Segment): string => `${s.o.event.name} · ${spanWords(s.o)}`;
