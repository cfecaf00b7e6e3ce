/**
 * Interval arithmetic of free/busy (docs/api.md#freebusy), on half-open spans of UTC
 * milliseconds. Pure: no zone, no store. Every function answers intervals sorted by start,
 * disjoint and not touching (a merged set), whatever order it was given.
 */

/** The instants [start, end): `end` itself is not in it. */
export interface Interval {
  start: number;
  end: number;
}

/**
 * The union of the intervals as a sorted list of disjoint, non-touching spans: overlapping
 * and touching ones (10:00-11:00 and 11:00-12:00) become one. Empty ones (end <= start) hold
 * no instant and are dropped.
 */
export function mergeIntervals(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals.filter((i) => i.end > i.start).sort((a, b) => a.start - b.start || a.end - b.end);
  const merged: Interval[] = [];
  for (const { start, end } of sorted) {
    const last = merged[merged.length - 1];
    if (last && start <= last.end) {
      if (end > last.end) last.end = end;
    } else {
      merged.push({ start, end });
    }
  }
  return merged;
}

/** The parts of the intervals inside `range`. */
export function clipIntervals(intervals: readonly Interval[], range: Interval): Interval[] {
  const clipped: Interval[] = [];
  for (const i of intervals) {
    const start = Math.max(i.start, range.start);
    const end = Math.min(i.end, range.end);
    if (end > start) clipped.push({ start, end });
  }
  return mergeIntervals(clipped);
}

/** The instants of `from` that are in none of `minus`. */
export function subtractIntervals(from: readonly Interval[], minus: readonly Interval[]): Interval[] {
  const base = mergeIntervals(from);
  const holes = mergeIntervals(minus);
  const out: Interval[] = [];
  let h = 0;
  for (const { start, end } of base) {
    let cursor = start;
    // Holes ending at or before this span cannot touch it or any later one.
    while (h < holes.length && holes[h].end <= cursor) h++;
    for (let k = h; k < holes.length && holes[k].start < end; k++) {
      if (holes[k].start > cursor) out.push({ start: cursor, end: holes[k].start });
      cursor = Math.max(cursor, holes[k].end);
      if (cursor >= end) break;
    }
    if (cursor < end) out.push({ start: cursor, end });
  }
  return out;
}

/** The first `limit` intervals at least `minMs` long, earliest first. */
export function longEnough(intervals: readonly Interval[], minMs: number, limit: number): Interval[] {
  const out: Interval[] = [];
  for (const i of mergeIntervals(intervals)) {
    if (out.length >= limit) break;
    if (i.end - i.start >= minMs) out.push(i);
  }
  return out;
}

/** The free slots: the instants of `windows` in no busy interval, in stretches of at least `minMs`, earliest first. */
export const freeSlots = (windows: readonly Interval[], busy: readonly Interval[], minMs: number, limit: number) =>
  longEnough(subtractIntervals(windows, busy), minMs, limit);
