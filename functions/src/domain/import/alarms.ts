/**
 * A VEVENT's VALARMs as Almanac alarms: minutes before the start (events/alarms.ts). A
 * relative TRIGGER before or at the start is read; RELATED=END counts from the end, so the
 * event's length is added. What cannot be an Almanac alarm is left out with a sentence saying
 * why: an absolute trigger, one after the start, more or earlier ones than Almanac keeps.
 */
import ICAL from "ical.js";
import { MAX_ALARM_MINUTES, MAX_ALARMS } from "../events/alarms.js";

export interface ReadAlarms {
  /** Largest first, each once, as events/alarms.ts stores them. */
  alarms: number[];
  /** One sentence per alarm left out. */
  left: string[];
}

/** `lengthMinutes`: from start to end, null for a timed event without an end. */
export function readAlarms(vevent: ICAL.Component, lengthMinutes: number | null): ReadAlarms {
  const minutes = new Set<number>();
  const left: string[] = [];
  for (const valarm of vevent.getAllSubcomponents("valarm")) {
    // Apple writes ACTION:NONE alarms as placeholders: they remind of nothing.
    if (String(valarm.getFirstPropertyValue("action") ?? "").toUpperCase() === "NONE") continue;
    const trigger = valarm.getFirstProperty("trigger");
    let value: ICAL.Duration | ICAL.Time | string | undefined;
    try {
      value = trigger?.getFirstValue() as ICAL.Duration | ICAL.Time | string | undefined;
    } catch {
      left.push(`a VALARM whose TRIGGER cannot be read (${String(trigger?.type).toUpperCase()}) was left out`);
      continue;
    }
    if (!trigger || !value) {
      left.push("a VALARM without TRIGGER was left out");
      continue;
    }
    if (trigger.type !== "duration" && trigger.type !== "date-time") {
      left.push(
        `a VALARM whose TRIGGER is a ${trigger.type.toUpperCase()} was left out: ` +
          "a TRIGGER is a duration before the start or a date-time",
      );
      continue;
    }
    if (!(value instanceof ICAL.Duration) || trigger.type !== "duration") {
      left.push(
        `a VALARM at a fixed time (${String(value)}) was left out: Almanac alarms are minutes before the start`,
      );
      continue;
    }
    const fromEnd = String(trigger.getParameter("related") ?? "").toUpperCase() === "END";
    if (fromEnd && lengthMinutes === null) {
      left.push("a VALARM related to the end of an event without an end was left out");
      continue;
    }
    const offset = value.toSeconds() / 60 + (fromEnd ? lengthMinutes! : 0);
    const before = Math.ceil(-offset);
    if (before < 0) {
      left.push(`a VALARM ${Math.round(offset)} minutes after the start was left out: Almanac alarms come before it`);
    } else if (before > MAX_ALARM_MINUTES) {
      left.push(
        `a VALARM ${before} minutes before the start was left out: Almanac alarms are at most ${MAX_ALARM_MINUTES} (four weeks)`,
      );
    } else {
      minutes.add(before);
    }
  }
  const sorted = [...minutes].sort((a, b) => b - a);
  // The nearest ones matter most: keep those.
  const kept = sorted.slice(-MAX_ALARMS);
  for (const m of sorted.slice(0, sorted.length - kept.length)) {
    left.push(
      `a VALARM ${m} minutes before the start was left out: Almanac keeps at most ${MAX_ALARMS} alarms an event`,
    );
  }
  return { alarms: kept, left };
}
