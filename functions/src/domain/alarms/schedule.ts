/**
 * When an event's alarms fall (docs/api.md#alarms), as pure functions of the event, its
 * exceptions and its calendar: every alarm in a window (what a tick records) and the first one
 * after an instant (what the queue stores). Occurrences are resolved as `/occurrences` resolves
 * them: an exception replaces its original date, a cancelled one occurs nowhere, a moved one
 * alarms from where it went, with its own list or else the event's.
 */
import { addDays, LAST_DATE } from "../recurrence/index.js";
import { alarmInstants, effectiveAlarms, MAX_ALARM_MINUTES } from "../events/alarms.js";
import { instantFormatter, MINUTE_MS } from "../events/instants.js";
import { daysOf, daysWithin, endAfterStart, lastDayOf } from "../events/span.js";
import { firstPlannedDate, plannedDates } from "../events/planned.js";
import type { AlarmFired, CalendarRecord, EventRecord, ExceptionRecord } from "../records.js";

/** What an event's alarms depend on. */
export interface AlarmSource {
  calendar: CalendarRecord;
  event: EventRecord;
  exceptions: readonly ExceptionRecord[];
}

/** One alarm of one occurrence: what its change records, and when it falls (epoch ms). */
export interface Alarm extends AlarmFired {
  original_date: string;
  at: number;
}

const DAY_MS = 86_400_000;
/** A local date is at most this far from the UTC date of the same instant (zones span -12..+14 h). */
const ZONE_SLACK_DAYS = 1;
/** A bound on the dates one search walks, should a record be odd: far above any real need (29). */
const MAX_STEPS = 2_000;

const utcDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

interface Occurrence {
  original_date: string;
  date: string;
  start_time: string | null;
  end_time: string | null;
  days: number;
  name: string;
  alarms: number[];
}

const own = (event: EventRecord, date: string): Occurrence => ({
  original_date: date,
  date,
  start_time: event.start_time,
  end_time: event.end_time,
  days: daysOf(event),
  name: event.name,
  alarms: effectiveAlarms(event),
});

const moved = (event: EventRecord, e: ExceptionRecord): Occurrence => ({
  original_date: e.original_date,
  date: e.date,
  start_time: e.start_time,
  end_time: e.end_time,
  days: daysOf(e),
  name: e.name,
  alarms: effectiveAlarms(event, e),
});

/** The occurrence's alarms, each with the occurrence's fields as the change shows them. */
function alarmsOf(eventId: string, occurrence: Occurrence, timezone: string): Alarm[] {
  if (occurrence.alarms.length === 0) return [];
  const { date, start_time: startTime, end_time: endTime } = occurrence;
  let start: string | null = null;
  let end: string | null = null;
  let instants: number[];
  if (startTime === null) {
    instants = alarmInstants({ date, timezone }, occurrence.alarms);
  } else {
    // The end: whole days on the wall clock from the start, then elapsed minutes (events/span.ts).
    const after = endTime === null ? null : endAfterStart(occurrence.days, startTime, endTime);
    const format = instantFormatter(timezone, date, lastDayOf(date, (after?.days ?? 0) + 1));
    start = format(0, startTime);
    const startMs = Date.parse(start);
    if (after !== null) {
      const endFrom = after.days === 0 ? startMs : Date.parse(format(daysWithin(date, after.days), startTime));
      end = format.at(endFrom + after.minutes * MINUTE_MS);
    }
    instants = alarmInstants({ instant: startMs }, occurrence.alarms);
  }
  return occurrence.alarms.map((minutes, i) => ({
    event_id: eventId,
    original_date: occurrence.original_date,
    date,
    start,
    end,
    minutes_before: minutes,
    name: occurrence.name,
    due_at: new Date(instants[i]).toISOString(),
    at: instants[i],
  }));
}

/** The exceptions by original date, and whether any occurrence can alarm at all. */
function indexed(source: AlarmSource): { byDate: Map<string, ExceptionRecord>; any: boolean } {
  const byDate = new Map<string, ExceptionRecord>();
  for (const e of source.exceptions) if (e.event_id === source.event.id) byDate.set(e.original_date, e);
  const any =
    effectiveAlarms(source.event).length > 0 ||
    [...byDate.values()].some((e) => !e.cancelled && effectiveAlarms(source.event, e).length > 0);
  return { byDate, any };
}

/** Earliest first; of one instant, the occurrence first, then the larger offset. */
const byInstant = (a: Alarm, b: Alarm): number =>
  a.at - b.at || (a.original_date < b.original_date ? -1 : a.original_date > b.original_date ? 1 : 0);

/**
 * Every alarm falling in (afterMs, toMs], earliest first. An alarm falls at most four weeks
 * before its start, so the occurrences read are those starting up to then after `toMs`.
 */
export function alarmsBetween(source: AlarmSource, afterMs: number, toMs: number): Alarm[] {
  const { byDate, any } = indexed(source);
  if (!any || toMs <= afterMs || source.event.kind === "someday") return [];
  const { event, calendar } = source;
  const from = addDays(utcDate(afterMs), -ZONE_SLACK_DAYS);
  const to = addDays(utcDate(toMs + MAX_ALARM_MINUTES * MINUTE_MS), ZONE_SLACK_DAYS);
  const occurrences: Occurrence[] = [];
  if (effectiveAlarms(event).length > 0) {
    for (const date of plannedDates(event, calendar, from, to))
      if (!byDate.has(date)) occurrences.push(own(event, date));
  }
  for (const e of byDate.values()) if (!e.cancelled && event.kind === "recurring") occurrences.push(moved(event, e));
  const alarms = occurrences
    .flatMap((o) => alarmsOf(event.id, o, calendar.timezone))
    .filter((a) => a.at > afterMs && a.at <= toMs);
  return alarms.sort(byInstant);
}

/** The first instant after `afterMs` at which one of the event's alarms falls; null when none ever will. */
export function nextAlarmAfter(source: AlarmSource, afterMs: number): number | null {
  const { byDate, any } = indexed(source);
  if (!any || source.event.kind === "someday") return null;
  const { event, calendar } = source;
  let best = Infinity;
  const consider = (o: Occurrence) => {
    for (const a of alarmsOf(event.id, o, calendar.timezone)) if (a.at > afterMs && a.at < best) best = a.at;
  };
  if (event.kind === "recurring") for (const e of byDate.values()) if (!e.cancelled) consider(moved(event, e));
  const ownAlarms = effectiveAlarms(event);
  if (ownAlarms.length > 0) {
    // Planned dates in order: once a date starts later than the best found plus its largest
    // offset (with a day for the zone), no later date can alarm earlier.
    const reach = Math.max(...ownAlarms) * MINUTE_MS + (ZONE_SLACK_DAYS + 1) * DAY_MS;
    let date = firstPlannedDate(event, calendar, addDays(utcDate(afterMs), -ZONE_SLACK_DAYS), LAST_DATE);
    for (let steps = 0; date !== null && steps < MAX_STEPS; steps++) {
      if (Date.parse(`${date}T00:00:00Z`) - reach > best) break;
      if (!byDate.has(date)) consider(own(event, date));
      date = date === LAST_DATE ? null : firstPlannedDate(event, calendar, addDays(date, 1), LAST_DATE);
    }
  }
  return best === Infinity ? null : best;
}
