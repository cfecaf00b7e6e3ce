/**
 * VTIMEZONE components (RFC 5545 section 3.6.5) built from the IANA data that luxon reads
 * through Intl, so no time zone database has to be shipped.
 *
 * For a window of years, and some years beyond it, every UTC offset change of the zone is
 * found. Changes that repeat every year up to the end of that scan on one rule (same month
 * and local time; a fixed day, the n-th or last weekday, or a weekday on or after a day)
 * become one open-ended observance with a yearly RRULE: the zone's current rule, which
 * then also covers later years. All other changes are listed with RDATE. One more
 * observance states the offset in force at the window's start.
 */
import { IANAZone } from "luxon";

export interface Transition {
  /** First instant (ms since epoch) of the new offset. */
  at: number;
  /** Offsets in minutes east of UTC (fractional before 1972 in a few zones). */
  from: number;
  to: number;
  daylight: boolean;
}

const MINUTE = 60_000;
const SCAN_STEP = 7 * 24 * 3600 * 1000;
/** tz data before 1970 is sparse and uses odd offsets; feeds start their zones no earlier. */
export const EARLIEST_YEAR = 1970;
/** Years scanned past the window, so that the current rule shows in enough samples. */
const RULE_HORIZON_YEARS = 12;
/** Years a repeating change must reach, to be trusted as the zone's ongoing rule. */
const MIN_RULE_YEARS = 3;
const WEEKDAYS = ["", "MO", "TU", "WE", "TH", "FR", "SA", "SU"];

const cache = new Map<string, string>();
const CACHE_LIMIT = 500;

/**
 * The VTIMEZONE component of `zone` (an IANA name) valid for date-times from `fromYear`
 * through `toYear` and, where the zone follows a yearly rule, beyond. Lines end in CRLF
 * and are not folded (the calendar writer folds). Throws RangeError for an unknown zone.
 */
export function buildVTimezone(zone: string, fromYear: number, toYear: number): string {
  const from = Math.max(EARLIEST_YEAR, Math.trunc(fromYear));
  const to = Math.max(from, Math.trunc(toYear)) + RULE_HORIZON_YEARS;
  const key = `${zone}|${from}|${to}`;
  let text = cache.get(key);
  if (text === undefined) {
    text = render(zone, from, to);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, text);
  }
  return text;
}

function render(zone: string, fromYear: number, toYear: number): string {
  const tz = ianaZone(zone);
  const start = Date.UTC(fromYear, 0, 1) - tz.offset(Date.UTC(fromYear, 0, 1)) * MINUTE;
  const end = Date.UTC(toYear + 1, 0, 1);
  const initial = tz.offset(start);
  const lines = ["BEGIN:VTIMEZONE", `TZID:${zone}`];
  lines.push(...observance(isDaylight(tz, start, initial), initial, initial, localStamp(start, initial), []));
  for (const group of groupByRule(findTransitions(tz, start, end))) {
    const { recurring, single } = splitRecurring(group, toYear);
    if (recurring) {
      const first = recurring.onsets[0];
      lines.push(
        ...observance(first.daylight, first.from, first.to, localStamp(first.at, first.from), [recurring.rrule]),
      );
    }
    if (single.length > 0) {
      const [first, ...rest] = single;
      const rdates = rest.map((t) => `RDATE:${localStamp(t.at, t.from)}`);
      lines.push(...observance(first.daylight, first.from, first.to, localStamp(first.at, first.from), rdates));
    }
  }
  lines.push("END:VTIMEZONE");
  return lines.join("\r\n");
}

function ianaZone(zone: string): IANAZone {
  if (!IANAZone.isValidZone(zone)) throw new RangeError(`invalid time zone: ${JSON.stringify(zone)}`);
  return IANAZone.create(zone);
}

/** Every offset change in [start, end): weekly probes, then bisection to the second. */
export function findTransitions(tz: IANAZone, start: number, end: number): Transition[] {
  const out: Transition[] = [];
  let at = start;
  let offset = tz.offset(at);
  while (at < end) {
    const probe = Math.min(at + SCAN_STEP, end);
    if (tz.offset(probe) === offset) {
      at = probe;
      continue;
    }
    // The first second whose offset differs from `offset` (two changes within one probe
    // step are found one after the other, since the scan restarts from the first).
    let lo = Math.floor(at / 1000);
    let hi = Math.ceil(probe / 1000);
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (tz.offset(mid * 1000) === offset) lo = mid;
      else hi = mid;
    }
    const changedAt = hi * 1000;
    const to = tz.offset(changedAt);
    out.push({ at: changedAt, from: offset, to, daylight: isDaylight(tz, changedAt, to) });
    at = changedAt;
    offset = to;
  }
  return out;
}

/** Daylight time: an offset above the lower of the year's January and July offsets (luxon's rule). */
function isDaylight(tz: IANAZone, at: number, offset: number): boolean {
  const year = new Date(at).getUTCFullYear();
  return offset > Math.min(tz.offset(Date.UTC(year, 0, 1)), tz.offset(Date.UTC(year, 6, 1)));
}

interface Onset extends Transition {
  year: number;
  month: number;
  day: number;
  /** ISO weekday, Monday = 1. */
  weekday: number;
  daysInMonth: number;
  time: string;
}

/** Changes grouped by what a yearly rule would share: kind, offsets, month and local time. */
function groupByRule(transitions: Transition[]): Onset[][] {
  const groups = new Map<string, Onset[]>();
  for (const t of transitions) {
    const local = new Date(t.at + t.from * MINUTE);
    const year = local.getUTCFullYear();
    const month = local.getUTCMonth() + 1;
    const onset: Onset = {
      ...t,
      year,
      month,
      day: local.getUTCDate(),
      weekday: local.getUTCDay() === 0 ? 7 : local.getUTCDay(),
      daysInMonth: new Date(Date.UTC(year, month, 0)).getUTCDate(),
      time: local.toISOString().slice(11, 19),
    };
    const key = [t.daylight, t.from, t.to, month, onset.time].join("|");
    groups.set(key, [...(groups.get(key) ?? []), onset]);
  }
  return [...groups.values()];
}

/**
 * The tail of a group that recurs every year through `lastYear` on one weekday rule (an
 * RRULE then describes it, also beyond the window), and the onsets that are listed one by one.
 */
function splitRecurring(
  group: Onset[],
  lastYear: number,
): { recurring: { onsets: Onset[]; rrule: string } | null; single: Onset[] } {
  let cut = group.length;
  while (cut > 0 && group[cut - 1].year === lastYear - (group.length - cut)) cut--;
  // Shrink the yearly tail from its start until one weekday rule fits all of it.
  for (let from = cut; group.length - from >= MIN_RULE_YEARS; from++) {
    const tail = group.slice(from);
    const day = dayRule(tail);
    if (day) {
      const rrule = `RRULE:FREQ=YEARLY;BYMONTH=${tail[0].month};${day}`;
      return { recurring: { onsets: tail, rrule }, single: group.slice(0, from) };
    }
  }
  return { recurring: null, single: group };
}

/**
 * The day part of a yearly rule that every onset fits: a fixed day of the month
 * ("BYMONTHDAY=22"), the n-th weekday ("BYDAY=2SU"), the last one ("BYDAY=-1SU"), or the
 * weekday on or after a day (Chile's "Sunday on or after the 2nd": "BYDAY=SU;BYMONTHDAY=2,…,8",
 * only once the samples span all seven days, so the first one is known); else null.
 */
function dayRule(onsets: Onset[]): string | null {
  const [first] = onsets;
  if (onsets.every((o) => o.day === first.day)) return `BYMONTHDAY=${first.day}`;
  if (onsets.some((o) => o.weekday !== first.weekday)) return null;
  const weekday = WEEKDAYS[first.weekday];
  const nth = Math.ceil(first.day / 7);
  if (onsets.every((o) => Math.ceil(o.day / 7) === nth)) return `BYDAY=${nth}${weekday}`;
  if (onsets.every((o) => o.day + 7 > o.daysInMonth)) return `BYDAY=-1${weekday}`;
  const days = onsets.map((o) => o.day);
  const lo = Math.min(...days);
  if (Math.max(...days) - lo === 6) {
    return `BYDAY=${weekday};BYMONTHDAY=${Array.from({ length: 7 }, (_, i) => lo + i).join(",")}`;
  }
  return null;
}

function observance(daylight: boolean, from: number, to: number, dtstart: string, extra: string[]): string[] {
  const kind = daylight ? "DAYLIGHT" : "STANDARD";
  return [
    `BEGIN:${kind}`,
    `DTSTART:${dtstart}`,
    ...extra,
    `TZOFFSETFROM:${formatOffset(from)}`,
    `TZOFFSETTO:${formatOffset(to)}`,
    `END:${kind}`,
  ];
}

/** The local date-time (before the change, as RFC 5545 asks) of instant `at` at `offset`. */
function localStamp(at: number, offset: number): string {
  return new Date(at + Math.round(offset * 60) * 1000).toISOString().slice(0, 19).replace(/[-:]/g, "");
}

/** "+0130", "-0500", or "-004430" when an offset has seconds. */
export function formatOffset(minutes: number): string {
  const total = Math.round(Math.abs(minutes) * 60);
  const pad = (n: number) => String(n).padStart(2, "0");
  const hhmm = pad(Math.floor(total / 3600)) + pad(Math.floor((total % 3600) / 60));
  return (minutes < 0 ? "-" : "+") + hhmm + (total % 60 ? pad(total % 60) : "");
}
